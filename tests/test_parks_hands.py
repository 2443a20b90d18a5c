"""Parks hand coverage: five cards dealt in order (2 face up, 3 in the pile) completed from one
sheet. A completable hand's plan replays through the rules engine under the turn order; a hand
whose cards need more squares of a feature than the sheet has is not completable, with that
reason; unknown is never counted as either; the figure is deterministic for a seed."""

from __future__ import annotations

import json
import random

from generator.core.budget import Budget
from generator.core.verdict import Verdict
from generator.deck import Deck, deck_model
from generator.families.base import CheckOptions
from generator.families.parks import ParksFamily
from generator.families.parks.cert import HandCertificate
from generator.families.parks.model import Bonus, Card, Die, ParksParams, Sheet
from generator.families.parks.replay import replay_hand
from generator.families.parks.sim import hand_coverage, hand_obstacle, hand_verdict

SHEET = Sheet.from_text("GGWAP\nGGWAP\nAAPGG\nPWGGA\n\nicons:\n..w..\n.....\nr....\n...w.")
DIE = Die.from_text("1 | 2,2 | 3,3,3 | 1,2 | 2,3 | 4")
SUPPLY = Budget(nodes=50_000)
PLAN = Budget(nodes=2_000)
HAND = [Card.from_rows("park-01", "Corner", ["G#"]),
        Card.from_rows("park-02", "Wet Walk", ["WW"], walkways=["11"]),
        Card.from_rows("park-03", "", ["A"]),
        Card.from_rows("park-04", "", ["#", "#"]),
        Card.from_rows("park-05", "", ["P"])]


def test_a_completable_hand_replays_under_the_turn_order() -> None:
    res = hand_verdict(SHEET, DIE, HAND, random.Random(1), PLAN, SUPPLY)
    assert res.verdict is Verdict.COMPLETABLE
    cert = res.certificate
    assert cert is not None
    assert cert.deal == tuple(c.id for c in HAND)
    assert replay_hand(SHEET, DIE, HAND, cert) == ""
    again = HandCertificate.from_json(cert.to_json())
    assert again == cert
    assert replay_hand(SHEET, DIE, HAND, again) == ""
    # every space of every card covered exactly once
    placed: dict[str, list[tuple[int, int]]] = {}
    for rp in cert.rounds:
        for pd in rp.placed:
            placed.setdefault(pd.card, []).extend(pd.placement.mapping().values())
    for card in HAND:
        assert sorted(placed[card.id]) == sorted(card.cells)
    # turn order: a section goes on the card dealt k-th (k >= 3, from the pile) only in a
    # round after k - 2 cards were completed (each completion turns the next one face up)
    finished: dict[str, int] = {}
    got: dict[str, int] = {}
    for n, rp in enumerate(cert.rounds):
        for cid, pl in ((pd.card, pd.placement) for pd in rp.placed):
            k = [c.id for c in HAND].index(cid)
            if k >= 2:
                assert sum(1 for r in finished.values() if r < n) >= k - 1
            got[cid] = got.get(cid, 0) + len(pl.section)
        for card in HAND:
            if card.id not in finished and got.get(card.id) == card.size:
                finished[card.id] = n
    assert len(finished) == 5


def test_a_section_on_a_pile_card_is_refused_by_the_engine() -> None:
    res = hand_verdict(SHEET, DIE, HAND, random.Random(1), PLAN, SUPPLY)
    assert res.certificate is not None
    data = res.certificate.to_json()
    first = next(r for r in data["rounds"] if r["placed"])
    first["placed"][0]["card"] = "park-05"  # still at the bottom of the pile
    problem = replay_hand(SHEET, DIE, HAND, HandCertificate.from_json(data))
    assert "park-05, which is not face up" in problem
    # the same plan with the deal in another order is not a plan for that deal
    other = [HAND[4], *HAND[:4]]
    assert "not ['park-05'" in replay_hand(SHEET, DIE, other, res.certificate)
    # dropping the last round leaves a card incomplete
    short = HandCertificate(res.certificate.deal, res.certificate.rounds[:-1])
    assert "not complete" in replay_hand(SHEET, DIE, HAND, short)


def test_a_hand_needing_more_water_than_the_sheet_has_is_not_completable() -> None:
    # the sheet has 3 water squares; five cards each demand one
    wet = [Card.from_rows(f"park-0{i}", "", ["W#"]) for i in range(1, 6)]
    res = hand_verdict(SHEET, DIE, wet, random.Random(1), PLAN, SUPPLY)
    assert res.verdict is Verdict.IMPOSSIBLE
    assert res.certificate is None
    assert res.reason == "the 5 cards together demand 5 water squares; the sheet has 3"
    # a Gardener bonus in the hand can waive one demand later: still 5 > 3 + 1
    wet[0] = Card.from_rows("park-01", "", ["W#"], bonus=Bonus.GARDENER)
    res = hand_verdict(SHEET, DIE, wet, random.Random(1), PLAN, SUPPLY)
    assert res.verdict is Verdict.IMPOSSIBLE
    assert res.reason.endswith("the sheet has 3, and the hand earns only 1 Gardener token")
    # with two Gardener bonuses the count no longer proves anything (5 <= 3 + 2), so the hand
    # is not called impossible (the planner places no waivers, so it stays unknown)
    wet[1] = Card.from_rows("park-02", "", ["W#"], bonus=Bonus.GARDENER)
    assert hand_obstacle(SHEET, wet, SUPPLY).verdict is Verdict.COMPLETABLE
    res = hand_verdict(SHEET, DIE, wet, random.Random(1), PLAN, SUPPLY)
    assert res.verdict is Verdict.UNKNOWN
    assert "without waiving demands with the tokens" in res.reason
    # more spaces than squares
    big = [Card.from_rows(f"park-0{i}", "", ["##", "##"]) for i in range(1, 6)]
    huge = [*big[:4], Card.from_rows("park-05", "", ["#####"])]
    assert hand_obstacle(SHEET, huge, SUPPLY).reason == \
        "the 5 cards have 21 spaces; the sheet has 20 squares"
    # exact supply without tokens: two cards on the only recycling square
    rec = [*HAND[:3], Card.from_rows("park-04", "", ["#"], icons=["r"]),
           Card.from_rows("park-05", "", ["#"], icons=["r"])]
    ob = hand_obstacle(SHEET, rec, SUPPLY)
    assert ob.verdict is Verdict.IMPOSSIBLE
    assert "recycling" in ob.reason and "the sheet has 1" in ob.reason


def test_the_figure_is_deterministic_and_adds_up() -> None:
    cards = [*HAND, Card.from_rows("park-06", "", ["##"]),
             Card.from_rows("park-07", "", ["#"], icons=["w"]),
             Card.from_rows("park-08", "", ["#"], icons=["w"])]
    a = hand_coverage(SHEET, cards, 7, 6, SUPPLY, DIE, 4, PLAN)
    b = hand_coverage(SHEET, cards, 7, 6, SUPPLY, DIE, 4, PLAN)
    assert a == b
    assert a.to_json() == b.to_json()
    assert (a.hands, a.played) == (6, 4)
    assert a.completable + a.impossible + a.unknown == a.played
    assert a.completable >= 1
    # park-07 and park-08 each demand a wildlife square; the sheet has two, and one of them
    # is in the only pair of water squares park-02's walkway can use
    three = [r for r in a.results if {"park-02", "park-07", "park-08"} <= set(r.deal)]
    assert three and all(r.verdict is Verdict.IMPOSSIBLE for r in three)
    for r in a.results:
        if r.certificate is not None:
            hand = [next(c for c in cards if c.id == cid) for cid in r.deal]
            assert replay_hand(SHEET, DIE, hand, r.certificate) == ""
    assert a.share == a.completable / a.played
    other = hand_coverage(SHEET, cards, 8, 6, SUPPLY, DIE, 4, PLAN)
    assert [r.deal for r in other.results] != [r.deal for r in a.results]
    assert hand_coverage(SHEET, cards[:4], 7, 6, SUPPLY, DIE, 4, PLAN).hands == 0


def _deck(**params: object) -> Deck:
    model = deck_model("parks", ParksParams)
    return model.model_validate({"family": "parks", "name": "t", "seed": 5,
                                 "check": {"simulations": 1},
                                 "parks": {"cards": 5, "grand_cards": 0, **params}})


def test_the_deck_report_carries_the_hand_figure() -> None:
    family = ParksFamily()
    deck = _deck(hands=4, hand_plans=2)
    ps = family.generate(deck)
    rep = family.check(deck, ps, CheckOptions())
    entry = next(e for e in rep.entries if e.check == "hand-coverage")
    fig = rep.figures["hand_coverage"]
    assert entry.details["hand_coverage"] == fig
    assert (fig["hands"], fig["played"]) == (4, 2)
    assert fig["completable"] + fig["not_completable"] + fig["unknown"] == 2
    assert entry.status == "info"
    assert "of 2 random hands of 5 park cards dealt in order" in entry.message
    assert "played out" in entry.message
    for h in entry.details["hands"]:
        if h["verdict"] == "completable":
            hand = [ps.card(cid) for cid in h["deal"]]
            cert = HandCertificate.from_json(h["certificate"])
            assert replay_hand(ps.sheet, ps.die, hand, cert) == ""
    assert family.check(deck, ps, CheckOptions()).figures == rep.figures


def test_a_hand_written_extra_cut_chain_replays() -> None:
    # three one-square cards, the first two award an Extra Cut: one rolled cut frees the
    # first square, its Extra Cut frees the second, whose Extra Cut frees the third
    chain = [Card.from_rows("c1", "", ["#"], bonus=Bonus.EXTRA_CUT),
             Card.from_rows("c2", "", ["#"], bonus=Bonus.EXTRA_CUT),
             Card.from_rows("c3", "", ["#"])]
    die = Die.from_text("1 | 1,1")

    def on(card: str, r: int, c: int) -> dict[str, object]:
        return {"card": card, "section": [[r, c]], "transform": 0, "offset": [-r, -c]}

    data = {"deal": ["c1", "c2", "c3"], "rounds": [
        {"face": [1, 1], "cuts": ["1,0 E 1", "0,4 S 1"]},
        {"face": [1, 1], "cuts": ["3,0 E 1", "0,2 S 1"]},
        {"face": [1], "cuts": ["0,1 S 1"], "keep": [None], "placed": [on("c1", 0, 0)],
         "extra": [{"cut": "1,5 W 1", "placed": [on("c2", 0, 4)]},
                   {"cut": "4,1 N 1", "placed": [on("c3", 3, 0)]}]}]}
    cert = HandCertificate.from_json(data)
    assert replay_hand(SHEET, die, chain, cert) == ""
    assert HandCertificate.from_json(cert.to_json()) == cert
    # without the chain's last link the third card stays open
    short = json.loads(json.dumps(data))
    short["rounds"][2]["extra"] = short["rounds"][2]["extra"][:1]
    assert "c3 is not complete" in replay_hand(SHEET, die, chain,
                                               HandCertificate.from_json(short))
    # an Extra Cut nobody awarded is refused
    early = json.loads(json.dumps(data))
    early["rounds"][1]["extra"] = [{"cut": "4,1 N 1"}]
    assert "no Extra Cut bonus" in replay_hand(SHEET, die, chain,
                                               HandCertificate.from_json(early))
