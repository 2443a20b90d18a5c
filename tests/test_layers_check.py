"""Layers checks: achievability (certificates replayed, impossible with reasons), deck checks,
deck validation at file:line, and the seeded simulation."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generator.core.budget import Budget
from generator.core.verdict import Verdict
from generator.deckfile import load_deck, load_deck_text
from generator.errors import DeckError
from generator.families.base import CheckOptions
from generator.families.layers.achieve import achieve, plan_stacks, replay, supply_of
from generator.families.layers.check import check, colour_entries, rules_for
from generator.families.layers.generate import generate
from generator.families.layers.model import Card, LayersParams, LayersSet, Objective
from generator.families.layers.rules import Landscape, Rules, fits_frame, placement_problem
from generator.families.layers.sim import simulate

ROOT = Path(__file__).resolve().parent.parent
BUDGET = Budget(nodes=200_000)


def gen_of(**kw: Any) -> LayersSet:
    return generate(LayersParams.model_validate(kw), seed=4)


def objective(gen: LayersSet, *parts: dict[str, Any]) -> Objective:
    from generator.families.layers.generate import build_part
    from generator.families.layers.model import PartSpec

    p = LayersParams()
    return Objective("obj-t", "Test", tuple(build_part(p, PartSpec.model_validate(x))
                                             for x in parts), (3,))


# -- completable: certificates replay --------------------------------------------------------


def test_every_default_objective_is_completable_and_replays() -> None:
    gen = gen_of()
    supply = supply_of(gen)
    for obj in gen.objectives:
        a = achieve(gen, obj, BUDGET)
        assert a.verdict == Verdict.COMPLETABLE, (obj.title, a.reason)
        assert a.certificate is not None
        land = replay(gen, obj, a.certificate, supply)
        assert {f"{r},{c}" for r, c in land.positions} == set(a.certificate["landscape"])


def test_tampered_certificate_fails_its_replay() -> None:
    from generator.families.layers.rules import IllegalMove

    gen = gen_of()
    obj = gen.objectives[4]  # Deep Column: sum at least 12
    a = achieve(gen, obj, BUDGET)
    assert a.certificate is not None
    bad = copy.deepcopy(a.certificate)
    bad["turns"] = bad["turns"][1:]  # the first card missing: the next one cannot follow
    with pytest.raises(IllegalMove):
        replay(gen, obj, bad, supply_of(gen))
    bad = copy.deepcopy(a.certificate)
    bad["turns"][0]["place"][0][0] = "lagoon 4"
    with pytest.raises(IllegalMove):
        replay(gen, obj, bad, supply_of(gen))


def test_skip_needs_a_spare_card_and_plan_uses_the_fewest() -> None:
    gen = gen_of(colours=[{"name": "solo"}], min_value=1, max_value=3, stars=[0, 1, 2],
                 copies={1: [1, 0, 1]})
    start = gen.starts[0].card
    # start (1) -> 3 needs the skip over the missing 2, paid by the one card left (solo 1)
    plan = plan_stacks(gen, {(0, 0): gen.make_card("solo", 3)}, start, (0, 0),
                       supply_of(gen))
    assert plan is not None and plan.skips == 1
    # a second stack of solo 1 leaves no card to pay the skip
    plan = plan_stacks(gen, {(0, 0): gen.make_card("solo", 3), (0, 1): gen.make_card("solo", 1)},
                       start, (0, 0), supply_of(gen))
    assert plan is None


# -- impossible with a reason ------------------------------------------------------------------

IMPOSSIBLE: list[tuple[dict[str, Any], list[dict[str, Any]], str]] = [
    ({}, [{"shape": "column", "condition": "sum", "sum": 16}],
     "a column of 3 tops sums at most 15 (values stop at 5); it asks 16"),
    ({}, [{"shape": "line", "condition": "sum", "sum": 2, "compare": "le"}],
     "a line of 3 tops sums at least 3 (values start at 1); it asks at most 2"),
    ({}, [{"shape": "cross", "condition": "different-colours"}],
     "needs 5 different colours; the deck has 4"),
    ({"max_value": 4, "stars": [0, 1, 1, 2], "copies": {2: [3, 3, 3, 3]}},
     [{"shape": "l", "condition": "different-values"}],
     "needs 5 different values; the deck has 4 (values 1-4)"),
    ({}, [{"shape": "line", "condition": "values", "values": [1, 7, 2]}],
     "value 7 is not a card value (values 1-5)"),
    ({}, [{"count": "value", "value": 5, "at_least": 10}], "a landscape shows at most 9 tops"),
    ({}, [{"count": "value", "value": 5, "at_least": 9}],
     "the deck has only 8 cards of value 5"),
    ({"scissors_share": 0.0}, [{"count": "scissors", "at_least": 1}],
     "the deck has only 0 cards with the scissors logo"),
    # found by the exhaustive search: 2 colours with one card per value, start included
    ({"colours": [{"name": "reed"}, {"name": "slate"}], "copies": {2: [1, 1, 1, 1, 1]}},
     [{"shape": "corners", "condition": "same-value"}],
     "no 3x3 landscape of the 10 cards of a 2-player game shows it"),
    # each part alone is fine; together the one 2 must cover a 1 or skip with no card to pay
    ({"colours": [{"name": "solo"}], "max_value": 2, "stars": [0, 1], "copies": {1: [2, 1]}},
     [{"count": "value", "value": 2}, {"count": "value", "value": 1, "at_least": 3}],
     "each part can be met alone, but no 3x3 landscape of the 3 cards of a 1-player game"),
]


@pytest.mark.parametrize(("deck", "parts", "reason"), IMPOSSIBLE)
def test_impossible_with_reason(deck: dict[str, Any], parts: list[dict[str, Any]],
                                reason: str) -> None:
    gen = gen_of(**deck)
    a = achieve(gen, objective(gen, *parts), BUDGET)
    assert a.verdict == Verdict.IMPOSSIBLE
    assert reason in a.reason


def test_search_budget_gives_unknown_never_impossible() -> None:
    gen = gen_of(colours=[{"name": "reed"}, {"name": "slate"}], copies={2: [1, 1, 1, 1, 1]})
    obj = objective(gen, {"shape": "corners", "condition": "same-value"})
    a = achieve(gen, obj, Budget(nodes=50))
    assert a.verdict == Verdict.UNKNOWN and "budget" in a.reason


def test_each_part_alone_is_completable_in_the_together_case() -> None:
    gen = gen_of(colours=[{"name": "solo"}], max_value=2, stars=[0, 1], copies={1: [2, 1]})
    for p in ({"count": "value", "value": 2}, {"count": "value", "value": 1, "at_least": 3}):
        assert achieve(gen, objective(gen, p), BUDGET).verdict == Verdict.COMPLETABLE


# -- deck checks -------------------------------------------------------------------------------


def test_colour_values_gap_fails_and_single_gap_warns() -> None:
    gen = gen_of(copies={2: [3, 0, 0, 3, 2]})
    entries = colour_entries(gen)
    assert all(e.status == "fail" for e in entries)
    assert "no 2 and no 3" in entries[0].message and "above 1" in entries[0].message
    gen = gen_of(copies={2: [3, 3, 0, 3, 2]})
    assert all(e.status == "warn" and "must skip" in e.message for e in colour_entries(gen))


def test_check_report_of_the_impossible_deck() -> None:
    loaded = load_deck(ROOT / "tests/decks/layers-impossible.toml")
    gen = loaded.family.generate(loaded.deck)
    report = check(loaded.deck, gen, CheckOptions())
    assert not report.ok
    by = {e.subject: e for e in report.entries if e.check == "achievable"}
    assert by["obj-01"].status == "impossible"
    assert "sums at most 15 (values stop at 5); it asks 16" in by["obj-01"].message
    assert by["obj-01"].code == "E-LAYERS-OBJECTIVE-IMPOSSIBLE"
    assert by["obj-03"].status == "completable"
    counts = [e for e in report.entries if e.check.startswith("counts:")]
    assert [e.details["cards"] for e in counts] == [56]


def test_check_of_the_small_deck_is_green_with_simulated_shares() -> None:
    loaded = load_deck(ROOT / "tests/decks/layers-small.toml")
    gen = loaded.family.generate(loaded.deck)
    report = check(loaded.deck, gen, CheckOptions())
    assert report.ok, [e.message for e in report.entries if e.failing]
    sims = [e for e in report.entries if e.check == "simulated"]
    assert len(sims) == len(gen.objectives)
    fig = report.figures["simulation"]
    assert fig["games"] == 12 and fig["score_min"] <= fig["score_mean"] <= fig["score_max"]
    assert all(0.0 <= s <= 1.0 for s in fig["objective_taken_share"].values())
    turns = fig["objective_taken_turn_mean"]
    assert set(turns) == {k for k, v in fig["objective_taken_share"].items() if v > 0}
    assert all(0 < t <= fig["turns_mean"] * 3 for t in turns.values())


# -- validation at file:line -------------------------------------------------------------------


def test_validation_problems_located() -> None:
    text = """family = "layers"
name = "bad"

[layers]
stars = [0, 1]

[layers.copies]
2 = [3, 3, 3, 3, 2]
3 = [2, 3, 3, 3, 2]

[[layers.objectives]]
title = "Odd"
parts = [{ shape = "line", condition = "values", values = [1, 2] }]

[[layers.objectives]]
title = "Nothing"
parts = [{ condition = "same-colour", colour = "mauve" }]
"""
    with pytest.raises(DeckError) as err:
        load_deck_text(text, "bad.toml")
    msgs = [p.format() for p in err.value.problems]
    joined = "\n".join(msgs)
    assert "bad.toml:5: layers.stars: 2 star entries for 5 values" in joined
    assert "E-LAYERS-COPIES-ORDER" in joined and "bad.toml:9" in joined
    assert "E-LAYERS-PART-VALUES" in joined
    assert "a part is either a shape" in joined


# -- simulation --------------------------------------------------------------------------------


def test_simulation_is_deterministic_per_seed() -> None:
    p = LayersParams()
    gen = generate(p, 2)
    r = rules_for(p, gen)
    a = simulate(gen, r, 6, (2, 3), p.piles, p.objectives_per_game, seed=9).figures()
    b = simulate(gen, r, 6, (2, 3), p.piles, p.objectives_per_game, seed=9).figures()
    c = simulate(gen, r, 6, (2, 3), p.piles, p.objectives_per_game, seed=10).figures()
    assert a == b
    assert a != c
    assert a["games_by_players"] == {"2": 3, "3": 3}


def test_start_cards_are_marked() -> None:
    gen = gen_of()
    assert [s.card for s in gen.starts] == [Card(c.name, 1) for c in gen.colours]
    assert all(s.card.start for s in gen.starts)


# -- property: the search agrees with an exhaustive game-tree oracle on tiny decks ----------------



def oracle_achievable(gen: LayersSet, obj: Objective) -> bool:
    """Every landscape one player can build, card by card, from the start (any starting card)
    with the smallest player count's cards, each skip paid by discarding a remaining card."""
    from generator.families.layers.objectives import objective_met

    rules = Rules(values=gen.values)
    n = min(gen.player_counts())
    supply = sorted(supply_of(gen, n).elements())
    seen: set[tuple[object, ...]] = set()
    for s in gen.starts[:n]:
        stack = [(Landscape.starting(s.card), tuple(supply))]
        while stack:
            land, left = stack.pop()
            key = (land.stacks, left)
            if key in seen:
                continue
            seen.add(key)
            if objective_met(obj, land.tops(), gen.values):
                return True
            cells = set(land.positions)
            for r, c in land.positions:
                cells |= {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)}
            cells = {p for p in cells if fits_frame(list(land.positions) + [p])}
            for i, kind in enumerate(left):
                if i and left[i - 1] == kind:
                    continue
                card = gen.make_card(*kind)
                rest = left[:i] + left[i + 1:]
                for pos in cells:
                    err, uses = placement_problem(rules, land, card, pos, len(rest) > 0)
                    if err is not None:
                        continue
                    new = land.with_card(pos, card)
                    if uses:
                        for j in range(len(rest)):
                            if j and rest[j - 1] == rest[j]:
                                continue
                            stack.append((new, rest[:j] + rest[j + 1:]))
                    else:
                        stack.append((new, rest))
    return False


PARTS = st.one_of(
    st.builds(lambda s, c: {"shape": s, "condition": c},
              st.sampled_from(["line", "column", "square", "diagonal", "l"]),
              st.sampled_from(["filled", "same-colour", "different-colours", "same-value",
                               "different-values"])),
    st.builds(lambda s, t, cmp: {"shape": s, "condition": "sum", "sum": t, "compare": cmp},
              st.sampled_from(["line", "square"]), st.integers(3, 10),
              st.sampled_from(["eq", "ge", "le"])),
    st.builds(lambda v, k: {"count": "value", "value": v, "at_least": k},
              st.integers(1, 3), st.integers(1, 4)),
    st.builds(lambda k: {"count": "scissors", "at_least": k}, st.integers(1, 2)),
    st.just({"count": "all-values"}),
)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.integers(1, 2), st.integers(2, 3),
       st.lists(st.integers(0, 2), min_size=3, max_size=3), st.sampled_from([0.0, 0.5]),
       PARTS)
def test_search_agrees_with_exhaustive_oracle(ncol: int, vmax: int, copies: list[int],
                                              share: float, spec: dict[str, Any]) -> None:
    assume(ncol * sum(copies[:vmax]) <= 7)  # the oracle's game tree grows fast beyond that
    names = ["reed", "slate"][:ncol]
    gen = gen_of(colours=[{"name": n} for n in names], max_value=vmax,
                 stars=list(range(vmax)), copies={1: copies[:vmax]}, scissors_share=share)
    obj = objective(gen, spec)
    a = achieve(gen, obj, Budget(nodes=500_000))
    assert a.verdict != Verdict.UNKNOWN
    assert (a.verdict == Verdict.COMPLETABLE) is oracle_achievable(gen, obj), (spec, a.reason)
