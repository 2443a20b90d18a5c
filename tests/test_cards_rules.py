"""Card-text checks read markup exactly as the renderer draws it."""

from __future__ import annotations

from generator.families.cards.rules import inline_icons, unbalanced_markup
from generator.render.text import parse_markup


def drawn_icons(text: str) -> list[str]:
    return [p.icon for para in parse_markup(text) for word in para for p in word if p.icon]


def test_icons_found_are_the_icons_drawn() -> None:
    for text in ["a :water: b", r"escaped \:water\: stays text", ":star::tree:",
                 "time 3:30 :play:", "no icons here"]:
        assert inline_icons(text) == drawn_icons(text), text


def test_unclosed_markers_are_found_and_escaped_stars_ignored() -> None:
    assert unbalanced_markup("**bold** and *italic*") is None
    assert unbalanced_markup("**bold") == "**"
    assert unbalanced_markup("*italic") == "*"
    assert unbalanced_markup(r"5 \* 3 = 15") is None
