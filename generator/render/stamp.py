"""The stamp zone: where a component's stamp (deck, version, seed, index) may go.

The stamp is set in 4.5 pt (4 pt at the least, the smallest a print shop reads), inside the
safe zone (``print.safe`` inside the trim, also inside a hex's or a piece's outline), and
never over another element. :func:`find_stamp` searches the face's free area, lowest rows
first, centred first; a face with no free strip (a small token full of art, a patterned hex)
gets none, and :func:`place_stamp` then tries the component's back. A component stamped on
neither side is listed in its sheet's slug instead (``generator.render.impose``).

What counts as another element (:func:`element_boxes`): every flat item except the face's
ground: a filled shape covering at least :data:`GROUND_SHARE` of the trim is ground (a
card's background, a tile's habitat), and a stroke-only shape that large is a frame, of
which only its stroked edges count.
"""

from __future__ import annotations

import math
from functools import lru_cache

from ..units import MM_PER_PT
from .component import Component, Face, face_drawing, faces_of
from .drawing import Circle, Drawing, Path, Rect, TextBox
from .flatten import ClipBegin, ClipEnd, Flat, Text, bbox, flatten, inside
from .fonts import text_width

STAMP_SIZES = (4.5, 4.0)
"""Stamp text sizes tried in turn (pt): never below 4 pt."""
STAMP_H = 2.0
"""Height of the stamp's strip (mm): a 4.5 pt line with its descenders."""
STAMP_CLEAR = 0.3
"""Gap kept between the stamp and any other element (mm)."""
GROUND_SHARE = 0.5
"""A filled or framing shape covering this share of the trim area is the face's ground or
frame, not an element the stamp must avoid (its stroked edges still are)."""
STEP = 0.25
"""Search step of the stamp's rows (mm)."""
STAMP_COLOUR = "#707070"

Box = tuple[float, float, float, float]


def _segments(item: Flat) -> list[tuple[float, float, float, float]]:
    if isinstance(item, Rect):
        x0, y0, x1, y1 = item.x, item.y, item.x + item.w, item.y + item.h
        return [(x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)]
    if isinstance(item, Path):
        out: list[tuple[float, float, float, float]] = []
        start: tuple[float, float] | None = None
        last: tuple[float, float] | None = None
        for op in item.ops:
            if op[0] == "Z":
                if last is not None and start is not None:
                    out.append((*last, *start))
                last = start
                continue
            pt = (float(op[-2]), float(op[-1]))
            if op[0] == "M":
                start = pt
            elif last is not None:
                out.append((*last, *pt))
            last = pt
        return out
    return []


def text_box(t: Text) -> Box:
    """The ink box of a text run: ascender above the baseline, descender below."""
    up, down = 0.8 * t.size, 0.25 * t.size
    if not t.angle:
        return (t.x, t.y - up, t.x + t.width, t.y + down)
    r = math.radians(t.angle)
    pts = [(t.x + dx * math.cos(r) - dy * math.sin(r), t.y + dx * math.sin(r) + dy * math.cos(r))
           for dx in (0.0, t.width) for dy in (-up, down)]
    return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts),
            max(p[1] for p in pts))


def element_boxes(flat: list[Flat], d: Drawing) -> list[Box]:
    """The boxes the stamp must keep clear of (see the module docstring)."""
    area = d.width * d.height
    out: list[Box] = []
    for it in flat:
        if isinstance(it, ClipBegin | ClipEnd):
            continue
        if isinstance(it, Text):
            out.append(text_box(it))
            continue
        x0, y0, x1, y1 = bbox(it)
        big = (min(x1, d.width) - max(x0, 0.0)) * (min(y1, d.height) - max(y0, 0.0)) \
            >= GROUND_SHARE * area
        if not big:
            out.append((x0, y0, x1, y1))
            continue
        stroke = getattr(it, "stroke", None)
        if stroke is None:
            continue
        h = stroke.width / 2
        if isinstance(it, Circle):
            out.append((x0 - h, y0 - h, x1 + h, y1 + h))  # a ring: its box, to be safe
            continue
        for ax, ay, bx, by in _segments(it):
            out.append((min(ax, bx) - h, min(ay, by) - h, max(ax, bx) + h, max(ay, by) + h))
    return out


def _overlaps(a: Box, b: Box, gap: float) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def _dist_to_edges(pt: tuple[float, float], poly: tuple[tuple[float, float], ...]) -> float:
    best = math.inf
    n = len(poly)
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        dx, dy = bx - ax, by - ay
        ll = dx * dx + dy * dy
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((pt[0] - ax) * dx + (pt[1] - ay) * dy) / ll))
        best = min(best, math.hypot(pt[0] - ax - t * dx, pt[1] - ay - t * dy))
    return best


def _in_safe(box: Box, d: Drawing, safe: float) -> bool:
    x0, y0, x1, y1 = box
    if not d.cut:
        return (x0 >= safe - 1e-9 and y0 >= safe - 1e-9 and x1 <= d.width - safe + 1e-9
                and y1 <= d.height - safe + 1e-9)
    pts = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), ((x0 + x1) / 2, y0), ((x0 + x1) / 2, y1)]
    return all(inside(p, d.cut) and _dist_to_edges(p, d.cut) >= safe - 1e-9 for p in pts)


def _free_in_row(d: Drawing, row: list[Box], y: float, w: float, left: float, right: float,
                 safe: float) -> Box | None:
    """The first free box of width ``w`` in the row at ``y``: centred if free, else the
    leftmost, jumping past each obstacle it meets."""
    def free(x: float) -> tuple[bool, float]:
        box = (x, y, x + w, y + STAMP_H)
        hits = [o for o in row if o[0] < box[2] + STAMP_CLEAR and box[0] < o[2] + STAMP_CLEAR]
        if hits:
            return False, max(o[2] for o in hits) + STAMP_CLEAR + 0.01
        return _in_safe(box, d, safe), x + 0.5

    centre = (left + right - w) / 2
    ok, _ = free(centre)
    if ok:
        return (centre, y, centre + w, y + STAMP_H)
    x = left + safe
    while x + w <= right - safe + 1e-9:
        ok, nxt = free(x)
        if ok:
            return (x, y, x + w, y + STAMP_H)
        x = nxt
    return None


def find_stamp(d: Drawing, flat: list[Flat], text: str, safe: float,
               owner: str = "") -> TextBox | None:
    """The stamp's text box on this face, or None when no free strip holds it."""
    obstacles = element_boxes(flat, d)
    xs = [p[0] for p in d.outline()]
    ys = [p[1] for p in d.outline()]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    for size in STAMP_SIZES:
        w = text_width(text, size) * MM_PER_PT + 0.4
        if w > right - left - 2 * safe:
            continue
        y = bottom - safe - STAMP_H
        while y >= top + safe - 1e-9:
            row = [o for o in obstacles
                   if o[1] < y + STAMP_H + STAMP_CLEAR and y < o[3] + STAMP_CLEAR]
            box = _free_in_row(d, row, y, w, left, right, safe)
            if box is not None:
                return TextBox(box[0], y, w, STAMP_H, text, size=size, min_size=size,
                               align="center", valign="bottom", colour=STAMP_COLOUR,
                               owner=owner)
            y -= STEP
    return None


@lru_cache(maxsize=4096)
def place_stamp(c: Component, text: str, safe: float) -> tuple[Face, TextBox] | None:
    """Where the stamp of ``c`` goes: its front if a strip is free there, else its back;
    None when neither side has room (the sheet slug lists it then). Cached: the sheets,
    the pod pages, the SVGs and the slug ask for the same components."""
    if not text:
        return None
    for face in faces_of(c):
        d = face_drawing(c, face)
        box = find_stamp(d, flatten(d), text, safe, owner=f"{c.id} stamp")
        if box is not None:
            return face, box
    return None
