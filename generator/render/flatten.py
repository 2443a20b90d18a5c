"""Flatten a drawing: groups and transforms applied, text laid out, symbols expanded.

Both painters consume the same flat list, so everything that decides *where* ink goes
(transforms, text wrapping and shrinking, symbol geometry) happens once, here. The flat list
holds only:

- :class:`~generator.render.drawing.Rect` (axis-aligned; a rotated rect becomes a Path),
- :class:`~generator.render.drawing.Circle`,
- :class:`~generator.render.drawing.Path` (lines and polygons become paths),
- :class:`Text` (one laid-out run),
- :class:`ClipBegin` / :class:`ClipEnd` (a clip region around a group's items).

Coordinates stay in the drawing's trim coordinates (mm, y down); painters add the page offset.
Items under an identity transform are passed through unchanged (no copies), which keeps
flattening cheap for the common case of a flat card layout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .drawing import (
    Circle,
    Colour,
    Drawing,
    Group,
    Image,
    Item,
    Line,
    Path,
    PathOp,
    Polygon,
    Rect,
    Stroke,
    Symbol,
    TextBox,
)
from .symbols import get_symbol, recolour
from .text import layout_text

KAPPA = 0.5522847498307936
"""Bezier handle length of a quarter circle, as a fraction of the radius."""


@dataclass(frozen=True)
class Text:
    """One run of text: baseline start (x, y) in mm, font size in mm, advance width in mm,
    and rotation in degrees (clockwise, as y grows down)."""

    x: float
    y: float
    text: str
    size: float
    bold: bool
    italic: bool
    colour: Colour
    width: float
    angle: float = 0.0
    font: str = ""
    """Font family key (``""``: Noto Sans; see :mod:`.fonts`)."""


@dataclass(frozen=True)
class ClipBegin:
    """Start clipping to the closed path ``ops`` (until the matching :class:`ClipEnd`).
    ``rect`` (x, y, w, h) is set when the path is an axis-aligned rectangle, so the PDF
    painter can write one ``re`` instead of a five-point path."""

    ops: tuple[PathOp, ...]
    rect: tuple[float, float, float, float] | None = None


def clip_rect(x: float, y: float, w: float, h: float) -> ClipBegin:
    """A clip to an axis-aligned rectangle."""
    return ClipBegin(rect_ops(x, y, w, h), (x, y, w, h))


@dataclass(frozen=True)
class ClipEnd:
    """End the innermost clip."""


@dataclass(frozen=True)
class Picture:
    """An image drawn through ``matrix``: the affine map from the image's unit square (u, v
    in 0..1, v down) to trim coordinates. ``ref`` names it in :mod:`.images`."""

    ref: str
    matrix: tuple[float, float, float, float, float, float]


Flat = Rect | Circle | Path | Text | ClipBegin | ClipEnd | Picture

Affine = tuple[float, float, float, float, float, float]
"""(a, b, c, d, e, f): x' = a x + c y + e, y' = b x + d y + f."""
IDENTITY: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def compose(outer: Affine, inner: Affine) -> Affine:
    """The transform applying ``inner`` first, then ``outer``."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (
        a1 * a2 + c1 * b2,
        b1 * a2 + d1 * b2,
        a1 * c2 + c1 * d2,
        b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1,
        b1 * e2 + d1 * f2 + f1,
    )


def group_transform(g: Group) -> Affine:
    """Scale, then rotate (clockwise on the page), then translate."""
    r = math.radians(g.rotate)
    cos, sin = math.cos(r) * g.scale, math.sin(r) * g.scale
    return (cos, sin, -sin, cos, g.dx, g.dy)


def apply(t: Affine, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = t
    return (a * x + c * y + e, b * x + d * y + f)


def _scale_of(t: Affine) -> float:
    return math.sqrt(abs(t[0] * t[3] - t[1] * t[2]))


def _angle_of(t: Affine) -> float:
    return math.degrees(math.atan2(t[1], t[0]))


def _is_axis_scale(t: Affine) -> bool:
    return t[1] == 0.0 and t[2] == 0.0 and t[0] == t[3] and t[0] > 0.0


def _stroke(s: Stroke | None, k: float) -> Stroke | None:
    if s is None or k == 1.0:
        return s
    return Stroke(s.colour, s.width * k, tuple(d * k for d in s.dash))


def rect_ops(x: float, y: float, w: float, h: float, radius: float = 0.0) -> tuple[PathOp, ...]:
    """A rectangle (rounded when ``radius``) as a closed path, clockwise on the page."""
    r = min(radius, w / 2, h / 2)
    if r <= 0:
        return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))
    k = r * KAPPA
    return (
        ("M", x + r, y),
        ("L", x + w - r, y),
        ("C", x + w - r + k, y, x + w, y + r - k, x + w, y + r),
        ("L", x + w, y + h - r),
        ("C", x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h),
        ("L", x + r, y + h),
        ("C", x + r - k, y + h, x, y + h - r + k, x, y + h - r),
        ("L", x, y + r),
        ("C", x, y + r - k, x + r - k, y, x + r, y),
        ("Z",),
    )


def polygon_ops(points: tuple[tuple[float, float], ...], closed: bool = True) -> tuple[PathOp, ...]:
    ops: list[PathOp] = []
    for i, (x, y) in enumerate(points):
        ops.append(("M", x, y) if i == 0 else ("L", x, y))
    if closed and points:
        ops.append(("Z",))
    return tuple(ops)


def transform_ops(ops: tuple[PathOp, ...], t: Affine) -> tuple[PathOp, ...]:
    out: list[PathOp] = []
    for op in ops:
        if op[0] == "Z":
            out.append(("Z",))
        elif op[0] == "C":
            x1, y1 = apply(t, op[1], op[2])
            x2, y2 = apply(t, op[3], op[4])
            x3, y3 = apply(t, op[5], op[6])
            out.append(("C", x1, y1, x2, y2, x3, y3))
        else:
            x, y = apply(t, op[1], op[2])
            out.append((op[0], x, y))
    return tuple(out)


def flatten_items(items: tuple[Item, ...], t: Affine = IDENTITY) -> list[Flat]:
    """Flatten ``items`` under transform ``t``."""
    out: list[Flat] = []
    _flatten(items, t, out)
    return out


def _flatten(items: tuple[Item, ...], t: Affine, out: list[Flat]) -> None:
    ident = t == IDENTITY
    for it in items:
        if isinstance(it, Rect):
            if ident:
                out.append(it)
            elif _is_axis_scale(t):
                k = t[0]
                x, y = apply(t, it.x, it.y)
                out.append(Rect(x, y, it.w * k, it.h * k, it.fill, _stroke(it.stroke, k),
                                it.radius * k))
            else:
                out.append(Path(transform_ops(rect_ops(it.x, it.y, it.w, it.h, it.radius), t),
                                it.fill, _stroke(it.stroke, _scale_of(t))))
        elif isinstance(it, Circle):
            if ident:
                out.append(it)
            else:
                k = _scale_of(t)
                cx, cy = apply(t, it.cx, it.cy)
                out.append(Circle(cx, cy, it.r * k, it.fill, _stroke(it.stroke, k)))
        elif isinstance(it, Line):
            ops: tuple[PathOp, ...] = (("M", it.x1, it.y1), ("L", it.x2, it.y2))
            s = _stroke(it.stroke, 1.0 if ident else _scale_of(t))
            out.append(Path(ops if ident else transform_ops(ops, t), None, s))
        elif isinstance(it, Polygon):
            ops = polygon_ops(it.points, it.closed)
            k = 1.0 if ident else _scale_of(t)
            # An open polyline is never filled: both painters would close it differently.
            fill = it.fill if it.closed else None
            out.append(Path(ops if ident else transform_ops(ops, t), fill, _stroke(it.stroke, k)))
        elif isinstance(it, Path):
            if ident:
                out.append(it)
            else:
                out.append(Path(transform_ops(it.ops, t), it.fill,
                                _stroke(it.stroke, _scale_of(t))))
        elif isinstance(it, TextBox):
            lay = layout_text(it)
            k = _scale_of(t)
            angle = 0.0 if ident else _angle_of(t)
            for r in lay.runs:
                x, y = (r.x, r.y) if ident else apply(t, r.x, r.y)
                out.append(Text(x, y, r.text, r.size * k, r.bold, r.italic, r.colour,
                                r.width * k, angle, r.font))
            _flatten(lay.symbols, t, out)
        elif isinstance(it, Symbol):
            inner: Affine = (it.size, 0.0, 0.0, it.size, it.x, it.y)
            _flatten(recolour(get_symbol(it.name), it.colour), compose(t, inner), out)
        elif isinstance(it, Image):
            _flatten_image(it, t, out)
        elif isinstance(it, Group):
            gt = compose(t, group_transform(it))
            if it.clip is not None:
                c = it.clip
                out.append(ClipBegin(transform_ops(rect_ops(c.x, c.y, c.w, c.h, c.radius), gt)))
                _flatten(it.items, gt, out)
                out.append(ClipEnd())
            else:
                _flatten(it.items, gt, out)
        else:  # pragma: no cover - the Item union is closed
            raise TypeError(f"not a drawing item: {it!r}")


_ANCHOR_X = {"left": 0.0, "right": 1.0}
_ANCHOR_Y = {"top": 0.0, "bottom": 1.0}


def image_box(it: Image, aspect: float) -> tuple[float, float, float, float]:
    """Where the image itself lands (x, y, w, h) for the frame, fit and anchor of ``it``; for
    ``cover`` it is larger than the frame (the painter clips to the frame)."""
    if it.fit == "stretch" or it.w <= 0 or it.h <= 0:
        return (it.x, it.y, it.w, it.h)
    frame = it.w / it.h
    wider = aspect > frame
    if (it.fit == "contain") == wider:
        w, h = it.w, it.w / aspect
    else:
        w, h = it.h * aspect, it.h
    parts = it.anchor.split("-")
    fx = next((_ANCHOR_X[p] for p in parts if p in _ANCHOR_X), 0.5)
    fy = next((_ANCHOR_Y[p] for p in parts if p in _ANCHOR_Y), 0.5)
    return (it.x + (it.w - w) * fx, it.y + (it.h - h) * fy, w, h)


def _flatten_image(it: Image, t: Affine, out: list[Flat]) -> None:
    from .images import get_image

    x, y, w, h = image_box(it, get_image(it.ref).aspect)
    matrix = compose(t, (w, 0.0, 0.0, h, x, y))
    if it.fit == "cover":
        out.append(ClipBegin(transform_ops(rect_ops(it.x, it.y, it.w, it.h), t)))
        out.append(Picture(it.ref, matrix))
        out.append(ClipEnd())
    else:
        out.append(Picture(it.ref, matrix))


def inside(pt: tuple[float, float], poly: tuple[tuple[float, float], ...]) -> bool:
    """Whether ``pt`` lies inside the closed polygon ``poly`` (even-odd rule)."""
    x, y = pt
    hit = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xc > x:
                hit = not hit
    return hit


STAMP_H = 2.0
"""Height of the stamp's text strip (mm)."""


def stamp_box(drawing: Drawing, text: str, owner: str = "") -> TextBox:
    """The stamp's text box: inside the trim, near the bottom edge, centred.

    Rectangular components get a strip 0.6 mm above the bottom trim. Shaped ones (hex tiles,
    polyomino pieces) get the lowest, widest strip whose corners and midpoints all lie inside
    their outline, searched on a grid of candidate positions.
    """
    w, h = drawing.width, drawing.height
    if not drawing.cut:
        return TextBox(1.0, h - STAMP_H - 0.6, w - 2.0, STAMP_H, text, size=4.5, min_size=2.0,
                       align="center", valign="bottom", colour="#707070", owner=owner)
    poly = drawing.cut
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    bw, bh = x1 - x0, y1 - y0
    for frac in (0.6, 0.45, 0.3, 0.2):
        sw = bw * frac
        for j in range(20):
            top = y1 - 1.0 - STAMP_H - j * (bh - STAMP_H - 2.0) / 19
            for i in range(11):
                left = x0 + (bw - sw) * (0.5 + (i + 1) // 2 * (1 if i % 2 else -1) / 10)
                corners = ((left, top), (left + sw, top), (left, top + STAMP_H),
                           (left + sw, top + STAMP_H), (left + sw / 2, top),
                           (left + sw / 2, top + STAMP_H))
                if all(inside(c, poly) for c in corners):
                    return TextBox(left, top, sw, STAMP_H, text, size=4.5, min_size=2.0,
                                   align="center", valign="bottom", colour="#707070",
                                   owner=owner)
    return TextBox(x0 + bw * 0.25, y0 + bh * 0.5, bw * 0.5, STAMP_H, text, size=4.5,
                   min_size=2.0, align="center", valign="bottom", colour="#707070", owner=owner)


def flatten(drawing: Drawing, stamp: str = "") -> list[Flat]:
    """The flat primitives of a drawing (background, items, then the stamp if given)."""
    out: list[Flat] = []
    if drawing.background is not None:
        b = drawing.bleed
        out.append(Rect(-b, -b, drawing.width + 2 * b, drawing.height + 2 * b,
                        fill=drawing.background))
    _flatten(drawing.items, IDENTITY, out)
    if stamp:
        _flatten((stamp_box(drawing, stamp),), IDENTITY, out)
    return out


def bbox(item: Flat) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a flat item's geometry (control points included for curves;
    for text: the baseline from start to start+width, at zero height)."""
    if isinstance(item, Rect):
        return (item.x, item.y, item.x + item.w, item.y + item.h)
    if isinstance(item, Circle):
        return (item.cx - item.r, item.cy - item.r, item.cx + item.r, item.cy + item.r)
    if isinstance(item, Text):
        r = math.radians(item.angle)
        x2, y2 = item.x + item.width * math.cos(r), item.y + item.width * math.sin(r)
        return (min(item.x, x2), min(item.y, y2), max(item.x, x2), max(item.y, y2))
    if isinstance(item, Path | ClipBegin):
        xs: list[float] = []
        ys: list[float] = []
        for op in item.ops:
            coords = op[1:]
            xs.extend(float(v) for v in coords[0::2])
            ys.extend(float(v) for v in coords[1::2])
        if not xs:
            return (0.0, 0.0, 0.0, 0.0)
        return (min(xs), min(ys), max(xs), max(ys))
    if isinstance(item, Picture):
        corners = [apply(item.matrix, u, v) for u, v in ((0, 0), (1, 0), (0, 1), (1, 1))]
        return (min(c[0] for c in corners), min(c[1] for c in corners),
                max(c[0] for c in corners), max(c[1] for c in corners))
    return (0.0, 0.0, 0.0, 0.0)
