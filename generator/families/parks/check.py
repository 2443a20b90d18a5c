"""The parks checks: a completability verdict (with replayed certificate, or a reason) and a
difficulty figure for every park card and grand park card; deck figures for hand coverage and
for the balance of features and icons between the sheet and the cards' demands.

One report entry per card (check ``completable``): the verdict, the certificate's rounds and
the difficulty in one line, so ``paperproof check`` prints one line per card. Deck entries:
``hand-coverage`` and ``balance`` (info; ``warn`` when the cards demand a feature the sheet
hardly has).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.answer import Answer, IllegalMove
from ...core.budget import Budget
from ...core.polyomino import TRANSFORMS
from ...core.verdict import Verdict
from ...deck import Deck
from ..base import CheckEntry, CheckOptions, Question, Report, answer_entry
from .cert import Certificate
from .model import FEATURE_WORDS, Card, Feature, Icon, ParksParams, ParksSet
from .planner import CardVerdict, cached_completability
from .replay import replay, replay_hand
from .sim import Difficulty, difficulty, hand_coverage

# Node budgets only (no seconds) for the simulations: a time limit would make the figures
# depend on the machine's load, and the same deck + seed must give the same report. A game
# ticks a few dozen nodes (one per greedy step), so these caps only stop runaway searches.
SIM_BUDGET = Budget(nodes=20_000)
HAND_BUDGET = Budget(nodes=50_000)
# Per played hand (5 cards dealt in order): a tick per planned round, per cut length tried
# and per section chosen, about 0.75 ms each. On 40 hands of the default deck a plan that
# succeeded took 130-1,410 nodes (up to 8 attempts) and a hand given up on 730-1,620, so
# this cap only stops runaway searches (about 1.5 s a hand at most). The default deck's
# 8 played hands take 3,500 nodes, 2.6 s.
HAND_PLAN_BUDGET = Budget(nodes=2_000)

def _n(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def questions(deck: Deck, ps: ParksSet) -> tuple[Question, ...]:
    """One question per park card and grand park card: completable from a fresh sheet?"""
    return tuple(Question(c.id, "completable", "grand park card" if c.grand else "park card")
                 for c in ps.cards)


def _verdict(deck: Deck, ps: ParksSet, card: Card, budget: Budget) -> CardVerdict:
    return cached_completability(ps.sheet, ps.die, card, budget, deck.seed)


def _answer(v: CardVerdict) -> Answer:
    cert = v.certificate.to_json() if v.certificate is not None else None
    return Answer(v.verdict, cert if v.verdict is Verdict.COMPLETABLE else None, v.reason,
                  v.nodes)


def solve(deck: Deck, ps: ParksSet, question: Question, budget: Budget) -> Answer:
    """The completability answer of one card (the certificate in its JSON form)."""
    return _answer(_verdict(deck, ps, ps.card(question.subject), budget))


def replay_certificate(deck: Deck, ps: ParksSet, question: Question,
                       certificate: Any) -> None:
    """Replay a card's certificate (JSON, as in the report) from a fresh sheet."""
    try:
        cert = Certificate.from_json(certificate)
    except (KeyError, TypeError, ValueError) as exc:
        raise IllegalMove(f"the certificate is malformed ({exc!r})") from None
    problem = replay(ps.sheet, ps.die, ps.card(question.subject), cert)
    if problem:
        raise IllegalMove(problem)


def card_entry(deck: Deck, ps: ParksSet, card: Card, games: int,
               budget: Budget) -> tuple[CheckEntry, Any]:
    p: ParksParams = deck.params
    question = Question(card.id, "completable", "grand park card" if card.grand else "park card")
    v = _verdict(deck, ps, card, budget)
    # No timings in the report: same deck + seed must give identical output.
    message = ""
    details: dict[str, Any] = {}
    if v.verdict is Verdict.COMPLETABLE and v.certificate is not None:
        diff: Difficulty = difficulty(ps.sheet, ps.die, card, deck.seed, games, p.rounds,
                                      SIM_BUDGET, v.pieces)
        cert = v.certificate
        details = {"rounds": len(cert.rounds), "difficulty": diff.to_json()}
        message = (f"{_n(len(cert.rounds), 'round')}, {_n(cert.cut_count, 'cut')}, "
                   f"{_n(len(cert.placements), 'section')}; difficulty {diff.words()}")
    # Replayed again by answer_entry, on the exact object that goes into the report.
    entry = answer_entry(question, _answer(v),
                         lambda c: replay_certificate(deck, ps, question, c),
                         code="E-PARKS", message=message, details=details)
    if entry.status != "completable":
        entry = replace(entry, details={k: val for k, val in entry.details.items()
                                        if k not in ("rounds", "difficulty")})
    return entry, v


def balance(ps: ParksSet) -> tuple[CheckEntry, dict[str, Any]]:
    """Share of each feature/icon on the sheet vs among the cards' demands."""
    total = len(ps.sheet.cells())
    demands = [d for c in ps.cards for _, d in c.demands]
    n_f = sum(1 for d in demands if d.feature) or 1
    fig: dict[str, Any] = {}
    warn: list[str] = []
    for f in Feature:
        on_sheet = ps.sheet.count(f) / total
        in_cards = sum(1 for d in demands if d.feature is f) / n_f
        fig[f.value] = {"sheet": round(on_sheet, 3), "demands": round(in_cards, 3)}
        if in_cards > 2 * on_sheet + 0.05:
            warn.append(f"{FEATURE_WORDS[f]} is {100 * in_cards:.0f}% of demands but "
                        f"{100 * on_sheet:.0f}% of the sheet")
    for i in Icon:
        fig[i.value] = {"sheet": ps.sheet.count(None, i),
                        "demands": sum(1 for d in demands if d.icon is i)}
    msg = ("features, sheet vs demands: " + ", ".join(
        f"{FEATURE_WORDS[f]} {100 * fig[f.value]['sheet']:.0f}%/"
        f"{100 * fig[f.value]['demands']:.0f}%" for f in Feature)
        + "; icons on sheet/demanded: " + ", ".join(
        f"{i.value} {fig[i.value]['sheet']}/{fig[i.value]['demands']}" for i in Icon))
    if warn:
        return CheckEntry("deck", "balance", "warn", msg + "; " + "; ".join(warn),
                          "W-PARKS-BALANCE", {"balance": fig}), fig
    return CheckEntry("deck", "balance", "info", msg, details={"balance": fig}), fig


def longest_cut(rows: int, cols: int) -> int:
    """The longest straight cut a fresh ``rows`` x ``cols`` sheet allows: along a row line
    (there are some when rows >= 2) up to ``cols`` edges, along a column line up to ``rows``.
    Cuts only get shorter as the sheet is cut, so a longer length can never be cut."""
    return max(cols if rows >= 2 else 0, rows if cols >= 2 else 0)


def die_entry(ps: ParksSet) -> CheckEntry | None:
    """A warning when a die face asks for a cut the sheet can never take (rolling it ends a
    solo game at once, and in a race nobody can play the round)."""
    top = longest_cut(ps.sheet.rows, ps.sheet.cols)
    bad = [list(f) for f in ps.die.faces if max(f) > top]
    if not bad:
        return None
    return CheckEntry("deck", "die", "warn",
                      f"die face{'s' if len(bad) > 1 else ''} "
                      + ", ".join(str(f) for f in bad)
                      + f" can never be cut: the longest straight cut on the {ps.sheet.rows}x"
                      f"{ps.sheet.cols} sheet is {top}", "W-PARKS-DIE-FACE",
                      {"faces": bad, "longest_cut": top})


def solo_entry(deck: Deck, ps: ParksSet, games: int) -> CheckEntry | None:
    """The solo score distribution: ``games`` seeded solo games of the bot
    (:func:`solo.play_solo`), each move log replayed through the engine (:func:`solo.
    replay_solo`) before its score counts; the mean with its 95% interval, the range, the
    histogram, why games ended, and the first game's move log (what ``paperproof score``
    reads)."""
    from ...core.rng import make_rng
    from ...core.stats import mean_interval
    from .solo import SOLO_GRANDS, SOLO_PARKS, play_solo, replay_solo, solo_deal

    if games <= 0:
        return None
    scores: list[int] = []
    ended: dict[str, int] = {}
    example: dict[str, Any] | None = None
    for g in range(games):
        rng = make_rng(deck.seed, "parks-solo", g)
        deal = solo_deal(ps.cards, rng)
        if deal is None:
            return CheckEntry("deck", "solo", "info",
                              f"no solo game: a solo deal needs {SOLO_GRANDS} grand park "
                              f"card(s) and {SOLO_PARKS} park cards", details={})
        game = play_solo(ps.sheet, ps.die, deal, SOLO_GRANDS, rng, SIM_BUDGET.start())
        player, problem = replay_solo(ps.sheet, ps.die, deal, game.log)
        if player is None:
            return CheckEntry("deck", "solo", "fail", f"a solo game failed replay: {problem}",
                              "E-PARKS-SOLO-REPLAY", {"log": game.log.to_json()})
        scores.append(game.points["total"])
        key = "a face could not be cut" if "could not" in game.ended else game.ended
        ended[key] = ended.get(key, 0) + 1
        if example is None:
            example = {"log": game.log.to_json(), "points": game.points}
    m = mean_interval(scores)
    hist: dict[str, int] = {}
    for v in sorted(scores):
        hist[str(v)] = hist.get(str(v), 0) + 1
    msg = (f"solo score {m.text('points')}, range {min(scores)}..{max(scores)}; games ended: "
           + ", ".join(f"{k} {n}" for k, n in sorted(ended.items())))
    return CheckEntry("deck", "solo", "info", msg, details={"solo": {
        "games": games, "score": m.to_json(), "min": min(scores), "max": max(scores),
        "histogram": hist, "ended": ended, "example": example}})


def model_json(ps: ParksSet) -> dict[str, Any]:
    """Everything an independent checker needs to replay the certificates without the deck
    code or the drawings: the sheet (size, every square's feature and icon), every card
    (outline, demands, walkways, bonus, grand flag), the die faces and the rules in force."""
    from .solo import SOLO_GRANDS, SOLO_PARKS

    sheet = ps.sheet
    def square(cell: tuple[int, int]) -> dict[str, str | None]:
        sq = sheet.at(cell)
        return {"feature": sq.feature.value, "icon": sq.icon.value if sq.icon else None}

    squares = [[square((r, c)) for c in range(sheet.cols)] for r in range(sheet.rows)]
    cards = []
    for card in ps.cards:
        cards.append({
            "id": card.id, "name": card.name, "grand": card.grand, "bonus": card.bonus.value,
            "cells": [list(c) for c in sorted(card.cells)],
            "demands": [{"cell": list(c), "feature": d.feature.value if d.feature else None,
                         "icon": d.icon.value if d.icon else None} for c, d in card.demands],
            "walkways": [[list(c) for c in sorted(w)] for w in card.walkways]})
    return {
        "sheet": {"rows": sheet.rows, "cols": sheet.cols, "squares": squares,
                  "text": sheet.to_text()},
        "cards": cards,
        "die": [list(f) for f in ps.die.faces],
        "rules": {
            "forced_placement": True, "tokens_optional": True,
            "tie_keep_recorded": True, "extra_cut_lengths": "any length of the round's face",
            "extra_cut_expires": "end of the round it is earned",
            "same_round_collinear_cuts": "may not share an endpoint",
            "card_certificate_setup": "the card alone face up, no pile, faces chosen freely",
            "hand_setup": "cards 1-2 face up, 3-5 the pile (top first), faces chosen freely",
            "solo_setup": {"grand_cards_face_up": SOLO_GRANDS, "park_cards": SOLO_PARKS,
                           "discard_before_roll": 1},
            "transforms": [t.name for t in TRANSFORMS],
        },
    }


def check(deck: Deck, ps: ParksSet, options: CheckOptions) -> Report:
    p: ParksParams = deck.params
    settings = options.settings(deck)
    games, budget = settings.simulations, settings.budget
    entries: list[CheckEntry] = []
    verdicts: dict[str, int] = {}
    shares: list[float] = []
    rounds: list[int] = []
    for card in ps.cards:
        entry, v = card_entry(deck, ps, card, games, budget)
        entries.append(entry)
        verdicts[v.verdict.value] = verdicts.get(v.verdict.value, 0) + 1
        if "difficulty" in entry.details:
            shares.append(float(entry.details["difficulty"]["share"]))
            rounds.append(int(entry.details["rounds"]))
    hc = hand_coverage(ps.sheet, ps.park_cards, deck.seed, p.hands, HAND_BUDGET, ps.die,
                       p.hand_plans, HAND_PLAN_BUDGET)
    hj = hc.to_json()
    if hc.hands:
        # Each played hand's certificate was replayed from a fresh sheet by hand_verdict;
        # replay it again here, on the exact object that goes into the report.
        played: list[dict[str, Any]] = []
        failed = []
        for res in hc.results:
            if res.certificate is not None:
                hand = [ps.card(cid) for cid in res.deal]
                problem = replay_hand(ps.sheet, ps.die, hand, res.certificate)
                if problem:
                    failed.append(f"{'/'.join(res.deal)}: {problem}")
            played.append(res.to_json())
        details = {"hand_coverage": hj, "hands": played}
        if failed:
            entries.append(CheckEntry("deck", "hand-coverage", "fail",
                                      "a hand certificate failed replay: " + "; ".join(failed),
                                      "E-PARKS-HAND-REPLAY", details))
        else:
            entries.append(CheckEntry("deck", "hand-coverage", "info", hc.words(),
                                      details=details))
    bal_entry, bal = balance(ps)
    entries.append(bal_entry)
    solo = solo_entry(deck, ps, games)
    if solo is not None:
        entries.append(solo)
    die_warn = die_entry(ps)
    if die_warn is not None:
        entries.append(die_warn)
    figures: dict[str, Any] = {
        "cards": len(ps.park_cards), "grand_cards": len(ps.grand_cards),
        "verdicts": verdicts, "hand_coverage": hj, "balance": bal,
        "mean_difficulty_share": round(sum(shares) / len(shares), 3) if shares else None,
        "mean_certificate_rounds": round(sum(rounds) / len(rounds), 2) if rounds else None,
        "simulations_per_card": games,
        "solo": solo.details.get("solo") if solo is not None else None,
        "model": model_json(ps),
    }
    return Report(deck=deck.name, family="parks", seed=deck.seed, entries=tuple(entries),
                  figures=figures)
