"""Colours as ``#rrggbb``, parsed, checked and blended in one place (decks, families and the
painters all use these)."""

from __future__ import annotations

import re

COLOUR_PATTERN = "^#[0-9A-Fa-f]{6}$"
"""The one colour syntax of decks and drawings (also in the JSON Schema)."""
_COLOUR = re.compile(COLOUR_PATTERN)


def is_colour(value: object) -> bool:
    """Whether ``value`` is a ``#rrggbb`` string."""
    return isinstance(value, str) and _COLOUR.match(value) is not None


def rgb(colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` -> (r, g, b), each 0..255."""
    h = colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def to_hex(r: float, g: float, b: float) -> str:
    """(r, g, b) in 0..255 (rounded, clamped) -> ``#rrggbb``."""
    return "#" + "".join(f"{max(0, min(255, round(c))):02x}" for c in (r, g, b))


def mix(colour: str, other: str, t: float) -> str:
    """``colour`` moved a fraction ``t`` (0..1) of the way to ``other``."""
    a, b = rgb(colour), rgb(other)
    return to_hex(*(x + (y - x) * t for x, y in zip(a, b, strict=True)))
