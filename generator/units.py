"""Lengths with units, card and page presets. Everything inside PaperProof is millimetres."""

from __future__ import annotations

import math
import re

MM_PER_IN = 25.4
MM_PER_PT = 25.4 / 72.0

_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*(mm|cm|in|pt)\s*$")

CARD_PRESETS: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "standard": (63.0, 88.0),
    "bridge": (57.15, 88.9),
    "tarot": (70.0, 120.0),
    "mini": (44.0, 63.0),
    "square": (70.0, 70.0),
}

PAGE_PRESETS: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "Letter": (215.9, 279.4),
    "A3": (297.0, 420.0),
    "Tabloid": (279.4, 431.8),
}


MAX_LENGTH_MM = 2000.0
"""Longest length a deck may give (2 m): past the long side of A0 (1189 mm), so no sheet,
component or margin is refused that a printer could print, while 1e308 mm is."""


def _bounded(mm: float, given: object) -> float:
    if not math.isfinite(mm):
        raise ValueError(f"a length must be a finite number, got {given!r}")
    if mm > MAX_LENGTH_MM:
        raise ValueError(f"a length must be at most {MAX_LENGTH_MM:g} mm, got {given!r}")
    return mm


def parse_length(value: object) -> float:
    """``"63mm"``, ``"2.5in"``, ``"9pt"``, ``"1cm"`` or a bare number (millimetres) -> mm.

    Raises ``ValueError`` with a message saying what would be valid.
    """
    if isinstance(value, bool):
        raise ValueError(f"expected a length like '63mm', '2.5in' or '9pt', got {value!r}")
    if isinstance(value, int | float):
        if value < 0:
            raise ValueError(f"a length cannot be negative, got {value!r}")
        return _bounded(float(value), value)
    if isinstance(value, str):
        m = _LENGTH.match(value)
        if m:
            number, unit = float(m.group(1)), m.group(2)
            factor = {"mm": 1.0, "cm": 10.0, "in": MM_PER_IN, "pt": MM_PER_PT}[unit]
            return _bounded(number * factor, value)
    raise ValueError(
        f"expected a length like '63mm', '2.5in', '9pt' or a number of mm, got {value!r}"
    )


def mm_to_pt(mm: float) -> float:
    return mm / MM_PER_PT


def format_mm(mm: float) -> str:
    """A length as written back into a deck file: ``63.5mm``."""
    text = f"{mm:.3f}".rstrip("0").rstrip(".")
    return f"{text}mm"
