"""The registry of families, in the order ``paperproof families`` shows them. Lazy: a family's
modules load only when it is asked for (``find_family``), so loading one deck or the painter
does not import every family."""

from __future__ import annotations

import importlib
from typing import Any

from ..errors import UsageError
from .base import AnyFamily

REGISTRY: dict[str, str] = {
    "parks": "ParksFamily",
    "streets": "StreetsFamily",
    "quilts": "QuiltsFamily",
    "habitats": "HabitatsFamily",
    "layers": "LayersFamily",
    "cards": "CardsFamily",
}
"""Family name -> the :class:`~generator.families.base.Family` class in its package."""

_LOADED: dict[str, AnyFamily] = {}


def family_names() -> tuple[str, ...]:
    """Every family's name, without importing any family."""
    return tuple(REGISTRY)


def find_family(name: str) -> AnyFamily:
    """The family called ``name`` (its package is imported on first use)."""
    family = _LOADED.get(name)
    if family is not None:
        return family
    if name not in REGISTRY:
        raise UsageError(f"unknown family {name!r}; valid: {', '.join(REGISTRY)}")
    module = importlib.import_module(f"{__name__}.{name}")
    cls: type[AnyFamily] = getattr(module, REGISTRY[name])
    family = cls()
    if family.name != name:  # pragma: no cover - a registry typo
        raise RuntimeError(f"{REGISTRY[name]}.name is {family.name!r}, registered as {name!r}")
    _LOADED[name] = family
    return family


def all_families() -> tuple[AnyFamily, ...]:
    """Every family, loaded (``paperproof families``, the schema, the contract test)."""
    return tuple(find_family(name) for name in REGISTRY)


def __getattr__(attr: str) -> Any:
    """``FAMILIES``: every family, loaded on first access (kept for callers that iterate)."""
    if attr == "FAMILIES":
        return all_families()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
