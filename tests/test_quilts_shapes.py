"""Quilt boards of any shape (`board = { shape = [...] }`, issue 14): the rules engine keeps
pieces off the holes, fill checks and --count-solutions use the actual shape and its symmetry
group (known answer: the 8x8 board minus its 2x2 centre has 65 tilings by the 12 pentominoes
up to symmetry, 520 raw), the board prints with its outline, and score files read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.core.budget import Budget
from generator.core.polyomino import Polyomino
from generator.core.tiling import board_symmetries
from generator.deckfile import LoadedDeck, load_deck, load_deck_text
from generator.errors import DeckError
from generator.families.base import CheckOptions
from generator.families.quilts.check import count_entry, replay_fill
from generator.families.quilts.layout import board_component
from generator.families.quilts.rules import Board, IllegalMove, Placement, options
from generator.render.drawing import Polygon, Rect

ROOT = Path(__file__).resolve().parent.parent
HOLED = ROOT / "tests/decks/quilts-holed.toml"


def deck(board: str, pieces: str, extra: str = "") -> LoadedDeck:
    return load_deck_text(f'family = "quilts"\nname = "t"\nseed = 9\n[check]\nsimulations = 0\n'
                          f"[quilts]\nboard = {{ {board} }}\n{extra}\n{pieces}\n"
                          "[quilts.track]\npatches = []\n")


def pieces_toml(*shapes: str) -> str:
    return "".join(f'[[quilts.pieces]]\nshape = "{s}"\n' for s in shapes)


def entry(report: Any, subject: str, check: str) -> Any:
    (found,) = [e for e in report.entries if e.subject == subject and e.check == check]
    return found


def test_ring_board_placements_by_hand() -> None:
    # The 3x3 board without its centre is a ring of 8 squares.
    #   ###
    #   #.#
    #   ###
    # A domino fits on any two neighbouring ring squares: 8 placements (the ring has 8
    # sides between neighbours). A straight tromino fits only along a side: 4 placements.
    # An L-tromino fits round each corner: 4. Nothing covers the centre.
    loaded = deck('shape = ["###", "#.#", "###"]', pieces_toml("##", "###", "##/#."))
    qs = loaded.family.generate(loaded.deck)
    r = qs.rules
    assert (r.rows, r.cols, r.area, r.holes) == (3, 3, 8, frozenset({(1, 1)}))
    counts = [len(options(p.shape, r.rows, r.cols, r.blocked)) for p in qs.pieces]
    assert counts == [8, 4, 4]
    centre = 1 << (1 * 3 + 1)
    assert all(not o.mask & centre for p in qs.pieces
               for o in options(p.shape, r.rows, r.cols, r.blocked))


def test_engine_keeps_pieces_off_holes_and_counts_only_squares() -> None:
    board = Board(3, 3, 0, 1 << 4)  # the ring
    assert board.area == 8 and board.empty_count == 8
    domino = Polyomino.from_text("##")
    with pytest.raises(IllegalMove, match="not a square of the shaped board"):
        board.place(domino, Placement(0, 0, 1, 0))  # (1,0)-(1,1): (1,1) is the hole
    b = board.place(domino, Placement(0, 0, 0, 0))
    assert b.empty_count == 6
    assert str(b) == "##.\n.x.\n..."
    assert Board.from_text(str(b)) == b


def test_holed_board_known_counts_and_fill_certificate() -> None:
    # 8x8 minus its 2x2 centre, the 12 pentominoes: every symmetry of the square keeps the
    # hole, so the count is up to all 8; the known answers are 65 and 520 (= 65 x 8: no
    # tiling of this board is symmetric).
    loaded = load_deck(HOLED)
    qs = loaded.family.generate(loaded.deck)
    assert len(board_symmetries(qs.rules.squares)) == 8
    e, data = count_entry(qs, Budget(nodes=10_000_000))
    assert (data["up_to_symmetry"], data["raw"], data["complete"]) == (65, 520, True)
    assert "65 tilings up to the board's symmetry (520 raw)" in e.message
    report = loaded.family.check(loaded.deck, qs, CheckOptions(simulations=0))
    fill = entry(report, "board", "fill")
    assert fill.status == "completable"
    assert "60-square board" in fill.message
    board = replay_fill(fill.details["certificate"], qs.pieces, qs.rules)
    assert board.empty_count == 0 and not board.filled & board.blocked
    # no 5x5 square of this board avoids the hole
    bonus = entry(report, "bonus", "bonus-fill")
    assert bonus.status == "impossible" and "no place free of holes" in bonus.message


def test_count_uses_the_shapes_own_symmetry() -> None:
    # Board: an L of three squares   ##   with a domino and a monomino (areas match, so
    #                                #.   both are used). By hand, two tilings:
    # domino across the top + monomino below-left; domino down the left + monomino top-right.
    # The L is symmetric under the reflection in its diagonal, which swaps the two: 1 class.
    loaded = deck('shape = "##/#."', pieces_toml("##", "#"))
    qs = loaded.family.generate(loaded.deck)
    _, data = count_entry(qs, Budget(nodes=100_000))
    assert (data["up_to_symmetry"], data["raw"]) == (1, 2)
    # A board with no symmetry, the P shape  ##  with two dominoes and a monomino.
    #                                          ##
    #                                          #.
    # By hand, where the monomino goes: (2,0) leaves the 2x2 top, 2 ways; (0,0) leaves the
    # path (0,1)-(1,1)-(1,0)-(2,0), 1 way; (1,1) leaves the path (0,1)-(0,0)-(1,0)-(2,0),
    # 1 way; (0,1) leaves a T and (1,0) cuts (2,0) off: 0. Total 4, each its own class.
    loaded = deck('shape = "##/##/#."', pieces_toml("##", "##", "#"),
                  extra="allow_duplicates = true")
    qs = loaded.family.generate(loaded.deck)
    assert len(board_symmetries(qs.rules.squares)) == 1
    _, data = count_entry(qs, Budget(nodes=100_000))
    assert (data["up_to_symmetry"], data["raw"]) == (4, 4)


def test_board_shape_errors_name_the_key() -> None:
    with pytest.raises(DeckError) as exc:
        deck('shape = ["##o", "###"]', pieces_toml("##"))
    assert any("E-QUILTS-BOARD" in p.format() and "'o'" in p.format()
               for p in exc.value.problems)
    with pytest.raises(DeckError) as exc:
        deck('rows = 4, shape = ["###", "###"]', pieces_toml("##"))
    assert any("rows = 4 but the shape has 2" in p.format() for p in exc.value.problems)
    with pytest.raises(DeckError) as exc:
        deck('shape = ["...", "..."]', pieces_toml("##"))
    assert any("the board has no square" in p.format() for p in exc.value.problems)


def test_printed_board_follows_the_shape() -> None:
    loaded = load_deck(HOLED)
    qs = loaded.family.generate(loaded.deck)
    comp = board_component(loaded.deck, qs)
    items = comp.front.items
    squares = [i for i in items if isinstance(i, Rect) and i.w == i.h == 12.0]
    assert len(squares) == 60
    loops = [i for i in items if isinstance(i, Polygon)]
    assert len(loops) == 2  # the outer edge and the hole's edge


def test_score_file_on_a_shaped_board() -> None:
    loaded = deck('shape = ["###", "#.#", "###"]', pieces_toml("##"))
    qs = loaded.family.generate(loaded.deck)
    fam = loaded.family
    # 2 empty squares on the ring (the hole is not a square): 3 buttons - 2 x 2 = -1
    res = fam.score(loaded.deck, qs, Path("s.toml"),
                    'buttons = 3\nboard = ["###", "#x.", "#.#"]\n')
    assert res.total == 3 - 2 * 2
    with pytest.raises(DeckError) as exc:
        fam.score(loaded.deck, qs, Path("s.toml"), 'board = ["###", "###", "###"]\n')
    assert any("not squares of the shaped board" in p.format() for p in exc.value.problems)


def test_simulated_games_on_a_shaped_board_never_cover_holes() -> None:
    from generator.families.quilts.sim import simulate

    loaded = load_deck(HOLED)
    qs = loaded.family.generate(loaded.deck)
    figures = simulate(qs.pieces, qs.rules, qs.values, 2, 5)
    assert figures.games == 2
    from generator.families.quilts.rules import Game
    from generator.families.quilts.sim import GreedyBot, play_game

    result = play_game(Game(qs.pieces, qs.rules), list(range(12)),
                       (GreedyBot(qs.values), GreedyBot(qs.values)))
    for p in result.state.players:
        assert not p.board.filled & qs.rules.blocked
