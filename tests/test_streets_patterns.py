"""Streets rule patterns a designer writes in the deck (issue 14), each with a worked example:
an explicit construction-card list, ..."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.budget import Budget
from generator.core.verdict import Verdict
from generator.deckfile import load_deck_text
from generator.errors import DeckError
from generator.families.base import CheckOptions
from generator.families.streets.certify import Certificate, certify, verify
from generator.families.streets.generate import generate, offered_pairs, plan_card
from generator.families.streets.model import (
    Condition,
    ConditionParams,
    Effect,
    PlanCard,
    PlanParams,
    SheetSpec,
    StreetsGame,
    StreetsParams,
)
from generator.families.streets.rules import (
    EMPTY,
    ROUND,
    Move,
    RuleError,
    Sheet,
    final_totals,
    ranked_points,
    replay,
    standings,
    tie_break,
)
from generator.families.streets.sim import plan_progress
from generator.render.drawing import Symbol, TextBox

HEAD = """\
family = "streets"
name = "patterns"
seed = 3
[check]
simulations = 0
[streets]
number_min = 1
number_max = 9
"""

STREETS = """
[[streets.streets]]
name = "North"
houses = 4
[[streets.streets]]
name = "South"
houses = 5
"""

CARD_LIST = """\
card_list = [
  { number = 1, effect = "fence" },
  { number = 2, effect = "park" },
  { number = 3, effect = "pool", copies = 2 },
  { number = 4, effect = "worker" },
  { number = 5, effect = "price" },
]
"""


BUDGET = Budget(nodes=100_000)


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


# --- explicit card list ---------------------------------------------------------------


def test_card_list_is_the_deck_card_by_card() -> None:
    # Six physical cards, in the listed order: 1/fence, 2/park, 3/pool, 3/pool, 4/worker,
    # 5/price. A combination is the number of one card with the effect of ANOTHER card:
    # number 1 exists only on the fence card, and that is the only fence card, so 1/fence
    # can never come up; likewise 2/park, 4/worker and 5/price. 3/pool can (two such
    # cards). 1/park can (card 1's number, card 2's effect).
    loaded = load_deck_text(HEAD + CARD_LIST + STREETS)
    params: StreetsParams = loaded.deck.params
    game = generate(params, 3)
    assert [str(c) for c in game.cards] == ["1/fence", "2/park", "3/pool", "3/pool",
                                            "4/worker", "5/price"]
    offered = offered_pairs(game.cards)
    for never in ((1, Effect.FENCE), (2, Effect.PARK), (4, Effect.WORKER), (5, Effect.PRICE)):
        assert never not in offered
    assert (3, Effect.POOL) in offered and (1, Effect.PARK) in offered
    assert len(offered) == 5 * 5 - 4


def test_card_list_check_reports_the_listed_counts(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text(HEAD + CARD_LIST + STREETS, encoding="utf-8")
    code, out = _run("check", str(deck), "--format", "json")
    data = json.loads(out)
    entry = next(e for e in data["entries"] if e["check"] == "effect-counts")
    assert entry["status"] == "pass"
    assert "6 cards as listed in card_list" in entry["message"]
    assert "pool 2" in entry["message"] and "duplicate 0" in entry["message"]
    # Five distinct numbers (1..5) fill North (4 houses: 1 2 3 4) and South (5: 1..5).
    fill = next(e for e in data["entries"] if e["check"] == "numbers-fill-streets")
    assert fill["status"] == "pass"
    # (exit 1: default plans such as groups of 2, 3, 6 cannot fit on 9 houses: impossible)
    assert code == 1
    assert any(e["status"] == "impossible" for e in data["entries"])


@pytest.mark.parametrize(("text", "line", "words"), [
    ('  { number = 12, effect = "fence" },\n', 11, "outside the numbers 1..9"),
    ('  { number = 2, effect = "fence", copies = 2 },\n', 9, "holds 8 cards"),
])
def test_bad_card_lists_name_line_and_key(text: str, line: int, words: str) -> None:
    deck = HEAD + CARD_LIST.replace('  { number = 1, effect = "fence" },\n',
                                    '  { number = 1, effect = "fence" },\n' + text) + STREETS
    with pytest.raises(DeckError) as err:
        load_deck_text(deck, "d.toml")
    msg = str(err.value)
    assert words in msg, msg
    assert f"d.toml:{line}" in msg, msg


def test_card_list_unknown_effect_is_rejected() -> None:
    deck = HEAD + CARD_LIST.replace('"price"', '"lottery"') + STREETS
    with pytest.raises(DeckError) as err:
        load_deck_text(deck, "d.toml")
    assert "card_list" in str(err.value)


def test_generated_deck_stays_the_default() -> None:
    # Without card_list the deck is generated: 84 cards apportioned to the effect mix.
    params = StreetsParams()
    assert params.card_list == []
    game = generate(params, 11)
    assert len(game.cards) == 84
    assert game.effect_counts()[Effect.FENCE] == 18


# --- plan conditions over several streets ----------------------------------------------

THREE = """
[[streets.streets]]
name = "North"
houses = 4
parks = [1, 3]
[[streets.streets]]
name = "South"
houses = 5
parks = [2, 4, 6]
[[streets.streets]]
name = "West"
houses = 3
parks = [5]
"""


def _plan(conditions: str) -> str:
    return f"""
[[streets.plans]]
level = 1
title = "Green quarter"
conditions = [{conditions}]
first = 5
later = 3
"""


def _sheet_with_parks(spec: SheetSpec, parks: tuple[int, ...]) -> Sheet:
    return replace(Sheet.empty(spec), parks=parks)


def test_two_streets_with_every_park_counts_streets() -> None:
    # "Two streets with every park": North's track has 2 boxes, South's 3, West's 1.
    # Parks marked North 2 (all), South 1 (of 3), West 1 (all): North and West are
    # complete, that is two streets -> met. With West at 0 only North is -> not met.
    loaded = load_deck_text(HEAD + THREE + _plan('{ kind = "parks", streets = 2 }'))
    game = generate(loaded.deck.params, 3)
    plan = game.plans[0]
    assert plan.conditions[0].streets == 2
    assert plan.conditions[0].describe(game.sheet) == "all parks on each of 2 streets"
    assert _sheet_with_parks(game.sheet, (2, 1, 1)).meets(plan.conditions[0])
    assert not _sheet_with_parks(game.sheet, (2, 1, 0)).meets(plan.conditions[0])
    # (1, 3, 0): only South is complete -> one street, not met.
    assert not _sheet_with_parks(game.sheet, (1, 3, 0)).meets(plan.conditions[0])


def test_two_streets_plan_is_certified_and_replayed() -> None:
    loaded = load_deck_text(HEAD + THREE + _plan('{ kind = "parks", streets = 2 }'))
    game = generate(loaded.deck.params, 3)
    plan = game.plans[0]
    offered = offered_pairs(game.cards)
    out = certify(game.sheet, plan, [c.number for c in game.cards], offered, BUDGET)
    assert out.verdict is Verdict.COMPLETABLE, out.reason
    assert out.certificate is not None
    sheet = replay(game.sheet, out.certificate.moves, offered)
    assert sum(1 for s in range(3) if sheet.meets_on(plan.conditions[0], s)) >= 2
    verify(game.sheet, plan, Certificate.from_json(out.certificate.to_json()), offered)


def test_three_parks_on_two_streets_is_impossible_with_a_reason() -> None:
    # count = 3 parks on each of 2 streets: only South's track has 3 boxes.
    loaded = load_deck_text(HEAD + THREE
                            + _plan('{ kind = "parks", count = 3, streets = 2 }'))
    game = generate(loaded.deck.params, 3)
    out = certify(game.sheet, game.plans[0], [c.number for c in game.cards],
                  offered_pairs(game.cards), BUDGET)
    assert out.verdict is Verdict.IMPOSSIBLE
    assert "only 1 park tracks are long enough" in out.reason


def test_streets_count_needs_street_zero() -> None:
    text = HEAD + THREE + _plan('{ kind = "parks", street = 1, streets = 2 }')
    with pytest.raises(DeckError) as err:
        load_deck_text(text, "d.toml")
    assert "E-STREETS-PLAN-STREETS" in str(err.value)
    assert "d.toml:" in str(err.value)


def test_many_any_street_conditions_stay_within_memory_and_budget() -> None:
    # 24 "parks on any street" conditions (more than a deck may write, 8, but the certifier
    # must not depend on that): 3^24 street choices. The choices are walked lazily (no
    # MemoryError) and the first one (all on North) is already a construction.
    game = generate(load_deck_text(HEAD + THREE).deck.params, 3)
    many = PlanCard("plan-99", 1, "many", (Condition("parks"),) * 24, 5, 3)
    out = certify(game.sheet, many, [c.number for c in game.cards],
                  offered_pairs(game.cards), Budget(nodes=2_000))
    assert out.verdict is Verdict.COMPLETABLE
    assert out.nodes < 2_000
    # Pools on any street, 24 times, with no pool spots anywhere: impossible at once.
    pools = PlanCard("plan-98", 1, "pools", (Condition("pools", count=1),) * 24, 5, 3)
    out = certify(game.sheet, pools, [c.number for c in game.cards],
                  offered_pairs(game.cards), Budget(nodes=2_000))
    assert out.verdict is Verdict.IMPOSSIBLE


# --- the seed's tie-break -----------------------------------------------------------------


def _row_sheet(spec: SheetSpec, fences: frozenset[int]) -> Sheet:
    # North (4 houses) built 1 2 3 4 with the given fences; the other streets empty.
    empty = Sheet.empty(spec)
    houses = ((1, 2, 3, 4), *empty.houses[1:])
    return replace(empty, houses=houses, fences=(fences, *empty.fences[1:]))


def test_tie_break_most_groups_then_groups_of_one() -> None:
    # Default value columns: a group of 1 scores 1, of 2 scores 2 (no price rises).
    # A: fences after houses 1 and 2 -> groups 1 | 1 | 2 -> 1 + 1 + 2 = 4 points, 3 groups.
    # B: a fence after house 2       -> groups 2 | 2     -> 2 + 2     = 4 points, 2 groups.
    # C: fences after houses 2 and 3 -> groups 2 | 1 | 1 -> 4 points, 3 groups (1: 2, 2: 1).
    # Equal totals; A and C have more groups than B; A and C are equal on every count.
    loaded = load_deck_text(HEAD + THREE)
    spec = generate(loaded.deck.params, 3).sheet
    a = _row_sheet(spec, frozenset({1, 2}))
    b = _row_sheet(spec, frozenset({2}))
    c = _row_sheet(spec, frozenset({2, 3}))
    assert [sh.total() for sh in (a, b, c)] == [4, 4, 4]
    assert tie_break(a) == (3, 2, 1, 0, 0, 0, 0)
    assert tie_break(b) == (2, 0, 2, 0, 0, 0, 0)
    assert standings([4, 4, 4], [a, b, c]) == [1, 3, 1]
    # The same number of groups, more groups of 1 wins: D = 1 | 3 (2 groups, one of 1).
    d = _row_sheet(spec, frozenset({1}))
    assert d.total() == 1 + 3
    assert standings([4, 4], [d, b]) == [1, 2]
    # A higher total always wins before the tie-break.
    assert standings([5, 4], [b, a]) == [1, 2]


def test_score_prints_the_tie_break(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text(HEAD + THREE, encoding="utf-8")
    sheet = tmp_path / "s.toml"
    sheet.write_text('[[street]]\nhouses = [1, 2, 3, 4]\nfences = [1, 2]\n'
                     '[[street]]\nhouses = [".", ".", ".", ".", "."]\n'
                     '[[street]]\nhouses = [".", ".", "."]\n', encoding="utf-8")
    code, out = _run("score", str(deck), str(sheet), "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    line = next(x for x in data["lines"] if x["label"] == "tie-break")
    assert line["points"] == 0
    assert line["detail"].startswith("3 completed groups (2 of 1, 1 of 2)")
    assert data["total"] == 4


# --- roundabouts --------------------------------------------------------------------------

ROUNDABOUT = """
roundabout_penalty = [3, 8]
[streets.effects]
fence = 1
park = 1
pool = 1
worker = 0
price = 0
duplicate = 0
roundabout = 1
"""


def _roundabout_game() -> StreetsGame:
    loaded = load_deck_text(HEAD + "cards = 27\n" + ROUNDABOUT + STREETS, "d.toml")
    return generate(loaded.deck.params, 3)


def test_a_roundabout_splits_a_street_into_independent_parts() -> None:
    # North has 4 houses. Turn 1 builds 5 in house 1 and puts a roundabout in house 2.
    # Turn 2 writes 3 in house 3: after the roundabout the numbering starts again, so 3 may
    # follow 5 (without the roundabout, 3 after 5 breaks the rising order). Turn 3 writes 5
    # in house 4: a number appears once per part, and this is the second part.
    # North reads 5 R 3 5: groups are house 1 (size 1) and houses 3-4 (size 2); the
    # roundabout ends both. Score: a group of 1 (1) + a group of 2 (2) - the first box of
    # the roundabout track (3) = 0.
    spec = _roundabout_game().sheet
    moves = [Move.parse("5/roundabout s1h1=5 +roundabout s1h2"),
             Move.parse("3/fence s1h3=3"), Move.parse("5/park s1h4=5")]
    assert str(moves[0]) == "5/roundabout s1h1=5 +roundabout s1h2"
    sheet = replay(spec, moves)
    assert sheet.houses[0] == (5, ROUND, 3, 5)
    assert sheet.complete_groups() == [(0, 0, 0), (0, 2, 3)]
    assert sheet.roundabouts == 1
    lines = {label: points for label, points, _ in sheet.score()}
    assert lines["groups of 1"] == 1 and lines["groups of 2"] == 2
    assert lines["roundabouts"] == -3
    assert sheet.total() == 0
    # The roundabout house counts as built: North is a full street.
    assert all(v != EMPTY for v in sheet.houses[0])
    # Without the roundabout the 3 is illegal.
    with pytest.raises(RuleError, match="rising order"):
        replay(spec, [Move.parse("5/fence s1h1=5"), Move.parse("3/fence s1h3=3")])


def test_the_roundabout_track_caps_roundabouts() -> None:
    # Two boxes ([3, 8]): the third roundabout is refused; two cost 8.
    spec = _roundabout_game().sheet
    sheet = replay(spec, [Move.parse("1/roundabout s2h1=1 +roundabout s2h2"),
                          Move.parse("3/roundabout s2h3=3 +roundabout s2h4")])
    assert sheet.roundabouts == 2
    assert {label: p for label, p, _ in sheet.score()}["roundabouts"] == -8
    with pytest.raises(RuleError, match="roundabout track is full"):
        sheet.apply(Move.parse("2/roundabout s1h1=2 +roundabout s1h2"))


def test_roundabout_sheet_scores_from_a_file(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text(HEAD + "cards = 27\n" + ROUNDABOUT + STREETS, encoding="utf-8")
    sheet = tmp_path / "s.toml"
    sheet.write_text('[[street]]\nhouses = [5, "R", 3, 5]\n'
                     '[[street]]\nhouses = [".", ".", ".", ".", "."]\n', encoding="utf-8")
    code, out = _run("score", str(deck), str(sheet), "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert {x["label"]: x["points"] for x in data["lines"]}["roundabouts"] == -3
    assert data["total"] == 0
    # 3 after 5 with no roundabout between them is rejected at its line.
    sheet.write_text('[[street]]\nhouses = [5, ".", 3, 5]\n'
                     '[[street]]\nhouses = [".", ".", ".", ".", "."]\n', encoding="utf-8")
    code, out = _run("score", str(deck), str(sheet))
    assert code == 2 and "s.toml:2" in out and "rising order" in out


def test_roundabouts_need_a_track() -> None:
    text = HEAD + "cards = 27\n" + ROUNDABOUT.replace("roundabout_penalty = [3, 8]\n", "") \
        + STREETS
    with pytest.raises(DeckError) as err:
        load_deck_text(text, "d.toml")
    assert "E-STREETS-ROUNDABOUT-TRACK" in str(err.value)


def test_roundabouts_keep_impossibility_sound() -> None:
    # South (5 houses) full with only the numbers 1..3 and no worker or duplicate cards: a
    # counting argument says impossible (5 houses, 3 distinct numbers). With roundabout
    # cards it is not: 1 2 R 1 2 fills the street. The certifier must not say impossible.
    plan = _plan('{ kind = "street_full", street = 2 }')
    base = HEAD.replace("number_max = 9", "number_max = 3") + "cards = 27\n"
    no_round = ROUNDABOUT.replace("roundabout = 1", "roundabout = 0").replace(
        "roundabout_penalty = [3, 8]\n", "")
    for extra, impossible in ((no_round, True), (ROUNDABOUT, False)):
        game = generate(load_deck_text(base + extra + STREETS + plan).deck.params, 3)
        out = certify(game.sheet, game.plans[0], [c.number for c in game.cards],
                      offered_pairs(game.cards), BUDGET)
        assert (out.verdict is Verdict.IMPOSSIBLE) is impossible, out
    spec = game.sheet
    full = replay(spec, [Move.parse("1/roundabout s2h1=1 +roundabout s2h3"),
                         Move.parse("2/fence s2h2=2"), Move.parse("1/fence s2h4=1"),
                         Move.parse("2/fence s2h5=2")])
    assert full.meets(game.plans[0].conditions[0])


def test_roundabouts_are_printed_on_the_sheet_cards_and_aid() -> None:
    loaded = load_deck_text(HEAD + "cards = 27\n" + ROUNDABOUT + STREETS, "d.toml")
    game = generate(loaded.deck.params, 3)
    report = loaded.family.check(loaded.deck, game, CheckOptions(simulations=0))
    comps = loaded.family.layout(loaded.deck, game, report)
    ids = {c.id for c in comps}
    assert any(i.endswith("-roundabout") for i in ids)
    sheet = next(c for c in comps if c.id == "sheet").front
    symbols = [it.name for it in sheet.items if isinstance(it, Symbol)]
    assert "streets-roundabout" in symbols          # the roundabout track row
    texts = [it.text for it in sheet.items if isinstance(it, TextBox)]
    assert "Roundabouts" in texts and "− round." in texts


# --- ranked scoring across players ------------------------------------------------------

RANKED = """
ranked = [{ track = "workers", points = [7, 4, 1], solo = 3 }]
"""


def test_ranked_track_places_ties_share_the_better_place() -> None:
    # Most workers: 1st 7, 2nd 4, 3rd 1. Three players with 5, 5 and 2 workers: the two 5s
    # tie for 1st and both score 7; the 2 is third (two players have more): 1.
    assert ranked_points(5, [5, 2], (7, 4, 1)) == 7
    assert ranked_points(2, [5, 5], (7, 4, 1)) == 1
    # Four players 1 / 5, 4, 3: fourth place is past the table; no workers never scores.
    assert ranked_points(1, [5, 4, 3], (7, 4, 1)) == 0
    assert ranked_points(0, [], (7, 4, 1)) == 0
    loaded = load_deck_text(HEAD + RANKED + STREETS, "d.toml")
    spec = generate(loaded.deck.params, 3).sheet
    five, two = (replace(Sheet.empty(spec), workers=n) for n in (5, 2))
    assert final_totals([five, five, two]) == [7, 7, 1]
    # Solo: 3 workers or more score the first place (7); 2 score nothing.
    assert five.total() == 7 and two.total() == 0
    # The per-sheet worker track no longer scores: the line is the ranked one.
    line = next(x for x in five.score({"workers": [5, 2]}) if x[0] == "workers")
    assert line[1] == 7 and "place 1 of 3 (ranked)" in line[2]


def test_ranked_score_file_takes_the_rivals(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text(HEAD + RANKED + STREETS, encoding="utf-8")
    sheet = tmp_path / "s.toml"
    body = ('workers = 2\nrivals = { workers = [5, 1] }\n[[street]]\nhouses = [".", ".", '
            '".", "."]\n[[street]]\nhouses = [".", ".", ".", ".", "."]\n')
    sheet.write_text(body, encoding="utf-8")
    code, out = _run("score", str(deck), str(sheet), "--format", "json")
    assert code == 0, out
    # 2 workers against 5 and 1: second place, 4 points.
    assert {x["label"]: x["points"] for x in json.loads(out)["lines"]}["workers"] == 4
    sheet.write_text(body.replace("workers = [5, 1]", "pools = [5, 1]"), encoding="utf-8")
    code, out = _run("score", str(deck), str(sheet))
    assert code == 2 and "s.toml:2" in out and "not a ranked track" in out


def test_a_ranked_track_is_printed_with_its_places() -> None:
    loaded = load_deck_text(HEAD + RANKED + STREETS, "d.toml")
    game = generate(loaded.deck.params, 3)
    report = loaded.family.check(loaded.deck, game, CheckOptions(simulations=2))
    sheet = next(c for c in loaded.family.layout(loaded.deck, game, report) if c.id == "sheet")
    texts = [it.text for it in sheet.front.items if isinstance(it, TextBox)]
    assert "Most workers, solo 3+" in texts
    assert report.figures["simulation"]["games"] == 2


# --- duplicates joined to the house they copy ---------------------------------------------

JOINED = 'duplicate_rule = "joined"\n'


def _spec(extra: str = "") -> SheetSpec:
    return generate(load_deck_text(HEAD + extra + STREETS, "d.toml").deck.params, 3).sheet


def test_joined_duplicate_chooses_its_neighbour() -> None:
    # North (4 houses): turn 1 writes 3 in house 2. Turn 2 writes 5 in house 4 and puts a
    # duplicate in house 3. It may copy the left neighbour (3: North reads . 3 3= 5) or,
    # the player's choice, the right one (5: . 3 5= 5).
    spec = _spec(JOINED)
    first = Move.parse("3/fence s1h2=3")
    left = replay(spec, [first, Move.parse("5/duplicate s1h4=5 +duplicate s1h3<")])
    right = replay(spec, [first, Move.parse("5/duplicate s1h4=5 +duplicate s1h3>")])
    assert left.houses[0] == (EMPTY, 3, 3, 5) and right.houses[0] == (EMPTY, 3, 5, 5)
    # Left-first (the default): the duplicate copies the left neighbour; no side to choose.
    plain = replay(_spec(), [first, Move.parse("5/duplicate s1h4=5 +duplicate s1h3")])
    assert plain.houses[0] == (EMPTY, 3, 3, 5)
    with pytest.raises(RuleError, match="no side to choose"):
        replay(_spec(), [first, Move.parse("5/duplicate s1h4=5 +duplicate s1h3>")])


def test_no_fence_between_a_duplicate_and_its_house() -> None:
    # . 3 3= 5 with the duplicate (house 3) copying house 2: boundary 2 (between houses 2
    # and 3) may never hold a fence; boundary 3 (between the duplicate and the 5) may.
    spec = _spec(JOINED)
    sheet = replay(spec, [Move.parse("3/fence s1h2=3"),
                          Move.parse("5/duplicate s1h4=5 +duplicate s1h3<")])
    with pytest.raises(RuleError, match="separate a duplicate"):
        sheet.apply(Move.parse("1/fence s2h1=1 +fence s1b2"))
    assert 3 in sheet.apply(Move.parse("1/fence s2h1=1 +fence s1b3")).fences[0]
    # A fence drawn first forbids copying across it; the other side is still free.
    fenced = replay(spec, [Move.parse("3/fence s1h2=3 +fence s1b2")])
    with pytest.raises(RuleError, match="fence separates"):
        fenced.apply(Move.parse("5/duplicate s1h4=5 +duplicate s1h3<"))
    assert fenced.apply(Move.parse("5/duplicate s1h4=5 +duplicate s1h3>")).houses[0][2] == 5
    # The default rule lets the fence fall there.
    plain = replay(_spec(), [Move.parse("3/fence s1h2=3"),
                             Move.parse("5/duplicate s1h4=5 +duplicate s1h3")])
    assert 2 in plain.apply(Move.parse("1/fence s2h1=1 +fence s1b2")).fences[0]


def test_joined_score_file_rejects_a_fenced_off_duplicate(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text(HEAD + JOINED + STREETS, encoding="utf-8")
    sheet = tmp_path / "s.toml"
    body = ('[[street]]\nhouses = [".", 3, "3d", 5]\nfences = [3]\n'
            '[[street]]\nhouses = [".", ".", ".", ".", "."]\n')
    sheet.write_text(body, encoding="utf-8")
    code, out = _run("score", str(deck), str(sheet))
    assert code == 0, out
    sheet.write_text(body.replace("fences = [3]", "fences = [2]"), encoding="utf-8")
    code, out = _run("score", str(deck), str(sheet))
    assert code == 2 and "s.toml:3" in out and "separates duplicate house 3" in out


# --- the planning bot -------------------------------------------------------------------


def test_plan_progress_counts_sizes_provided_by_free_groups() -> None:
    # North built 1 2 3 4 with fences after houses 1 and 2: complete groups of 1, 1, 2.
    # A plan asking for groups [1, 2] is fully provided (2); one asking for [2, 2] gets one
    # of its two (1); a groups-free plan "every house of North" holds (1).
    loaded = load_deck_text(HEAD + THREE, "d.toml")
    game = generate(loaded.deck.params, 3)
    sheet = _row_sheet(game.sheet, frozenset({1, 2}))
    cards = [plan_card(i, PlanParams(level=1, conditions=[c], first=5, later=3), game.sheet)
             for i, c in enumerate([ConditionParams(kind="groups", sizes=[1, 2]),
                                    ConditionParams(kind="groups", sizes=[2, 2]),
                                    ConditionParams(kind="street_full", street=1)])]
    assert [plan_progress(sheet, [c]) for c in cards] == [2.0, 1.0, 1.0]


def test_planner_games_give_a_difficulty_band() -> None:
    loaded = load_deck_text(HEAD.replace("simulations = 0", "simulations = 4\nmax_games = 4")
                            + "planner_games = 2\n" + THREE
                            + _plan('{ kind = "groups", sizes = [1, 1] }'), "d.toml")
    game = generate(loaded.deck.params, 3)
    report = loaded.family.check(loaded.deck, game, CheckOptions())
    entry = next(e for e in report.entries if e.check == "difficulty")
    assert entry.message.startswith("casual ") and " / planning " in entry.message
    assert entry.details["planning"]["trials"] == 2
    assert "planning" in entry.details["rank"]
    assert report.figures["simulation"]["planner_games"] == 2
