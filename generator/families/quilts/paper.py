"""Paper sizes the quilts checks and layout agree on (pure: no renderer)."""

from __future__ import annotations

from ...deck import Deck


def print_area(deck: Deck) -> tuple[float, float]:
    """Width and height (mm) a page offers inside its margins."""
    page = deck.print.page
    margin = deck.print.margin
    return page.width - 2 * margin, page.height - 2 * margin


def fits(w: float, h: float, area: tuple[float, float]) -> bool:
    """True when a w x h mm item fits the area, turned a quarter if need be."""
    aw, ah = area
    return (w <= aw and h <= ah) or (h <= aw and w <= ah)
