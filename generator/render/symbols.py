"""The symbol library: named, original pictograms drawn from drawing primitives.

A symbol is a tuple of drawing items inside the unit box (0..1 on both axes, y down). A
:class:`generator.render.drawing.Symbol` item places one in a square of ``size`` mm; inline
icons in text (``:water:``) are symbols too. Stroke widths are in unit-box units, so they scale
with the symbol.

Symbols are drawn in :data:`INK` (black) with :data:`PAPER` (white) knock-outs; a symbol placed
with a ``colour`` has its ink recoloured and keeps its knock-outs white, so every symbol reads
in greyscale and on any colour.

Families add their own with :func:`register_symbol` (at import time, before layout).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..errors import LayoutError
from .drawing import Circle, Colour, Group, Item, Line, Path, PathOp, Point, Polygon, Rect, Stroke

INK: Colour = "#000000"
PAPER: Colour = "#ffffff"


class UnknownSymbolError(LayoutError):
    """A symbol name that is not in the library; the message lists the valid names."""


_LIBRARY: dict[str, tuple[Item, ...]] = {}


def register_symbol(name: str, items: Iterable[Item]) -> None:
    """Add (or replace) symbol ``name``: ``items`` drawn in the unit box 0..1.

    Names are lower-case words joined by ``-`` so they can be written inline as ``:name:``.
    """
    if not name or not all(part.isalnum() and part.islower() or part.isdigit()
                           for part in name.split("-")):
        raise ValueError(f"symbol name {name!r} must be lower-case letters/digits joined by '-'")
    _LIBRARY[name] = tuple(items)


def symbol_names() -> tuple[str, ...]:
    """Every registered symbol name, sorted."""
    return tuple(sorted(_LIBRARY))


def has_symbol(name: str) -> bool:
    return name in _LIBRARY


def get_symbol(name: str) -> tuple[Item, ...]:
    """The items of symbol ``name`` in the unit box; :class:`UnknownSymbolError` if unknown."""
    try:
        return _LIBRARY[name]
    except KeyError:
        raise UnknownSymbolError(
            f"unknown symbol {name!r}; valid symbols: {', '.join(symbol_names())}"
        ) from None


def recolour(items: tuple[Item, ...], colour: Colour | None) -> tuple[Item, ...]:
    """``items`` with every non-paper colour replaced by ``colour`` (None: unchanged)."""
    if colour is None:
        return items
    return tuple(_recolour_item(it, colour) for it in items)


def _ink(c: Colour | None, colour: Colour) -> Colour | None:
    if c is None or c.lower() == PAPER:
        return c
    return colour


def _stroke(s: Stroke | None, colour: Colour) -> Stroke | None:
    if s is None or s.colour.lower() == PAPER:
        return s
    return Stroke(colour, s.width, s.dash)


def _recolour_item(it: Item, colour: Colour) -> Item:
    if isinstance(it, Rect):
        return Rect(it.x, it.y, it.w, it.h, _ink(it.fill, colour), _stroke(it.stroke, colour),
                    it.radius)
    if isinstance(it, Circle):
        return Circle(it.cx, it.cy, it.r, _ink(it.fill, colour), _stroke(it.stroke, colour))
    if isinstance(it, Line):
        s = _stroke(it.stroke, colour)
        return Line(it.x1, it.y1, it.x2, it.y2, s if s is not None else it.stroke)
    if isinstance(it, Polygon):
        return Polygon(it.points, _ink(it.fill, colour), _stroke(it.stroke, colour), it.closed)
    if isinstance(it, Path):
        return Path(it.ops, _ink(it.fill, colour), _stroke(it.stroke, colour))
    if isinstance(it, Group):
        return Group(recolour(it.items, colour), it.dx, it.dy, it.rotate, it.scale, it.clip)
    return it  # TextBox/Symbol inside a symbol keep their own colours


# --- the base set -----------------------------------------------------------------------------

def _s(w: float, colour: Colour = INK) -> Stroke:
    return Stroke(colour, w)


def _star_points(cx: float, cy: float, outer: float, inner: float, n: int = 5) -> tuple[Point, ...]:
    pts: list[Point] = []
    for i in range(2 * n):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / n
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return tuple(pts)


def _regular(cx: float, cy: float, r: float, n: int, start_deg: float) -> tuple[Point, ...]:
    return tuple(
        (cx + r * math.cos(math.radians(start_deg + 360.0 * i / n)),
         cy + r * math.sin(math.radians(start_deg + 360.0 * i / n)))
        for i in range(n)
    )


_SCISSORS: tuple[Item, ...] = (
    # two blades crossing at the pivot, handles as rings at the bottom
    Polygon(((0.40, 0.62), (0.86, 0.06), (0.92, 0.10), (0.50, 0.66)), fill=INK),
    Polygon(((0.60, 0.62), (0.14, 0.06), (0.08, 0.10), (0.50, 0.66)), fill=INK),
    Circle(0.28, 0.80, 0.14, stroke=_s(0.08)),
    Circle(0.72, 0.80, 0.14, stroke=_s(0.08)),
    Circle(0.50, 0.55, 0.035, fill=PAPER),
)


def _wave(y: float, x0: float, x1: float, amp: float, n: int) -> tuple[PathOp, ...]:
    ops: list[PathOp] = [("M", x0, y)]
    step = (x1 - x0) / n
    for i in range(n):
        a = x0 + i * step
        sign = -1.0 if i % 2 == 0 else 1.0
        ops.append(("C", a + step / 3, y + sign * amp, a + 2 * step / 3, y + sign * amp,
                    a + step, y))
    return tuple(ops)


_BASE: dict[str, tuple[Item, ...]] = {
    "star": (Polygon(_star_points(0.5, 0.54, 0.48, 0.2), fill=INK),),
    "scissors": _SCISSORS,
    "button": (
        Circle(0.5, 0.5, 0.44, fill=INK),
        Circle(0.5, 0.5, 0.34, stroke=_s(0.03, PAPER)),
        Circle(0.38, 0.38, 0.07, fill=PAPER),
        Circle(0.62, 0.38, 0.07, fill=PAPER),
        Circle(0.38, 0.62, 0.07, fill=PAPER),
        Circle(0.62, 0.62, 0.07, fill=PAPER),
    ),
    "clock": (
        Circle(0.5, 0.5, 0.42, fill=PAPER, stroke=_s(0.09)),
        Line(0.5, 0.5, 0.5, 0.22, _s(0.08)),
        Line(0.5, 0.5, 0.72, 0.5, _s(0.08)),
        Circle(0.5, 0.5, 0.05, fill=INK),
    ),
    "heart": (
        Path((("M", 0.5, 0.9), ("C", 0.2, 0.66, 0.04, 0.5, 0.06, 0.32),
              ("C", 0.08, 0.12, 0.36, 0.06, 0.5, 0.26),
              ("C", 0.64, 0.06, 0.92, 0.12, 0.94, 0.32),
              ("C", 0.96, 0.5, 0.8, 0.66, 0.5, 0.9), ("Z",)), fill=INK),
    ),
    "water": (
        Path((("M", 0.5, 0.04), ("C", 0.42, 0.2, 0.16, 0.48, 0.16, 0.64),
              ("C", 0.16, 0.84, 0.32, 0.96, 0.5, 0.96),
              ("C", 0.68, 0.96, 0.84, 0.84, 0.84, 0.64),
              ("C", 0.84, 0.48, 0.58, 0.2, 0.5, 0.04), ("Z",)), fill=INK),
        Path((("M", 0.3, 0.64), ("C", 0.3, 0.76, 0.38, 0.83, 0.48, 0.84)),
             stroke=_s(0.06, PAPER)),
    ),
    "tree": (
        Rect(0.43, 0.66, 0.14, 0.3, fill=INK),
        Polygon(((0.5, 0.04), (0.8, 0.42), (0.2, 0.42)), fill=INK),
        Polygon(((0.5, 0.22), (0.9, 0.72), (0.1, 0.72)), fill=INK),
    ),
    "pavilion": (
        Polygon(((0.5, 0.06), (0.96, 0.36), (0.04, 0.36)), fill=INK),
        Rect(0.14, 0.36, 0.1, 0.48, fill=INK),
        Rect(0.45, 0.36, 0.1, 0.48, fill=INK),
        Rect(0.76, 0.36, 0.1, 0.48, fill=INK),
        Rect(0.06, 0.84, 0.88, 0.1, fill=INK),
    ),
    "play": (  # a kite with its tail
        Polygon(((0.62, 0.04), (0.9, 0.3), (0.62, 0.62), (0.34, 0.3)), fill=INK),
        Line(0.62, 0.04, 0.62, 0.62, _s(0.03, PAPER)),
        Line(0.34, 0.3, 0.9, 0.3, _s(0.03, PAPER)),
        Polygon(((0.62, 0.62), (0.48, 0.72), (0.36, 0.66), (0.24, 0.8), (0.12, 0.76),
                 (0.06, 0.94)), stroke=_s(0.05), closed=False),
    ),
    "wildlife": (  # a paw print
        Path((("M", 0.5, 0.5), ("C", 0.72, 0.5, 0.84, 0.74, 0.78, 0.86),
              ("C", 0.72, 0.96, 0.58, 0.88, 0.5, 0.88),
              ("C", 0.42, 0.88, 0.28, 0.96, 0.22, 0.86),
              ("C", 0.16, 0.74, 0.28, 0.5, 0.5, 0.5), ("Z",)), fill=INK),
        Circle(0.14, 0.44, 0.09, fill=INK),
        Circle(0.34, 0.22, 0.1, fill=INK),
        Circle(0.66, 0.22, 0.1, fill=INK),
        Circle(0.86, 0.44, 0.09, fill=INK),
    ),
    "recycling": tuple(
        Group((
            Polygon(((0.22, 0.80), (0.78, 0.80)), stroke=_s(0.09), closed=False),
            Polygon(((0.70, 0.68), (0.86, 0.80), (0.70, 0.92)), fill=INK),
        ), dx=0.5 - 0.5 * math.cos(math.radians(a)) + 0.5 * math.sin(math.radians(a)) - 0.0,
            dy=0.5 - 0.5 * math.sin(math.radians(a)) - 0.5 * math.cos(math.radians(a)) + 0.0,
            rotate=a)
        for a in (0.0, 120.0, 240.0)
    ),
    "gardener": (  # a spade
        Rect(0.44, 0.04, 0.12, 0.5, fill=INK),
        Rect(0.32, 0.04, 0.36, 0.09, fill=INK, radius=0.04),
        Path((("M", 0.26, 0.5), ("L", 0.74, 0.5), ("L", 0.74, 0.76),
              ("C", 0.74, 0.88, 0.6, 0.96, 0.5, 0.98),
              ("C", 0.4, 0.96, 0.26, 0.88, 0.26, 0.76), ("Z",)), fill=INK),
    ),
    "extra-cut": (
        Group(_SCISSORS, dx=0.0, dy=0.22, scale=0.78),
        Rect(0.72, 0.04, 0.08, 0.36, fill=INK),
        Rect(0.58, 0.18, 0.36, 0.08, fill=INK),
    ),
    "die": (
        Rect(0.06, 0.06, 0.88, 0.88, fill=INK, radius=0.14),
        Circle(0.28, 0.28, 0.08, fill=PAPER),
        Circle(0.72, 0.28, 0.08, fill=PAPER),
        Circle(0.5, 0.5, 0.08, fill=PAPER),
        Circle(0.28, 0.72, 0.08, fill=PAPER),
        Circle(0.72, 0.72, 0.08, fill=PAPER),
    ),
    "check": (
        Polygon(((0.1, 0.52), (0.38, 0.8), (0.9, 0.2)), stroke=_s(0.16), closed=False),
    ),
    "cross": (
        Line(0.14, 0.14, 0.86, 0.86, _s(0.16)),
        Line(0.86, 0.14, 0.14, 0.86, _s(0.16)),
    ),
    "coin": (  # a coin with a milled rim and a diamond stamped in the middle
        Circle(0.5, 0.5, 0.46, fill=INK),
        Circle(0.5, 0.5, 0.36, stroke=Stroke(PAPER, 0.04, (0.06, 0.04))),
        Polygon(((0.5, 0.28), (0.68, 0.5), (0.5, 0.72), (0.32, 0.5)), fill=PAPER),
    ),
    "house": (
        Polygon(((0.5, 0.06), (0.94, 0.44), (0.82, 0.44), (0.82, 0.94), (0.18, 0.94),
                 (0.18, 0.44), (0.06, 0.44)), fill=INK),
        Rect(0.42, 0.62, 0.16, 0.32, fill=PAPER),
    ),
    "fence": (
        Polygon(((0.1, 0.96), (0.1, 0.2), (0.18, 0.08), (0.26, 0.2), (0.26, 0.96)), fill=INK),
        Polygon(((0.42, 0.96), (0.42, 0.2), (0.5, 0.08), (0.58, 0.2), (0.58, 0.96)), fill=INK),
        Polygon(((0.74, 0.96), (0.74, 0.2), (0.82, 0.08), (0.9, 0.2), (0.9, 0.96)), fill=INK),
        Rect(0.04, 0.34, 0.92, 0.1, fill=INK),
        Rect(0.04, 0.7, 0.92, 0.1, fill=INK),
    ),
    "pool": (
        Rect(0.06, 0.16, 0.88, 0.7, fill=INK, radius=0.16),
        Path(_wave(0.42, 0.16, 0.84, 0.07, 4), stroke=_s(0.06, PAPER)),
        Path(_wave(0.62, 0.16, 0.84, 0.07, 4), stroke=_s(0.06, PAPER)),
    ),
    "park": (  # a bench
        Rect(0.06, 0.24, 0.88, 0.14, fill=INK, radius=0.03),
        Rect(0.06, 0.5, 0.88, 0.12, fill=INK, radius=0.03),
        Rect(0.14, 0.38, 0.08, 0.12, fill=INK),
        Rect(0.78, 0.38, 0.08, 0.12, fill=INK),
        Rect(0.14, 0.62, 0.08, 0.3, fill=INK),
        Rect(0.78, 0.62, 0.08, 0.3, fill=INK),
    ),
    "worker": (
        Circle(0.5, 0.2, 0.15, fill=INK),
        Path((("M", 0.18, 0.96), ("L", 0.18, 0.6), ("C", 0.18, 0.44, 0.32, 0.4, 0.5, 0.4),
              ("C", 0.68, 0.4, 0.82, 0.44, 0.82, 0.6), ("L", 0.82, 0.96), ("Z",)), fill=INK),
        Rect(0.3, 0.02, 0.4, 0.08, fill=INK, radius=0.03),
    ),
    "bis": (  # duplicate: two cards, one over the other
        Rect(0.06, 0.04, 0.56, 0.7, fill=PAPER, stroke=_s(0.08), radius=0.06),
        Rect(0.38, 0.26, 0.56, 0.7, fill=INK, radius=0.06),
        Rect(0.56, 0.58, 0.2, 0.06, fill=PAPER),
        Rect(0.63, 0.51, 0.06, 0.2, fill=PAPER),
    ),
    "refusal": (
        Circle(0.5, 0.5, 0.4, stroke=_s(0.12)),
        Line(0.22, 0.78, 0.78, 0.22, _s(0.12)),
    ),
}

BASE_SYMBOLS: tuple[str, ...] = tuple(sorted(_BASE))
"""Names of the symbols PaperProof ships."""

for _name, _items in _BASE.items():
    register_symbol(_name, _items)
