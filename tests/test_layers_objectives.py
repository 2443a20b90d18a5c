"""Objective primitives: every shape and condition and every count, pass and fail, and a
hypothesis comparison of shape matching with hand-listed placements in the 3x3."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.families.layers.generate import build_part
from generator.families.layers.model import Card, LayersParams, PartSpec, ShapePart
from generator.families.layers.objectives import (
    cells_text,
    describe_part,
    parse_cells,
    part_holds,
)
from generator.families.layers.rules import Landscape

STARS = {1: 0, 2: 1, 3: 1, 4: 2, 5: 3}
VALUES = (1, 2, 3, 4, 5)
P = LayersParams()


def part(**kw: Any) -> Any:
    return build_part(P, PartSpec.model_validate(kw))


def tops(text: str) -> dict[tuple[int, int], Card]:
    return Landscape.parse(text, STARS).tops()


def holds(spec: dict[str, Any], text: str) -> bool:
    return part_holds(part(**spec), tops(text), VALUES)


ROW = "0,0: fern 1\n0,1: fern 2\n0,2: fern 3\n1,0: tide 1\n1,1: tide 2\n1,2: clay 3"

CASES: list[tuple[dict[str, Any], str, bool]] = [
    # shapes x conditions
    ({"shape": "line", "condition": "same-colour"}, ROW, True),
    ({"shape": "line", "condition": "same-colour"}, "0,0: fern 1\n0,1: fern 2\n0,2: tide 3",
     False),
    ({"shape": "line", "condition": "same-colour", "colour": "tide"}, ROW, False),
    ({"shape": "line", "condition": "filled"}, "0,0: fern 1\n0,1: fern 2", False),
    ({"shape": "column", "condition": "different-values"},
     "0,0: fern 1\n1,0: tide 2\n2,0: clay 3", True),
    ({"shape": "column", "condition": "different-values"},
     "0,0: fern 1\n1,0: tide 1\n2,0: clay 3", False),
    ({"shape": "column", "condition": "same-value"}, "0,1: fern 2\n1,1: tide 2\n2,1: clay 2",
     True),
    ({"shape": "column", "condition": "same-value"}, ROW, False),
    ({"shape": "diagonal", "condition": "values", "values": [1, 2, 3]},
     "0,0: fern 1\n1,1: tide 2\n2,2: clay 3\n0,1: fern 1\n1,2: tide 1", True),
    # the mirrored diagonal reads top to bottom too
    ({"shape": "diagonal", "condition": "values", "values": [1, 2, 3]},
     "0,2: fern 1\n1,1: tide 2\n2,0: clay 3\n0,1: fern 1\n1,0: tide 1", True),
    ({"shape": "diagonal", "condition": "values", "values": [3, 2, 1]},
     "0,0: fern 1\n1,1: tide 2\n2,2: clay 3\n0,1: fern 1\n1,2: tide 1", False),
    ({"shape": "square", "condition": "different-colours"},
     "0,0: fern 1\n0,1: tide 1\n1,0: clay 1\n1,1: heath 1", True),
    ({"shape": "square", "condition": "different-colours"},
     "0,0: fern 1\n0,1: tide 1\n1,0: clay 1\n1,1: fern 2", False),
    ({"shape": "cross", "condition": "sum", "sum": 10},
     "0,1: fern 2\n1,0: tide 2\n1,1: clay 2\n1,2: fern 2\n2,1: fern 2", True),
    ({"shape": "cross", "condition": "sum", "sum": 11},
     "0,1: fern 2\n1,0: tide 2\n1,1: clay 2\n1,2: fern 2\n2,1: fern 2", False),
    ({"shape": "column", "condition": "sum", "sum": 12, "compare": "ge"},
     "0,0: fern 5\n1,0: fern 4\n2,0: tide 3", True),
    ({"shape": "column", "condition": "sum", "sum": 11, "compare": "le"},
     "0,0: fern 5\n1,0: fern 4\n2,0: tide 3", False),
    ({"shape": "corners", "condition": "same-value"},
     "0,0: fern 4\n0,1: tide 1\n0,2: tide 4\n1,0: clay 1\n1,2: clay 1\n2,0: clay 4\n"
     "2,1: fern 1\n2,2: heath 4", True),
    ({"shape": "corners", "condition": "same-value"}, ROW, False),
    # the L turns: a column on the right and the top row
    ({"shape": "l", "condition": "same-colour"},
     "0,0: fern 1\n0,1: fern 1\n0,2: fern 1\n1,2: fern 2\n2,2: fern 3", True),
    ({"shape": "l", "condition": "same-colour", "turn": False},
     "0,0: fern 1\n0,1: fern 1\n0,2: fern 1\n1,2: fern 2\n2,2: fern 3", False),
    ({"cells": "##/#.", "condition": "same-colour"}, "0,0: fern 1\n0,1: fern 2\n1,0: fern 3",
     True),
    ({"cells": "##/#.", "condition": "same-colour"}, "0,0: fern 1\n0,1: fern 2\n1,1: fern 3",
     False),
    ({"cells": "##/#.", "turn": True, "condition": "same-colour"},
     "0,0: fern 1\n0,1: fern 2\n1,1: fern 3", True),
    # counts
    ({"count": "value", "value": 5, "at_least": 2}, "0,0: fern 5\n0,1: tide 5", True),
    ({"count": "value", "value": 5, "at_least": 3}, "0,0: fern 5\n0,1: tide 5", False),
    ({"count": "colour", "colour": "tide", "at_least": 2}, ROW, True),
    ({"count": "colour", "colour": "clay", "at_least": 2}, ROW, False),
    ({"count": "scissors", "at_least": 2},
     "0,0: fern 1 scissors\n0,1: tide 1 > tide 2 scissors", True),
    ({"count": "scissors", "at_least": 2},
     "0,0: fern 1 scissors > fern 2\n0,1: tide 1 > tide 2 scissors", False),
    ({"count": "all-values"},
     "0,0: fern 1\n0,1: tide 2\n0,2: clay 3\n1,0: fern 4\n1,1: fern 5", True),
    ({"count": "all-values"}, ROW, False),
]


@pytest.mark.parametrize(("spec", "text", "expected"), CASES)
def test_primitive(spec: dict[str, Any], text: str, expected: bool) -> None:
    assert holds(spec, text) is expected, describe_part(part(**spec))


def test_cells_text_round_trip() -> None:
    cells = parse_cells("#../##./.#.")  # the empty right column is dropped
    assert cells_text(cells) == "#./##/.#"
    assert parse_cells(cells_text(cells)) == cells
    with pytest.raises(ValueError, match="unexpected"):
        parse_cells("#x")


def test_named_shape_variants() -> None:
    assert len(part(shape="line").variants) == 1
    # turned, a line is a row or a column, each read either way (values count in that order)
    assert len(part(shape="line", turn=True).variants) == 4
    assert len(part(shape="diagonal").variants) == 2
    assert len(part(shape="l").variants) == 8  # 4 cell sets, each read in 2 orders


# -- property: matching agrees with every placement listed by hand -----------------------------

FRAME = [(r, c) for r in range(3) for c in range(3)]
HAND_LISTED: dict[str, list[list[tuple[int, int]]]] = {
    "line": [[(r, 0), (r, 1), (r, 2)] for r in range(3)],
    "column": [[(0, c), (1, c), (2, c)] for c in range(3)],
    "diagonal": [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]],
    "square": [[(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)] for r in (0, 1) for c in (0, 1)],
    "cross": [[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]],
    "corners": [[(0, 0), (0, 2), (2, 0), (2, 2)]],
    "l": [[(0, a), (1, a), (2, a)] + [(b, 0), (b, 1), (b, 2)] for a in (0, 2) for b in (0, 2)],
}
SET_CONDITIONS = ["filled", "same-colour", "different-colours", "same-value",
                  "different-values"]

cell_st = st.one_of(st.none(), st.builds(lambda col, v: Card(col, v, False, STARS[v]),
                                          st.sampled_from(["fern", "tide", "clay"]),
                                          st.integers(1, 3)))


def oracle(shape: str, condition: str, grid: dict[tuple[int, int], Card]) -> bool:
    for cells in HAND_LISTED[shape]:
        cs = list(dict.fromkeys(cells))
        if not all(p in grid for p in cs):
            continue
        ts = [grid[p] for p in cs]
        ok = {
            "filled": True,
            "same-colour": len({t.colour for t in ts}) == 1,
            "different-colours": len({t.colour for t in ts}) == len(ts),
            "same-value": len({t.value for t in ts}) == 1,
            "different-values": len({t.value for t in ts}) == len(ts),
        }[condition]
        if ok:
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(st.lists(cell_st, min_size=9, max_size=9), st.sampled_from(sorted(HAND_LISTED)),
       st.sampled_from(SET_CONDITIONS))
def test_shape_matching_matches_hand_listed_placements(
        cells: list[Card | None], shape: str, condition: str) -> None:
    grid = {p: card for p, card in zip(FRAME, cells, strict=True) if card is not None}
    p = part(shape=shape, condition=condition)
    assert isinstance(p, ShapePart)
    assert part_holds(p, grid, VALUES) is oracle(shape, condition, grid)
