"""Tiling a region of grid cells with a subset of pieces: exact cover, with cheap checks first.

``tile(region, pieces)`` covers every region cell exactly once with pieces (rotated, and
reflected unless told not to), using every ``required`` piece and any subset of the others.
Pieces carry labels on their cells (a feature, a colour, an icon); ``demands`` ask for a label
on a region cell and a placement may only put a matching label there (formulation A of the
solver study: demands filter placements while they are generated, which beat colour items).

Before any search it runs the necessary conditions, cheapest first, and answers IMPOSSIBLE
with the reason in words when one fails: total and required area; a subset-sum over the
optional pieces' areas; pieces that fit nowhere; cells no piece can cover; labels demanded
more often than the pieces carry them; the checkerboard colouring (each piece covers a fixed
black/white imbalance up to sign). A board one cell short of coverable took every exact-cover
library over 60 s and takes these checks microseconds.

The search itself is :mod:`generator.core.exactcover` with region cells as primary items,
required pieces as primary items and optional pieces as secondary items; identical pieces are
merged into one item used up to (or, if required, exactly) their number of copies, so the
search never tries copies in every order; and the area of the unused optional pieces bounds
every node. Options are built as bitmasks: a cell ``(r, c)`` is the bit ``r * W + c`` of the
region's bounding box (stride ``W`` wide enough that no shape wraps), so placing an
orientation at every valid anchor is one shift per anchor, and the valid anchors are the AND
of the region mask shifted by each of the shape's cells.

Set-up costs dominate small cards (70 % of ``tile`` on the solver study's 1,000 random small
cards was building placements), so shapes carry cached orientation tables (:class:`_Shape`),
pieces a cached merge key and image list (:func:`_piece_info`), anchors that fit are shared
by pieces of one shape, and the equality matcher takes fast paths. Measured in one process
on the 2-core VM, per card the best of 4 passes, the two versions run alternately under the
same load: ``_setup`` 190 -> 130 ms for the 1,000 cards, ``_piece_types`` 55 -> 23 ms,
the whole ``tile`` (with building the Piece objects) 372-402 -> 321-343 ms in total, median
350-382 -> 294-319 us. Results are unchanged: the same placements, counts, node counts and
reasons on 2,412 calls (first/count/all, no reflections, ``accepts``, required pieces).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from .budget import Budget, Meter
from .exactcover import Compiled, bitset, compile_masks, iter_bits, run
from .grid import Cell
from .polyomino import MATRICES, Polyomino, transform_labelled
from .verdict import Verdict

Mode = Literal["first", "count", "all"]
Matcher = Callable[[Hashable, Hashable], bool]
"""``matches(demand, label)``: does a piece cell with ``label`` satisfy ``demand``?"""
Accepts = Callable[[int, Mapping[Cell, Hashable]], bool]
"""``accepts(piece_index, placed_cells)``: may this placement be used?"""


def _eq(demand: Hashable, label: Hashable) -> bool:
    return demand == label


@dataclass(frozen=True, init=False)
class Piece:
    """A piece: cells with labels (``None`` when unlabelled), a name, and whether it must be
    used. Cells are normalised to min row/col 0; labels travel with their cells through
    rotations and reflections.

    Text form (:meth:`from_text` / ``str``): rows where ``.`` is a gap, ``#`` an unlabelled
    cell and any other character a cell labelled with that character (or with
    ``legend[char]``); it round-trips for unlabelled pieces and single-character labels.
    """

    cells: tuple[tuple[Cell, Hashable], ...]
    name: str
    required: bool

    def __init__(
        self,
        cells: Mapping[Cell, Hashable] | Polyomino | Iterable[Cell],
        name: str = "",
        required: bool = False,
    ) -> None:
        if isinstance(cells, Polyomino):
            items: list[tuple[Cell, Hashable]] = [(c, None) for c in cells.cells]
        elif isinstance(cells, Mapping):
            items = [((int(r), int(c)), lab) for (r, c), lab in cells.items()]
        else:
            items = [((int(r), int(c)), None) for r, c in cells]
        if not items:
            raise ValueError(f"piece {name!r} has no cells")
        cs = [c for c, _ in items]
        if len(set(cs)) != len(cs):
            raise ValueError(f"piece {name!r} lists a cell twice")
        mr = min(cs)[0]
        mc = min([c for _, c in cs])
        if mr or mc:
            items = [((r - mr, c - mc), lab) for (r, c), lab in items]
        # Cells are unique, so sorting the pairs never compares labels. Written without a key
        # function or generators: about 30 % less per piece (4.6-6.4 -> 3.2-4.5 us for a
        # 5-cell labelled piece; the bench builds 7,900 pieces for its 1,000 small cards).
        items.sort()
        norm = tuple(items)
        object.__setattr__(self, "cells", norm)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "required", required)

    @classmethod
    def from_text(
        cls,
        text: str,
        name: str = "",
        required: bool = False,
        legend: Mapping[str, Hashable] | None = None,
    ) -> Piece:
        """Read rows (newline- or ``/``-separated) of ``.``, ``#`` and label characters."""
        cells: dict[Cell, Hashable] = {}
        for r, row in enumerate(text.replace("/", "\n").strip("\n").split("\n")):
            for c, ch in enumerate(row.rstrip()):
                if ch in ". ":
                    continue
                cells[(r, c)] = None if ch == "#" else (legend or {}).get(ch, ch)
        return cls(cells, name, required)

    @property
    def labels(self) -> dict[Cell, Hashable]:
        """Cell -> label, ordered by cell."""
        return dict(self.cells)

    @property
    def area(self) -> int:
        return len(self.cells)

    @property
    def shape(self) -> Polyomino:
        """The bare shape (raises ValueError if the cells are not connected)."""
        return Polyomino(frozenset(c for c, _ in self.cells))

    def __str__(self) -> str:
        lab = dict(self.cells)
        h = 1 + max(r for (r, _), _ in self.cells)
        w = 1 + max(c for (_, c), _ in self.cells)
        rows = []
        for r in range(h):
            row = ""
            for c in range(w):
                if (r, c) not in lab:
                    row += "."
                else:
                    v = lab[(r, c)]
                    row += "#" if v is None else (v if isinstance(v, str) and len(v) == 1 else "?")
            rows.append(row)
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Piece({dict(self.cells)!r}, name={self.name!r}, required={self.required!r})"


@dataclass(frozen=True)
class Placement:
    """Piece ``piece`` (index into the pieces given) turned by ``TRANSFORMS[transform]``,
    normalised, then moved by ``offset``; ``cells`` maps each covered region cell to the
    piece's label there. Replay: ``transform_labelled(piece.labels, transform)`` shifted by
    ``offset`` gives ``cells``."""

    piece: int
    transform: int
    offset: Cell
    cells: Mapping[Cell, Hashable]

    def to_json(self) -> dict[str, Any]:
        """A JSON-able form (labels as given; make them JSON-able if you need to dump)."""
        return {
            "piece": self.piece,
            "transform": self.transform,
            "offset": list(self.offset),
            "cells": [[r, c] for r, c in sorted(self.cells)],
        }

    def __repr__(self) -> str:
        return (
            f"Placement(piece={self.piece}, transform={self.transform}, "
            f"offset={self.offset!r}, cells={dict(self.cells)!r})"
        )


@dataclass(frozen=True)
class TilingResult:
    """What :func:`tile` found (see :class:`generator.core.exactcover.CoverResult`).

    ``placements`` is the first solution; ``solutions`` every kept solution (mode "all", and
    the first in mode "first"); ``options`` how many placements the search considered.
    """

    verdict: Verdict
    placements: tuple[Placement, ...] = ()
    solutions: tuple[tuple[Placement, ...], ...] = ()
    count: int = 0
    complete: bool = True
    nodes: int = 0
    reason: str = ""
    options: int = 0


# --------------------------------------------------------------------------------------------
# Set-up: piece types, placements as bitmasks, and the cheap necessary conditions
# --------------------------------------------------------------------------------------------


LabelledShape = tuple[tuple[Cell, Hashable], ...]
"""Labelled cells sorted by cell, normalised to min row/col 0."""


_Codes = tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]]


class _Shape:
    """The orientation table of one unlabelled shape, built once per shape and cached.

    ``orients[i] = (k, cells, perm)``: the shape turned by ``TRANSFORMS[k]``, normalised and
    sorted; ``perm[j]`` is the index (in the shape's own sorted cells) of the cell that lands
    at ``cells[j]``, so a labelled image is ``zip(cells, labels[perm])`` without re-sorting.
    ``uniq`` lists the orientations with distinct unlabelled images (first of each kind);
    ``dups``, when not empty, the orientations whose labelled images must be compared (a
    symmetric shape whose symmetries move cells: a domino turned half a turn). ``at_stride``
    caches, per grid stride, each orientation's cell codes and mask.

    Why: building the 8 sorted labelled images of every piece of every card was 20 % of
    ``tile`` on the solver study's 1,000 small cards; with the table a piece costs a dict
    lookup, and labels are permuted only when a demand or a symmetric shape needs them.
    """

    __slots__ = ("at_stride", "canon", "canon_perms", "dups", "imb", "orients", "span", "uniq")

    def __init__(self, cells: tuple[Cell, ...], reflections: bool) -> None:
        r1 = max([r for r, _ in cells])
        c1 = max([c for _, c in cells])
        self.span = r1 + c1
        self.imb = abs(_imbalance(cells))  # checkerboard imbalance, the same in every image
        ix = range(len(cells))
        # TRANSFORMS[k] followed by the shift to min row/col 0 (cells are normalised).
        moved = [
            [(r, c) for r, c in cells],
            [(c, r1 - r) for r, c in cells],
            [(r1 - r, c1 - c) for r, c in cells],
            [(c1 - c, r) for r, c in cells],
        ]
        if reflections:
            moved += [
                [(r, c1 - c) for r, c in cells],
                [(r1 - r, c) for r, c in cells],
                [(c, r) for r, c in cells],
                [(c1 - c, r1 - r) for r, c in cells],
            ]
        self.orients: list[tuple[int, tuple[Cell, ...], tuple[int, ...]]] = []
        self.uniq: list[int] = []
        self.dups: list[int] = []
        seen: set[tuple[Cell, ...]] = set()
        seen_perm: set[tuple[tuple[Cell, ...], tuple[int, ...]]] = set()
        for k, img in enumerate(moved):
            order = tuple(sorted(ix, key=img.__getitem__))
            sc = tuple([img[j] for j in order])
            if sc not in seen:
                seen.add(sc)
                self.uniq.append(k)
            if (sc, order) not in seen_perm:
                seen_perm.add((sc, order))
                self.dups.append(k)
            self.orients.append((k, sc, order))
        if len(self.dups) == len(self.uniq):
            # Orientations with one image also carry each label to the same cell: labelled
            # images are distinct exactly when the bare ones are (monominoes, squares...).
            self.dups = []
        self.canon = min(seen)  # the same for every shape in one orbit
        # The label orders that lay the shape on ``canon``: two pieces of this shape are the
        # same piece iff they give the same set of label tuples there.
        self.canon_perms = list({o[2] for o in self.orients if o[1] == self.canon})
        self.at_stride: dict[int, list[_Codes]] = {}

    def codes(self, stride: int) -> list[_Codes]:
        """Per orientation: the cells' codes ``r * stride + c`` (in image order), their mask,
        and (code, index of the label that lands there) pairs."""
        got = self.at_stride.get(stride)
        if got is None:
            got = []
            for _, cells, perm in self.orients:
                offs = tuple([r * stride + c for r, c in cells])
                m = 0
                for off in offs:
                    m |= 1 << off
                got.append((offs, m, tuple(zip(offs, perm, strict=True))))
            self.at_stride[stride] = got
        return got


@lru_cache(maxsize=8192)
def _shape(cells: tuple[Cell, ...], reflections: bool) -> _Shape:
    return _Shape(cells, reflections)


class _Type:
    """Identical pieces merged: their indices (required ones first), the first one's labelled
    cells and labels (in cell order), area, shape table, and how many are required.
    ``images`` are the distinct labelled images as indices into ``shape.orients``; ``orients``
    those that have placements. A slotted class, not a dataclass: one is built per piece
    per card."""

    __slots__ = ("area", "bit", "cells", "images", "labels", "n_required", "orients", "pieces",
                 "shape")  # fmt: skip

    def __init__(
        self,
        pieces: list[int],
        cells: LabelledShape,
        labels: tuple[Hashable, ...],
        area: int,
        n_required: int,
        shape: _Shape,
        images: list[int],
    ) -> None:
        self.pieces = pieces
        self.cells = cells
        self.labels = labels
        self.area = area
        self.n_required = n_required
        self.shape = shape
        self.images = images
        self.bit = 0
        self.orients: list[int] = []

    def image(self, i: int) -> tuple[int, LabelledShape]:
        """(transform, labelled cells) of orientation ``i`` of the shape table."""
        k, cells, perm = self.shape.orients[i]
        lab = self.labels
        return k, tuple(zip(cells, [lab[j] for j in perm], strict=True))


@dataclass
class _Setup:
    """The placements of every piece type on the region, as option bitmasks."""

    origin: Cell
    stride: int
    region_mask: int
    types: list[_Type]
    pieces: Sequence[Piece]
    opt_mask: list[int] = field(default_factory=list)
    opt_info: list[tuple[int, int, int]] = field(default_factory=list)  # (type, orient, anchor)
    cell_users: dict[int, list[int]] = field(default_factory=dict)
    type_range: dict[int, tuple[int, int]] = field(default_factory=dict)  # options [start, end)

    def cell(self, code: int) -> Cell:
        r, c = divmod(code, self.stride)
        return (r + self.origin[0], c + self.origin[1])

    def placed(self, o: int) -> tuple[int, int, Cell, dict[Cell, Hashable]]:
        """(type, transform, offset, cells) of option ``o``."""
        t, j, a = self.opt_info[o]
        k, lab = self.types[t].image(self.types[t].orients[j])
        ar, ac = divmod(a, self.stride)
        off = (ar + self.origin[0], ac + self.origin[1])
        return t, k, off, {(r + off[0], c + off[1]): v for (r, c), v in lab}


class _Impossible(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _images(shape: _Shape, labels: tuple[Hashable, ...]) -> list[int]:
    """The orientations giving distinct labelled images, first index of each kind."""
    if not shape.dups:
        return list(shape.uniq)
    first = labels[0]
    if all(v == first for v in labels):  # one label (often None): as the bare shape
        return list(shape.uniq)
    out = []
    seen = set()
    orients = shape.orients
    for i in shape.dups:
        _, cells, perm = orients[i]
        key = (cells, tuple([labels[j] for j in perm]))
        if key not in seen:
            seen.add(key)
            out.append(i)
    return out


_MergeKey = tuple[tuple[Cell, ...], frozenset[tuple[Hashable, ...]]]


@lru_cache(maxsize=16384)
def _piece_info(pc: LabelledShape, reflections: bool) -> tuple[_Shape, _MergeKey, list[int]]:
    """A piece's shape table, merge key and distinct labelled images (see _piece_types).

    Cached by labelled cells: cards draw their labels from a few colours, so most small
    pieces recur (on the solver study's 1,000 small cards this halved _piece_types)."""
    shape = _shape(tuple([c for c, _ in pc]), reflections)
    labels = [v for _, v in pc]
    # Two pieces are the same piece iff one is an image of the other, iff they have one
    # canonical shape and lay the same label tuples on it.
    laid = frozenset([tuple([labels[j] for j in q]) for q in shape.canon_perms])
    return shape, (shape.canon, laid), _images(shape, tuple(labels))


def _piece_types(pieces: Sequence[Piece], reflections: bool, merge: bool) -> list[_Type]:
    types: list[_Type] = []
    by_key: dict[_MergeKey, _Type] = {}
    for i, p in enumerate(pieces):
        pc = p.cells
        shape, key, images = _piece_info(pc, reflections)
        if merge:
            hit = by_key.get(key)
            if hit is not None:
                hit.pieces.append(i)
                hit.n_required += p.required
                continue
        t = _Type([i], pc, tuple([v for _, v in pc]), len(pc), int(p.required), shape, images)
        types.append(t)
        if merge:
            by_key[key] = t
    for t in types:  # copies are handed out to required pieces first
        if len(t.pieces) > 1:
            t.pieces.sort(key=lambda i: (not pieces[i].required, i))
    return types


def _subset_sums(areas: Iterable[int], cap: int) -> int:
    """Bitset of the totals reachable by subsets of ``areas`` (up to ``cap``)."""
    reach = 1
    lim = (1 << (cap + 1)) - 1
    for a in areas:
        reach = (reach | (reach << a)) & lim
    return reach


def _fmt_cell(c: Cell) -> str:
    return f"({c[0]}, {c[1]})"


def _name(pieces: Sequence[Piece], i: int) -> str:
    return repr(pieces[i].name) if pieces[i].name else f"#{i}"


def _setup(
    region: frozenset[Cell],
    pieces: Sequence[Piece],
    reflections: bool,
    demands: Mapping[Cell, Hashable],
    matches: Matcher,
    accepts: Accepts | None,
) -> _Setup:
    """Generate placements and run the necessary conditions; raise _Impossible on failure."""
    n = len(region)
    areas = [p.area for p in pieces]
    req = sum(a for a, p in zip(areas, pieces, strict=True) if p.required)
    if req > n:
        raise _Impossible(f"the required pieces cover {req} cells but the region has only {n}")
    if sum(areas) < n:
        raise _Impossible(f"the pieces cover {sum(areas)} cells in all, the region has {n}")
    for c in demands:
        if c not in region:
            raise ValueError(f"demanded cell {_fmt_cell(c)} is not in the region")
    _check_area(pieces, list(range(len(pieces))), n)

    types = _piece_types(pieces, reflections, merge=accepts is None)
    rows = [r for r, _ in region]
    cols = [c for _, c in region]
    r0 = min(rows)
    c0 = min(cols)
    width = 1 + max(cols) - c0
    span = max([ty.shape.span for ty in types])
    stride = width + span + 1  # a shape anchored inside the box never wraps to the next row
    codes = {cell: (cell[0] - r0) * stride + (cell[1] - c0) for cell in region}
    region_mask = bitset(codes.values(), max(codes.values()) + 1)
    demand_masks: dict[Hashable, int] = {}
    for cell, v in demands.items():
        demand_masks[v] = demand_masks.get(v, 0) | (1 << codes[cell])
    bad_for: dict[Hashable, int] = {}  # label -> demanded cells it cannot stand on

    all_demanded = sum(demand_masks.values())

    def bad_of(v: Hashable) -> int:
        bv = bad_for.get(v)
        if bv is None:
            if matches is _eq:  # equality: every demanded cell but those demanding v
                bv = all_demanded & ~demand_masks.get(v, 0)
            else:
                bv = sum(m for dv, m in demand_masks.items() if not matches(dv, v))
            bad_for[v] = bv
        return bv

    setup = _Setup((r0, c0), stride, region_mask, types, pieces)
    # Per grid code (a list, not a dict: codes are small ints), the options covering it.
    ulist: list[list[int]] = [[] for _ in range(region_mask.bit_length())]
    opt_mask = setup.opt_mask
    opt_info = setup.opt_info
    # The anchors where an orientation fits the region, by shape table and orientation:
    # pieces of one shape in other colours share them (a card's monominoes and dominoes).
    fits: dict[tuple[_Shape, int], int] = {}
    type_bit0 = region_mask.bit_length()
    covered = 0
    for t, ty in enumerate(types):
        ty.bit = type_bit0 + t
        tbit = 1 << ty.bit
        start = len(opt_mask)
        shape = ty.shape
        table = shape.codes(stride)
        bad_lab: list[int] | None = None
        for i in ty.images:
            offs, shape_mask, pairs = table[i]
            # Anchor = the top-left corner of the shape's box (not always one of its cells).
            valid = fits.get((shape, i))
            if valid is None:
                valid = -1
                for off in offs:
                    valid &= region_mask >> off
                fits[(shape, i)] = valid
            if demand_masks and valid:
                if bad_lab is None:
                    bad_lab = [bad_of(v) for v in ty.labels]
                bad = 0
                for off, j in pairs:
                    bv = bad_lab[j]
                    if bv:
                        bad |= bv >> off
                valid &= ~bad
            if not valid:
                continue
            j = len(ty.orients)
            ty.orients.append(i)
            anchors = []
            rest = valid
            while rest:
                low = rest & -rest
                anchors.append(low.bit_length() - 1)
                rest ^= low
            if accepts is not None:
                anchors = [a for a in anchors if _accepted(accepts, setup, ty, j, a)]
            idx = len(opt_mask)
            for a in anchors:
                opt_mask.append((shape_mask << a) | tbit)
                opt_info.append((t, j, a))
                for off in offs:
                    ulist[a + off].append(idx)
                idx += 1
            for off in offs:
                covered |= valid << off
        setup.type_range[t] = (start, len(setup.opt_mask))
        if len(setup.opt_mask) == start and ty.n_required:
            why = " with the demanded labels" if demands else ""
            what = "an accepted place" if accepts is not None else "a place"
            raise _Impossible(f"piece {_name(pieces, ty.pieces[0])} has {what} nowhere{why}")
    users = setup.cell_users = {code: ulist[code] for code in codes.values()}
    if accepts is not None:  # the callback thinned the anchors: recount covered cells
        covered = bitset((c for c, u in users.items() if u), region_mask.bit_length() + 1)
    missing = region_mask & ~covered
    if missing:
        cells = sorted(setup.cell(c) for c in iter_bits(missing))
        extra = f" (demand {demands[cells[0]]!r})" if cells[0] in demands else ""
        more = f" and {len(cells) - 1} more" if len(cells) > 1 else ""
        raise _Impossible(f"no piece can cover cell {_fmt_cell(cells[0])}{extra}{more}")
    usable = [ty for t, ty in enumerate(types) if _has_options(setup, t)]
    placeable = [i for ty in usable for i in ty.pieces]
    if len(placeable) < len(pieces):  # with every piece placeable it passed above already
        _check_area(pieces, placeable, n)
    if demands:
        _check_supply(usable, demands, matches)
    _check_parity(region, pieces, placeable, [ty.shape.imb for ty in usable for _ in ty.pieces])
    return setup


def _accepted(accepts: Accepts, setup: _Setup, ty: _Type, j: int, a: int) -> bool:
    _, lab = ty.image(ty.orients[j])
    ar, ac = divmod(a, setup.stride)
    r0, c0 = setup.origin[0] + ar, setup.origin[1] + ac
    return bool(accepts(ty.pieces[0], {(r + r0, c + c0): v for (r, c), v in lab}))


def _has_options(setup: _Setup, t: int) -> bool:
    start, end = setup.type_range[t]
    return end > start


def _check_area(pieces: Sequence[Piece], usable: list[int], n: int) -> None:
    req = [i for i in usable if pieces[i].required]
    need = n - sum(pieces[i].area for i in req)
    opt = [pieces[i].area for i in usable if not pieces[i].required]
    if need < 0:
        raise _Impossible(f"the required pieces cover {n - need} cells but the region has {n}")
    if sum(opt) < need:
        raise _Impossible(
            f"the region has {n} cells but the pieces that fit cover only {n - need + sum(opt)}"
        )
    reach = _subset_sums(opt, need)
    if not (reach >> need) & 1:
        below = max(i for i in range(need) if (reach >> i) & 1)
        raise _Impossible(
            f"no subset of the optional pieces covers exactly the {need} cells left "
            f"(the nearest total below is {below})"
        )


def _check_supply(
    usable: list[_Type], demands: Mapping[Cell, Hashable], matches: Matcher
) -> None:
    wanted: dict[Hashable, int] = {}
    for v in demands.values():
        wanted[v] = wanted.get(v, 0) + 1
    counts: dict[Hashable, int] = {}
    if matches is _eq:  # equality: count each label once, not once per demanded label
        for ty in usable:
            for lab in ty.labels:
                counts[lab] = counts.get(lab, 0) + len(ty.pieces)
    for v, need in wanted.items():
        if matches is _eq:
            have = counts.get(v, 0)
        else:
            have = sum(len(ty.pieces) for ty in usable for lab in ty.labels if matches(v, lab))
        if have < need:
            raise _Impossible(
                f"{need} cells demand {v!r} but the pieces that fit carry only {have} such squares"
            )


def _imbalance(cells: Collection[Cell]) -> int:
    """Dark minus light squares, dark = even ``r + c``."""
    return 2 * sum([(r + c + 1) & 1 for r, c in cells]) - len(cells)


def _check_parity(
    region: frozenset[Cell], pieces: Sequence[Piece], usable: list[int], d: list[int]
) -> None:
    """``d``: each usable piece's checkerboard imbalance (absolute), from its shape table."""
    target = _imbalance(region)
    if all(pieces[i].required for i in usable):
        # Every piece is used: the signed imbalances must add up to the region's.
        reach = {0}
        for x in d:
            reach = {s + x for s in reach} | {s - x for s in reach}
        if target not in reach:
            raise _Impossible(
                f"checkerboard colouring: the region has {abs(target)} more "
                f"{'dark' if target > 0 else 'light'} than {'light' if target > 0 else 'dark'} "
                "squares, which no arrangement of these pieces can match"
            )
    elif sum(d) < abs(target):
        raise _Impossible(
            f"checkerboard colouring: the region is {abs(target)} squares out of balance, more "
            f"than all the pieces together can make up ({sum(d)})"
        )


def _compile(
    setup: _Setup, keep: Callable[[int], bool] | None = None
) -> tuple[Compiled, list[int]]:
    """Compile the setup's options (those ``keep`` accepts) for the search."""
    item_opts: dict[int, int] | None = None
    if keep is None:
        idx = list(range(len(setup.opt_mask)))
        masks = setup.opt_mask
        n = len(masks)
        item_opts = {c: bitset(u, n) for c, u in setup.cell_users.items()}
        for t, (s, e) in setup.type_range.items():
            # A type's options are contiguous: its bitset is a run of ones.
            item_opts[setup.types[t].bit] = ((1 << (e - s)) - 1) << s
    else:
        idx = [o for o in range(len(setup.opt_mask)) if keep(o)]
        masks = [setup.opt_mask[o] for o in idx]
    primary = setup.region_mask
    mult: dict[int, int | tuple[int, int]] = {}
    cap: dict[int, int] = {}
    any_optional = False
    for ty in setup.types:
        # A type's item is used between n_required and len(pieces) times.
        mult[ty.bit] = (ty.n_required, len(ty.pieces))
        any_optional = any_optional or ty.n_required < len(ty.pieces)
        cap[ty.bit] = ty.area
    areas: list[int] | None = None
    if any_optional and keep is None:
        # Each type's options are one run, types in order: one list repeat per type, not
        # one look-up per option.
        areas = []
        for t, (s, e) in setup.type_range.items():
            areas += [setup.types[t].area] * (e - s)
    elif any_optional:
        areas = [setup.types[setup.opt_info[o][0]].area for o in idx]
    comp = compile_masks(
        masks,
        primary,
        multiplicity=mult,
        capacity=cap if any_optional else None,
        item_opts=item_opts,
        capuse=areas,
    )
    return comp, idx


def _decode(setup: _Setup, sol: Iterable[int]) -> tuple[Placement, ...]:
    """Placements of a solution; copies of a merged piece are handed out in cell order."""
    per_type: dict[int, list[tuple[int, Cell, dict[Cell, Hashable]]]] = {}
    for o in sol:
        t, k, off, cells = setup.placed(o)
        per_type.setdefault(t, []).append((k, off, cells))
    out = []
    for t, lst in per_type.items():
        if len(lst) > 1:
            lst.sort(key=lambda x: min(x[2]))
        ty = setup.types[t]
        for piece, (k, off, cells) in zip(ty.pieces, lst, strict=False):
            if setup.pieces[piece].cells != ty.cells:
                # A merged copy may be drawn in another orientation: find its own transform.
                own = dict(setup.pieces[piece].cells)
                want = transform_labelled(dict(ty.cells), k)
                k = next(j for j in range(8) if transform_labelled(own, j) == want)
            out.append(Placement(piece, k, off, cells))
    out.sort(key=lambda p: p.piece)
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------------------------


def tile(
    region: Collection[Cell],
    pieces: Sequence[Piece],
    *,
    reflections: bool = True,
    demands: Mapping[Cell, Hashable] | None = None,
    matches: Matcher | None = None,
    accepts: Accepts | None = None,
    mode: Mode = "first",
    limit: int | None = None,
    budget: Budget | None = None,
) -> TilingResult:
    """Cover every cell of ``region`` exactly once with a subset of ``pieces``.

    Every ``required`` piece must be used, the others may be. ``reflections``: may pieces be
    flipped. ``demands`` maps region cells to a demanded label; ``matches(demand, label)``
    (default ``==``) says whether a piece cell satisfies it. ``accepts(piece_index, cells)``
    may veto placements (it disables the merging of identical pieces, as the callback sees
    piece indices). Modes, ``limit`` and ``budget`` as in :func:`exactcover.solve`; the
    budget also covers building the placements. Identical pieces are interchangeable: a
    count counts distinct arrangements, not which copy went where.
    """
    meter = (budget or Budget()).start()
    reg = frozenset(region)
    if not reg:
        if any(p.required for p in pieces):
            return TilingResult(Verdict.IMPOSSIBLE, reason="the region is empty")
        return TilingResult(Verdict.COMPLETABLE, solutions=((),), count=1)
    if not pieces:
        return TilingResult(Verdict.IMPOSSIBLE, reason="there are no pieces")
    try:
        setup = _setup(reg, pieces, reflections, demands or {}, matches or _eq, accepts)
    except _Impossible as e:
        return TilingResult(Verdict.IMPOSSIBLE, reason=e.reason, nodes=meter.nodes)
    comp, idx = _compile(setup)
    res = run(comp, mode=mode, limit=limit, meter=meter, item_name=lambda i: repr(setup.cell(i)))
    sols = tuple(_decode(setup, [idx[o] for o in s]) for s in res.solutions)
    return TilingResult(
        res.verdict,
        sols[0] if sols else (),
        sols,
        res.count,
        res.complete,
        res.nodes,
        res.reason,
        len(setup.opt_mask),
    )


def verify_tiling(
    region: Collection[Cell],
    pieces: Sequence[Piece],
    placements: Iterable[Placement],
    *,
    reflections: bool = True,
    demands: Mapping[Cell, Hashable] | None = None,
    matches: Matcher | None = None,
) -> bool:
    """Independent check of a tiling: each placement is its piece turned by an allowed
    transform and moved; pieces used at most once, required ones exactly once; every
    region cell covered exactly once; demands met."""
    match = matches or _eq
    reg = set(region)
    seen_cells: set[Cell] = set()
    used: set[int] = set()
    for p in placements:
        if not 0 <= p.piece < len(pieces) or p.piece in used:
            return False
        if not 0 <= p.transform < (8 if reflections else 4):
            return False
        used.add(p.piece)
        lab = transform_labelled(dict(pieces[p.piece].cells), p.transform)
        expect = {(r + p.offset[0], c + p.offset[1]): v for (r, c), v in lab.items()}
        if expect != dict(p.cells):
            return False
        for cell in expect:
            if cell not in reg or cell in seen_cells:
                return False
            seen_cells.add(cell)
    if seen_cells != reg:
        return False
    if any(pieces[i].required and i not in used for i in range(len(pieces))):
        return False
    cover = {c: v for p in placements for c, v in p.cells.items()}
    return all(match(d, cover[c]) for c, d in (demands or {}).items())


def board_symmetries(
    region: Collection[Cell],
    reflections: bool = True,
    demands: Mapping[Cell, Hashable] | None = None,
) -> list[tuple[int, Cell]]:
    """The symmetries ``(transform index, shift)`` mapping the region (and its demands) onto
    itself: a cell ``c`` goes to ``TRANSFORMS[k](c) + shift``. Always includes the identity."""
    reg = frozenset(region)
    dem = dict(demands or {})
    out = []
    for k in range(8 if reflections else 4):
        a, b, c, d = MATRICES[k]
        moved = [(a * r + b * q, c * r + d * q) for r, q in reg]
        sr = min(r for r, _ in reg) - min(r for r, _ in moved)
        sc = min(q for _, q in reg) - min(q for _, q in moved)
        if frozenset((r + sr, q + sc) for r, q in moved) != reg:
            continue
        ok = all(
            dem.get((a * r + b * q + sr, c * r + d * q + sc)) == v for (r, q), v in dem.items()
        )
        if ok:
            out.append((k, (sr, sc)))
    return out


def count_tilings_up_to_symmetry(
    region: Collection[Cell],
    pieces: Sequence[Piece],
    *,
    reflections: bool = True,
    demands: Mapping[Cell, Hashable] | None = None,
    matches: Matcher | None = None,
    budget: Budget | None = None,
) -> TilingResult:
    """Count tilings, counting tilings that a symmetry of the board maps onto each other once.

    Method: pick a required, unique piece (a "breaker") and split its placements into orbits
    under the board's symmetry group G. Tilings with the breaker on an orbit representative
    whose stabiliser is trivial are counted directly (each class exactly once); for a
    representative fixed by some symmetries, the tilings with the breaker there are listed
    and counted up to that stabiliser. Without a breaker every tiling is listed and
    canonicalised (slow on big counts). The 6x10 pentomino board gives 2,339.
    """
    meter = (budget or Budget()).start()
    reg = frozenset(region)
    try:
        setup = _setup(reg, pieces, reflections, demands or {}, matches or _eq, None)
    except _Impossible as e:
        return TilingResult(Verdict.IMPOSSIBLE, reason=e.reason)
    group = board_symmetries(reg, reflections, demands)
    image = _option_images(setup, group)
    breakers = [
        t
        for t, ty in enumerate(setup.types)
        if ty.n_required == 1 and len(ty.pieces) == 1 and _has_options(setup, t)
    ]
    total = 0
    nodes = 0
    complete = True

    def search(keep: Callable[[int], bool], mode: Mode) -> tuple[int, list[tuple[int, ...]]]:
        nonlocal nodes, complete
        comp, idx = _compile(setup, keep)
        res = run(comp, mode=mode, meter=meter)
        nodes = meter.nodes
        complete = complete and res.complete
        return res.count, [tuple(idx[o] for o in s) for s in res.solutions]

    def classes(sols: list[tuple[int, ...]], gs: list[int]) -> int:
        canon = {min(tuple(sorted(image[g][o] for o in s)) for g in gs) for s in sols}
        return len(canon)

    if not breakers:
        _, sols = search(lambda o: True, "all")
        total = classes(sols, list(range(len(group))))
    else:
        best: tuple[int, int, int] | None = None
        orbits_of: dict[int, list[tuple[int, list[int]]]] = {}
        for t in breakers:
            opts = [o for o, info in enumerate(setup.opt_info) if info[0] == t]
            reps: list[tuple[int, list[int]]] = []
            done: set[int] = set()
            for o in opts:
                if o in done:
                    continue
                orbit = {image[g][o] for g in range(len(group))}
                done |= orbit
                stab = [g for g in range(len(group)) if image[g][o] == o]
                reps.append((o, stab))
            orbits_of[t] = reps
            score = (sum(1 for _, s in reps if len(s) > 1), len(reps), t)
            if best is None or score < best:
                best = score
        assert best is not None
        reps = orbits_of[best[2]]
        free_reps = {o for o, s in reps if len(s) == 1}
        bt = best[2]
        if free_reps:
            n, _ = search(lambda o: setup.opt_info[o][0] != bt or o in free_reps, "count")
            total += n
        for o_rep, stab in reps:
            if len(stab) > 1 and complete:
                _, sols = search(_only(setup, bt, o_rep), "all")
                total += classes(sols, stab)
    if not complete:
        verdict = Verdict.COMPLETABLE if total else Verdict.UNKNOWN
        return TilingResult(
            verdict,
            count=total,
            complete=False,
            nodes=nodes,
            reason=f"search budget ({meter.budget}) ran out; the count is a lower bound",
            options=len(setup.opt_mask),
        )
    verdict = Verdict.COMPLETABLE if total else Verdict.IMPOSSIBLE
    return TilingResult(
        verdict,
        count=total,
        nodes=nodes,
        reason="" if total else "no tiling exists (search exhausted)",
        options=len(setup.opt_mask),
    )


def _only(setup: _Setup, t: int, rep: int) -> Callable[[int], bool]:
    """Keep every option except type ``t``'s, of which keep only ``rep``."""
    return lambda o: setup.opt_info[o][0] != t or o == rep


def _option_images(setup: _Setup, group: list[tuple[int, Cell]]) -> list[list[int]]:
    """For each symmetry, the option each option maps to."""
    key_of: dict[tuple[int, frozenset[tuple[Cell, str]]], int] = {}
    placed = [setup.placed(o) for o in range(len(setup.opt_mask))]
    for o, (t, _, _, cells) in enumerate(placed):
        key_of[(t, frozenset((c, repr(v)) for c, v in cells.items()))] = o
    out = []
    for k, (sr, sc) in group:
        a, b, c, d = MATRICES[k]
        row = []
        for t, _, _, cells in placed:
            moved = frozenset(
                ((a * r + b * q + sr, c * r + d * q + sc), repr(v)) for (r, q), v in cells.items()
            )
            row.append(key_of[(t, moved)])
        out.append(row)
    return out


__all__ = [
    "Accepts",
    "Matcher",
    "Meter",
    "Piece",
    "Placement",
    "TilingResult",
    "board_symmetries",
    "count_tilings_up_to_symmetry",
    "tile",
    "verify_tiling",
]
