"""Streets checks: plan certificates (replayed), impossibility reasons, deck checks, sims."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.budget import Budget
from generator.core.verdict import Verdict
from generator.deckfile import load_deck
from generator.families.base import CheckOptions
from generator.families.streets.certify import (
    Certificate,
    certify,
    impossible_reason,
    packings,
    verify,
)
from generator.families.streets.generate import generate, offered_pairs, plan_card
from generator.families.streets.model import (
    ConditionParams,
    Effect,
    EffectMix,
    PlanParams,
    StreetsParams,
)
from generator.families.streets.rules import RuleError
from generator.families.streets.sim import play_game, simulate

ROOT = Path(__file__).resolve().parent.parent
BUDGET = Budget(nodes=100_000)


def _verdict(params: StreetsParams, plan: PlanParams) -> tuple[Verdict, str, object]:
    game = generate(params, 1)
    card = plan_card(0, plan, game.sheet)
    out = certify(game.sheet, card, [c.number for c in game.cards],
                  offered_pairs(game.cards), BUDGET)
    return out.verdict, out.reason, out.certificate


def g(*sizes: int) -> ConditionParams:
    return ConditionParams(kind="groups", sizes=list(sizes))


def test_default_plans_are_completable_with_replayed_certificates() -> None:
    params = StreetsParams()
    game = generate(params, 1)
    offered = offered_pairs(game.cards)
    for plan in game.plans:
        out = certify(game.sheet, plan, [c.number for c in game.cards], offered, BUDGET)
        assert out.verdict is Verdict.COMPLETABLE, (plan.id, out.reason)
        assert out.certificate is not None
        cert = Certificate.from_json(out.certificate.to_json())
        verify(game.sheet, plan, cert, offered)          # raises if it does not hold
        # A tampered certificate is caught by the replay: drop the last move.
        broken = Certificate(cert.moves[:-1], cert.groups)
        with pytest.raises(RuleError):
            verify(game.sheet, plan, broken, offered)


def test_too_many_groups_of_six_is_impossible_with_reason() -> None:
    params = StreetsParams()       # streets of 9, 11, 13 houses
    verdict, reason, _ = _verdict(params, PlanParams(level=1, conditions=[g(6, 6, 6, 6, 6)],
                                                     first=5, later=2))
    assert verdict is Verdict.IMPOSSIBLE
    assert reason == "needs 5 groups of 6; streets of 9, 11, 13 houses hold at most 4"
    verdict, _, cert = _verdict(params, PlanParams(level=1, conditions=[g(6, 6, 6, 6)],
                                                   first=5, later=2))
    assert verdict is Verdict.COMPLETABLE and cert is not None


@pytest.mark.parametrize(("conds", "reason"), [
    ([g(7)], "groups of 7 never score or count: the value columns stop at 6"),
    ([g(6, 6, 6, 6, 6, 6)], "the groups need 36 houses; the streets (9, 11, 13) have 33"),
    ([g(6, 6, 6, 6, 4, 4)], "the groups [4, 4, 6, 6, 6, 6] cannot be laid out"),
    ([ConditionParams(kind="pools", street=1, count=3)],
     "needs 3 pools on Elm Row; it has fewer pool spots"),
    ([ConditionParams(kind="parks", street=2, count=5)],
     "needs 5 parks on Quarry Street; its park track is shorter"),
    ([ConditionParams(kind="workers", count=9)], "needs 9 workers; the worker track has 8"),
    ([ConditionParams(kind="duplicates", street=1, count=8)],
     "needs 8 duplicates; the duplicate track has 7 boxes"),
])
def test_impossible_reasons(conds: list[ConditionParams], reason: str) -> None:
    verdict, got, _ = _verdict(StreetsParams(), PlanParams(level=2, conditions=conds,
                                                           first=5, later=2))
    assert verdict is Verdict.IMPOSSIBLE
    assert got.startswith(reason)


def test_missing_effects_make_plans_impossible() -> None:
    params = StreetsParams(effects=EffectMix(fence=0, park=1, pool=1, worker=1, price=1,
                                             duplicate=1))
    verdict, reason, _ = _verdict(params, PlanParams(level=1, conditions=[g(2, 2)], first=3,
                                                     later=1))
    assert verdict is Verdict.IMPOSSIBLE and "no fence cards" in reason
    # Groups that fill whole streets need no fence.
    verdict, _, _ = _verdict(params, PlanParams(level=1, conditions=[g(9, 11)], first=3,
                                                later=1))
    assert verdict is Verdict.IMPOSSIBLE      # 9 and 11 exceed the value columns (6)
    verdict, _, _ = _verdict(params.model_copy(update={"group_values": [[1]] * 11}),
                             PlanParams(level=1, conditions=[g(9, 11)], first=3, later=1))
    assert verdict is Verdict.COMPLETABLE


def test_composed_conditions_are_certified() -> None:
    conds = [g(3), ConditionParams(kind="parks", street=0, count=3),
             ConditionParams(kind="duplicates", street=2, count=2),
             ConditionParams(kind="workers", count=2), ConditionParams(kind="ends")]
    verdict, reason, cert = _verdict(StreetsParams(), PlanParams(level=3, conditions=conds,
                                                                 first=9, later=4))
    assert verdict is Verdict.COMPLETABLE, reason
    assert isinstance(cert, Certificate)
    texts = [str(m) for m in cert.moves]
    assert sum("+duplicate" in t for t in texts) == 2
    assert sum("+worker" in t for t in texts) >= 2


def _brute_pack(sizes: list[int], lengths: list[int]) -> bool:
    for assign in itertools.product(range(len(lengths)), repeat=len(sizes)):
        used = [0] * len(lengths)
        for size, s in zip(sizes, assign, strict=True):
            used[s] += size
        if all(u <= length for u, length in zip(used, lengths, strict=True)):
            return True
    return False


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=5),
       st.lists(st.integers(2, 10), min_size=1, max_size=3))
def test_packing_matches_brute_force(sizes: list[int], lengths: list[int]) -> None:
    found = next(packings(sizes, lengths), None)
    assert (found is not None) == _brute_pack(sizes, lengths)
    if found is not None:
        assert sorted(x for street in found for x in street) == sorted(sizes)
        assert all(sum(b) <= n for b, n in zip(found, lengths, strict=True))


def test_impossible_reason_is_empty_for_fitting_plans() -> None:
    game = generate(StreetsParams(), 1)
    effects = frozenset(e for _, e in offered_pairs(game.cards))
    for plan in game.plans:
        assert impossible_reason(game.sheet, plan, [c.number for c in game.cards],
                                 effects) == ""


def test_check_reports_the_hand_written_decks() -> None:
    loaded = load_deck(ROOT / "tests/decks/streets-impossible.toml")
    game = loaded.family.generate(loaded.deck)
    report = loaded.family.check(loaded.deck, game, CheckOptions())
    comp = {e.subject: e for e in report.entries if e.check == "completable"}
    assert comp["plan-01"].status == "impossible"
    assert comp["plan-01"].message == ("needs 5 groups of 6; streets of 9, 11, 13 houses "
                                       "hold at most 4")
    assert comp["plan-01"].code == "E-STREETS-PLAN-IMPOSSIBLE"
    assert comp["plan-04"].status == "completable"
    assert not report.ok
    small = load_deck(ROOT / "tests/decks/streets-small.toml")
    report = small.family.check(small.deck, small.family.generate(small.deck),
                                CheckOptions(simulations=4))
    assert report.ok
    checks = {(e.subject, e.check): e.status for e in report.entries}
    assert checks[("deck", "numbers-fill-streets")] == "pass"
    assert checks[("deck", "effect-counts")] == "pass"
    assert checks[("deck", "deal")] == "pass"
    assert report.figures["simulation"]["games"] == 4


def test_short_number_range_fails_the_fill_check() -> None:
    loaded = load_deck(ROOT / "tests/decks/streets-small.toml")
    params = loaded.deck.params.model_copy(update={"number_max": 5, "number_counts": [6] * 5})
    deck = loaded.deck.model_copy(update={"streets": params})
    report = loaded.family.check(deck, loaded.family.generate(deck), CheckOptions(simulations=0))
    fill = next(e for e in report.entries if e.check == "numbers-fill-streets")
    assert fill.status == "fail" and "only 5 distinct numbers" in fill.message


def test_simulation_is_seeded_and_counts_plans() -> None:
    game = generate(StreetsParams(), 4)
    a = play_game(game, 4, 0, 2, 120)
    b = play_game(game, 4, 0, 2, 120)
    assert a == b and a.scores == b.scores
    assert len(a.plans) == 3
    # Every sheet obeys the rules: its total equals the sum of its breakdown, and the game
    # ended for one of the three reasons (or the round cap).
    assert any(sh.over(3) for sh in a.sheets) or a.rounds == 120
    figs = simulate(game, 4, 10, 2, 120)
    data = figs.to_json()
    assert data["games"] == 10 and len(figs.scores) == 20
    assert sum(d["dealt"] for d in data["plans"].values()) == 30
    assert 0 <= data["mean_refusals"] <= 3
    shares = data["house_built_share"]
    assert [len(row) for row in shares] == [9, 11, 13]
    assert all(0.0 <= x <= 1.0 for row in shares for x in row)
    assert sum(data["ended_by"].values()) == 10


def test_generated_plans_fit_differ_and_are_seeded() -> None:
    params = StreetsParams(generated_plans=[2, 2, 2])
    a = generate(params, 3).plans[10:]
    assert a == generate(params, 3).plans[10:]
    assert [p.level for p in a] == [1, 1, 2, 2, 3, 3]
    all_sizes = [p.group_sizes for p in generate(params, 3).plans]
    assert len(set(all_sizes)) == len(all_sizes)
    game = generate(params, 3)
    offered = offered_pairs(game.cards)
    for plan in a:
        assert plan.later <= plan.first
        out = certify(game.sheet, plan, [c.number for c in game.cards], offered, BUDGET)
        assert out.verdict is Verdict.COMPLETABLE, (plan, out.reason)


def test_too_many_generated_plans_is_a_generation_error() -> None:
    from generator.errors import GenerationError
    from generator.families.streets.model import StreetParams

    tiny = StreetsParams(streets=[StreetParams(name="T", houses=5)], generated_plans=[40, 0, 0],
                         plans=[])
    with pytest.raises(GenerationError, match="level-1 plans"):
        generate(tiny, 1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=4),
       st.lists(st.integers(2, 7), min_size=1, max_size=3))
def test_certify_agrees_with_brute_force_on_small_sheets(sizes: list[int],
                                                        lengths: list[int]) -> None:
    """Oracle: with every effect in the deck and enough numbers, a group plan is achievable
    exactly when its groups pack onto the streets (and no group outgrows the columns)."""
    from generator.families.streets.model import StreetParams

    params = StreetsParams(
        streets=[StreetParams(name=f"S{i}", houses=n) for i, n in enumerate(lengths)],
        group_values=[[1, 2]] * 4, number_min=1, number_max=10, cards=30, pool_points=[],
        plans=[])
    verdict, reason, cert = _verdict(params, PlanParams(level=1, conditions=[g(*sizes)],
                                                        first=3, later=1))
    expected = max(sizes) <= 4 and _brute_pack(sizes, lengths)
    if expected:
        assert verdict is Verdict.COMPLETABLE, reason
        assert isinstance(cert, Certificate)
    else:
        assert verdict is Verdict.IMPOSSIBLE and reason


def test_full_street_stretches_numbers_with_workers_and_duplicates() -> None:
    from generator.families.streets.model import StreetParams

    base = StreetsParams(streets=[StreetParams(name="Long", houses=13)], number_min=1,
                         number_max=10, cards=30, pool_points=[], plans=[], worker_shift=1)
    full = PlanParams(level=1, conditions=[ConditionParams(kind="street_full", street=1)],
                      first=1, later=1)
    verdict, reason, cert = _verdict(base, full)
    assert verdict is Verdict.COMPLETABLE, reason
    assert isinstance(cert, Certificate)
    texts = [str(m) for m in cert.moves]
    assert any("+worker" in t for t in texts) and any("+duplicate" in t for t in texts)
    plain = base.model_copy(update={"effects": EffectMix(worker=0, duplicate=0)})
    verdict, reason, _ = _verdict(plain, full)
    assert verdict is Verdict.IMPOSSIBLE
    assert reason == "Long has more houses than the distinct numbers (10) and duplicates can fill"


def test_effect_counts_and_a_weighted_effect_lost_to_rounding() -> None:
    loaded = load_deck(ROOT / "tests/decks/streets-small.toml")
    mix = EffectMix(fence=50, park=50, pool=50, worker=50, price=50, duplicate=1)
    params = loaded.deck.params.model_copy(update={"effects": mix})
    deck = loaded.deck.model_copy(update={"streets": params})
    game = loaded.family.generate(deck)
    report = loaded.family.check(deck, game, CheckOptions(simulations=0))
    by = {e.check: e for e in report.entries if e.subject == "deck"}
    assert by["effect-counts"].status == "pass"
    assert "duplicate 0" in by["effect-counts"].message
    assert by["effects-present"].status == "warn"
    assert "duplicate" in by["effects-present"].message
    # The plan that needs duplicates becomes impossible, with the reason.
    assert game.effect_counts()[Effect.DUPLICATE] == 0
    busy = next(e for e in report.entries if e.subject == "plan-05" and e.check == "completable")
    assert busy.status == "impossible"
    assert busy.message == "needs duplicates, but the deck has no duplicate cards"


def test_report_is_identical_for_the_same_deck_and_seed() -> None:
    import json

    loaded = load_deck(ROOT / "tests/decks/streets-small.toml")
    runs = [json.dumps(loaded.family.check(loaded.deck, loaded.family.generate(loaded.deck),
                                           CheckOptions(simulations=5)).to_json(),
                       sort_keys=True) for _ in range(2)]
    assert runs[0] == runs[1]
    other = loaded.deck.with_seed(6)
    third = json.dumps(loaded.family.check(other, loaded.family.generate(other),
                                           CheckOptions(simulations=5)).to_json(),
                       sort_keys=True)
    assert third != runs[0]
