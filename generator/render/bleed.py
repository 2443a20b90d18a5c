"""Art extended outward into a bleed the layout did not draw.

A print-on-demand shop needs every page's art to run past the trim (``BleedBox`` larger than
``TrimBox``), but some faces are drawn without bleed on purpose: hex tiles and polyomino
pieces share cut lines on sheets (no room for bleed between neighbours), and boards and proof
pages are printed on paper with a margin. For the pod page :func:`bleed_underlay` supplies
the missing bleed: the outline is cut into short segments, each segment's colour is sampled
just inside the trim, and a strip of that colour is painted outward across the segment,
``bleed`` wide and overlapping its neighbours, under the real art (which is then clipped to
the outline). A two-habitat hex gets each side's own colour; a white page gets white.
"""

from __future__ import annotations

import math

from .drawing import Circle, Colour, Path, Point, Rect
from .flatten import Flat, bbox, inside

SEGMENT = 4.0
"""Longest outline segment that gets one sampled colour (mm): short enough to follow a
two-colour edge, long enough to keep a page's underlay to a few hundred strips."""
SAMPLE_INSET = 0.4
"""How far inside the trim each colour is sampled (mm): past a hairline edge stroke."""
OVERLAP = 0.05
"""Each strip reaches this far into its neighbours (mm), so no hairline gap shows."""
BASE_MIN = 6.0
"""Only shapes at least this wide and tall (mm) count as the colour of an edge: a tile's
ground and a piece's squares do, pattern dots and small icons do not (they would smear
into dark blocks across the bleed)."""
PAPER: Colour = "#ffffff"
"""The colour of a point no filled shape covers."""


def _covers(item: Flat, x: float, y: float) -> bool:
    x0, y0, x1, y1 = bbox(item)
    if min(x1 - x0, y1 - y0) < BASE_MIN:
        return False
    if isinstance(item, Rect):
        return item.x <= x <= item.x + item.w and item.y <= y <= item.y + item.h
    if isinstance(item, Circle):
        return math.hypot(x - item.cx, y - item.cy) <= item.r
    if isinstance(item, Path):
        pts = tuple((float(op[-2]), float(op[-1])) for op in item.ops if op[0] != "Z")
        return len(pts) >= 3 and inside((x, y), pts)
    return False


def colour_at(flat: list[Flat], x: float, y: float, default: Colour = PAPER) -> Colour:
    """The ground colour at (x, y): the topmost filled rectangle, circle or path at least
    :data:`BASE_MIN` on both sides covering the point (clips are ignored; curves are taken
    by their control polygon)."""
    for item in reversed(flat):
        fill = getattr(item, "fill", None)
        if fill is not None and _covers(item, x, y):
            return str(fill)
    return default


def _area(poly: tuple[Point, ...]) -> float:
    return sum(poly[i][0] * poly[(i + 1) % len(poly)][1]
               - poly[(i + 1) % len(poly)][0] * poly[i][1] for i in range(len(poly))) / 2


def bleed_underlay(flat: list[Flat], outline: tuple[Point, ...], bleed: float) -> list[Flat]:
    """Strips of sampled colour, ``bleed`` wide, outside every edge of ``outline``.

    Every strip is extended by ``bleed`` past the ends of its edge, so the corners of a
    convex outline are covered too (for any interior angle of 90 degrees or more). Paint the
    result first, then the face's own art clipped to the outline.
    """
    if bleed <= 0 or len(outline) < 3:
        return []
    sign = 1.0 if _area(outline) > 0 else -1.0  # y grows down: positive area is clockwise
    out: list[Flat] = []
    n = len(outline)
    for i in range(n):
        (x1, y1), (x2, y2) = outline[i], outline[(i + 1) % n]
        length = math.hypot(x2 - x1, y2 - y1)
        if length < 1e-6:
            continue
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        # outward normal (left of travel for a clockwise outline on a y-down page)
        nx, ny = uy * sign, -ux * sign
        parts = max(1, math.ceil(length / SEGMENT))
        for k in range(parts):
            t0, t1 = length * k / parts, length * (k + 1) / parts
            mx = x1 + ux * (t0 + t1) / 2 - nx * SAMPLE_INSET
            my = y1 + uy * (t0 + t1) / 2 - ny * SAMPLE_INSET
            colour = colour_at(flat, mx, my)
            a = t0 - (bleed if k == 0 else OVERLAP)
            b = t1 + (bleed if k == parts - 1 else OVERLAP)
            p0 = (x1 + ux * a - nx * OVERLAP, y1 + uy * a - ny * OVERLAP)
            p1 = (x1 + ux * b - nx * OVERLAP, y1 + uy * b - ny * OVERLAP)
            p2 = (p1[0] + nx * (bleed + OVERLAP), p1[1] + ny * (bleed + OVERLAP))
            p3 = (p0[0] + nx * (bleed + OVERLAP), p0[1] + ny * (bleed + OVERLAP))
            out.append(Path((("M", p0[0], p0[1]), ("L", p1[0], p1[1]), ("L", p2[0], p2[1]),
                             ("L", p3[0], p3[1]), ("Z",)), fill=colour))
    return out
