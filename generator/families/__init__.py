"""The registry of families: one list, in the order ``paperproof families`` shows them."""

from __future__ import annotations

from ..errors import UsageError
from .base import Family
from .cards import CardsFamily
from .habitats import HabitatsFamily
from .layers import LayersFamily
from .parks import ParksFamily
from .quilts import QuiltsFamily
from .streets import StreetsFamily

FAMILIES: tuple[Family, ...] = (
    ParksFamily(),
    StreetsFamily(),
    QuiltsFamily(),
    HabitatsFamily(),
    LayersFamily(),
    CardsFamily(),
)


def find_family(name: str) -> Family:
    for family in FAMILIES:
        if family.name == name:
            return family
    names = ", ".join(f.name for f in FAMILIES)
    raise UsageError(f"unknown family {name!r}; valid: {names}")
