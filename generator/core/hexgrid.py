"""Hex grids in axial coordinates ``(q, r)``: neighbours, distances, rings, lines of sight,
the 12 symmetries, pixel positions for flat-top and pointy-top drawing, and polyhexes.

Axial coordinates are cube coordinates ``(q, r, s)`` with ``s = -q - r`` left implicit. The
same coordinates draw either way up: ``orientation="pointy"`` puts a corner at the top (rows of
constant ``r`` run horizontally), ``"flat"`` an edge (columns of constant ``q`` run vertically).
Pixel ``y`` grows downwards, as on a page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar

from . import lattice
from .polyomino import Symmetry

T = TypeVar("T")
Orientation = Literal["pointy", "flat"]

_HEX_RE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


@dataclass(frozen=True, order=True)
class Hex:
    """A hex cell in axial coordinates; ``str`` is ``"q,r"``, which :meth:`parse` reads."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    @classmethod
    def parse(cls, text: str) -> Hex:
        """Read ``"q,r"``."""
        m = _HEX_RE.match(text)
        if not m:
            raise ValueError(f"not a hex {text!r}: expected 'q,r' such as '1,-2'")
        return cls(int(m.group(1)), int(m.group(2)))

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __mul__(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    def neighbour(self, direction: int) -> Hex:
        """The neighbour in ``DIRECTIONS[direction % 6]``."""
        return self + DIRECTIONS[direction % 6]

    def neighbours(self) -> tuple[Hex, ...]:
        """The 6 neighbours, in ``DIRECTIONS`` order."""
        return tuple(self + d for d in DIRECTIONS)

    def distance(self, other: Hex) -> int:
        """Steps between two hexes."""
        d = self - other
        return max(abs(d.q), abs(d.r), abs(d.s))

    def rotate(self, k: int = 1) -> Hex:
        """Rotate by ``k`` x 60 degrees about the origin (``DIRECTIONS[i]`` -> ``[i + k]``)."""
        return hex_transform(self, k % 6)

    def reflect(self) -> Hex:
        """Mirror across the q axis (swaps r and s): symmetry 6 of ``HEX_SYMMETRIES``."""
        return hex_transform(self, 6)

    def __str__(self) -> str:
        return f"{self.q},{self.r}"

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"


DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)
"""The 6 neighbour steps; drawn pointy-top: east, north-east, north-west, west, south-west,
south-east (anticlockwise on the page)."""


def _mul(m: lattice.Matrix, n: lattice.Matrix) -> lattice.Matrix:
    a, b, c, d = m
    e, f, g, h = n
    return (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h)


_ROT: lattice.Matrix = (1, 1, -1, 0)  # (q, r) -> (q + r, -q): DIRECTIONS[i] -> DIRECTIONS[i+1]
_FLIP: lattice.Matrix = (1, 0, -1, -1)  # (q, r) -> (q, -q - r): swaps r and s


def _rotations() -> list[lattice.Matrix]:
    out = [(1, 0, 0, 1)]
    for _ in range(5):
        out.append(_mul(_ROT, out[-1]))
    return out


HEX_SYMMETRIES: tuple[lattice.Matrix, ...] = tuple(_rotations()) + tuple(
    _mul(m, _FLIP) for m in _rotations()
)
"""The 12 symmetries of the hex grid as axial matrices: 0-5 rotations by k x 60 degrees,
6-11 reflections (rotation k after the mirror)."""

_STEPS: tuple[lattice.Point, ...] = tuple((d.q, d.r) for d in DIRECTIONS)


def hex_transform(h: Hex, k: int) -> Hex:
    """The image of ``h`` under ``HEX_SYMMETRIES[k]`` (about the origin)."""
    q, r = lattice.apply(HEX_SYMMETRIES[k], (h.q, h.r))
    return Hex(q, r)


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` steps, walking anticlockwise from the south-west."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    out = []
    h = center + DIRECTIONS[4] * radius
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = h + DIRECTIONS[side]
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """The centre, then each ring out to ``radius`` (3r(r+1)+1 hexes)."""
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(ring(center, k))
    return out


def _cube_round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a straight segment from ``a`` to ``b`` passes through (both included).

    Ties on a shared edge are broken by a tiny nudge, so the result is deterministic.
    """
    n = a.distance(b)
    if n == 0:
        return [a]
    eps = 1e-6
    aq, ar = a.q + eps, a.r + eps
    bq, br = b.q + eps, b.r + eps
    return [_cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def ray(start: Hex, direction: int, length: int) -> list[Hex]:
    """The ``length`` hexes seen from ``start`` straight along ``DIRECTIONS[direction]``
    (``start`` itself excluded): a line of sight."""
    d = DIRECTIONS[direction % 6]
    return [start + d * i for i in range(1, length + 1)]


_SQRT3 = math.sqrt(3.0)


def to_pixel(h: Hex, size: float, orientation: Orientation = "pointy") -> tuple[float, float]:
    """Centre of ``h`` for hexes of circumradius ``size`` (centre to corner), y down."""
    if orientation == "pointy":
        return (size * _SQRT3 * (h.q + h.r / 2.0), size * 1.5 * h.r)
    if orientation == "flat":
        return (size * 1.5 * h.q, size * _SQRT3 * (h.r + h.q / 2.0))
    raise ValueError(f"orientation must be 'pointy' or 'flat', got {orientation!r}")


def corners(h: Hex, size: float, orientation: Orientation = "pointy") -> list[tuple[float, float]]:
    """The 6 corners of ``h`` (clockwise on the page), for drawing."""
    cx, cy = to_pixel(h, size, orientation)
    start = -90.0 if orientation == "pointy" else 0.0
    out = []
    for i in range(6):
        ang = math.radians(start + 60.0 * i)
        out.append((cx + size * math.cos(ang), cy + size * math.sin(ang)))
    return out


def hex_components(hexes: Iterable[Hex]) -> list[frozenset[Hex]]:
    """Connected groups of ``hexes``, ordered by each group's smallest hex."""
    todo = set(hexes)
    out = []
    for start in sorted(todo):
        if start not in todo:
            continue
        todo.discard(start)
        comp = [start]
        stack = [start]
        while stack:
            for nb in stack.pop().neighbours():
                if nb in todo:
                    todo.discard(nb)
                    comp.append(nb)
                    stack.append(nb)
        out.append(frozenset(comp))
    return out


def _group(symmetry: Symmetry) -> tuple[lattice.Matrix, ...]:
    if symmetry is Symmetry.FIXED:
        return HEX_SYMMETRIES[:1]
    if symmetry is Symmetry.ONE_SIDED:
        return HEX_SYMMETRIES[:6]
    return HEX_SYMMETRIES


def _pts(hexes: Iterable[Hex]) -> list[lattice.Point]:
    return [(h.q, h.r) for h in hexes]


def _hexes(shape: Iterable[lattice.Point]) -> frozenset[Hex]:
    return frozenset(Hex(q, r) for q, r in shape)


@dataclass(frozen=True)
class Polyhex:
    """A connected set of hexes, normalised so its minimum q and minimum r are 0.

    Text form ``"0,0;1,0;0,1"`` (sorted ``q,r`` pairs) round-trips through :meth:`from_text`;
    :meth:`art` draws it pointy-top in characters.
    """

    hexes: frozenset[Hex]

    def __post_init__(self) -> None:
        if not self.hexes:
            raise ValueError("a polyhex has at least one hex")
        norm = _hexes(lattice.normalise(_pts(self.hexes)))
        if norm != self.hexes:
            object.__setattr__(self, "hexes", norm)
        if len(hex_components(norm)) != 1:
            raise ValueError(f"a polyhex must be connected, got {self}")

    @classmethod
    def _trusted(cls, shape: lattice.Shape) -> Polyhex:
        p = object.__new__(cls)
        object.__setattr__(p, "hexes", _hexes(shape))
        return p

    @classmethod
    def of(cls, hexes: Iterable[Hex]) -> Polyhex:
        return cls(frozenset(hexes))

    @classmethod
    def from_text(cls, text: str) -> Polyhex:
        """Read ``"q,r;q,r;..."``."""
        parts = [p for p in text.replace("\n", ";").split(";") if p.strip()]
        return cls(frozenset(Hex.parse(p) for p in parts))

    @property
    def size(self) -> int:
        return len(self.hexes)

    def key(self) -> lattice.Shape:
        return tuple(sorted(_pts(self.hexes)))

    def transform(self, k: int) -> Polyhex:
        """The image under ``HEX_SYMMETRIES[k]``, normalised."""
        return Polyhex._trusted(lattice.image(HEX_SYMMETRIES[k], _pts(self.hexes)))

    def transforms(self) -> tuple[Polyhex, ...]:
        """The 12 images, index for index with ``HEX_SYMMETRIES``."""
        return tuple(Polyhex._trusted(s) for s in lattice.images(HEX_SYMMETRIES, _pts(self.hexes)))

    def orientations(self, symmetry: Symmetry = Symmetry.FREE) -> tuple[Polyhex, ...]:
        """Distinct images under the symmetry group (1, up to 6, up to 12)."""
        mats = _group(symmetry)
        pts = _pts(self.hexes)
        imgs = lattice.images(mats, pts)
        return tuple(Polyhex._trusted(imgs[i]) for i in lattice.distinct_indices(mats, pts))

    def canonical(self, symmetry: Symmetry = Symmetry.FREE) -> Polyhex:
        """The class representative (equal for two shapes iff they are the same piece)."""
        return Polyhex._trusted(lattice.canonical(_group(symmetry), _pts(self.hexes)))

    def placements(
        self, region: Collection[Hex], symmetry: Symmetry = Symmetry.FREE
    ) -> list[frozenset[Hex]]:
        """Every distinct set of region hexes this shape can cover."""
        reg = region if isinstance(region, (set, frozenset)) else frozenset(region)
        out = []
        for o in self.orientations(symmetry):
            first, *rest = sorted(o.hexes)
            for anchor in sorted(reg):
                moved = [anchor + (h - first) for h in rest]
                if all(m in reg for m in moved):
                    out.append(frozenset([anchor, *moved]))
        return out

    def art(self) -> str:
        """A pointy-top picture: one ``o`` per hex, rows of constant r, half-offset."""
        xs = {h: 2 * h.q + h.r for h in self.hexes}
        x0 = min(xs.values())
        rows = []
        for r in range(max(h.r for h in self.hexes) + 1):
            line_ = [" "] * (max(xs.values()) - x0 + 1)
            for h in self.hexes:
                if h.r == r:
                    line_[xs[h] - x0] = "o"
            rows.append("".join(line_).rstrip())
        return "\n".join(rows)

    def __str__(self) -> str:
        return ";".join(str(Hex(q, r)) for q, r in self.key())

    def __repr__(self) -> str:
        return f"Polyhex.from_text({str(self)!r})"


def transform_labelled_hex(cells: Mapping[Hex, T], k: int) -> dict[Hex, T]:
    """A labelled polyhex turned by ``HEX_SYMMETRIES[k]``, normalised; labels travel along."""
    moved = [(hex_transform(h, k), v) for h, v in cells.items()]
    mq = min(h.q for h, _ in moved)
    mr = min(h.r for h, _ in moved)
    return dict(sorted(((Hex(h.q - mq, h.r - mr), v) for h, v in moved), key=lambda kv: kv[0]))


def labelled_orientations_hex(
    cells: Mapping[Hex, T], reflections: bool = True
) -> list[dict[Hex, T]]:
    """Distinct images of a labelled polyhex, de-duplicated on shape and labels together."""
    seen = set()
    out = []
    for k in range(12 if reflections else 6):
        img = transform_labelled_hex(cells, k)
        key = tuple((h, repr(v)) for h, v in img.items())
        if key not in seen:
            seen.add(key)
            out.append(img)
    return out


def enumerate_polyhexes(n: int, symmetry: Symmetry = Symmetry.FREE) -> list[Polyhex]:
    """Every polyhex of ``n`` hexes, one per class of ``symmetry``, sorted by key.

    Free counts: 1, 1, 3, 7, 22, 82, 333, 1448 for n = 1..8.
    """
    free = lattice.enumerate_free(n, _STEPS, HEX_SYMMETRIES)
    if symmetry is Symmetry.FREE:
        shapes = free
    else:
        shapes = lattice.classes_of(
            free, HEX_SYMMETRIES, 6, one_sided=symmetry is Symmetry.ONE_SIDED
        )
    return [Polyhex._trusted(s) for s in shapes]


def count_polyhexes(n: int, symmetry: Symmetry = Symmetry.FREE) -> int:
    """How many polyhexes of ``n`` hexes there are under ``symmetry``."""
    free = lattice.enumerate_free(n, _STEPS, HEX_SYMMETRIES)
    if symmetry is Symmetry.FREE:
        return len(free)
    total = 0
    for s in free:
        imgs = lattice.images(HEX_SYMMETRIES, s)
        if symmetry is Symmetry.FIXED:
            total += len(set(imgs))
        else:
            total += 1 if imgs[6] in set(imgs[:6]) else 2
    return total
