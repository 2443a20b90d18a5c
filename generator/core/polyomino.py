"""Polyominoes: frozen shapes of grid cells, their symmetries, placements and enumeration.

The 8 symmetries of the square act on cells ``(row, col)``; index 0-3 are the rotations
(0, 90, 180, 270 degrees clockwise on the page), 4-7 the reflections. A ``FIXED`` shape
allows no symmetry (translation only), ``ONE_SIDED`` the rotations, ``FREE`` all 8.
Labels (a square's feature, colour or icon) travel with their cells through
:func:`transform_labelled`, and :func:`labelled_orientations` de-duplicates on shape and labels
together, so a symmetric piece with an asymmetric colouring keeps all its distinct faces.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from . import lattice
from .grid import Cell, is_connected, outline

T = TypeVar("T")


class Symmetry(StrEnum):
    """Which motions make two shapes the same: none, rotations, or rotations+reflections."""

    FIXED = "fixed"
    ONE_SIDED = "one-sided"
    FREE = "free"

    def __repr__(self) -> str:
        return f"Symmetry.{self.name}"


@dataclass(frozen=True)
class Transform:
    """One symmetry of the square as the integer matrix ``(a, b, c, d)``:
    ``(r, c) -> (a*r + b*c, c*r + d*c)``. Calling it maps a cell."""

    index: int
    name: str
    matrix: lattice.Matrix

    def __call__(self, cell: Cell) -> Cell:
        return lattice.apply(self.matrix, cell)

    def __repr__(self) -> str:
        return f"TRANSFORMS[{self.index}]"


TRANSFORMS: tuple[Transform, ...] = (
    Transform(0, "identity", (1, 0, 0, 1)),
    Transform(1, "rotate 90", (0, 1, -1, 0)),
    Transform(2, "rotate 180", (-1, 0, 0, -1)),
    Transform(3, "rotate 270", (0, -1, 1, 0)),
    Transform(4, "mirror left-right", (1, 0, 0, -1)),
    Transform(5, "mirror top-bottom", (-1, 0, 0, 1)),
    Transform(6, "transpose", (0, 1, 1, 0)),
    Transform(7, "anti-transpose", (0, -1, -1, 0)),
)
"""The 8 symmetries of the square; 0-3 rotations (clockwise on the page), 4-7 reflections."""

MATRICES: tuple[lattice.Matrix, ...] = tuple(t.matrix for t in TRANSFORMS)
STEPS: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _group(symmetry: Symmetry, reflections: bool = True) -> tuple[lattice.Matrix, ...]:
    if symmetry is Symmetry.FIXED:
        return MATRICES[:1]
    if symmetry is Symmetry.ONE_SIDED or not reflections:
        return MATRICES[:4]
    return MATRICES


def _parse_rows(text: str) -> frozenset[Cell]:
    rows = text.replace("/", "\n").strip("\n").split("\n")
    cells = set()
    for r, row in enumerate(rows):
        for c, ch in enumerate(row.rstrip()):
            if ch in "#XOxo@*":
                cells.add((r, c))
            elif ch not in ". _-":
                raise ValueError(
                    f"unexpected {ch!r} in row {r + 1} of a polyomino: use '#' for a cell "
                    "and '.' for a gap, rows separated by newlines or '/'"
                )
    return frozenset(cells)


@dataclass(frozen=True)
class Polyomino:
    """A connected set of grid cells, normalised so its minimum row and column are 0.

    ``str(p)`` is rows of ``#`` (cell) and ``.`` (gap) that :meth:`from_text` reads back;
    ``repr(p)`` pastes back as code. Comparison is by cells, so two translates are equal.
    """

    cells: frozenset[Cell]

    def __post_init__(self) -> None:
        if not self.cells:
            raise ValueError("a polyomino has at least one cell")
        norm = frozenset(lattice.normalise(self.cells))
        if norm != self.cells:
            object.__setattr__(self, "cells", norm)
        if len(norm) > 1 and not is_connected(norm):
            raise ValueError(f"a polyomino must be connected, got cells {sorted(norm)}")

    @classmethod
    def _trusted(cls, shape: lattice.Shape) -> Polyomino:
        # Skips validation: for shapes produced by the enumerator, already normal and connected.
        p = object.__new__(cls)
        object.__setattr__(p, "cells", frozenset(shape))
        return p

    @classmethod
    def of(cls, cells: Iterable[Cell]) -> Polyomino:
        """A polyomino from any iterable of cells (translated to the origin)."""
        return cls(frozenset(cells))

    @classmethod
    def from_text(cls, text: str) -> Polyomino:
        """Read rows of ``#``/``.`` separated by newlines or ``/`` (``"##./.##"``)."""
        return cls(_parse_rows(text))

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def height(self) -> int:
        return 1 + max(r for r, _ in self.cells)

    @property
    def width(self) -> int:
        return 1 + max(c for _, c in self.cells)

    def key(self) -> lattice.Shape:
        """Sorted cells: a total order used for canonical forms."""
        return tuple(sorted(self.cells))

    def transform(self, k: int) -> Polyomino:
        """The image under ``TRANSFORMS[k]``, normalised."""
        return Polyomino._trusted(lattice.image(MATRICES[k], self.cells))

    def transforms(self) -> tuple[Polyomino, ...]:
        """The 8 images, index for index with :data:`TRANSFORMS` (duplicates kept)."""
        return tuple(Polyomino._trusted(s) for s in lattice.images(MATRICES, self.cells))

    def orientations(self, symmetry: Symmetry = Symmetry.FREE) -> tuple[Polyomino, ...]:
        """The distinct images under the symmetry group (1 for FIXED, up to 4 / 8)."""
        mats = _group(symmetry)
        imgs = lattice.images(mats, self.cells)
        keep = lattice.distinct_indices(mats, self.cells)
        return tuple(Polyomino._trusted(imgs[i]) for i in keep)

    def canonical(self, symmetry: Symmetry = Symmetry.FREE) -> Polyomino:
        """The representative of this shape's class: its smallest image by :meth:`key`."""
        return Polyomino._trusted(lattice.canonical(_group(symmetry), self.cells))

    def symmetry_order(self) -> int:
        """How many of the 8 symmetries map the shape onto itself (1, 2, 4 or 8)."""
        return sum(1 for s in lattice.images(MATRICES, self.cells) if frozenset(s) == self.cells)

    def placements(
        self, region: Collection[Cell], symmetry: Symmetry = Symmetry.FREE
    ) -> list[frozenset[Cell]]:
        """Every distinct set of region cells this shape can cover (each orientation allowed
        by ``symmetry``, translated), in a deterministic order."""
        reg = region if isinstance(region, (set, frozenset)) else frozenset(region)
        out: list[frozenset[Cell]] = []
        for o in self.orientations(symmetry):
            out.extend(translations(o.key(), reg))
        return out

    def outline(self) -> list[list[Cell]]:
        """Closed corner loops of the shape (see :func:`generator.core.grid.outline`)."""
        return outline(self.cells)

    def __str__(self) -> str:
        h, w = self.height, self.width
        return "\n".join(
            "".join("#" if (r, c) in self.cells else "." for c in range(w)) for r in range(h)
        )

    def __repr__(self) -> str:
        return f"Polyomino.from_text({str(self)!r})"

    def __lt__(self, other: Polyomino) -> bool:
        return (self.size, self.key()) < (other.size, other.key())


def translations(shape: lattice.Shape, region: Collection[Cell]) -> list[frozenset[Cell]]:
    """All translates of ``shape`` (sorted cells) lying inside ``region``, anchored by the
    shape's first cell on each region cell in sorted order."""
    ar, ac = shape[0]
    rest = [(r - ar, c - ac) for r, c in shape[1:]]
    out = []
    for br, bc in sorted(region):
        cells = [(br + dr, bc + dc) for dr, dc in rest]
        if all(x in region for x in cells):
            cells.append((br, bc))
            out.append(frozenset(cells))
    return out


def transform_labelled(cells: Mapping[Cell, T], k: int) -> dict[Cell, T]:
    """The image of a labelled shape under ``TRANSFORMS[k]``, normalised to min row/col 0.

    Labels stay with their cells; the dict is ordered by cell.
    """
    mat = MATRICES[k]
    moved = [(lattice.apply(mat, cell), label) for cell, label in cells.items()]
    if not moved:
        return {}
    mr = min(r for (r, _), _ in moved)
    mc = min(c for (_, c), _ in moved)
    return dict(sorted((((r - mr, c - mc), lab) for (r, c), lab in moved), key=lambda kv: kv[0]))


def _label_key(d: Mapping[Cell, object]) -> tuple[tuple[Cell, str], ...]:
    # repr keeps labels of any (hashable) type comparable and deterministic.
    return tuple(sorted((cell, repr(lab)) for cell, lab in d.items()))


def distinct_transforms(cells: Mapping[Cell, object], reflections: bool = True) -> list[int]:
    """Indices into :data:`TRANSFORMS` that give pairwise different labelled images."""
    seen: set[tuple[tuple[Cell, str], ...]] = set()
    out = []
    for k in range(8 if reflections else 4):
        key = _label_key(_transform_any(cells, k))
        if key not in seen:
            seen.add(key)
            out.append(k)
    return out


def _transform_any(cells: Mapping[Cell, object], k: int) -> dict[Cell, object]:
    mat = MATRICES[k]
    moved = [(lattice.apply(mat, cell), label) for cell, label in cells.items()]
    mr = min(r for (r, _), _ in moved)
    mc = min(c for (_, c), _ in moved)
    return {(r - mr, c - mc): lab for (r, c), lab in moved}


def labelled_orientations(cells: Mapping[Cell, T], reflections: bool = True) -> list[dict[Cell, T]]:
    """The distinct images of a labelled shape, de-duplicated on shape and labels together."""
    return [transform_labelled(cells, k) for k in distinct_transforms(cells, reflections)]


def enumerate_polyominoes(n: int, symmetry: Symmetry = Symmetry.FREE) -> list[Polyomino]:
    """Every polyomino of ``n`` cells, one per class of ``symmetry``, sorted by :meth:`key`.

    Counts (free / one-sided / fixed): n=5 12/18/63, n=8 369/704/2725, n=12 63,600 free.
    """
    free = lattice.enumerate_free(n, STEPS, MATRICES)
    if symmetry is Symmetry.FREE:
        shapes = free
    else:
        shapes = lattice.classes_of(free, MATRICES, 4, one_sided=symmetry is Symmetry.ONE_SIDED)
    return [Polyomino._trusted(s) for s in shapes]


def count_polyominoes(n: int, symmetry: Symmetry = Symmetry.FREE) -> int:
    """How many polyominoes of ``n`` cells there are under ``symmetry``.

    Fixed and one-sided counts come from the free shapes' symmetry orders (Burnside: a free
    shape with ``k`` self-symmetries has ``8 / k`` fixed forms), so no list is built.
    """
    free = lattice.enumerate_free(n, STEPS, MATRICES)
    if symmetry is Symmetry.FREE:
        return len(free)
    total = 0
    for s in free:
        imgs = lattice.images(MATRICES, s)
        if symmetry is Symmetry.FIXED:
            total += len(set(imgs))
        else:
            total += 1 if min(imgs[4:]) in set(imgs[:4]) else 2
    return total
