"""Generator, validation and checks of the habitats family: known answers for reachable and
unreachable tiers, certificates replayed independently, distribution and simulations."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.budget import Budget
from generator.core.hexgrid import Hex
from generator.core.verdict import Verdict
from generator.deck import deck_model
from generator.errors import DeckError
from generator.families.base import CheckOptions
from generator.families.habitats import HabitatsFamily
from generator.families.habitats.generate import generate, shares_to_counts
from generator.families.habitats.model import HabitatsParams
from generator.families.habitats.reach import check_term
from generator.families.habitats.rules import PlayerMap, score_card
from generator.families.habitats.sim import simulate

ROOT = Path(__file__).resolve().parent.parent
FAM = HabitatsFamily()


def make_deck(**habitats: Any) -> Any:
    model = deck_model("habitats", HabitatsParams)
    return model.model_validate({"family": "habitats", "name": "t", "seed": 3,
                                 "check": {"simulations": 0}, "habitats": habitats})


def load(name: str) -> Any:
    from generator.deckfile import load_deck

    return load_deck(ROOT / name)


def test_generator_is_deterministic_and_balanced() -> None:
    p = HabitatsParams()
    a, b = generate(p, 7), generate(p, 7)
    assert a == b
    assert generate(p, 8).tiles != a.tiles
    assert len(a.tiles) == 83
    keys = [t for t in a.tiles if t.keystone]
    assert len(keys) == 25
    # five keystones per habitat, and every habitat shows every species once on them
    assert Counter(t.habitats[0] for t in keys) == dict.fromkeys(p.habitats, 5)
    assert len({(t.habitats[0], t.species[0]) for t in keys}) == 25
    hab = Counter(h for t in a.tiles for h in t.habitats)
    spc = Counter(s for t in a.tiles for s in t.species)
    assert max(hab.values()) - min(hab.values()) <= 2
    assert max(spc.values()) - min(spc.values()) <= 3
    pairs = Counter(frozenset(t.habitats) for t in a.tiles if len(t.habitats) == 2)
    assert len(pairs) == 10 and max(pairs.values()) - min(pairs.values()) <= 1
    assert Counter(len(t.species) for t in a.tiles if not t.keystone) == {2: 38, 3: 20}
    # starter groups show every habitat
    for g in a.starters:
        assert {h for t in g.tiles for h in t.habitats} == set(p.habitats)
    assert len(a.cards) == 20 and len({c.id for c in a.cards}) == 20
    assert Counter(c.species for c in a.cards) == dict.fromkeys(p.species, 4)


def test_shares_to_counts_sums_exactly() -> None:
    assert shares_to_counts(58, (0.0, 0.65, 0.35)) == [0, 38, 20]
    assert sum(shares_to_counts(17, (1, 1, 1))) == 17
    assert shares_to_counts(0, (1, 2)) == [0, 0]


def test_validation_collects_every_problem() -> None:
    deck = make_deck(
        species=["owl", "owl"], starter_groups=2, max_players=4,
        habitat_colours=["red"],
        cards=[{"species": "bat", "title": "x", "terms": [
            {"kind": "line", "mode": "count", "table": [1], "sizes": [2], "best": True}]}],
    )
    codes = sorted(p.code for p in FAM.validate(deck))
    assert codes == ["E-HABITATS-CARD-SPECIES", "E-HABITATS-COLOUR", "E-HABITATS-NAME",
                     "E-HABITATS-STARTERS", "E-HABITATS-TERM-PARAM", "E-HABITATS-TERM-PARAM"]
    paths = {p.path for p in FAM.validate(deck)}
    assert ("habitats", "cards", 0, "terms", 0, "sizes") in paths


def test_deck_file_errors_have_lines() -> None:
    from generator.deckfile import load_deck_text

    text = ('family = "habitats"\nname = "x"\n[habitats]\nstarter_groups = 1\n'
            '[[habitats.cards]]\nspecies = "yak"\ntitle = "t"\n'
            'terms = [{ kind = "group", table = [1] }]\n')
    with pytest.raises(DeckError) as exc:
        load_deck_text(text, "x.toml")
    msgs = [p.format() for p in exc.value.problems]
    assert any(m.startswith("x.toml:4:") and "E-HABITATS-STARTERS" in m for m in msgs)
    assert any(m.startswith("x.toml:6:") and "'yak'" in m for m in msgs)


def _replay_independently(box: Any, cert: dict[str, Any]) -> PlayerMap:
    """Replay a certificate move by move with the rules engine's public moves."""
    group = next(g for g in box.starters if g.id == cert["starter"])
    m = PlayerMap.start(group)
    assert len(cert["turns"]) <= box.rules.turns
    for t in cert["turns"]:
        tile = box.tile(t["tile"])
        m.place_tile(tile, Hex.parse(t["at"]), t["rotation"])
        if t["token"]:
            m.place_token(t["token"], Hex.parse(t["token_at"]))
    assert m.is_connected()
    assert max(Counter(m.tokens.values()).values(), default=0) <= box.rules.tokens_per_species
    return m


def test_default_deck_every_tier_completable_with_replayed_certificates() -> None:
    deck = load("decks/habitats.toml").deck
    box = FAM.generate(deck)
    report = FAM.check(deck, box, CheckOptions(simulations=0))
    assert report.ok, [e.message for e in report.entries if e.failing]
    tiers = [e for e in report.entries if e.check.startswith("tier-")]
    assert len(tiers) == sum(len(t.table) for c in box.cards for t in c.terms)
    for e in tiers:
        assert e.status == "completable"
        cert = e.details["certificate"]
        m = _replay_independently(box, cert)
        card = box.card(cert["card"])
        assert card is not None
        ts = score_card(card, m.tokens).terms[cert["term"]]
        assert cert["tier"] in ts.tiers
        assert ts.points == cert["points"]


def test_unreachable_top_tier_is_impossible_with_its_reason() -> None:
    loaded = load("tests/decks/habitats-unreachable.toml")
    box = FAM.generate(loaded.deck)
    pairs, trios = box.cards
    answers = check_term(pairs, 0, box, Budget(200_000))
    verdicts = [a.verdict for a in answers]
    assert verdicts[:6] == [Verdict.COMPLETABLE] * 6
    assert verdicts[6] is Verdict.IMPOSSIBLE
    assert "needs at least 14 vole tokens" in answers[6].message
    assert "12 vole tokens" in answers[6].message
    t = check_term(trios, 0, box, Budget(200_000))
    assert [a.verdict for a in t] == [Verdict.COMPLETABLE, Verdict.IMPOSSIBLE,
                                      Verdict.COMPLETABLE]
    assert "only groups of exactly 3, 5 score" in t[1].message
    report = FAM.check(loaded.deck, box, CheckOptions())
    assert not report.ok
    bad = [e for e in report.entries if e.failing]
    assert {(e.subject, e.check, e.code) for e in bad} == {
        ("card-vole-a", "tier-7", "E-HABITATS-TIER-UNREACHABLE"),
        ("card-kite-a", "tier-2", "E-HABITATS-TIER-UNREACHABLE"),
        ("tokens-1", "supply", "E-HABITATS-SUPPLY"),  # 14 vole tokens needed, 12 in the box
    }


def test_structural_limits_of_primitives() -> None:
    deck = make_deck(cards=[
        {"species": "owl", "title": "a", "terms": [
            {"kind": "isolated", "mode": "each", "table": [1, 2]}]},
        {"species": "owl", "title": "b", "terms": [
            {"kind": "ring", "mode": "each", "table": [1, 2, 3, 4, 5, 6, 7]}]},
        {"species": "owl", "title": "c", "terms": [
            {"kind": "variety", "mode": "each", "table": [1, 2, 3, 4, 5]}]},
    ])
    box = FAM.generate(deck)
    b = Budget(100_000)
    iso = check_term(box.cards[0], 0, box, b)
    assert iso[1].verdict is Verdict.IMPOSSIBLE and "always measures 1" in iso[1].message
    ring = check_term(box.cards[1], 0, box, b)
    assert [a.verdict for a in ring][:6] == [Verdict.COMPLETABLE] * 6
    assert ring[6].verdict is Verdict.IMPOSSIBLE and "at most 6" in ring[6].message
    var = check_term(box.cards[2], 0, box, b)
    assert [a.verdict for a in var] == [Verdict.COMPLETABLE] * 4 + [Verdict.IMPOSSIBLE]


def test_tokens_beyond_turns_are_impossible() -> None:
    deck = make_deck(turns=20, tokens_per_species=30, cards=[
        {"species": "owl", "title": "x", "terms": [
            {"kind": "group", "mode": "each", "min": 10, "table": [1] * 12}]}])
    box = FAM.generate(deck)
    ans = check_term(box.cards[0], 0, box, Budget(100_000))
    assert ans[10].verdict is Verdict.COMPLETABLE  # a group of 20 in 20 turns
    assert ans[11].verdict is Verdict.IMPOSSIBLE and "20 turns" in ans[11].message


def test_simulation_is_seeded_and_uses_every_card() -> None:
    box = generate(HabitatsParams(), 1)
    s1, r1 = simulate(box, 4, 9)
    s2, r2 = simulate(box, 4, 9)
    assert r1 == r2
    assert r1[0].cards != r1[1].cards  # game i plays card i of each species
    assert all(r.total > 0 and r.tokens > 0 for r in r1)
    played = {s.card for s in s1 if s.games}
    assert len(played) == 20


def test_check_report_shape_on_hand_written_deck() -> None:
    loaded = load("tests/decks/habitats-small.toml")
    box = FAM.generate(loaded.deck)
    report = FAM.check(loaded.deck, box, CheckOptions())
    assert report.ok
    checks = Counter(e.check for e in report.entries)
    assert checks["distribution"] == 1 and checks["supply"] == 3
    assert checks["reach"] == 5 and checks["sim"] == 5
    # the two-term card gets per-term tier entries
    assert any(e.check == "term-2-tier-3" for e in report.entries)
    assert report.figures["simulation"]["games"] == {"greedy": 3, "planner": 3}
    # every card's points for both players, each a mean with a 95% interval
    for e in (e for e in report.entries if e.check == "sim"):
        assert "casual player" in e.message and "planning player" in e.message
        for who in ("greedy", "planner"):
            m = e.details[who]
            assert m["n"] >= 1 and m["mean"] is not None
        # the deck-wide ranking's difficulty: how often the top reachable points are reached
        rank = e.details["rank"]
        assert rank["casual"]["trials"] == e.details["greedy"]["n"]
        assert rank["planning"]["trials"] == e.details["planner"]["n"]
        assert rank["reward"] == report.figures["reach"][e.subject]["top_points"]
    (players,) = [e for e in report.entries if e.check == "sim-players"]
    assert players.details["margin"]["n"] == 3  # paired: the same 3 games for both
    assert report.figures["distribution"]["tiles"] == 12 * 2 + 3


BOUND_TERMS: list[dict[str, Any]] = [
    {"kind": "group", "table": [1]}, {"kind": "group", "sizes": [2, 3], "table": [1]},
    {"kind": "line", "table": [1]}, {"kind": "line", "min": 1, "table": [1]},
    {"kind": "line", "min": 3, "table": [1]}, {"kind": "run", "table": [1]},
    {"kind": "isolated", "table": [1]}, {"kind": "isolated", "apart": "any", "table": [1]},
    {"kind": "sight", "table": [1]}, {"kind": "sight", "apart": "any", "table": [1]},
    {"kind": "ring", "table": [1]}, {"kind": "ring", "around": "any", "min": 2, "table": [1]},
    {"kind": "variety", "table": [1]}, {"kind": "variety", "min": 2, "table": [1]},
]


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(-2, 2), st.integers(-2, 2)),
                       st.sampled_from(["owl", "owl", "hare", "newt"]), max_size=14),
       st.sampled_from(range(len(BOUND_TERMS))))
def test_token_lower_bounds_are_sound(cells: dict[tuple[int, int], str], which: int) -> None:
    """What the impossible verdicts rest on: no real map beats the lower bounds."""
    from generator.families.habitats.model import Term, TermDef
    from generator.families.habitats.reach import least_measure, token_bounds
    from generator.families.habitats.scoring import score_term

    box = _BOX
    t = Term.from_def(TermDef.model_validate({"mode": "count", **BOUND_TERMS[which]}))
    tokens = {Hex(q, r): s for (q, r), s in cells.items()}
    own = sum(1 for s in tokens.values() if s == "owl")
    matches = score_term(t, "owl", tokens).matches
    if matches:
        m0 = least_measure(t, box)
        assert m0 is not None
        need_own, need_all = token_bounds(t, len(matches), m0)
        assert need_own <= own and need_all <= len(tokens)
        for mt in matches:
            need_own, need_all = token_bounds(t, 1, mt.measure)
            assert need_own <= own and need_all <= len(tokens)


_BOX = generate(HabitatsParams(), 1)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_builtin_cards_fit_fewer_species(n: int) -> None:
    """The built-in set is proved reachable whatever the number of species."""
    names = ["vole", "kite", "otter", "stoat"][:n]
    deck = make_deck(species=names, habitats=["bog", "glade", "crag"])
    box = FAM.generate(deck)
    entries = [e for c in box.cards for ti in range(len(c.terms))
               for e in check_term(c, ti, box, Budget(100_000))]
    assert all(e.verdict is Verdict.COMPLETABLE for e in entries), [
        e.message for e in entries if e.verdict is not Verdict.COMPLETABLE]


def test_budget_exhaustion_is_unknown_never_impossible() -> None:
    box = _BOX
    card = box.cards[0]  # pairs: every tier is reachable with budget
    answers = check_term(card, 0, box, Budget(nodes=2))
    unknown = [a for a in answers if a.verdict is Verdict.UNKNOWN]
    assert unknown and all("budget" in a.message for a in unknown)
    assert all(a.verdict is not Verdict.IMPOSSIBLE for a in answers)
