"""The planning quilts bot (issue 15): its dead-square count by hand, legal full games against
the greedy bot, and sampled figures that are seeded and paired."""

from __future__ import annotations

from pathlib import Path

from generator.core.stats import Precision
from generator.deckfile import load_deck
from generator.families.quilts.model import Rules
from generator.families.quilts.rules import Game, cell_mask
from generator.families.quilts.sim import (
    GreedyBot,
    PlannerBot,
    dead_squares,
    head_to_head,
    play_game,
    sample_pairing,
)

ROOT = Path(__file__).resolve().parent.parent


def test_dead_squares_by_hand() -> None:
    # 3x3 board, everything covered except three squares that touch no other empty square:
    #   .##
    #   #.#
    #   ##.
    # Three pockets of one square each: dead when the smallest piece left has 2+ squares.
    rules = Rules(rows=3, cols=3)
    empty = {(0, 0), (1, 1), (2, 2)}
    filled = cell_mask([(r, c) for r in range(3) for c in range(3) if (r, c) not in empty], 3)
    assert dead_squares(filled, rules, 2) == 3
    assert dead_squares(filled, rules, 1) == 0
    # an L-shaped pocket of three squares is dead only for pieces of 4+
    #   ..#
    #   .##
    #   ###
    filled = cell_mask([(0, 2), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)], 3)
    assert dead_squares(filled, rules, 3) == 0 and dead_squares(filled, rules, 4) == 3
    # a shaped board's holes are not empty squares
    holed = Rules(rows=3, cols=3, holes=frozenset({(1, 1)}))
    assert dead_squares(cell_mask([(0, 1), (1, 0), (1, 2), (2, 1)], 3), holed, 2) == 4


def test_planner_plays_legal_games_against_greedy() -> None:
    loaded = load_deck(ROOT / "decks" / "quilts.toml")
    qs = loaded.family.generate(loaded.deck)
    game = Game(qs.pieces, qs.rules)
    circle = list(range(len(qs.pieces)))
    # the engine's apply() raises IllegalMove on any illegal move, so finishing is the test
    result = play_game(game, circle, (PlannerBot(qs.values), GreedyBot(qs.values)))
    assert game.is_over(result.state)
    sample = sample_pairing(qs.pieces, qs.rules, qs.values, "head-to-head",
                            Precision.fixed(4), 7)
    again = sample_pairing(qs.pieces, qs.rules, qs.values, "head-to-head",
                           Precision.fixed(4), 7)
    assert sample.outcomes == again.outcomes  # seeded
    # seats swap every game: the planner is first in games 0 and 2
    assert [o.first_bot for o in sample.outcomes] == ["planner", "greedy"] * 2
    h = head_to_head(sample.outcomes)
    assert h.wins.trials == 4 and h.margin.n == 4
