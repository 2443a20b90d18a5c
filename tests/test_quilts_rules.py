"""The quilts rules engine: boards, placements, the ring, the time track, turns, scoring,
and seeded games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.polyomino import Polyomino
from generator.families.quilts.model import Piece, Rules, Track, ValueModel
from generator.families.quilts.rules import (
    PATCH,
    Board,
    Buy,
    Game,
    IllegalMove,
    Pass,
    Placement,
    PlacePatch,
    find_transform,
    initial_ring,
    options,
)
from generator.families.quilts.sim import GreedyBot, RandomBot, play_game, simulate


def piece(i: int, text: str, cost: int = 0, time: int = 1, income: int = 0) -> Piece:
    return Piece(i, Polyomino.from_text(text), cost, time, income)


def small_rules(**kw: object) -> Rules:
    base: dict[str, object] = dict(rows=4, cols=4, start_buttons=5, empty_penalty=2,
                                   bonus_size=2, bonus_points=7,
                                   track=Track(10, (3, 6), (4, 8), 1))
    base.update(kw)
    return Rules(**base)  # type: ignore[arg-type]


PIECES = (
    piece(0, "##", cost=1, time=2),
    piece(1, "###/#..", cost=3, time=1, income=1),
    piece(2, "#", cost=0, time=3),
    piece(3, "##/##", cost=9, time=2, income=2),
    piece(4, "#./##", cost=2, time=4),
)


# -- boards and placements ----------------------------------------------------------------


def brute_force_placements(shape: Polyomino, rows: int, cols: int) -> set[frozenset[tuple[int,
                                                                                          int]]]:
    """Oracle: all 8 images (normalised to row/col 0) at every offset, kept when inside."""
    out = set()
    for k in range(8):
        image = shape.transform(k)
        for dr in range(rows):
            for dc in range(cols):
                cells = frozenset((r + dr, c + dc) for r, c in image.cells)
                if all(0 <= r < rows and 0 <= c < cols for r, c in cells):
                    out.add(cells)
    return out


@st.composite
def polyominoes(draw: st.DrawFn) -> Polyomino:
    n = draw(st.integers(1, 6))
    cells = {(0, 0)}
    while len(cells) < n:
        r, c = draw(st.sampled_from(sorted(cells)))
        dr, dc = draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
        cells.add((r + dr, c + dc))
    return Polyomino.of(cells)


@settings(max_examples=40, deadline=None)
@given(polyominoes(), st.integers(1, 5), st.integers(1, 5))
def test_options_match_brute_force(shape: Polyomino, rows: int, cols: int) -> None:
    got = {frozenset((b // cols, b % cols) for b in range(rows * cols) if o.mask >> b & 1)
           for o in options(shape, rows, cols)}
    assert got == brute_force_placements(shape, rows, cols)
    assert len(got) == len(options(shape, rows, cols))  # each distinct placement once
    for o in options(shape, rows, cols):  # each option's transform/offset replays exactly
        board = Board(rows, cols).place(shape, Placement(0, o.transform, o.row, o.col))
        assert board.filled == o.mask


def test_place_rejects_outside_and_overlap() -> None:
    board = Board(3, 3)
    ell = Polyomino.from_text("##/#.")
    board = board.place(ell, Placement(0, 0, 0, 0))
    assert str(board) == "##.\n#..\n..."
    with pytest.raises(IllegalMove, match="overlaps"):
        board.place(ell, Placement(0, 2, 0, 0))
    with pytest.raises(IllegalMove, match="outside"):
        board.place(ell, Placement(0, 0, 2, 2))
    assert board.place(ell, Placement(0, 2, 1, 1)).empty_count == 3


def test_find_transform_round_trip() -> None:
    shape = Polyomino.from_text("###/#..")
    for k in range(8):
        cells = Placement(0, k, 2, 3).cells(shape)
        where = find_transform(shape, cells)
        assert where is not None and where.cells(shape) == cells
    assert find_transform(shape, {(0, 0), (0, 1), (0, 2), (0, 3)}) is None


def test_filled_square() -> None:
    board = Board(3, 3, filled=0b000011011)
    assert board.has_filled_square(2)
    assert not board.has_filled_square(3)


def test_placement_json_round_trip() -> None:
    shape = PIECES[1].shape
    p = Placement(1, 5, 1, 0)
    data = p.to_json(shape, PIECES)
    assert data["piece"] == "piece-02"
    assert Placement.from_json(data) == p
    assert sorted(map(tuple, data["cells"])) == sorted(p.cells(shape))


# -- ring, turns and the time track -------------------------------------------------------


def test_marker_starts_after_smallest_piece() -> None:
    assert initial_ring(PIECES, [3, 2, 0, 1, 4]) == (0, 1, 4, 3, 2)
    game = Game(PIECES, small_rules())
    state = game.start([3, 2, 0, 1, 4])
    assert game.choices(state) == (0, 1, 4)


def test_buy_moves_marker_pays_and_advances() -> None:
    game = Game(PIECES, small_rules())
    state = game.start([3, 2, 0, 1, 4])
    state = game.apply(state, Buy(1, 0, 0, 0))  # piece index 1: cost 3, time 1, income 1
    p0 = state.players[0]
    assert (p0.buttons, p0.position, p0.income) == (2, 1, 1)
    # the marker now sits where piece 1 was: next pieces are 4, 3, 2 and then 0
    assert state.ring == (4, 3, 2, 0)
    assert game.to_move(state) == 1  # player 1 is behind (space 0)


def test_tie_goes_to_the_token_on_top() -> None:
    game = Game(PIECES, small_rules())
    state = game.start([3, 2, 0, 1, 4])
    state = game.apply(state, Pass())  # player 0 to space 1 (just past player 1), +1 button
    assert state.players[0].position == 1 and state.players[0].buttons == 6
    state = game.apply(state, Buy(1, 0, 0, 0))  # player 1 buys piece 1 (time 1) -> space 1
    assert state.players[1].position == 1
    assert game.to_move(state) == 1  # arrived last, on top: plays again


def test_income_and_patch_crossing() -> None:
    game = Game(PIECES, small_rules())
    state = game.start([3, 2, 0, 1, 4])
    state = game.apply(state, Buy(1, 0, 0, 0))  # p0: income 1, space 1
    state = game.apply(state, Pass())  # p1 to space 2, +2 buttons
    assert state.players[1].buttons == 7
    # p0 (space 1) buys piece 2 (the 1x1, time 3) -> space 4: crosses income 3, patch 4
    state = game.apply(state, Buy(2, 0, 3, 3))
    p0 = state.players[0]
    assert p0.position == 4 and p0.buttons == 2 + 1
    assert state.pending == 1 and state.patches == (8,)
    assert game.to_move(state) == 0
    with pytest.raises(IllegalMove, match="patch"):
        game.apply(state, Pass())
    with pytest.raises(IllegalMove, match="overlaps"):
        game.apply(state, PlacePatch(0, 0))
    state = game.apply(state, PlacePatch(3, 2))
    assert state.pending == 0
    assert state.players[0].placed[-1] == Placement(PATCH, 0, 3, 2)
    assert game.to_move(state) == 1


def test_cannot_buy_unaffordable_or_far_piece() -> None:
    game = Game(PIECES, small_rules(start_buttons=1))
    state = game.start([3, 2, 0, 1, 4])
    with pytest.raises(IllegalMove, match="costs 3"):
        game.apply(state, Buy(1, 0, 0, 0))
    with pytest.raises(IllegalMove, match="choice 3"):
        game.apply(state, Buy(3, 0, 0, 0))


def test_end_space_bonus_and_scoring() -> None:
    rules = small_rules(track=Track(3, (), (), 2))
    game = Game(PIECES, rules)
    state = game.start([3, 2, 0, 1, 4])
    state = game.apply(state, Buy(0, 0, 0, 0))  # 2x1 at (0,0): space 2, 4 buttons
    state = game.apply(state, Pass())  # p1 to space 3 (the end): +3 buttons, +2 end buttons
    assert state.players[1].buttons == 5 + 3 + 2 and state.end_order == (1,)
    state = game.apply(state, Pass())  # p0 to the end (capped): +1, +2
    assert game.is_over(state)
    assert game.score(state, 0) == 4 + 1 + 2 - 2 * 14
    assert game.score(state, 1) == 10 - 2 * 16
    assert game.winner(state) == 0
    with pytest.raises(IllegalMove, match="over"):
        game.apply(state, Pass())


def test_bonus_goes_to_first_full_square() -> None:
    game = Game(PIECES, small_rules(start_buttons=20))
    state = game.start([2, 3, 0, 1, 4])  # ring after the 1x1: 3 (2x2) first
    state = game.apply(state, Buy(0, 0, 1, 1))
    assert state.bonus_owner == 0
    assert game.score(state, 0) == 20 - 9 + 7 - 2 * 12


def test_tie_break_by_end_order() -> None:
    game = Game((), small_rules(track=Track(2, (), (), 0)))
    state = game.start([])
    state = game.apply(state, Pass())  # p0 to 1
    state = game.apply(state, Pass())  # p1 to 2 (end): 2 buttons
    state = game.apply(state, Pass())  # p0 to 2 (capped): 1 more button
    assert game.is_over(state)
    assert game.score(state, 0) == game.score(state, 1)
    assert game.winner(state) == 1  # reached the end first


# -- whole games --------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_random_games_keep_the_invariants(seed: int) -> None:
    rules = small_rules(rows=5, cols=5, start_buttons=6)
    game = Game(PIECES, rules)
    rng = random.Random(seed)
    circle = list(range(len(PIECES)))
    rng.shuffle(circle)
    state = game.start(circle)
    bot = RandomBot(rng)
    moves = 0
    while not game.is_over(state):
        before = state
        me = game.to_move(state)
        state = game.apply(state, bot.choose(game, state))
        moves += 1
        assert moves < 500
        for p in state.players:
            assert p.buttons >= 0
            covered = sum(PIECES[x.piece].size if x.piece != PATCH else 1 for x in p.placed)
            assert covered == p.board.filled.bit_count()
        assert state.players[me].position >= before.players[me].position
        bought = [x.piece for p in state.players for x in p.placed if x.piece != PATCH]
        assert len(set(bought)) == len(bought)
        assert sorted(bought + list(state.ring)) == list(range(len(PIECES)))
    assert all(p.position == rules.track.length for p in state.players)


def test_seeded_simulation_is_reproducible() -> None:
    rules = small_rules(rows=5, cols=5)
    values = ValueModel()
    a = simulate(PIECES, rules, values, 12, seed=5)
    b = simulate(PIECES, rules, values, 12, seed=5)
    assert a == b
    assert a.games == 12 and 0 <= a.first_player_win_rate <= 1


def test_greedy_bot_prefers_valuable_piece_and_tight_placement() -> None:
    pieces = (piece(0, "#", cost=0, time=1), piece(1, "##", cost=5, time=3),
              piece(2, "###/###", cost=1, time=1), piece(3, "##", cost=0, time=1))
    rules = small_rules(rows=4, cols=4)
    game = Game(pieces, rules)
    state = game.start([0, 1, 2, 3])
    action = GreedyBot(ValueModel()).choose(game, state)
    assert isinstance(action, Buy) and game.choices(state)[action.choice] == 2
    after = game.apply(state, action)
    cells = set(after.players[0].placed[0].cells(pieces[2].shape))
    assert cells & {(0, 0), (0, 3), (3, 0), (3, 3)}  # tucked into a corner: 5 border edges
    result = play_game(game, [0, 1, 2, 3], (GreedyBot(ValueModel()), GreedyBot(ValueModel())))
    assert result.scores == (game.score(result.state, 0), game.score(result.state, 1))


def test_text_forms_round_trip() -> None:
    board = Board(3, 4, filled=0b1001_0110_1111)
    assert Board.from_text(str(board)) == board
    assert eval(repr(board)) == board  # noqa: S307 - repr pastes back as code
    p = PIECES[1]
    assert Piece.from_text(str(p)) == p
    assert eval(repr(p)) == p  # noqa: S307
    placement = Placement(PATCH, 0, 2, 1)
    assert eval(repr(placement)) == placement  # noqa: S307
    with pytest.raises(ValueError):
        Board.from_text("##\n#")
    with pytest.raises(ValueError):
        Piece.from_text("piece-01: cost x\n##")
