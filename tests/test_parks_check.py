"""Parks checks: completable cards with replayed certificates, impossible cards with their
reasons, the exact supply test against a brute-force oracle, generation, the report."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.budget import Budget
from generator.core.polyomino import TRANSFORMS
from generator.core.verdict import Verdict
from generator.deck import Deck, deck_model
from generator.deckfile import load_deck
from generator.errors import DeckError, GenerationError
from generator.families.base import CheckOptions
from generator.families.parks import ParksFamily
from generator.families.parks.cert import Certificate
from generator.families.parks.model import Card, Cut, Die, ParksParams, Sheet
from generator.families.parks.planner import completability, supply, walkway_groups
from generator.families.parks.replay import replay

ROOT = Path(__file__).resolve().parent.parent
SHEET = Sheet.from_text("GGWAP\nGGWAP\nAAPGG\nPWGGA\n\nicons:\n..w..\n.....\nr....\n...w.")
DIE = Die.from_text("1 | 2,2 | 3,3,3 | 1,2 | 2,3 | 4")
BUDGET = Budget(nodes=200_000)
FAMILY = ParksFamily()


def test_completable_card_has_a_certificate_that_replays() -> None:
    card = Card.from_rows("park-01", "Wet Walk", ["WW", "#."], walkways=["11", ".."])
    v = completability(SHEET, DIE, card, BUDGET)
    assert v.verdict is Verdict.COMPLETABLE
    assert v.certificate is not None
    assert replay(SHEET, DIE, card, v.certificate) == ""
    # the JSON form round-trips and still replays
    again = Certificate.from_json(v.certificate.to_json())
    assert again == v.certificate
    assert replay(SHEET, DIE, card, again) == ""
    # every space covered by exactly one placed square, walkway in one section
    covered = [cc for p in again.placements for cc in p.mapping().values()]
    assert sorted(covered) == sorted(card.cells)


def test_a_tampered_certificate_is_rejected() -> None:
    card = Card.from_rows("park-01", "Corner", ["G#", "##"])
    v = completability(SHEET, DIE, card, BUDGET)
    assert v.certificate is not None
    data = v.certificate.to_json()
    data["rounds"][0]["cuts"][0] = "2,2 E 1"  # starts in the middle of the sheet
    problem = replay(SHEET, DIE, card, Certificate.from_json(data))
    assert problem.startswith("round 1:")
    short = Certificate(card.id, v.certificate.rounds[:-1])
    assert replay(SHEET, DIE, card, short) != ""


def test_impossible_walkway_pattern_reason() -> None:
    card = Card.from_rows("park-09", "Dry Pond", ["WW", "W."], walkways=["11", "1."])
    v = completability(SHEET, DIE, card, BUDGET)
    assert v.verdict is Verdict.IMPOSSIBLE
    assert "walkway 1" in v.reason and "WW/W." in v.reason
    assert "no such arrangement" in v.reason


def test_impossible_supply_reason() -> None:
    card = Card.from_rows("park-09", "Recycling Run", ["###"], icons=["r.r"])
    v = completability(SHEET, DIE, card, BUDGET)
    assert v.verdict is Verdict.IMPOSSIBLE
    assert v.reason == "demands 2 recycling icon squares; the sheet has 1"


def test_impossible_without_a_simple_count_still_gets_a_reason() -> None:
    # 3 water squares in the sheet but two walkways each needing a water pair: the pairs
    # would have to share a square.
    card = Card.from_rows("park-09", "", ["WW", "WW"], walkways=["11", "22"])
    v = completability(SHEET, DIE, card, BUDGET)
    assert v.verdict is Verdict.IMPOSSIBLE
    assert "demands 4 water" in v.reason


def test_budget_exhaustion_is_unknown_never_impossible() -> None:
    card = Card.from_rows("park-01", "Corner", ["G#", "##"])
    v = completability(SHEET, DIE, card, Budget(nodes=1))
    assert v.verdict is Verdict.UNKNOWN


def test_die_with_only_long_cuts_can_still_free_a_corner() -> None:
    card = Card.from_rows("park-01", "Corner", ["G#", "##"])
    die = Die(((2, 2),))
    v = completability(SHEET, die, card, BUDGET)
    assert v.verdict is Verdict.COMPLETABLE
    assert v.certificate is not None
    assert all(r.face == (2, 2) for r in v.certificate.rounds)


# --- supply is exact: brute force on tiny cases ----------------------------------------------


def _congruent(pairs: list[tuple[tuple[int, int], tuple[int, int]]]) -> bool:
    (c0, s0) = pairs[0]
    for t in TRANSFORMS:
        tr, tc = t(c0)
        off = (s0[0] - tr, s0[1] - tc)
        if all((t(c)[0] + off[0], t(c)[1] + off[1]) == s for c, s in pairs):
            return True
    return False


def _brute_supply(sheet: Sheet, card: Card) -> bool:
    cells = sorted(card.cells)
    squares = sorted(sheet.cells())
    dm = card.demand_map()
    groups = walkway_groups(card)
    for image in itertools.permutations(squares, len(cells)):
        m = dict(zip(cells, image, strict=True))
        if not all(dm[c].accepts(sheet.at(m[c])) for c in cells if c in dm):
            continue
        if all(_congruent([(c, m[c]) for c in sorted(g)]) for g in groups):
            return True
    return False


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from("PAWG"), min_size=6, max_size=6),
       st.sampled_from([["##"], ["#", "#"], ["##", "#."], ["###"]]),
       st.lists(st.sampled_from("#PAWG"), min_size=3, max_size=3),
       st.booleans())
def test_supply_matches_brute_force(letters: list[str], shape: list[str], marks: list[str],
                                    walk: bool) -> None:
    sheet = Sheet.from_rows(["".join(letters[:3]), "".join(letters[3:])])
    k = iter(marks)
    rows = ["".join(next(k) if ch == "#" else "." for ch in row) for row in shape]
    walkways = [row.replace("#", "1").replace("P", "1").replace("A", "1").replace(
        "W", "1").replace("G", "1") for row in shape] if walk else []
    card = Card.from_rows("c", "", rows, walkways=walkways)
    got = supply(sheet, card).verdict is Verdict.COMPLETABLE
    assert got == _brute_supply(sheet, card)


# --- generation and the deck report ----------------------------------------------------------


def _deck(**params: object) -> Deck:
    model = deck_model("parks", ParksParams)
    return model.model_validate({"family": "parks", "name": "t", "seed": 5,
                                 "check": {"simulations": 2},
                                 "parks": {"cards": 3, "grand_cards": 1, "hands": 5, **params}})


def test_generation_is_deterministic_and_every_card_checks() -> None:
    deck = _deck()
    a = FAMILY.generate(deck)
    b = FAMILY.generate(deck)
    assert a == b
    assert [c.id for c in a.cards] == ["park-01", "park-02", "park-03", "grand-01"]
    other = FAMILY.generate(deck.with_seed(6))
    assert other.sheet != a.sheet
    rep = FAMILY.check(deck, a, CheckOptions())
    verdicts = [e for e in rep.entries if e.check == "completable"]
    assert [e.status for e in verdicts] == ["completable"] * 4
    for e in verdicts:
        cert = Certificate.from_json(e.details["certificate"])
        assert replay(a.sheet, a.die, a.card(e.subject), cert) == ""
        assert 0 <= e.details["difficulty"]["share"] <= 1
    assert rep.figures["hand_coverage"]["hands"] == 0  # fewer than 5 park cards


def test_generation_gives_up_with_a_clear_error() -> None:
    deck = _deck(rows=2, cols=2, card_cells=(5, 6), max_tries=3, grand_cards=0)
    with pytest.raises(GenerationError, match="could not generate park-01"):
        FAMILY.generate(deck)


def test_hand_written_decks_through_the_loader() -> None:
    loaded = load_deck(ROOT / "tests" / "decks" / "parks-impossible.toml")
    ps = loaded.family.generate(loaded.deck)
    rep = loaded.family.check(loaded.deck, ps, CheckOptions())
    by = {e.subject: e for e in rep.entries if e.check == "completable"}
    assert by["park-01"].status == "impossible"
    assert by["park-01"].code == "E-PARKS-IMPOSSIBLE"
    assert "walkway 1" in by["park-01"].message
    assert by["park-02"].status == "impossible"
    assert by["park-03"].status == "completable"
    assert not rep.ok


def test_validation_collects_every_problem() -> None:
    from generator.deckfile import load_deck_text

    text = """
family = "parks"
name = "bad"
[parks]
sheet = ["GGX", "GG"]
die = [[2, 0]]
card_cells = [5, 40]
[[parks.card]]
shape = ["#.#"]
[[parks.card]]
shape = ["##", "##"]
walkways = ["1.", ".1"]
[[parks.card]]
shape = ["#####"]
"""
    with pytest.raises(DeckError) as err:
        load_deck_text(text, "bad.toml")
    codes = sorted(p.code for p in err.value.problems)
    assert codes == sorted(["E-PARKS-SHEET", "E-PARKS-SHEET", "E-PARKS-DIE", "E-PARKS-SIZE",
                            "E-PARKS-CARD-SHAPE", "E-PARKS-WALKWAY", "E-PARKS-CARD-SIZE"])
    assert all(p.line > 0 for p in err.value.problems)


def test_cut_replay_rejects_a_face_not_on_the_die() -> None:
    card = Card.from_rows("park-01", "Corner", ["G#", "##"])
    v = completability(SHEET, DIE, card, BUDGET)
    assert v.certificate is not None
    assert "not a face" in replay(SHEET, Die(((3, 3, 3),)), card, v.certificate) or \
        all(r.face == (3, 3, 3) for r in v.certificate.rounds)
    assert Cut.parse("0,1 S 2").length == 2


def test_difficulty_known_answer_and_determinism() -> None:
    from generator.families.parks.sim import difficulty

    card = Card.from_rows("park-01", "Corner", ["G"])
    one = Die(((1,),))
    d = difficulty(SHEET, one, card, seed=3, games=5, max_rounds=8, budget=Budget(nodes=20_000))
    # a greenery square in a corner needs two cuts of length 1: two rounds, every game
    assert (d.within, d.median_rounds) == (5, 2.0)
    d2 = difficulty(SHEET, DIE, card, seed=3, games=6, max_rounds=8,
                    budget=Budget(nodes=20_000))
    assert d2 == difficulty(SHEET, DIE, card, seed=3, games=6, max_rounds=8,
                            budget=Budget(nodes=20_000))
    assert 0 <= d2.share <= 1


def test_hand_supply_exact_cover() -> None:
    from generator.families.parks.sim import hand_supplied

    corner = Card.from_rows("park-01", "Corner", ["G#", "##"])
    wet = Card.from_rows("park-02", "Wet Walk", ["WW", "#."], walkways=["11", ".."])
    assert hand_supplied(SHEET, [corner, wet], Budget(nodes=50_000)) is Verdict.COMPLETABLE
    # two cards each demanding the only recycling square cannot be supplied together
    rec = Card.from_rows("park-03", "", ["#"], icons=["r"])
    rec2 = Card.from_rows("park-04", "", ["#"], icons=["r"])
    assert hand_supplied(SHEET, [rec, rec2], Budget(nodes=50_000)) is Verdict.IMPOSSIBLE


def test_replay_needs_every_choice_and_forced_placements() -> None:
    # a hand-written certificate: one cut splits a 2x4 sheet in two equal halves
    sheet = Sheet.from_text("GGGG\nWWWW")
    card = Card.from_rows("sq", "", ["##", "##"])
    die = Die.from_text("2")
    good = {"card": "sq", "rounds": [{
        "face": [2], "cuts": ["0,2 S 2"], "keep": [[1, 0]],
        "placed": [{"card": "sq", "section": [[0, 2], [0, 3], [1, 2], [1, 3]],
                    "transform": 0, "offset": [0, -2]}]}]}
    assert replay(sheet, die, card, Certificate.from_json(good)) == ""
    # the tie choice left out: replay refuses to assume one
    no_keep = json_copy(good)
    no_keep["rounds"][0]["keep"] = [None]
    assert "tie for the largest" in replay(sheet, die, card, Certificate.from_json(no_keep))
    # crumpling a section that fits the card is against the rules
    crumple = json_copy(good)
    crumple["rounds"][0]["placed"] = []
    crumple["rounds"][0]["crumpled"] = [[[0, 2], [0, 3], [1, 2], [1, 3]]]
    assert "must be placed" in replay(sheet, die, card, Certificate.from_json(crumple))
    # a freed section left out altogether
    missing = json_copy(good)
    missing["rounds"][0]["placed"] = []
    assert "neither placed nor crumpled" in replay(sheet, die, card,
                                                    Certificate.from_json(missing))


def json_copy(data: dict[str, object]) -> dict[str, Any]:
    import json

    out: dict[str, Any] = json.loads(json.dumps(data))
    return out


def test_deck_validation_rotates_outlines_skips_unused_sizes_and_warns_on_dead_faces() -> None:
    from generator.deckfile import load_deck_text

    text = """
family = "parks"
name = "edges"
[check]
simulations = 0
[parks]
sheet = ["GGWAP", "GGWAP", "AAPGG", "PWGGA"]
cards = 0
grand_cards = 0
card_cells = [5, 40]
hands = 0
die = [[1], [6]]
[[parks.card]]
shape = ["G###"]
"""
    loaded = load_deck_text(text, "edges.toml")  # no card_cells error: no cards generated
    ps = loaded.family.generate(loaded.deck)
    card = ps.cards[0]
    # drawn 1 x 4, the poker card holds 4 rows x 3 columns: turned a quarter, demand with it
    assert (card.height, card.width) == (4, 1)
    assert card.demand_map() == {(0, 0): Card.from_rows("x", "", ["G"]).demand((0, 0))}
    rep = loaded.family.check(loaded.deck, ps, CheckOptions())
    die = [e for e in rep.entries if e.check == "die"]
    assert len(die) == 1 and die[0].status == "warn" and die[0].code == "W-PARKS-DIE-FACE"
    assert "[6] can never be cut" in die[0].message and "is 5" in die[0].message
