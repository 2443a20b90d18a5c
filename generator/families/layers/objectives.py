"""Objective primitives: shapes of stacks with a condition on their tops, and counts of tops.

A shape part is met when, for one of its variants (orientations) and one translation, every
cell of the shape is a stack of the landscape and the stacks' top cards meet the condition.
Cells keep their order through rotations, so ``values = [1, 3, 5]`` reads along the shape as
drawn (left to right for a line, top to bottom for a column or a diagonal).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache

from ...core.lattice import apply
from .model import Card, CountPart, Objective, Part, Pos, ShapePart

# The 8 symmetries of the square as matrices on (row, col); the first 4 are rotations.
_SQUARE_SYMMETRIES: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0),
    (1, 0, 0, -1), (0, 1, 1, 0), (-1, 0, 0, 1), (0, -1, -1, 0),
)

NAMED_SHAPES: dict[str, tuple[Pos, ...]] = {
    "line": ((0, 0), (0, 1), (0, 2)),
    "column": ((0, 0), (1, 0), (2, 0)),
    "diagonal": ((0, 0), (1, 1), (2, 2)),
    "l": ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2)),
    "square": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "cross": ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),
    "corners": ((0, 0), (0, 2), (2, 0), (2, 2)),
}
"""Each named shape's drawn orientation, cells in reading order."""

DEFAULT_TURN: dict[str, bool] = {
    "line": False, "column": False, "diagonal": False, "l": True,
    "square": False, "cross": False, "corners": False,
}


def normalise(cells: tuple[Pos, ...]) -> tuple[Pos, ...]:
    """Translate to min row and col 0, keeping the order of the cells."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple((r - r0, c - c0) for r, c in cells)


def shape_variants(name: str, cells: tuple[Pos, ...], turn: bool) -> tuple[tuple[Pos, ...], ...]:
    """The ordered variants of a shape: just the drawn one, or all distinct images under the
    8 symmetries (``turn``). A diagonal without ``turn`` may still be mirrored (it is the
    same word either way)."""
    base = normalise(cells)
    out: list[tuple[Pos, ...]] = [base]
    mats = _SQUARE_SYMMETRIES if turn else ()
    if name == "diagonal" and not turn:
        mats = (_SQUARE_SYMMETRIES[4],)
    for m in mats:
        img = normalise(tuple(apply(m, p) for p in base))
        if img not in out:
            out.append(img)
    return tuple(out)


def parse_cells(text: str) -> tuple[Pos, ...]:
    """``'#../##.'`` -> ((0, 0), (1, 0), (1, 1)); raises ValueError on anything but '#'/'.'."""
    rows = [r.strip() for r in text.replace("\n", "/").split("/") if r.strip()]
    out: list[Pos] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                out.append((r, c))
            elif ch != ".":
                raise ValueError(f"unexpected {ch!r} in cells {text!r}; use '#', '.' and '/'")
    if not out:
        raise ValueError(f"cells {text!r} has no '#'")
    return normalise(tuple(out))


def cells_text(cells: tuple[Pos, ...]) -> str:
    """The text form of a cell set (parse_cells reads it back as the same set)."""
    h = max(r for r, _ in cells) + 1
    w = max(c for _, c in cells) + 1
    s = set(cells)
    return "/".join("".join("#" if (r, c) in s else "." for c in range(w)) for r in range(h))


# --------------------------------------------------------------------------------------------
# Evaluation


def condition_holds(part: ShapePart, tops: list[Card]) -> bool:
    """Whether the top cards (in shape-cell order) meet the part's condition."""
    cond = part.condition
    if cond == "filled":
        return True
    if cond == "same-colour":
        first = part.colour if part.colour is not None else tops[0].colour
        return all(t.colour == first for t in tops)
    if cond == "different-colours":
        return len({t.colour for t in tops}) == len(tops)
    if cond == "same-value":
        return len({t.value for t in tops}) == 1
    if cond == "different-values":
        return len({t.value for t in tops}) == len(tops)
    if cond == "values":
        return all(t.value == v for t, v in zip(tops, part.values, strict=True))
    # sum
    total = sum(t.value for t in tops)
    target = part.total if part.total is not None else 0
    if part.compare == "ge":
        return total >= target
    if part.compare == "le":
        return total <= target
    return total == target


@lru_cache(maxsize=1024)
def _extent(variant: tuple[Pos, ...]) -> tuple[int, int]:
    return max(r for r, _ in variant) + 1, max(c for _, c in variant) + 1


def placements(part: ShapePart, occupied: Mapping[Pos, object]) -> Iterator[tuple[Pos, ...]]:
    """Every placement (cells in shape order) of the shape whose cells are all stacks.

    Only translations inside the landscape's bounding box can be filled, so at most 9 per
    variant are tried (measured: 2x faster than anchoring a variant at every stack)."""
    if not occupied:
        return
    rows = [r for r, _ in occupied]
    cols = [c for _, c in occupied]
    r0, r1, c0, c1 = min(rows), max(rows), min(cols), max(cols)
    for variant in part.variants:
        h, w = _extent(variant)
        for dr in range(r0, r1 - h + 2):
            for dc in range(c0, c1 - w + 2):
                cells = tuple((r + dr, c + dc) for r, c in variant)
                if all(p in occupied for p in cells):
                    yield cells


def shape_match(part: ShapePart, tops: Mapping[Pos, Card]) -> tuple[Pos, ...] | None:
    """The first placement of the shape whose tops meet the condition, or None."""
    for cells in placements(part, tops):
        if condition_holds(part, [tops[p] for p in cells]):
            return cells
    return None


def count_holds(part: CountPart, tops: Mapping[Pos, Card], values: tuple[int, ...]) -> bool:
    ts = list(tops.values())
    if part.kind == "value":
        return sum(1 for t in ts if t.value == part.value) >= part.at_least
    if part.kind == "colour":
        return sum(1 for t in ts if t.colour == part.colour) >= part.at_least
    if part.kind == "scissors":
        return sum(1 for t in ts if t.scissors) >= part.at_least
    shown = {t.value for t in ts}
    return all(v in shown for v in values)


def part_holds(part: Part, tops: Mapping[Pos, Card], values: tuple[int, ...]) -> bool:
    if isinstance(part, ShapePart):
        return shape_match(part, tops) is not None
    return count_holds(part, tops, values)


def objective_met(obj: Objective, tops: Mapping[Pos, Card], values: tuple[int, ...]) -> bool:
    """Whether a landscape (its top cards by position) meets every part of the objective."""
    return all(part_holds(p, tops, values) for p in obj.parts)


# --------------------------------------------------------------------------------------------
# Words


_COND_WORDS: dict[str, str] = {
    "filled": "stacks",
    "same-colour": "same colour",
    "different-colours": "all different colours",
    "same-value": "same value",
    "different-values": "all different values",
}


def describe_part(part: Part) -> str:
    """A short phrase for the card and for reports: ``column: sum at least 12``."""
    if isinstance(part, CountPart):
        if part.kind == "value":
            return f"{part.at_least} tops of value {part.value}"
        if part.kind == "colour":
            return f"{part.at_least} {part.colour} tops"
        if part.kind == "scissors":
            return f"{part.at_least} tops with scissors"
        return "every value on top"
    if part.condition == "same-colour" and part.colour:
        cond = f"all {part.colour}"
    elif part.condition == "values":
        cond = "values " + "-".join(str(v) for v in part.values)
    elif part.condition == "sum":
        word = {"eq": "sum", "ge": "sum at least", "le": "sum at most"}[part.compare]
        cond = f"{word} {part.total}"
    else:
        cond = _COND_WORDS[part.condition]
    noun = "shape" if part.name == "cells" else part.name
    return f"{noun}: {cond}"


def describe(obj: Objective) -> str:
    return "; ".join(describe_part(p) for p in obj.parts)
