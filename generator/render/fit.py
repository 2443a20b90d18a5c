"""Check that every text box of a drawing fits, without painting it.

Families call this from their checks so that a card whose text cannot fit at its minimum
size is a failing check (``E-...-TEXT-OVERFLOW``) before anything is printed, rather than an
error halfway through a build.
"""

from __future__ import annotations

from collections.abc import Iterable

from .drawing import Drawing, Group, Item, TextBox
from .text import layout_text


def text_boxes(items: Iterable[Item]) -> list[TextBox]:
    """Every text box in ``items``, groups included, in drawing order."""
    out: list[TextBox] = []
    for item in items:
        if isinstance(item, TextBox):
            out.append(item)
        elif isinstance(item, Group):
            out.extend(text_boxes(item.items))
    return out


def check_drawing_fits(drawing: Drawing) -> list[tuple[TextBox, float]]:
    """Lay out every text box and return each with the size (pt) it was set at; raises
    :class:`generator.errors.LayoutError` naming the box's owner for the first that cannot
    fit at its minimum size."""
    return [(box, layout_text(box).size) for box in text_boxes(drawing.items)]
