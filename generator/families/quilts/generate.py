"""Deck parameters + seed -> quilt pieces, deterministic.

Generated decks draw, for every size asked for in ``sizes``, distinct free polyominoes (no two
congruent, reflections included) from the core's enumeration, filtered to the ``max_span`` box
and (unless ``allow_holes``) to shapes without holes; the draw order is a shuffle from the
stream ``make_rng(seed, "quilts-shapes", size)``. Each piece is then priced by the value model
(see model.py): income icons drawn from ``income_odds``, a time cost in 1..``max_time``, and the
button cost that puts its value within ``target +- spread``; a draw whose cost would leave
0..``max_cost`` is redrawn (64 tries, then the closest draw is kept and clamped).
"""

from __future__ import annotations

from functools import lru_cache

from ...core.grid import components
from ...core.polyomino import Polyomino, enumerate_polyominoes
from ...core.rng import make_rng
from ...errors import GenerationError
from .model import Params, Piece, QuiltSet, ValueModel, rules_from_params, values_from_params

_PRICE_TRIES = 64


def shape_from_rows(rows: list[str]) -> Polyomino:
    """A piece shape from rows of '#' and '.' (validated by the family first)."""
    return Polyomino.from_text("\n".join(rows))


def has_hole(shape: Polyomino) -> bool:
    """True when the shape encloses empty squares (the outside of its bounding box, grown by
    one square all round, is not one connected region)."""
    outside = frozenset(
        (r, c)
        for r in range(-1, shape.height + 1)
        for c in range(-1, shape.width + 1)
        if (r, c) not in shape.cells
    )
    return len(components(outside)) > 1


@lru_cache(maxsize=32)
def candidate_shapes(size: int, max_span: int, allow_holes: bool) -> tuple[Polyomino, ...]:
    """Free polyominoes of ``size`` squares fitting a max_span box, in the core's order."""
    return tuple(
        p for p in enumerate_polyominoes(size)
        if max(p.height, p.width) <= max_span and (allow_holes or not has_hole(p))
    )


def price(size: int, params: Params, values: ValueModel, seed: int, index: int
          ) -> tuple[int, int, int]:
    """(cost, time, income) for a generated piece of ``size`` squares."""
    rng = make_rng(seed, "quilts-price", index)
    odds = list(params.income_odds) + [0.0] * (4 - len(params.income_odds))
    if sum(odds[:4]) <= 0:
        odds = [1.0, 0.0, 0.0, 0.0]
    best: tuple[float, int, int, int] | None = None
    for _ in range(_PRICE_TRIES):
        income = rng.choices(range(4), weights=odds[:4])[0]
        time = rng.randint(1, params.max_time)
        aim = values.target + rng.uniform(-values.spread, values.spread)
        raw = round(values.gain(size, income) - values.time * time - aim)
        cost = min(max(raw, 0), params.max_cost)
        if cost == raw:
            return cost, time, income
        error = abs(values.gain(size, income) - values.spend(cost, time) - values.target)
        if best is None or error < best[0]:
            best = (error, cost, time, income)
    assert best is not None
    return best[1], best[2], best[3]


def generate_pieces(params: Params, seed: int) -> tuple[Piece, ...]:
    values = values_from_params(params)
    if params.pieces:
        out: list[Piece] = []
        for spec in params.pieces:
            shape = shape_from_rows(spec.shape)
            for _ in range(spec.count):
                out.append(Piece(len(out), shape, spec.cost, spec.time, spec.income))
        return tuple(out)
    shapes: list[Polyomino] = []
    for size in sorted(params.sizes):
        count = params.sizes[size]
        if count <= 0:
            continue
        pool = list(candidate_shapes(size, params.max_span, params.allow_holes))
        if not pool:
            raise GenerationError(f"no {size}-square piece fits a {params.max_span}x"
                                  f"{params.max_span} box")
        make_rng(seed, "quilts-shapes", size).shuffle(pool)
        if count > len(pool) and not params.allow_duplicates:
            raise GenerationError(
                f"{count} distinct {size}-square pieces asked for; only {len(pool)} exist "
                f"within {params.max_span}x{params.max_span}"
                + ("" if params.allow_holes else " without holes"))
        shapes.extend(pool[i % len(pool)] for i in range(count))
    pieces = []
    for i, shape in enumerate(shapes):
        cost, time, income = price(shape.size, params, values, seed, i)
        pieces.append(Piece(i, shape, cost, time, income))
    return tuple(pieces)


def generate(params: Params, seed: int) -> QuiltSet:
    return QuiltSet(
        pieces=generate_pieces(params, seed),
        rules=rules_from_params(params),
        values=values_from_params(params),
        generated=not params.pieces,
    )
