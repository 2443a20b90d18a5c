"""The cards family's rules: what a row may say. A data deck has no moves; its rules are the
markup a card's text may use and the symbols it may name.

The markup itself is defined once, in :mod:`generator.render.text` (the parser that draws
it); these checks read it with the same patterns so that validation and printing agree on
what is an icon and what is escaped.
"""

from __future__ import annotations

from ...render.text import ESCAPE, ICON


def inline_icons(text: str) -> list[str]:
    """The icon names a card text uses, in order (``"a :water: b"`` -> ``["water"]``);
    escaped colons (``\\:``) do not open an icon."""
    return ICON.findall(ESCAPE.sub("", text))


def unbalanced_markup(text: str) -> str | None:
    """The markup marker left open in ``text`` (``**`` or ``*``), or None when balanced.

    ``**bold**`` and ``*italic*`` must close on the same card text; an odd count means the
    rest of the card would silently change style. Escaped stars (``\\*``) print as stars.
    """
    plain = ESCAPE.sub("", text)
    if plain.count("**") % 2:
        return "**"
    if plain.replace("**", "").count("*") % 2:
        return "*"
    return None
