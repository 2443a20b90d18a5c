"""The streets rules engine: placements, every effect, refusals, plans, scoring."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.families.streets.generate import build_sheet, generate, plan_card
from generator.families.streets.model import (
    ConditionParams,
    Effect,
    PlanParams,
    StreetParams,
    StreetsParams,
)
from generator.families.streets.rules import EMPTY, Move, RuleError, Sheet, legal_moves, replay

PARAMS = StreetsParams(
    streets=[StreetParams(name="A", houses=5, pools=[2], parks=[2, 5]),
             StreetParams(name="B", houses=6, pools=[1, 6], parks=[1, 3, 6])],
    group_values=[[1, 2], [2, 3, 4], [3, 5], [4, 6]],
    pool_points=[3, 7, 12],
    worker_points=[1, 3],
    duplicate_penalty=[2, 5],
    refusal_penalty=[0, 4],
    number_min=1, number_max=12, cards=24, worker_shift=2,
    plans=[PlanParams(level=1, conditions=[ConditionParams(kind="groups", sizes=[2, 3])],
                      first=6, later=3)],
)
SPEC = build_sheet(PARAMS)


def put(sheet: Sheet, street: int, house: int, value: int, effect: Effect = Effect.PARK,
        **kw: object) -> Sheet:
    return sheet.apply(Move(value, effect, street, house, value, **kw))  # type: ignore[arg-type]


def test_numbers_rise_left_to_right_with_gaps_and_skips() -> None:
    s = put(Sheet.empty(SPEC), 0, 1, 5)
    s = put(s, 0, 4, 11)           # gap of two houses, skipped numbers: fine
    s = put(s, 0, 2, 7)
    assert s.houses[0] == (EMPTY, 5, 7, EMPTY, 11)
    with pytest.raises(RuleError, match="rising order"):
        put(s, 0, 3, 6)            # 6 after 7
    with pytest.raises(RuleError, match="rising order"):
        put(s, 0, 0, 5)            # a repeat on the same street
    with pytest.raises(RuleError, match="already built"):
        put(s, 0, 1, 6)
    assert put(s, 1, 0, 5).houses[1][0] == 5     # the same number on another street is fine
    assert s.places(6) == [(1, h) for h in range(6)]
    assert (0, 3) in s.places(8)


def test_refusal_only_when_nothing_fits() -> None:
    s = Sheet.empty(SPEC)
    for h, v in enumerate((1, 2, 3, 4, 5)):
        s = put(s, 0, h, v)
    for h, v in enumerate((1, 2, 3, 4, 5, 6)):
        s = put(s, 1, h, v)
    assert s.full() and s.over(3)
    s2 = Sheet.empty(SPEC)
    with pytest.raises(RuleError, match="fits a house"):
        s2.apply(Move(4, Effect.FENCE))
    s3 = replace_houses(s2, ((1, 2, 3, 4, 5), (1, 2, 3, 4, 5, EMPTY)))
    r = s3.apply(Move(3, Effect.FENCE))
    assert r.refusals == 1 and r.total() == s3.total()  # the first box costs 0
    r = r.apply(Move(4, Effect.POOL))
    assert r.refusals == 2 and r.over(3)
    assert dict((lab, p) for lab, p, _ in r.score())["refusals"] == -4


def replace_houses(sheet: Sheet, rows: tuple[tuple[int, ...], ...]) -> Sheet:
    from dataclasses import replace

    return replace(sheet, houses=rows)


def test_fence_makes_groups_and_locked_groups_cannot_be_split() -> None:
    s = Sheet.empty(SPEC)
    for h, v in enumerate((1, 2, 3, 4, 5)):
        s = put(s, 0, h, v)
    assert s.groups(0) == [(0, 4, True)]
    assert s.complete_groups() == []          # 5 is larger than the last column (4)
    s = s.apply(Move(7, Effect.FENCE, 1, 0, 7, use=True, target=(0, 2)))
    assert s.groups(0) == [(0, 1, True), (2, 4, True)]
    assert s.complete_groups() == [(0, 0, 1), (0, 2, 4)]
    with pytest.raises(RuleError, match="already has a fence"):
        s.apply(Move(8, Effect.FENCE, 1, 1, 8, use=True, target=(0, 2)))
    with pytest.raises(RuleError, match="not between two houses"):
        s.apply(Move(8, Effect.FENCE, 1, 1, 8, use=True, target=(0, 5)))
    plan = plan_card(0, PARAMS.plans[0], SPEC)
    assert s.plan_met(plan) == ((0, 0, 1), (0, 2, 4))
    s = s.claim(plan, first=True)
    assert s.locked == {(0, 0, 1), (0, 2, 4)}
    with pytest.raises(RuleError, match="split a group used for a plan"):
        s.apply(Move(8, Effect.FENCE, 1, 1, 8, use=True, target=(0, 3)))
    with pytest.raises(RuleError, match="already claimed"):
        s.claim(plan, first=False)
    lines = dict((lab, p) for lab, p, _ in s.score())
    assert lines["plan plan-01"] == 6
    assert lines["groups of 2"] == 2 and lines["groups of 3"] == 3


def test_claim_rejects_wrong_or_used_groups() -> None:
    s = Sheet.empty(SPEC)
    for h, v in enumerate((1, 2, 3, 4, 5)):
        s = put(s, 0, h, v)
    s = s.apply(Move(7, Effect.FENCE, 1, 0, 7, use=True, target=(0, 2)))
    plan = plan_card(0, PARAMS.plans[0], SPEC)
    with pytest.raises(RuleError, match="used twice"):
        s.claim(plan, first=True, groups=[(0, 0, 1), (0, 0, 1)])
    with pytest.raises(RuleError, match="sizes"):
        s.claim(plan, first=True, groups=[(0, 0, 1)])
    with pytest.raises(RuleError, match="not a complete group"):
        s.claim(plan, first=True, groups=[(0, 0, 1), (0, 1, 3)])
    later = s.claim(plan, first=False)
    assert later.claims[0].points == 3


def test_park_pool_worker_price_duplicate_effects() -> None:
    s = Sheet.empty(SPEC)
    s = s.apply(Move(4, Effect.PARK, 0, 0, 4, use=True))
    s = s.apply(Move(5, Effect.PARK, 0, 3, 5, use=True))
    assert s.parks == (2, 0)
    with pytest.raises(RuleError, match="park track .* is full"):
        s.apply(Move(6, Effect.PARK, 0, 4, 6, use=True))
    s = s.apply(Move(2, Effect.POOL, 1, 0, 2, use=True))     # house 1 of B has a pool spot
    assert s.pools[1] == {0}
    with pytest.raises(RuleError, match="no pool spot"):
        s.apply(Move(3, Effect.POOL, 1, 1, 3, use=True))
    with pytest.raises(RuleError, match="without a worker"):
        s.apply(Move(3, Effect.PARK, 1, 1, 4))
    s = s.apply(Move(3, Effect.WORKER, 1, 1, 5, use=True))   # shifted +2
    assert s.houses[1][1] == 5 and s.workers == 1
    with pytest.raises(RuleError, match="at most 2"):
        s.apply(Move(3, Effect.WORKER, 1, 2, 6, use=True))
    assert s.written_options(1, Effect.WORKER) == [0, 1, 2, 3]
    s = s.apply(Move(9, Effect.PRICE, 1, 2, 9, use=True, size=2))
    assert s.price == (0, 1, 0, 0)
    with pytest.raises(RuleError, match="no value column"):
        s.apply(Move(10, Effect.PRICE, 1, 3, 10, use=True, size=5))
    s = s.apply(Move(10, Effect.DUPLICATE, 1, 3, 10, use=True, target=(1, 4)))
    assert s.houses[1][3:5] == (10, 10) and s.dups[1] == {4}
    with pytest.raises(RuleError, match="built neighbour"):
        Sheet.empty(SPEC).apply(Move(3, Effect.DUPLICATE, 1, 0, 3, use=True, target=(0, 2)))
    lines = dict((lab, p) for lab, p, _ in s.score())
    assert lines["parks A"] == 5 and lines["pools"] == 3 and lines["workers"] == 1
    assert lines["duplicates"] == -2
    # A regular number can never equal a duplicate run: 10 is taken on B.
    with pytest.raises(RuleError, match="rising order"):
        s.apply(Move(10, Effect.FENCE, 1, 5, 10))


def test_move_text_round_trips() -> None:
    moves = [Move(7, Effect.FENCE, 1, 4, 7, True, (0, 3)), Move(9, Effect.WORKER, 2, 7, 11, True),
             Move(4, Effect.POOL), Move(5, Effect.PRICE, 0, 0, 5, True, size=3),
             Move(5, Effect.DUPLICATE, 0, 0, 5, True, (0, 1)), Move(2, Effect.PARK, 0, 1, 2)]
    for m in moves:
        assert Move.parse(str(m)) == m
        assert eval(repr(m)) == m  # noqa: S307 - repr pastes back as code
    assert str(moves[0]) == "7/fence s2h5=7 +fence s1b3"
    with pytest.raises(ValueError, match="not a move"):
        Move.parse("seven")
    with pytest.raises(ValueError, match="uses \\+park with a fence card"):
        Move.parse("7/fence s1h1=7 +park")


def _brute_legal(row: tuple[int, ...], h: int, v: int) -> bool:
    """Oracle: v is new on the street and the built numbers still never fall, left to
    right (duplicates already there may repeat among themselves)."""
    if row[h] != EMPTY or v in row:
        return False
    new = [x for x in row[:h] + (v,) + row[h + 1:] if x != EMPTY]
    return all(a <= b for a, b in zip(new, new[1:], strict=False))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 12), st.sampled_from(list(Effect))), max_size=14),
       st.randoms(use_true_random=False))
def test_random_games_keep_the_invariants(draws: list[tuple[int, Effect]], rnd: object) -> None:
    import random

    assert isinstance(rnd, random.Random)
    s = Sheet.empty(SPEC)
    moves: list[Move] = []
    for number, effect in draws:
        options = list(legal_moves(s, number, effect))
        if not options:
            if s.refusals < len(SPEC.refusal_penalty):
                m = Move(number, effect)
                s = s.apply(m)
                moves.append(m)
            continue
        m = rnd.choice(options)
        s = s.apply(m)
        moves.append(m)
        # Placement oracle on every street for a value: places() == brute force.
        for street, row in enumerate(s.houses):
            for v in (1, 6, 12):
                brute = {(street, h) for h in range(len(row)) if _brute_legal(row, h, v)}
                assert {p for p in s.places(v) if p[0] == street} == brute
    # Invariants: rising (non-decreasing, equal only next to a duplicate), tracks in bounds,
    # and the text form of the moves replays to the same sheet.
    for street, row in enumerate(s.houses):
        built = [(h, x) for h, x in enumerate(row) if x != EMPTY]
        for (h1, a), (h2, b) in zip(built, built[1:], strict=False):
            assert a < b or (a == b and h2 == h1 + 1 and (h1 in s.dups[street]
                                                          or h2 in s.dups[street]))
    assert s.duplicates <= len(SPEC.duplicate_penalty)
    assert all(p <= len(t.parks) for p, t in zip(s.parks, SPEC.streets, strict=True))
    again = replay(SPEC, [Move.parse(str(m)) for m in moves])
    assert again == s
    assert s.total() == sum(p for _, p, _ in s.score())


def test_generated_deck_is_deterministic_and_dealt_in_three_stacks() -> None:
    a = generate(PARAMS, 9)
    b = generate(PARAMS, 9)
    c = generate(PARAMS, 10)
    assert a == b
    assert a.cards != c.cards or a.stacks != c.stacks
    assert sorted(i for stack in a.stacks for i in stack) == list(range(24))
    assert {len(stack) for stack in a.stacks} == {8}
    counts = a.number_counts()
    assert sum(counts.values()) == 24 and set(counts) == set(range(1, 13))
    # triangle: the middle numbers are at least as frequent as the ends
    assert counts[6] >= counts[1] and counts[7] >= counts[12]
