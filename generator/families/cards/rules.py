"""The cards family's rules: what a row may say. A data deck has no moves; its rules are the
markup a card's text may use and the symbols it may name."""

from __future__ import annotations

import re

ICON = re.compile(r":([a-z0-9][a-z0-9-]*):")
"""An inline icon in card text: ``:water:``. Lower-case names, digits and dashes."""


def inline_icons(text: str) -> list[str]:
    """The icon names a card text uses, in order (``"a :water: b"`` -> ``["water"]``)."""
    return ICON.findall(text)


def unbalanced_markup(text: str) -> str | None:
    """The markup marker left open in ``text`` (``**`` or ``*``), or None when balanced.

    ``**bold**`` and ``*italic*`` must close on the same card text; an odd count means the
    rest of the card would silently change style.
    """
    bold = text.count("**")
    if bold % 2:
        return "**"
    single = text.replace("**", "").count("*")
    if single % 2:
        return "*"
    return None
