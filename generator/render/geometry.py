"""Outlines that several layouts cut or draw: discs and hexagons, written once.

Both return closed polygons (the first point is not repeated) in the caller's coordinates,
millimetres with y down, ready for :attr:`generator.render.drawing.Drawing.cut` or
:attr:`generator.render.drawing.Drawing.cuts`.
"""

from __future__ import annotations

import math

from .drawing import Point

DISC_SEGMENTS = 72
"""Sides of the polygon standing in for a circle in cut files: the chord sits at most
r (1 - cos(pi / 72)) inside the circle, 0.01 mm for a 20 mm token, below any blade's
tolerance."""


def disc_outline(cx: float, cy: float, r: float, segments: int = DISC_SEGMENTS
                 ) -> tuple[Point, ...]:
    """A circle of radius ``r`` about (cx, cy) as a ``segments``-gon (first vertex on +x)."""
    return tuple((cx + r * math.cos(2 * math.pi * i / segments),
                  cy + r * math.sin(2 * math.pi * i / segments)) for i in range(segments))


def hex_corners(cx: float, cy: float, circumradius: float, pointy: bool = True
                ) -> tuple[Point, ...]:
    """The six corners of a regular hexagon about (cx, cy), clockwise on the page, starting
    at the top corner (pointy-top) or the right corner (flat-top)."""
    start = -90.0 if pointy else 0.0
    return tuple((cx + circumradius * math.cos(math.radians(start + 60 * i)),
                  cy + circumradius * math.sin(math.radians(start + 60 * i)))
                 for i in range(6))
