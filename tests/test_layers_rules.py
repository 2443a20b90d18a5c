"""The layers rules engine: stacking legality, place/take turns, the skip, the scissors token,
the hand limit, objectives at the end of a turn, the end trigger and scoring."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.families.layers.model import Card, CountPart, Objective
from generator.families.layers.rules import (
    Game,
    IllegalMove,
    Landscape,
    ObjectiveSlot,
    Pass,
    Place,
    Player,
    Rules,
    Take,
    apply_place,
    fits_frame,
    placement_problem,
    score_player,
    take_cards,
)

R = Rules(values=(1, 2, 3, 4, 5), hand_limit=4, end_piles=1, scissors_bonus=2)
STARS = {1: 0, 2: 1, 3: 1, 4: 2, 5: 3}


def c(colour: str, value: int, scissors: bool = False) -> Card:
    return Card(colour, value, scissors, STARS[value])


START = Card("fern", 1, False, 0, True)


def land(text: str) -> Landscape:
    return Landscape.parse(text, STARS)


# -- stacking legality -------------------------------------------------------------------------


def test_rising_by_one_same_colour_is_legal() -> None:
    lnd = Landscape.starting(START)
    assert placement_problem(R, lnd, c("fern", 2), (0, 0), False) == (None, False)


def test_other_colour_equal_or_lower_values_are_refused() -> None:
    lnd = land("0,0: fern 1 > fern 2")
    err, _ = placement_problem(R, lnd, c("tide", 3), (0, 0), True)
    assert err is not None and "tide card cannot go on a fern stack" in err
    err, _ = placement_problem(R, lnd, c("fern", 2), (0, 0), True)
    assert err is not None and "values must rise" in err
    err, _ = placement_problem(R, lnd, c("fern", 1), (0, 0), True)
    assert err is not None


def test_skip_jumps_exactly_one_value() -> None:
    lnd = land("0,0: fern 1")
    err, uses = placement_problem(R, lnd, c("fern", 3), (0, 0), False)
    assert err is not None and "needs the skip" in err
    assert placement_problem(R, lnd, c("fern", 3), (0, 0), True) == (None, True)
    err, _ = placement_problem(R, lnd, c("fern", 4), (0, 0), True)
    assert err is not None and "skips 2 values" in err


def test_new_stack_orthogonally_adjacent_and_inside_3x3() -> None:
    lnd = land("0,0: fern 1\n0,1: tide 1\n0,2: clay 1")
    assert placement_problem(R, lnd, c("tide", 1), (1, 0), False)[0] is None
    err, _ = placement_problem(R, lnd, c("tide", 1), (1, 3), False)
    assert err is not None and "next to a stack" in err
    err, _ = placement_problem(R, lnd, c("tide", 1), (0, 3), False)
    assert err is not None and "3x3" in err
    err, _ = placement_problem(R, lnd, c("tide", 2), (1, 1), False)
    assert err is not None and "to start a stack" in err
    assert placement_problem(R, lnd, c("tide", 2), (1, 1), True) == (None, True)


def test_scissors_token_blocks_its_stack() -> None:
    lnd = land("0,0: fern 1 > fern 2 scissors\nscissors: 0,0")
    err, _ = placement_problem(R, lnd, c("fern", 3), (0, 0), False)
    assert err is not None and "scissors token blocks" in err


def test_fits_frame() -> None:
    assert fits_frame([(0, 0), (2, 2)])
    assert not fits_frame([(0, 0), (0, 3)])
    assert not fits_frame([(-1, 0), (2, 0)])


def test_landscape_text_round_trip() -> None:
    text = "0,0: fern 1 > fern 2 scissors\n0,1: tide 1\nscissors: 0,0"
    lnd = land(text)
    assert str(lnd) == text
    assert Landscape.parse(str(lnd), STARS) == lnd
    assert eval(repr(lnd), {"Landscape": Landscape}) == lnd  # noqa: S307 - repr pastes back


# -- place turns -------------------------------------------------------------------------------


def one(player: Player, move: Place) -> Player:
    return apply_place(R, (player,), 0, move)[0]


def test_place_one_colour_on_several_stacks() -> None:
    p = Player(land("0,0: fern 1\n0,1: fern 1"), hand=(c("fern", 2), c("fern", 2)))
    p2 = one(p, Place(((c("fern", 2), (0, 0)), (c("fern", 2), (0, 1)))))
    assert str(p2.land) == "0,0: fern 1 > fern 2\n0,1: fern 1 > fern 2"
    assert p2.hand == ()


def test_place_must_share_colour_or_value() -> None:
    p = Player(land("0,0: fern 1"), hand=(c("fern", 2), c("tide", 1)))
    with pytest.raises(IllegalMove, match="share one colour or one value"):
        one(p, Place(((c("fern", 2), (0, 0)), (c("tide", 1), (0, 1)))))
    # same value, two colours: fine
    p = Player(land("0,0: fern 1"), hand=(c("tide", 1), c("clay", 1)))
    p2 = one(p, Place(((c("tide", 1), (0, 1)), (c("clay", 1), (1, 0)))))
    assert len(p2.land.stacks) == 3


def test_card_not_in_hand_is_refused() -> None:
    p = Player(land("0,0: fern 1"), hand=())
    with pytest.raises(IllegalMove, match="not in the hand"):
        one(p, Place(((c("fern", 2), (0, 0)),)))


def test_skip_costs_a_discard_once_per_turn() -> None:
    p = Player(land("0,0: fern 1\n0,1: tide 1"),
               hand=(c("fern", 3), c("tide", 3), c("clay", 5)))
    with pytest.raises(IllegalMove, match="needs the skip"):
        one(p, Place(((c("fern", 3), (0, 0)),)))
    p2 = one(p, Place(((c("fern", 3), (0, 0)),), skip_discard=c("clay", 5)))
    assert p2.discard == (c("clay", 5),) and p2.land.stack((0, 0))[-1] == c("fern", 3)
    # a second skip in the same turn is refused
    with pytest.raises(IllegalMove, match="needs the skip"):
        one(p, Place(((c("fern", 3), (0, 0)), (c("tide", 3), (0, 1))),
                     skip_discard=c("clay", 5)))
    # a discard without a skip is refused
    p3 = Player(land("0,0: fern 1"), hand=(c("fern", 2), c("clay", 5)))
    with pytest.raises(IllegalMove, match="no value was skipped"):
        one(p3, Place(((c("fern", 2), (0, 0)),), skip_discard=c("clay", 5)))


def test_scissors_token_gives_a_free_skip_and_moves_between_players() -> None:
    a = Player(land("0,0: fern 1\n0,1: tide 1 > tide 2 scissors\nscissors: 0,1"),
               hand=(c("fern", 3),))
    b = Player(land("0,0: clay 1"), hand=(c("clay", 1, True), c("clay", 3)))
    # a holds the token: the skip is free, and discarding for it is refused
    a2 = apply_place(R, (a, b), 0, Place(((c("fern", 3), (0, 0)),)))[0]
    assert a2.land.stack((0, 0))[-1].value == 3 and a2.discard == ()
    # b plays a scissors card and takes the token from a, then skips for free in the same turn
    a3, b3 = apply_place(R, (a, b), 1, Place(((c("clay", 1, True), (0, 1)),
                                              (c("clay", 3), (0, 0))), scissors_on=0))
    assert a3.land.scissors_at is None and b3.land.scissors_at == (0, 1)
    assert b3.land.stack((0, 0))[-1] == c("clay", 3) and b3.discard == ()
    # without the token the same turn needs a paid skip
    with pytest.raises(IllegalMove, match="needs the skip"):
        apply_place(R, (a, b), 1, Place(((c("clay", 1, True), (0, 1)),
                                         (c("clay", 3), (0, 0)))))
    with pytest.raises(IllegalMove, match="no scissors logo"):
        plain = Player(b.land, hand=(c("clay", 2),))
        apply_place(R, (a, plain), 1, Place(((c("clay", 2), (0, 0)),), scissors_on=0))


def test_token_is_usable_the_same_turn_only_before_a_paid_skip() -> None:
    p = Player(land("0,0: fern 1\n0,1: tide 1"),
               hand=(c("fern", 3, True), c("fern", 5), c("tide", 2)))
    # place fern 3 scissors with a paid skip, take the token: the turn's one skip is spent
    with pytest.raises(IllegalMove):
        one(p, Place(((c("fern", 3, True), (0, 0)), (c("fern", 5), (1, 0))),
                     skip_discard=c("tide", 2), scissors_on=0))


# -- takes, hand limit, objectives, end, scoring ------------------------------------------------


def test_take_tops_of_matching_piles_only() -> None:
    piles = ((c("fern", 1), c("tide", 2)), (c("tide", 4),), (c("clay", 2),))
    got, left = take_cards(piles, "tide", None)
    assert got == (c("tide", 2), c("tide", 4))
    assert left == ((c("fern", 1),), (c("clay", 2),))
    got, left = take_cards(piles, None, 2)
    assert got == (c("tide", 2), c("clay", 2)) and len(left) == 2
    with pytest.raises(IllegalMove, match="no pile shows"):
        take_cards(piles, "heath", None)


def _game(piles: tuple[tuple[Card, ...], ...], objectives: tuple[Objective, ...] = ()) -> Game:
    players = (Player(Landscape.starting(START)), Player(Landscape.starting(c("tide", 1))))
    return Game(R, players, piles, tuple(ObjectiveSlot(o, o.tokens) for o in objectives))


def test_hand_limit_discards_the_excess_the_player_names() -> None:
    piles = tuple((c("fern", v),) for v in (1, 2, 3)) + tuple((c("fern", 5),) for _ in range(3))
    g = _game(piles)
    with pytest.raises(IllegalMove, match="discard exactly 2"):
        g.step(Take(colour="fern"))
    g2 = g.step(Take(colour="fern", overflow=(c("fern", 5), c("fern", 5))))
    assert len(g2.players[0].hand) == 4 and len(g2.players[0].discard) == 2


def test_objective_pays_highest_token_at_end_of_turn_once() -> None:
    obj = Objective("obj-01", "Two", (CountPart("value", 1, value=2),), (3, 1))
    g = _game(((c("fern", 2),), (c("tide", 2),), (c("clay", 3),), (c("clay", 4),)), (obj,))
    g = g.step(Take(value=2))            # p0 takes fern 2 and tide 2
    g = g.step(Take(colour="clay"))      # p1
    g = g.step(Place(((c("fern", 2), (0, 0)),)))
    assert g.players[0].tokens == (3,) and g.objectives[0].tokens == (1,)
    assert "obj-01" in g.players[0].claimed


def test_end_trigger_gives_everyone_one_more_turn() -> None:
    g = _game(((c("fern", 2),), (c("tide", 2),), (c("clay", 3),)))
    g = g.step(Take(colour="fern"))      # 2 piles left: not yet (end_piles = 1)
    assert g.final_turns_left is None
    g = g.step(Take(colour="tide"))      # 1 pile left: triggered by p1
    assert g.final_turns_left == 2 and not g.over
    g = g.step(Place(((c("fern", 2), (0, 0)),)))
    g = g.step(Take(colour="clay"))
    assert g.over
    with pytest.raises(IllegalMove, match="over"):
        g.step(Pass())


def test_pass_only_when_no_pile_is_left() -> None:
    g = _game(((c("fern", 2),),))
    with pytest.raises(IllegalMove, match="pass only"):
        g.step(Pass())


def test_score_stars_tokens_scissors_minus_hand_and_discard() -> None:
    p = Player(land("0,0: fern 1 > fern 2 > fern 3 scissors\n0,1: tide 1 > tide 2 > tide 4\n"
                    "scissors: 0,0"),
               hand=(c("clay", 1),), discard=(c("clay", 2), c("clay", 3)), tokens=(4, 2))
    s = score_player(R, p)
    assert (s.stars, s.tokens, s.scissors, s.hand, s.discard) == (3, 6, 2, 1, 2)
    assert s.total == 8


# -- property: any sequence the engine accepts leaves only legal stacks ---------------------------

COLOURS = ("fern", "tide", "clay")
card_st = st.builds(c, st.sampled_from(COLOURS), st.integers(1, 5), st.booleans())
move_st = st.tuples(card_st, st.integers(-2, 2), st.integers(-2, 2), st.booleans())


def _legal_stack(cards: tuple[Card, ...]) -> bool:
    """Oracle: one colour, first value 1 or 2 (or the starting card), each step 1 or 2."""
    if len({x.colour for x in cards}) != 1:
        return False
    prev = cards[0].value if cards[0].start else 0
    for x in cards[(1 if cards[0].start else 0):]:
        if x.value - prev not in (1, 2):
            return False
        prev = x.value
    return True


@settings(max_examples=150, deadline=None)
@given(st.lists(move_st, max_size=25))
def test_accepted_placements_always_leave_legal_connected_stacks(moves: list[
        tuple[Card, int, int, bool]]) -> None:
    player = Player(Landscape.starting(START))
    skips = 0
    for card, r, col, pay in moves:
        spare = c("clay", 5)
        player = Player(player.land, hand=(card, spare), discard=player.discard)
        move = Place(((card, (r, col)),), skip_discard=spare if pay else None)
        try:
            player = one(player, move)
        except IllegalMove:
            continue
        if pay:
            skips += 1
    lnd = player.land
    assert fits_frame(lnd.positions)
    from generator.core.grid import is_connected
    assert is_connected(lnd.positions)
    for _, cards in lnd.stacks:
        assert _legal_stack(cards)
    # every jump of two was paid by exactly one discard
    jumps = 0
    for _, cards in lnd.stacks:
        prev = cards[0].value if cards[0].start else 0
        for x in cards[(1 if cards[0].start else 0):]:
            jumps += x.value - prev == 2
            prev = x.value
    assert jumps == skips == len(player.discard)


def test_move_text_round_trip() -> None:
    from generator.families.layers.rules import parse_move

    moves = [
        Take(colour="fern"),
        Take(value=3, overflow=(c("fern", 2), c("tide", 1, True))),
        Place(((c("fern", 2), (0, 0)), (c("fern", 3, True), (-1, 2))),
              skip_discard=c("clay", 5), scissors_on=1),
        Place(((c("tide", 1), (1, 0)),)),
        Pass(),
    ]
    for m in moves:
        assert parse_move(str(m), STARS) == m, str(m)
    with pytest.raises(ValueError, match="not a move"):
        parse_move("jump")
