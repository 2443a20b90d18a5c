"""The backend-neutral drawing model: what a component looks like, in millimetres.

Family layouts build a :class:`Drawing` per component face; the PDF painter (reportlab) and the
SVG painter (svgwrite) both paint the same drawing, so the two outputs cannot drift.

Coordinates are millimetres with the origin at the top-left corner of the **trim** box and y
growing downwards (as in SVG). The bleed area lies outside the trim box: from ``-bleed`` to
``width + bleed``. Art that should run to the cut edge extends into the bleed.

This module imports nothing outside the standard library, so layouts stay testable without a
renderer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

Colour: TypeAlias = str
"""A colour as ``#rrggbb``."""

Point: TypeAlias = tuple[float, float]


@dataclass(frozen=True)
class Stroke:
    """How a line is drawn: colour, width in mm, optional dash pattern in mm."""

    colour: Colour = "#000000"
    width: float = 0.25
    dash: tuple[float, ...] = ()


HAIRLINE = Stroke("#000000", 0.1)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Colour | None = None
    stroke: Stroke | None = None
    radius: float = 0.0


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: Colour | None = None
    stroke: Stroke | None = None


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Stroke = HAIRLINE


@dataclass(frozen=True)
class Polygon:
    """A polygon (``closed``) or polyline through ``points``."""

    points: tuple[Point, ...]
    fill: Colour | None = None
    stroke: Stroke | None = None
    closed: bool = True


PathOp: TypeAlias = (
    tuple[Literal["M", "L"], float, float]
    | tuple[Literal["C"], float, float, float, float, float, float]
    | tuple[Literal["Z"]]
)


@dataclass(frozen=True)
class Path:
    """A general path: ``("M", x, y)``, ``("L", x, y)``, ``("C", x1, y1, x2, y2, x, y)``,
    ``("Z",)``. Several subpaths fill with the even-odd rule (holes)."""

    ops: tuple[PathOp, ...]
    fill: Colour | None = None
    stroke: Stroke | None = None


Align: TypeAlias = Literal["left", "center", "right"]
VAlign: TypeAlias = Literal["top", "middle", "bottom"]


@dataclass(frozen=True)
class TextBox:
    """Text inside a box. ``text`` may carry ``**bold**``, ``*italic*`` and inline icons
    ``:name:`` (drawn as symbols, baseline-aligned) and ``\\n`` line breaks.

    The text is wrapped to ``w`` and shrunk from ``size`` (pt) towards ``min_size`` until it
    fits the box on both axes; if it cannot fit at ``min_size`` the painter raises
    :class:`generator.errors.LayoutError` naming ``owner``.
    """

    x: float
    y: float
    w: float
    h: float
    text: str
    size: float = 10.0
    min_size: float = 5.0
    align: Align = "left"
    valign: VAlign = "top"
    colour: Colour = "#000000"
    bold: bool = False
    italic: bool = False
    line_height: float = 1.2
    owner: str = ""
    font: str = ""
    """Font chain: family keys joined by ``|`` (``deck.font_chain("title")``); the first
    with every glyph of the text sets it. ``""``: Noto Sans."""


@dataclass(frozen=True)
class Symbol:
    """A named symbol from the symbol library, drawn in the square box (x, y, size).

    ``colour`` recolours the symbol's ink; ``None`` keeps the library's colours.
    """

    name: str
    x: float
    y: float
    size: float
    colour: Colour | None = None


Fit: TypeAlias = Literal["contain", "cover", "stretch"]
Anchor: TypeAlias = Literal["center", "top", "bottom", "left", "right", "top-left",
                            "top-right", "bottom-left", "bottom-right"]


@dataclass(frozen=True)
class Image:
    """A designer's image (PNG, JPEG or SVG) in the frame (x, y, w, h).

    ``ref`` is the key the deck loader registered the image under
    (:mod:`generator.render.images`). ``fit``: ``contain`` shows the whole image inside the
    frame, ``cover`` fills the frame and crops what sticks out, ``stretch`` fills it exactly
    (distorting). ``anchor`` places a contained image, or picks the part a covered one keeps.
    """

    x: float
    y: float
    w: float
    h: float
    ref: str
    fit: Fit = "contain"
    anchor: Anchor = "center"


@dataclass(frozen=True)
class Group:
    """Items drawn under a transform: scale, then rotate (degrees, clockwise on the page as y
    grows down), then translate by (dx, dy). ``clip`` (in the group's own coordinates) clips
    the items."""

    items: tuple[Item, ...]
    dx: float = 0.0
    dy: float = 0.0
    rotate: float = 0.0
    scale: float = 1.0
    clip: Rect | None = None


Item: TypeAlias = Rect | Circle | Line | Polygon | Path | TextBox | Symbol | Image | Group


@dataclass(frozen=True)
class Drawing:
    """One face of one component: trim size in mm, bleed in mm, items, and the cut outline.

    ``cut`` is the closed trim outline in trim coordinates; empty means the trim rectangle.
    Hex tiles and polyomino pieces set it to their polygon so that ``cut.svg`` and shared cut
    lines follow the real shape.
    """

    width: float
    height: float
    items: tuple[Item, ...] = ()
    bleed: float = 0.0
    cut: tuple[Point, ...] = field(default=())
    background: Colour | None = None
    cuts: tuple[tuple[Point, ...], ...] = ()
    """Closed cut paths inside a page component (the discs of a token sheet, the outline of
    a die net with its glue tabs), in trim coordinates. When set, cut files cut these instead
    of the trim outline (the page itself is not cut out)."""
    folds: tuple[tuple[Point, ...], ...] = ()
    """Fold lines (polylines, trim coordinates): drawn dashed by the layout, and written to
    the cut files' separate fold layer (score, do not cut)."""

    def outline(self) -> tuple[Point, ...]:
        """The closed trim outline (the cut path)."""
        if self.cut:
            return self.cut
        w, h = self.width, self.height
        return ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))
