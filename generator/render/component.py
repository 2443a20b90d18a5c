"""The printable component and its imposition hints: what a family's layout hands to render.

These types live in ``render/`` (not ``families/``) so that the painter and the imposition
import nothing of the families: ``families -> render``, never back. ``families.base``
re-exports them for family code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from .drawing import Drawing

Face: TypeAlias = Literal["front", "back"]
"""A side of a component."""


@dataclass(frozen=True)
class PolyNest:
    """Imposition hint for a polyomino piece: its cells (row, col) and the square size in mm.
    Pieces are packed on a common grid so that neighbours share cut lines."""

    cells: tuple[tuple[int, int], ...]
    cell_mm: float


@dataclass(frozen=True)
class HexNest:
    """Imposition hint for a hex tile: flat-to-flat size in mm and orientation. Tiles are
    packed in a honeycomb so that neighbours share cut lines."""

    flat_to_flat: float
    orientation: Literal["flat", "pointy"] = "pointy"


Imposition: TypeAlias = Literal["grid", "page", "nest"]


@dataclass(frozen=True)
class Component:
    """One printable component.

    ``imposition``: ``grid`` components (cards, tokens) are imposed n-up on sheets with bleed
    and crop marks; ``page`` components (boards, score sheets, proof pages) get a page of
    their own, centred; ``nest`` components (hex tiles, polyomino pieces) are packed with
    shared cut lines using ``nest``. ``subjects`` are the report subjects whose verdicts
    belong to this component (shown beside it in index.html).
    """

    id: str
    kind: str
    title: str
    front: Drawing
    back: Drawing | None = None
    copies: int = 1
    imposition: Imposition = "grid"
    nest: PolyNest | HexNest | None = None
    subjects: tuple[str, ...] = ()
    index: int = 0
    """1-based position in the deck's full component list, shown in the stamp; set by the
    build pipeline (0: the position in the list being printed)."""


def face_drawing(c: Component, face: Face) -> Drawing:
    """The drawing of one side of ``c`` (its back must exist when ``face`` is ``back``)."""
    if face == "back":
        assert c.back is not None
        return c.back
    return c.front


def faces_of(c: Component) -> list[Face]:
    """The sides ``c`` prints: front, and back when it has one."""
    return ["front", "back"] if c.back is not None else ["front"]
