"""Every check of a streets deck: plan completability (with replayed certificates), the
number distribution against the streets, effect counts, the deal, and simulated games."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from ...core.answer import Answer, IllegalMove
from ...core.budget import Budget
from ...core.stats import Interval, Rate, batch_seed, mean_interval, rate, sample_until
from ...core.verdict import Verdict
from ...deck import Deck
from ...ranking import rank_details
from ..base import CheckEntry, CheckOptions, Question, Report, Settings, Status, subject_of
from .certify import Certificate, certify, verify
from .generate import apportion, offered_pairs
from .model import EFFECT_ORDER, Effect, PlanCard, StreetsGame, StreetsParams
from .rules import Move, RuleError, replay
from .sim import GameResult, play_batch, summarise


def fill_certificate(game: StreetsGame) -> tuple[list[Move], str]:
    """Moves that build every house of every street with the deck's numbers (each street
    rising through the lowest numbers it needs; workers and duplicates stretch the range
    when the deck has too few distinct numbers). Returns (moves, problem); problem is empty
    when the whole sheet can be filled."""
    spec = game.sheet
    offered = offered_pairs(game.cards)
    values = sorted({c.number for c in game.cards})
    effects_by_number: dict[int, list[Effect]] = {}
    for n, e in sorted(offered, key=lambda p: (p[0], p[1].value)):
        effects_by_number.setdefault(n, []).append(e)
    moves: list[Move] = []
    for s, street in enumerate(spec.streets):
        if street.houses > len(values):
            return moves, (f"{street.name} has {street.houses} houses but the deck has only "
                           f"{len(values)} distinct numbers ({values[0]}..{values[-1]}): "
                           "without workers, duplicates or roundabouts a player can never "
                           "build it all")
        for h, v in enumerate(values[: street.houses]):
            moves.append(Move(v, effects_by_number[v][0], s, h, v))
    return moves, ""


HARD_PLAN_MIN_DEALT = 5
"""A plan dealt at least this often and never completed is flagged too hard: fewer deals are
too few to tell a hard plan from bad luck."""

OPENING_ROUNDS = 3
"""Rounds of the generated deal shown in the figures: enough to read the first choices."""


def check_game(p: StreetsParams, game: StreetsGame, seed: int,
               settings: Settings) -> tuple[list[CheckEntry], dict[str, Any]]:
    """Every check of a streets deck: plans, the fill, the effect mix, the deal, games."""
    entries = _plan_entries(game, settings.budget)
    entries.extend(_fill_entries(game))
    counts = game.effect_counts()
    if p.card_list:
        text = ", ".join(f"{e.value} {counts[e]}" for e in EFFECT_ORDER
                         if counts[e] or e is not Effect.ROUNDABOUT)
        entries.append(CheckEntry("deck", "effect-counts", "pass",
                                  f"{len(game.cards)} cards as listed in card_list: {text}"))
    else:
        entries.extend(_mix_entries(p, game))
    entries.append(_deal_entry(game))
    figures: dict[str, Any] = {
        # The first rounds of the generated deal, as players would see them.
        "opening_rounds": [
            [f"{game.cards[st[r + 1]].number}/{game.cards[st[r]].effect.value}"
             for st in game.stacks]
            for r in range(min(OPENING_ROUNDS, len(game.stacks[0]) - 1))],
        "number_counts": {str(k): v for k, v in game.number_counts().items()},
        "effect_counts": {e.value: n for e, n in counts.items()
                          if n or e is not Effect.ROUNDABOUT},
        "cards": len(game.cards),
        "houses": game.sheet.total_houses,
    }
    if settings.simulations > 0:
        # No timings in the report: same deck and seed give a byte-identical report
        # (bench/streets.py measures the speed).
        sim_entries, figures["simulation"] = _simulation_entries(p, game, seed, settings)
        entries.extend(sim_entries)
    return entries, figures


def _plan_entries(game: StreetsGame, budget: Budget) -> list[CheckEntry]:
    """Each plan: completable (certificate replayed from its JSON), impossible, or unknown."""
    entries: list[CheckEntry] = []
    spec = game.sheet
    offered = offered_pairs(game.cards)
    numbers = [c.number for c in game.cards]
    for plan in game.plans:
        out = certify(spec, plan, numbers, offered, budget)
        if out.verdict is Verdict.COMPLETABLE and out.certificate is not None:
            cert = out.certificate
            # Replay again from the JSON form: what we report is what anyone can re-check.
            try:
                verify(spec, plan, Certificate.from_json(cert.to_json()), offered)
            except RuleError as err:
                entries.append(CheckEntry(plan.id, "completable", "unknown",
                                          f"certificate did not replay: {err}",
                                          code="E-STREETS-PLAN-UNKNOWN"))
                continue
            entries.append(CheckEntry(
                plan.id, "completable", "completable",
                f"met after {len(cert.moves)} turns (certificate replayed)",
                details={"certificate": cert.to_json(), "nodes": out.nodes}))
        elif out.verdict is Verdict.IMPOSSIBLE:
            entries.append(CheckEntry(plan.id, "completable", "impossible", out.reason,
                                      code="E-STREETS-PLAN-IMPOSSIBLE"))
        else:
            entries.append(CheckEntry(plan.id, "completable", "unknown", out.reason,
                                      code="E-STREETS-PLAN-UNKNOWN",
                                      details={"nodes": out.nodes}))
    return entries


def _fill_entries(game: StreetsGame) -> list[CheckEntry]:
    """The whole sheet can be built with the deck's numbers (a replayed certificate)."""
    moves, problem = fill_certificate(game)
    if problem:
        return [CheckEntry("deck", "numbers-fill-streets", "fail", problem,
                           code="E-STREETS-NUMBERS-SHORT")]
    try:
        sheet = replay(game.sheet, moves, offered_pairs(game.cards))
        if not sheet.full():
            raise RuleError("some houses stay empty")
    except RuleError as err:
        return [CheckEntry("deck", "numbers-fill-streets", "fail",
                           f"filling the sheet failed: {err}", code="E-STREETS-NUMBERS-SHORT")]
    return [CheckEntry(
        "deck", "numbers-fill-streets", "pass",
        f"every house of every street can be built ({len(moves)} turns, replayed)",
        details={"certificate": {"moves": [str(m) for m in moves]}})]


def _deal_entry(game: StreetsGame) -> CheckEntry:
    dealt = sorted(i for st in game.stacks for i in st)
    sizes = [len(st) for st in game.stacks]
    if dealt == list(range(len(game.cards))) and len(set(sizes)) == 1:
        return CheckEntry("deck", "deal", "pass",
                          f"three stacks of {sizes[0]} cards, every card once")
    return CheckEntry("deck", "deal", "fail",
                      f"stacks of {sizes} do not deal every card exactly once",
                      code="E-STREETS-DEAL")


def plan_rate(results: Sequence[GameResult], plan_id: str) -> Rate:
    """Completion of a plan: games where some sheet claimed it, of the games it was dealt."""
    dealt = [r for r in results if plan_id in r.plans]
    return rate(sum(1 for r in dealt if any(sh.claimed(plan_id) for sh in r.sheets)),
                len(dealt))


def _measure(plan_ids: Sequence[str], results: Sequence[GameResult]) -> list[Interval]:
    """The intervals the sample must make narrow: every plan's rate and the mean score."""
    out: list[Interval] = [plan_rate(results, pid) for pid in plan_ids]
    out.append(mean_interval([float(x) for r in results for x in r.scores]))
    return out


def _simulation_entries(p: StreetsParams, game: StreetsGame, seed: int,
                        settings: Settings) -> tuple[list[CheckEntry], dict[str, Any]]:
    """Seeded games in batches until the intervals reach ``[check] precision`` (or the cap),
    then a deck entry and one difficulty entry per plan (with its 95% interval)."""
    sample = sample_until(
        partial(play_batch, game, p.players, p.max_rounds),
        partial(_measure, tuple(pl.id for pl in game.plans)), settings.sampling,
        seed=seed, stream=("streets-sim",), mapper=settings.pool.map,
        lookahead=settings.pool.workers)
    results = sample.outcomes
    data = summarise(game, results).to_json()
    score = mean_interval([float(x) for r in results for x in r.scores])
    refusals = mean_interval([float(sh.refusals) for r in results for sh in r.sheets])
    data["score"] = score.to_json()
    data["refusals"] = refusals.to_json()
    data["sample"] = sample.to_json()
    entries = [CheckEntry(
        "deck", "simulation", "info",
        f"{sample.text()} of {p.players} bots: score {score.text('pts', 'sheets')}, "
        f"refusals {refusals.text('', 'sheets')}, {data['mean_rounds']} rounds, "
        f"{data['mean_built_share']:.0%} of the houses built; ended by "
        + ", ".join(f"{k} {v}" for k, v in data["ended_by"].items() if v), details=data)]
    planned: list[GameResult] = []
    if p.planner_games:
        planned = play_batch(game, p.players, p.max_rounds,
                             batch_seed(seed, ("streets-planner",), 0), p.planner_games,
                             planners=tuple(range(p.players)))
        data["planner_games"] = len(planned)
    for plan in game.plans:
        d = data["plans"][plan.id]
        r = plan_rate(results, plan.id)
        band = plan_rate(planned, plan.id) if planned else None
        if not r.trials:
            entries.append(CheckEntry(plan.id, "difficulty", "info",
                                      "never dealt in the simulated games"))
            continue
        msg = (f"completed in {r.text('games where dealt')}, by {d['sheets_completed']} "
               "sheets")
        if band is not None:
            msg = (f"casual {r.text('games where dealt')} / planning "
                   f"{band.text('games where dealt')}; {d['sheets_completed']} greedy sheets")
        if d["mean_round"] is not None:
            msg += f"; first met in round {d['mean_round']} on average"
        status: Status = "info"
        code = ""
        if r.successes == 0 and r.trials >= HARD_PLAN_MIN_DEALT:
            status, code = "warn", "E-STREETS-PLAN-HARD"
            msg += "; the bots never completed it"
        entries.append(CheckEntry(plan.id, "difficulty", status, msg, code=code,
                                  details={**d, "rate": r.to_json(),
                                           **({"planning": band.to_json()} if band else {}),
                                           "rank": rank_details(r, band, reward=plan.first)}))
    return entries, data


def _mix_entries(p: StreetsParams, game: StreetsGame) -> list[CheckEntry]:
    """The generated deck carries the effect mix: apportioned counts, no weighted effect lost."""
    entries: list[CheckEntry] = []
    counts = game.effect_counts()
    weights = p.effects.weights()
    intended = apportion(len(game.cards), [weights[e] for e in EFFECT_ORDER])
    wrong = [f"{e.value} {counts[e]} (intended {n})"
             for e, n in zip(EFFECT_ORDER, intended, strict=True) if counts[e] != n]
    text = ", ".join(f"{e.value} {counts[e]}" for e in EFFECT_ORDER
                     if counts[e] or e is not Effect.ROUNDABOUT)
    if wrong:
        entries.append(CheckEntry("deck", "effect-counts", "fail",
                                  "effect counts differ from the mix: " + "; ".join(wrong),
                                  code="E-STREETS-EFFECT-COUNTS"))
    else:
        entries.append(CheckEntry("deck", "effect-counts", "pass",
                                  f"{len(game.cards)} cards as intended: {text}"))
    # A weighted effect can round down to no card at all on a small deck: say so.
    lost = [e.value for e in EFFECT_ORDER if weights[e] > 0 and counts[e] == 0]
    # Roundabouts are opt-in (weight 0 by default): not worth a note when absent.
    unused = [e.value for e in EFFECT_ORDER if weights[e] == 0 and e is not Effect.ROUNDABOUT]
    if lost:
        entries.append(CheckEntry("deck", "effects-present", "warn",
                                  "weighted but rounded down to no card: " + ", ".join(lost),
                                  code="E-STREETS-EFFECT-ABSENT"))
    elif unused:
        entries.append(CheckEntry("deck", "effects-present", "info",
                                  "no cards with " + ", ".join(unused) + " (weight 0)"))
    return entries


# The family contract's questions (one per plan card), answered one at a time.


def questions(deck: Deck, game: StreetsGame) -> tuple[Question, ...]:
    """One question per plan card: can one sheet meet it with this deck?"""
    return tuple(Question(plan.id, "completable", "") for plan in game.plans)


def solve_plan(game: StreetsGame, plan: PlanCard, budget: Budget) -> Answer:
    """The completability answer of one plan card (certificate in its JSON form)."""
    out = certify(game.sheet, plan, [c.number for c in game.cards], offered_pairs(game.cards),
                  budget)
    if out.verdict is Verdict.COMPLETABLE and out.certificate is not None:
        return Answer(Verdict.COMPLETABLE, out.certificate.to_json(), nodes=out.nodes)
    verdict = Verdict.IMPOSSIBLE if out.verdict is Verdict.IMPOSSIBLE else Verdict.UNKNOWN
    return Answer(verdict, reason=out.reason or "search budget ran out", nodes=out.nodes)


def replay_plan(game: StreetsGame, plan: PlanCard, certificate: Any) -> None:
    """Replay a plan certificate (JSON, as in the report); IllegalMove when it fails."""
    try:
        cert = Certificate.from_json(certificate)
    except (KeyError, TypeError, ValueError) as exc:
        raise IllegalMove(f"the certificate is malformed ({exc!r})") from None
    verify(game.sheet, plan, cert, offered_pairs(game.cards))


def _plan(game: StreetsGame, question: Question) -> PlanCard:
    return subject_of(game.plans, question)


def solve(deck: Deck, game: StreetsGame, question: Question, budget: Budget) -> Answer:
    return solve_plan(game, _plan(game, question), budget)


def replay_certificate(deck: Deck, game: StreetsGame, question: Question,
                       certificate: Any) -> None:
    replay_plan(game, _plan(game, question), certificate)


def check(deck: Deck, game: StreetsGame, options: CheckOptions) -> Report:
    """Every check of a streets deck (the family's ``check``)."""
    settings = options.settings(deck)
    entries, figures = check_game(deck.params, game, deck.seed, settings)
    return Report(deck=deck.name, family="streets", seed=deck.seed, entries=tuple(entries),
                  figures=figures)
