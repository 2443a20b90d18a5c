"""Imposition planning: components onto print sheets (pure geometry, no painting).

:func:`impose` turns a list of components into :class:`Sheet` objects: where each face goes,
crop marks, fold lines, cut outlines. :mod:`generator.render.writers` paints them into the
print files.

Layout rules (docs/printing.md has the user-facing version):

- ``grid`` components are grouped by trim size and bleed; each group fills its own sheets.
  A cell is trim + 2 x bleed; cells are ``gutter`` apart; the grid is centred on the page and
  keeps at least ``margin`` to the page edge. ``orientation = auto`` takes the orientation that
  holds more cells (portrait on a tie). Crop marks are hairlines in the margin, outside every
  bleed, on the extension of every trim line.
- Duplex backs follow each front sheet. The sheet turns over about its long or short edge; on
  a portrait sheet long-edge flip mirrors columns and short-edge flip mirrors rows, on a
  landscape sheet the other way round (the long edge is then horizontal). ``back_offset``
  shifts every back page.
- ``gutter-fold``: fronts in the left half, their backs mirrored in the right half, a dashed
  fold line down the middle with 5 mm from the fold to the nearest bleed.
- ``nest`` components are packed edge to edge (honeycomb for hexes, first-fit on a common
  square grid for polyominoes), clipped to their outline, with the merged cut lines printed.
- ``page`` components get a page each, centred, with corner crop marks; a component larger
  than the page gets a page of its own size plus margins.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..deck import PrintSettings
from ..errors import LayoutError
from ..units import MM_PER_PT
from .component import Component, Face, HexNest, PolyNest, face_drawing
from .cutlines import CutPath, merge_outlines
from .drawing import HAIRLINE, Circle, Drawing, Item, Line, Point, Polygon, Rect, Stroke, TextBox
from .fonts import text_width
from .stamp import place_stamp

MARK_GAP = 1.0
"""Distance from the outer bleed edge to the start of a crop mark (mm)."""
MARK_LEN = 5.0
"""Longest crop mark (mm); shorter when the margin is narrow."""
FOLD_GAP = 5.0
"""Gutter fold: distance from the fold line to the nearest bleed edge (mm)."""
CUT_LINE = Stroke("#000000", 0.2)
"""Printed cut lines of nested components."""
FOLD_LINE = Stroke("#808080", 0.2, (2.0, 1.5))
_EPS = 1e-6


@dataclass(frozen=True)
class Stamp:
    """What every component's stamp says: deck name, version and seed (plus its index)."""

    deck: str
    version: str
    seed: int
    seed_word: str = "seed"
    """The word for "seed" in the deck's language (``stamp.seed`` label)."""

    def text(self, index: int, cid: str = "") -> str:
        """The stamp of the component at 1-based ``index`` (0: no index) with id ``cid``:
        ``deck v1 · seed 1 · #8 park-08``, the index and id ``check`` and index.html show."""
        out = f"{self.deck} v{self.version} · {self.seed_word} {self.seed}"
        if index:
            out += f" · #{index}"
        return f"{out} {cid}" if cid else out


@dataclass(frozen=True)
class Placement:
    """One face on a sheet: component ``index`` (position in the list), its drawing's trim
    origin at (x, y) mm from the sheet's top-left, and how its art is clipped."""

    index: int
    face: Face
    x: float
    y: float
    clip: Literal["bleed", "outline"] = "bleed"


@dataclass
class Sheet:
    """One page of sheets.pdf. ``cuts`` are the trim outlines in page coordinates (front
    sheets only), ``marks`` crop marks and fold lines, ``extras`` any other page art."""

    width: float
    height: float
    placements: list[Placement] = field(default_factory=list)
    marks: list[Item] = field(default_factory=list)
    extras: list[Item] = field(default_factory=list)
    cuts: list[tuple[str, tuple[Point, ...]]] = field(default_factory=list)
    back: bool = False
    kind: str = "grid"
    folds: list[tuple[Point, ...]] = field(default_factory=list)
    """Fold lines in page coordinates (the cut files' fold layer)."""
    registration: list[Item] = field(default_factory=list)
    """Print-and-cut registration marks on this sheet (also in its cut file)."""


# --- helpers -----------------------------------------------------------------------------------

def _orientations(settings: PrintSettings) -> list[tuple[float, float]]:
    a, b = settings.page.width, settings.page.height
    portrait, landscape = (min(a, b), max(a, b)), (max(a, b), min(a, b))
    if settings.orientation == "portrait":
        return [portrait]
    if settings.orientation == "landscape":
        return [landscape]
    return [portrait, landscape]


def _fit(avail: float, cell: float, gap: float) -> int:
    if cell <= 0 or avail < cell - _EPS:
        return 0
    return int(math.floor((avail + gap + _EPS) / (cell + gap)))


def mirror_axis(duplex: str, page_w: float, page_h: float) -> Literal["x", "y"]:
    """Which page axis a duplex flip mirrors: ``x`` (columns) or ``y`` (rows)."""
    portrait = page_h >= page_w
    if duplex == "short-edge":
        return "y" if portrait else "x"
    return "x" if portrait else "y"


def _mirror(p: Placement, d: Drawing, back: Drawing, sheet: Sheet, axis: str,
            offset: tuple[float, float]) -> Placement:
    if axis == "x":
        x, y = sheet.width - p.x - d.width, p.y
    else:
        x, y = p.x, sheet.height - p.y - d.height
    # a back of another size keeps the front's centre
    x += (d.width - back.width) / 2
    y += (d.height - back.height) / 2
    return Placement(p.index, "back", x + offset[0], y + offset[1], p.clip)


def _marks_for_grid(xs: list[float], ys: list[float], box: tuple[float, float, float, float],
                    sheet: Sheet) -> list[Item]:
    """Crop marks on the extension of every trim line, outside the grid's bleed box."""
    gx0, gy0, gx1, gy1 = box
    room = min(gx0, gy0, sheet.width - gx1, sheet.height - gy1) - MARK_GAP - 1.0
    length = min(MARK_LEN, room)
    if length < 1.0:
        return []
    marks: list[Item] = []
    for x in _unique(xs):
        marks.append(Line(x, gy0 - MARK_GAP - length, x, gy0 - MARK_GAP, HAIRLINE))
        marks.append(Line(x, gy1 + MARK_GAP, x, gy1 + MARK_GAP + length, HAIRLINE))
    for y in _unique(ys):
        marks.append(Line(gx0 - MARK_GAP - length, y, gx0 - MARK_GAP, y, HAIRLINE))
        marks.append(Line(gx1 + MARK_GAP, y, gx1 + MARK_GAP + length, y, HAIRLINE))
    return marks


def _unique(values: list[float]) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > 1e-4:
            out.append(v)
    return out


def _outline_at(d: Drawing, x: float, y: float) -> tuple[Point, ...]:
    return tuple((x + px, y + py) for px, py in d.outline())


def _cuts_at(cid: str, d: Drawing, x: float, y: float) -> list[tuple[str, tuple[Point, ...]]]:
    """The cut paths of a face placed at (x, y): its own ``cuts`` if it has any, else its
    trim outline."""
    if d.cuts:
        return [(cid, tuple((x + px, y + py) for px, py in path)) for path in d.cuts]
    return [(cid, _outline_at(d, x, y))]


def _folds_at(d: Drawing, x: float, y: float) -> list[tuple[Point, ...]]:
    return [tuple((x + px, y + py) for px, py in line) for line in d.folds]


# --- grid --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GridPlan:
    page: tuple[float, float]
    cols: int
    rows: int
    x0: float
    y0: float
    """Top-left of the first cell's bleed box."""
    pitch_x: float
    pitch_y: float


def plan_grid(w: float, h: float, bleed: float, settings: PrintSettings,
              avail_w: Callable[[float], float] | None = None) -> GridPlan:
    """The n-up grid for cells of trim (w, h) + bleed; picks the orientation holding more."""
    cw, ch, g = w + 2 * bleed, h + 2 * bleed, settings.gutter
    best: GridPlan | None = None
    for pw, ph in _orientations(settings):
        aw = (pw - 2 * settings.margin) if avail_w is None else avail_w(pw)
        ah = ph - 2 * settings.margin
        cols, rows = _fit(aw, cw, g), _fit(ah, ch, g)
        if cols * rows == 0:
            continue
        gw, gh = cols * cw + (cols - 1) * g, rows * ch + (rows - 1) * g
        plan = GridPlan((pw, ph), cols, rows, (pw - gw) / 2, (ph - gh) / 2, cw + g, ch + g)
        if best is None or cols * rows > best.cols * best.rows:
            best = plan
    if best is None:
        raise LayoutError(
            f"a {w:g} x {h:g} mm component with {bleed:g} mm bleed does not fit on a "
            f"{settings.page.width:g} x {settings.page.height:g} mm page with "
            f"{settings.margin:g} mm margins; choose a larger page or smaller margins"
        )
    return best


def _expand(components: Sequence[Component], indices: list[int]) -> list[int]:
    out: list[int] = []
    for i in indices:
        out.extend([i] * max(components[i].copies, 0))
    return out


def _impose_grid(components: Sequence[Component], indices: list[int],
                 settings: PrintSettings) -> list[Sheet]:
    first = components[indices[0]].front
    w, h, b = first.width, first.height, first.bleed
    has_backs = any(components[i].back is not None for i in indices)
    if settings.duplex == "gutter-fold" and has_backs:
        return _impose_fold(components, indices, settings)
    plan = plan_grid(w, h, b, settings)
    pw, ph = plan.page
    per_page = plan.cols * plan.rows
    items = _expand(components, indices)
    sheets: list[Sheet] = []
    for start in range(0, len(items), per_page):
        sheet = Sheet(pw, ph, kind="grid")
        xs: list[float] = []
        ys: list[float] = []
        for k, ci in enumerate(items[start:start + per_page]):
            r, c = divmod(k, plan.cols)
            x = plan.x0 + c * plan.pitch_x + b
            y = plan.y0 + r * plan.pitch_y + b
            sheet.placements.append(Placement(ci, "front", x, y))
            sheet.cuts += _cuts_at(components[ci].id, components[ci].front, x, y)
            sheet.folds += _folds_at(components[ci].front, x, y)
        for c in range(plan.cols):
            x = plan.x0 + c * plan.pitch_x + b
            xs += [x, x + w]
        for r in range(plan.rows):
            y = plan.y0 + r * plan.pitch_y + b
            ys += [y, y + h]
        box = (plan.x0, plan.y0, plan.x0 + plan.cols * plan.pitch_x - settings.gutter,
               plan.y0 + plan.rows * plan.pitch_y - settings.gutter)
        if settings.crop_marks:
            sheet.marks = _marks_for_grid(xs, ys, box, sheet)
        sheets.append(sheet)
        if has_backs and settings.duplex in ("long-edge", "short-edge"):
            sheets.append(_back_sheet(components, sheet, settings))
    return sheets


def _back_sheet(components: Sequence[Component], front: Sheet,
                settings: PrintSettings) -> Sheet:
    axis = mirror_axis(settings.duplex, front.width, front.height)
    back = Sheet(front.width, front.height, back=True, kind=front.kind)
    off = (float(settings.back_offset[0]), float(settings.back_offset[1]))
    for p in front.placements:
        c = components[p.index]
        if c.back is None:
            continue
        back.placements.append(_mirror(p, c.front, c.back, front, axis, off))
    return back


def _impose_fold(components: Sequence[Component], indices: list[int],
                 settings: PrintSettings) -> list[Sheet]:
    first = components[indices[0]].front
    w, h, b = first.width, first.height, first.bleed

    def half(pw: float) -> float:
        return pw / 2 - settings.margin - FOLD_GAP

    plan = plan_grid(w, h, b, settings, avail_w=half)
    pw, ph = plan.page
    # fronts sit against the fold: their grid's right bleed edge is FOLD_GAP left of it
    gw = plan.cols * plan.pitch_x - settings.gutter
    x0 = pw / 2 - FOLD_GAP - gw
    per_page = plan.cols * plan.rows
    items = _expand(components, indices)
    sheets: list[Sheet] = []
    for start in range(0, len(items), per_page):
        sheet = Sheet(pw, ph, kind="fold")
        xs: list[float] = []
        ys: list[float] = []
        for k, ci in enumerate(items[start:start + per_page]):
            r, c = divmod(k, plan.cols)
            x, y = x0 + c * plan.pitch_x + b, plan.y0 + r * plan.pitch_y + b
            p = Placement(ci, "front", x, y)
            sheet.placements.append(p)
            sheet.cuts += _cuts_at(components[ci].id, components[ci].front, x, y)
            sheet.folds += _folds_at(components[ci].front, x, y)
            comp = components[ci]
            if comp.back is not None:
                # folding about the vertical centre line mirrors columns; both halves come
                # out of one pass of the printer, so no duplex offset applies
                sheet.placements.append(_mirror(p, comp.front, comp.back, sheet, "x",
                                                (0.0, 0.0)))
        for c in range(plan.cols):
            x = x0 + c * plan.pitch_x + b
            xs += [x, x + w, pw - x, pw - x - w]
        for r in range(plan.rows):
            y = plan.y0 + r * plan.pitch_y + b
            ys += [y, y + h]
        gh = plan.rows * plan.pitch_y - settings.gutter
        box = (x0, plan.y0, pw - x0, plan.y0 + gh)
        if settings.crop_marks:
            sheet.marks = _marks_for_grid(xs, ys, box, sheet)
        sheet.marks.append(Line(pw / 2, plan.y0, pw / 2, plan.y0 + gh, FOLD_LINE))
        sheet.extras.append(TextBox(pw / 2 + 1.0, max(plan.y0 - 6.0, 1.0), 40.0, 4.0,
                                    "fold here", size=6.0, min_size=4.0, colour="#808080"))
        sheets.append(sheet)
    return sheets


# --- nests -------------------------------------------------------------------------------------

def _impose_hex(components: Sequence[Component], indices: list[int], nest: HexNest,
                settings: PrintSettings) -> list[Sheet]:
    f = nest.flat_to_flat
    long = f * 2 / math.sqrt(3)
    items = _expand(components, indices)
    best: tuple[int, float, float, int, int] | None = None
    for pw, ph in _orientations(settings):
        aw, ah = pw - 2 * settings.margin, ph - 2 * settings.margin
        if nest.orientation == "pointy":
            rows = _fit(ah - long, 0.75 * long, 0.0) + 1 if ah >= long else 0
            cols = _fit(aw - (f / 2 if rows > 1 else 0.0), f, 0.0)
        else:
            cols = _fit(aw - long, 0.75 * long, 0.0) + 1 if aw >= long else 0
            rows = _fit(ah - (f / 2 if cols > 1 else 0.0), f, 0.0)
        n = cols * rows
        if n and (best is None or n > best[0]):
            best = (n, pw, ph, cols, rows)
    if best is None:
        raise LayoutError(f"a hex tile {f:g} mm across flats does not fit on the page")
    per, pw, ph, cols, rows = best
    if nest.orientation == "pointy":
        bw, bh = cols * f + (f / 2 if rows > 1 else 0.0), long + (rows - 1) * 0.75 * long
    else:
        bw, bh = long + (cols - 1) * 0.75 * long, rows * f + (f / 2 if cols > 1 else 0.0)
    x0, y0 = (pw - bw) / 2, (ph - bh) / 2
    sheets: list[Sheet] = []
    for start in range(0, len(items), per):
        sheet = Sheet(pw, ph, kind="hex")
        for k, ci in enumerate(items[start:start + per]):
            r, c = divmod(k, cols)
            if nest.orientation == "pointy":
                cx = x0 + f / 2 + c * f + (f / 2 if r % 2 else 0.0)
                cy = y0 + long / 2 + r * 0.75 * long
            else:
                cx = x0 + long / 2 + c * 0.75 * long
                cy = y0 + f / 2 + r * f + (f / 2 if c % 2 else 0.0)
            d = components[ci].front
            x, y = cx - d.width / 2, cy - d.height / 2
            sheet.placements.append(Placement(ci, "front", x, y, "outline"))
            sheet.cuts += _cuts_at(components[ci].id, d, x, y)
        _finish_nest(components, sheet, sheets, settings)
    return sheets


def _impose_poly(components: Sequence[Component], indices: list[int], cell: float,
                 settings: PrintSettings) -> list[Sheet]:
    items = _expand(components, indices)
    shapes: dict[int, tuple[tuple[int, int], ...]] = {}
    for ci in set(items):
        nest = components[ci].nest
        assert isinstance(nest, PolyNest)
        r0 = min(r for r, _ in nest.cells)
        c0 = min(c for _, c in nest.cells)
        shapes[ci] = tuple(sorted((r - r0, c - c0) for r, c in nest.cells))
    best: tuple[int, float, float, int, int] | None = None
    for pw, ph in _orientations(settings):
        cols = int((pw - 2 * settings.margin + _EPS) // cell)
        rows = int((ph - 2 * settings.margin + _EPS) // cell)
        if best is None or cols * rows > best[0]:
            best = (cols * rows, pw, ph, cols, rows)
    assert best is not None
    _, pw, ph, cols, rows = best
    x0, y0 = (pw - cols * cell) / 2, (ph - rows * cell) / 2
    # largest pieces first (first-fit decreasing), ties in deck order
    order = sorted(range(len(items)), key=lambda k: (-len(shapes[items[k]]), k))
    pages: list[tuple[set[tuple[int, int]], list[tuple[int, int, int]]]] = []
    for k in order:
        ci = items[k]
        shape = shapes[ci]
        mr = max(r for r, _ in shape)
        mc = max(c for _, c in shape)
        if mr >= rows or mc >= cols:
            raise LayoutError(
                f"{components[ci].id}: a piece {mc + 1} x {mr + 1} cells of {cell:g} mm does "
                f"not fit on a {pw:g} x {ph:g} mm page with {settings.margin:g} mm margins"
            )
        placed = False
        for used, placed_list in pages:
            spot = _first_fit(shape, used, rows, cols, mr, mc)
            if spot is not None:
                used.update((spot[0] + r, spot[1] + c) for r, c in shape)
                placed_list.append((ci, spot[0], spot[1]))
                placed = True
                break
        if not placed:
            used = set(shape)
            pages.append((used, [(ci, 0, 0)]))
    sheets: list[Sheet] = []
    for _, placed_list in pages:
        sheet = Sheet(pw, ph, kind="poly")
        for ci, r, c in placed_list:
            d = components[ci].front
            x, y = x0 + c * cell, y0 + r * cell
            sheet.placements.append(Placement(ci, "front", x, y, "outline"))
            sheet.cuts += _cuts_at(components[ci].id, d, x, y)
        _finish_nest(components, sheet, sheets, settings)
    return sheets


def _first_fit(shape: tuple[tuple[int, int], ...], used: set[tuple[int, int]], rows: int,
               cols: int, mr: int, mc: int) -> tuple[int, int] | None:
    for r in range(rows - mr):
        for c in range(cols - mc):
            if all((r + dr, c + dc) not in used for dr, dc in shape):
                return (r, c)
    return None


def _finish_nest(components: Sequence[Component], sheet: Sheet, sheets: list[Sheet],
                 settings: PrintSettings) -> None:
    """Printed shared cut lines on the front, then the back sheet if duplex."""
    for cp in merge_outlines(sheet.cuts):
        for line in cp.polylines:
            sheet.marks.append(Polygon(line, stroke=CUT_LINE, closed=cp.closed))
    sheets.append(sheet)
    has_backs = any(components[p.index].back is not None for p in sheet.placements)
    if has_backs and settings.duplex != "none":
        sheets.append(_back_sheet(components, sheet, settings))


# --- page components ---------------------------------------------------------------------------

def _impose_page(components: Sequence[Component], ci: int, settings: PrintSettings
                 ) -> list[Sheet]:
    c = components[ci]
    d = c.front
    need_w = d.width + 2 * d.bleed + 2 * settings.margin
    need_h = d.height + 2 * d.bleed + 2 * settings.margin
    fits = [(pw, ph) for pw, ph in _orientations(settings) if pw >= need_w and ph >= need_h]
    if fits:
        wide = d.width > d.height
        pw, ph = next(((pw, ph) for pw, ph in fits if (pw > ph) == wide), fits[0])
    else:
        # larger than the paper: a page of its own size (printed at 100 % on larger paper)
        pw, ph = need_w, need_h
    sheets: list[Sheet] = []
    for _ in range(max(c.copies, 0)):
        sheet = Sheet(pw, ph, kind="page")
        x, y = (pw - d.width) / 2, (ph - d.height) / 2
        sheet.placements.append(Placement(ci, "front", x, y))
        sheet.cuts += _cuts_at(c.id, d, x, y)
        sheet.folds += _folds_at(d, x, y)
        if settings.crop_marks:
            b = d.bleed
            sheet.marks = _marks_for_grid([x, x + d.width], [y, y + d.height],
                                          (x - b, y - b, x + d.width + b, y + d.height + b),
                                          sheet)
        sheets.append(sheet)
        if c.back is not None and settings.duplex != "none":
            sheets.append(_back_sheet(components, sheet, settings))
    return sheets


# --- calibration -------------------------------------------------------------------------------

CALIBRATION_TEXT = (
    "**Duplex calibration.** Print this sheet on both sides, exactly as you will print the "
    "deck (same printer, paper, scale 100 %, same flip setting). Hold the sheet against a "
    "light and look at the back side: each front cross shows through onto a scale. The "
    "scale values under the front cross's centre are the correction in mm: add them to "
    "print.back_offset (x to the right, y down, as seen on the back) and print again "
    "until every front cross falls on 0."
)


def _cross(x: float, y: float, arm: float, stroke: Stroke) -> list[Item]:
    return [Line(x - arm, y, x + arm, y, stroke), Line(x, y - arm, x, y + arm, stroke)]


def _calibration(settings: PrintSettings, page: tuple[float, float]) -> list[Sheet]:
    """The calibration pair on ``page`` (width, height): the paper and orientation of the
    duplex sheets it calibrates, so its flip mirrors the same axis and ``back_offset``
    shifts the same way as on those sheets."""
    pw, ph = page
    inset = 30.0
    spots = [(inset, inset), (pw - inset, inset), (pw / 2, ph / 2), (inset, ph - inset),
             (pw - inset, ph - inset)]
    front = Sheet(pw, ph, kind="calibration")
    thin = Stroke("#000000", 0.15)
    for x, y in spots:
        front.extras += _cross(x, y, 8.0, thin)
        front.extras.append(Polygon(((x - 2, y - 2), (x + 2, y - 2), (x + 2, y + 2),
                                     (x - 2, y + 2)), stroke=thin))
    front.extras.append(TextBox(45.0, 55.0, pw - 90.0, 40.0, CALIBRATION_TEXT, size=9.0,
                                min_size=6.0, owner="calibration page"))
    front.extras.append(TextBox(45.0, ph - 60.0, pw - 90.0, 8.0,
                                f"**FRONT** · duplex: {settings.duplex} · back_offset now: "
                                f"{settings.back_offset[0]:g}, {settings.back_offset[1]:g} mm",
                                size=8.0, min_size=5.0, owner="calibration page"))
    back = Sheet(pw, ph, back=True, kind="calibration")
    axis = mirror_axis(settings.duplex, pw, ph)
    ox, oy = float(settings.back_offset[0]), float(settings.back_offset[1])
    for x, y in spots:
        bx, by = (pw - x, y) if axis == "x" else (x, ph - y)
        back.extras += _scale(bx + ox, by + oy)
    back.extras.append(TextBox(45.0, ph - 60.0, pw - 90.0, 8.0,
                               "**BACK** · read the scales where the front crosses show "
                               "through", size=8.0, min_size=5.0, owner="calibration page"))
    return [front, back]


def _scale(x: float, y: float) -> list[Item]:
    """Two scales crossing at (x, y): ticks every 0.5 mm, labelled every 2 mm, -6..6 mm."""
    s = Stroke("#000000", 0.1)
    out: list[Item] = [Line(x - 6.5, y, x + 6.5, y, s), Line(x, y - 6.5, x, y + 6.5, s)]
    for i in range(-12, 13):
        v = i * 0.5
        t = 1.6 if i % 4 == 0 else (1.0 if i % 2 == 0 else 0.6)
        out.append(Line(x + v, y - t, x + v, y + t, s))
        out.append(Line(x - t, y + v, x + t, y + v, s))
        if i % 4 == 0 and i:
            out.append(TextBox(x + v - 2.0, y + 2.0, 4.0, 2.2, f"{v:g}", size=5.0,
                               min_size=3.0, align="center", owner="calibration scale"))
            out.append(TextBox(x + 2.2, y + v - 1.1, 4.0, 2.2, f"{v:g}", size=5.0,
                               min_size=3.0, owner="calibration scale"))
    return out


# --- imposition --------------------------------------------------------------------------------

def impose(components: Sequence[Component], settings: PrintSettings) -> list[Sheet]:
    """Every sheet of sheets.pdf, in print order: calibration (on the paper and in the
    orientation of the first duplex sheet), then one run of sheets per group of components
    (grid groups by size, nests by kind, page components one by one), groups in order of
    first appearance."""
    groups: dict[tuple[object, ...], list[int]] = {}
    for i, c in enumerate(components):
        if c.imposition == "grid":
            d = c.front
            key: tuple[object, ...] = ("grid", round(d.width, 4), round(d.height, 4),
                                       round(d.bleed, 4))
        elif c.imposition == "nest":
            if isinstance(c.nest, HexNest):
                key = ("hex", c.nest.flat_to_flat, c.nest.orientation)
            elif isinstance(c.nest, PolyNest):
                key = ("poly", c.nest.cell_mm)
            else:
                raise LayoutError(f"{c.id}: a nest component needs a HexNest or PolyNest hint")
        else:
            key = ("page", i)
        groups.setdefault(key, []).append(i)
    sheets: list[Sheet] = []
    for key, idx in groups.items():
        if key[0] == "grid":
            sheets += _impose_grid(components, idx, settings)
        elif key[0] == "hex":
            nest = components[idx[0]].nest
            assert isinstance(nest, HexNest)
            sheets += _impose_hex(components, idx, nest, settings)
        elif key[0] == "poly":
            sheets += _impose_poly(components, idx, float(str(key[1])), settings)
        else:
            sheets += _impose_page(components, idx[0], settings)
    if settings.calibration and settings.duplex in ("long-edge", "short-edge"):
        ref = next((s for s in sheets if s.back), None)
        a, b = settings.page.width, settings.page.height
        page = (ref.width, ref.height) if ref is not None else (min(a, b), max(a, b))
        sheets = _calibration(settings, page) + sheets
    return sheets


# --- print files: which sheet goes into which PDF, slugs, registration marks ---------------

PrintFile = Literal["sheets", "boards", "proofs"]
PRINT_FILES: tuple[PrintFile, ...] = ("sheets", "boards", "proofs")
"""The imposed PDFs of a build: ``sheets.pdf`` (front/back pairs when printing duplex),
``boards.pdf`` (single-sided pages: boards, score pads, sheets of components without
backs), ``proofs.pdf`` (proof pages, which nobody prints duplex with the deck)."""

PRINTER_EDGE = 4.0
"""No slug closer than this to the paper edge (mm): most home printers cannot print the
outer 3-4 mm."""
SLUG_H = 2.4
"""Height of the page slug's strip (mm)."""
SLUG_PT = 5.0
"""Slug text size (pt): readable, and small beside the art."""
SLUG_CLEAR = 1.0
"""The slug and scale bar keep this clear of art, crop marks and each other (mm)."""
SCALE_MM = 10.0
"""Length of the scale bar on every sheet: measure it to check the print is at 100 %."""
REG_INSET = 3.0
"""Registration marks: distance from each paper corner to the mark's outer edge (mm)."""
REG_SIZE = 5.0
"""Registration marks: side of the filled square and arm length of the corner marks (mm)."""
REG_THICK = 0.5
"""Registration marks: thickness of the corner marks' arms (mm)."""
REG_CLEAR = 1.0
"""Registration marks keep this clear of any art or crop mark (mm), or are left out."""


def sheet_pairs(sheets: Sequence[Sheet]) -> list[tuple[Sheet, Sheet | None]]:
    """Each front sheet with the back sheet that follows it (None when single-sided)."""
    out: list[tuple[Sheet, Sheet | None]] = []
    for sh in sheets:
        if sh.back and out and out[-1][1] is None:
            out[-1] = (out[-1][0], sh)
        else:
            out.append((sh, None))
    return out


def split_print_files(components: Sequence[Component], sheets: Sequence[Sheet],
                      settings: PrintSettings) -> dict[PrintFile, list[Sheet]]:
    """Sheets by file. With ``long-edge``/``short-edge`` duplex, ``sheets.pdf`` holds only
    front/back pairs (page 2k-1 is a front, page 2k its back), so the whole file prints as one
    duplex job; every single-sided sheet goes to ``boards.pdf``. Without duplex (``none``,
    ``gutter-fold``) the component sheets stay in ``sheets.pdf`` and only page components go
    to ``boards.pdf``; likewise for a deck with no backs at all (nothing to print duplex).
    Proof pages always go to ``proofs.pdf``."""
    duplex = settings.duplex in ("long-edge", "short-edge") and any(s.back for s in sheets)
    out: dict[PrintFile, list[Sheet]] = {f: [] for f in PRINT_FILES}
    for front, back in sheet_pairs(sheets):
        kinds = {components[p.index].kind for p in front.placements}
        pair = [front] if back is None else [front, back]
        if front.kind == "page" and kinds == {"proof"}:
            out["proofs"] += pair
        elif back is not None:
            out["sheets"] += pair
        elif front.kind == "page" or duplex:
            out["boards"].append(front)
        else:
            out["sheets"].append(front)
    return out


Box = tuple[float, float, float, float]


def item_box(it: Item) -> Box:
    """(x0, y0, x1, y1) of a sheet item (strokes widen lines by half their width)."""
    if isinstance(it, Line):
        h = it.stroke.width / 2
        return (min(it.x1, it.x2) - h, min(it.y1, it.y2) - h, max(it.x1, it.x2) + h,
                max(it.y1, it.y2) + h)
    if isinstance(it, Polygon):
        xs = [p[0] for p in it.points]
        ys = [p[1] for p in it.points]
        return (min(xs), min(ys), max(xs), max(ys))
    if isinstance(it, TextBox | Rect):
        return (it.x, it.y, it.x + it.w, it.y + it.h)
    if isinstance(it, Circle):
        return (it.cx - it.r, it.cy - it.r, it.cx + it.r, it.cy + it.r)
    return (0.0, 0.0, 0.0, 0.0)


def _overlaps(a: Box, b: Box, gap: float = 0.0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def sheet_boxes(components: Sequence[Component], sheet: Sheet) -> list[Box]:
    """Boxes of everything on a sheet: each face with its bleed, marks and extras."""
    boxes: list[Box] = []
    for p in sheet.placements:
        d = face_drawing(components[p.index], p.face)
        b = d.bleed if p.clip == "bleed" else 0.0
        boxes.append((p.x - b, p.y - b, p.x + d.width + b, p.y + d.height + b))
    boxes += [item_box(it) for it in (*sheet.marks, *sheet.extras)]
    return boxes


def registration_marks(width: float, height: float) -> list[Item]:
    """Print-and-cut registration marks (the Silhouette / Cricut-style three-corner set):
    a filled square at the top-left, corner marks at the top-right and bottom-left, each
    ``REG_SIZE`` mm, ``REG_INSET`` mm from the paper corner; the bottom-right is empty so the
    machine finds the orientation."""
    i, s, t = REG_INSET, REG_SIZE, REG_THICK
    ink = "#000000"
    return [
        Rect(i, i, s, s, fill=ink),
        Polygon(((width - i - s, i), (width - i, i), (width - i, i + s), (width - i - t, i + s),
                 (width - i - t, i + t), (width - i - s, i + t)), fill=ink),
        Polygon(((i, height - i - s), (i + t, height - i - s), (i + t, height - i - t),
                 (i + s, height - i - t), (i + s, height - i), (i, height - i)), fill=ink),
    ]


def _add_registration(components: Sequence[Component], sheet: Sheet) -> None:
    marks = registration_marks(sheet.width, sheet.height)
    boxes = sheet_boxes(components, sheet)
    if any(_overlaps(item_box(m), b, REG_CLEAR) for m in marks for b in boxes):
        return
    sheet.registration = marks
    sheet.marks += marks


def scale_bar(x: float, y: float) -> list[Item]:
    """A 10 mm scale bar with end ticks and its label, from (x, y) top-left."""
    ink = Stroke("#000000", 0.2)
    mid = y + SLUG_H / 2
    label = "10 mm"
    lw = text_width(label, SLUG_PT) * MM_PER_PT + 0.6
    return [
        Line(x, mid, x + SCALE_MM, mid, ink),
        Line(x, y + 0.3, x, y + SLUG_H - 0.3, ink),
        Line(x + SCALE_MM, y + 0.3, x + SCALE_MM, y + SLUG_H - 0.3, ink),
        TextBox(x + SCALE_MM + 0.8, y, lw, SLUG_H, label, size=SLUG_PT, min_size=SLUG_PT,
                valign="middle", owner="scale bar"),
    ]


SCALE_BAR_W = SCALE_MM + 0.8 + 8.0
"""Room the scale bar and its label take (mm)."""
SLUG_SIZES = (SLUG_PT, 4.5, 4.0)
"""Slug text sizes tried in turn (pt); 4 pt is the smallest a print shop reads."""


def _place(sheet: Sheet, boxes: list[Box], w: float, rows: list[float]) -> Box | None:
    lo, hi = PRINTER_EDGE, sheet.height - PRINTER_EDGE - SLUG_H
    for y in rows:
        if y < lo - 1e-9 or y > hi + 1e-9:
            continue
        x = PRINTER_EDGE
        while x + w <= sheet.width - PRINTER_EDGE + 1e-9:
            box = (x, y, x + w, y + SLUG_H)
            hit = [b for b in boxes if _overlaps(box, b, SLUG_CLEAR)]
            if not hit:
                return box
            x = max(b[2] for b in hit) + SLUG_CLEAR + 0.01
    return None


def _add_slug(components: Sequence[Component], sheet: Sheet, text: str) -> bool:
    """Put the slug text and the scale bar where they touch nothing: just below the art
    (between crop marks), else just above it, else anywhere in the margins; False when no
    spot is free for either."""
    boxes = sheet_boxes(components, sheet)
    art = [b for b in boxes if b[2] - b[0] > 2 and b[3] - b[1] > 2]
    top = min((b[1] for b in art), default=sheet.height / 2)
    bottom = max((b[3] for b in art), default=sheet.height / 2)
    hi = sheet.height - PRINTER_EDGE - SLUG_H
    rows = [bottom + 0.8, top - 0.8 - SLUG_H]
    rows += [hi - k * 0.5 for k in range(int((hi - PRINTER_EDGE) / 0.5) + 1)]
    placed = None
    for size in SLUG_SIZES:
        tw = text_width(text, size) * MM_PER_PT + 0.6
        placed = _place(sheet, boxes, tw, rows)
        if placed is not None:
            x, y, x1, _ = placed
            sheet.extras.append(TextBox(x, y, tw, SLUG_H, text, size=size, min_size=size,
                                        valign="middle", owner="page slug"))
            boxes.append(placed)
            break
    bar = _place(sheet, boxes, SCALE_BAR_W, rows)
    if bar is not None:
        sheet.extras += scale_bar(bar[0], bar[1])
    return placed is not None and bar is not None


def _unstamped(components: Sequence[Component], sheet: Sheet, stamp: Stamp,
               safe: float) -> str:
    """The indices (``#3, #7-9``) of the components on this sheet that have no room for
    their stamp on either side: the sheet's slug carries their stamp instead."""
    seen: set[int] = set()
    for p in sheet.placements:
        c = components[p.index]
        number = c.index or p.index + 1
        if number not in seen and place_stamp(c, stamp.text(number, c.id), safe) is None:
            seen.add(number)
    runs: list[list[int]] = []
    for k in sorted(seen):
        if runs and runs[-1][1] == k - 1:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    return ", ".join(f"#{a}" if a == b else f"#{a}-{b}" for a, b in runs)


SLUG_NAMES: dict[PrintFile, str] = {"sheets": "sheets.pdf", "boards": "boards.pdf",
                                    "proofs": "proofs.pdf"}


def plan_print_files(components: Sequence[Component], settings: PrintSettings,
                     stamp: Stamp | None) -> dict[PrintFile, list[Sheet]]:
    """Every imposed PDF's sheets, each with its page slug (deck, file, page n/N,
    FRONT/BACK, "print at 100 %") beside a 10 mm scale bar, and print-and-cut registration
    marks on every front sheet with components to cut (where the corners are free)."""
    files = split_print_files(components, impose(components, settings), settings)
    who = f"{stamp.deck} v{stamp.version} · seed {stamp.seed}" if stamp else "PaperProof"
    for name, sheets in files.items():
        total = len(sheets)
        for n, sheet in enumerate(sheets, start=1):
            if sheet.cuts and not sheet.back and name != "proofs" and sheet.kind != "calibration":
                _add_registration(components, sheet)
            side = "BACK" if sheet.back else "FRONT"
            text = f"{who} · {SLUG_NAMES[name]} {n}/{total} · {side} · print at 100 %"
            if stamp is not None and settings.stamp and not sheet.back:
                bare = _unstamped(components, sheet, stamp, float(settings.safe))
                if bare:
                    text += f" · stamps {bare}"
            _add_slug(components, sheet, text)
    return files


def cut_paths(components: Sequence[Component], settings: PrintSettings
              ) -> list[tuple[Sheet, list[CutPath]]]:
    """The merged trim paths of every front sheet, as imposed."""
    return [(s, merge_outlines(s.cuts)) for s in impose(components, settings)
            if s.cuts and not s.back]


__all__ = [
    "CUT_LINE",
    "FOLD_LINE",
    "GridPlan",
    "Placement",
    "Sheet",
    "Stamp",
    "PRINT_FILES",
    "PrintFile",
    "cut_paths",
    "impose",
    "plan_print_files",
    "registration_marks",
    "sheet_pairs",
    "split_print_files",
    "mirror_axis",
    "plan_grid",
]
