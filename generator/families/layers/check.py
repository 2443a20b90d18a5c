"""Every check of a layers deck.

- ``achievable`` (per objective): completable with a certificate landscape replayed through the
  rules engine, or impossible with the reason, or unknown when the budget ran out.
- ``colour-values`` (per colour): the colour has every value a stack climbs through; one missing
  value forces a skip (warn), two missing in a row (or a missing lowest value pair) caps every
  stack of the colour (fail).
- ``counts`` (per player count): cards, cards per colour, scissors cards, piles, starting cards.
- ``simulated`` (per objective): the share of seeded bot games it was taken in, when in play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import partial
from typing import Any

from ...core.answer import Answer, IllegalMove
from ...core.budget import Budget
from ...core.stats import Interval, Rate, mean_interval, rate, sample_until
from ...core.verdict import Verdict
from ...deck import Deck
from ...ranking import rank_details
from ..base import CheckEntry, CheckOptions, Question, Report, Settings, subject_of
from .achieve import achieve, replay, supply_of
from .model import LayersParams, LayersSet, Objective
from .objectives import describe
from .rules import Rules
from .sim import GameResult, play_batch, summarise


def rules_for(p: LayersParams, gen: LayersSet) -> Rules:
    return Rules(values=gen.values, hand_limit=p.hand_limit, end_piles=p.end_piles,
                 scissors_bonus=p.scissors_bonus)


def colour_entries(gen: LayersSet) -> list[CheckEntry]:
    out: list[CheckEntry] = []
    n = min(gen.player_counts())
    have = Counter((c.colour, c.value) for c in gen.cards_for(n))
    vals = gen.values
    for colour in gen.colours:
        missing = [v for v in vals if have[(colour.name, v)] == 0]
        subject = "deck"
        check = f"colour-values:{colour.name}"
        blocked = [v for v in missing if v + 1 in missing]
        if not missing:
            out.append(CheckEntry(subject, check, "pass",
                                  f"{colour.name} has every value {vals[0]}-{vals[-1]} "
                                  f"at {n} players"))
        elif blocked:
            w = blocked[0]
            out.append(CheckEntry(
                subject, check, "fail",
                f"{colour.name} has no {w} and no {w + 1} at {n} players: no {colour.name} "
                f"stack can rise above {w - 1} (a skip jumps one value)",
                code="E-LAYERS-COLOUR-GAP", details={"missing": missing}))
        else:
            out.append(CheckEntry(
                subject, check, "warn",
                f"{colour.name} has no " + ", ".join(map(str, missing)) +
                f" at {n} players: its stacks must skip there",
                code="E-LAYERS-COLOUR-SKIP", details={"missing": missing}))
    return out


def count_entries(p: LayersParams, gen: LayersSet) -> list[CheckEntry]:
    out: list[CheckEntry] = []
    for n in gen.player_counts():
        cards = gen.cards_for(n)
        per = Counter(c.colour for c in cards)
        scissors = sum(1 for c in cards if c.scissors)
        details: dict[str, Any] = {
            "cards": len(cards), "per_colour": dict(sorted(per.items())),
            "scissors": scissors, "piles": p.piles, "starting_cards": len(gen.starts),
        }
        msg = (f"{n} players: {len(cards)} cards (" +
               ", ".join(f"{k} {v}" for k, v in sorted(per.items())) +
               f"), {scissors} with scissors, {p.piles} piles")
        if len(cards) < p.piles:
            out.append(CheckEntry("deck", f"counts:{n}", "fail",
                                  msg + ": fewer cards than piles", code="E-LAYERS-COUNTS",
                                  details=details))
        elif n > len(gen.starts):
            out.append(CheckEntry("deck", f"counts:{n}", "fail",
                                  msg + f": only {len(gen.starts)} starting cards",
                                  code="E-LAYERS-COUNTS", details=details))
        elif scissors == 0:
            out.append(CheckEntry("deck", f"counts:{n}", "warn",
                                  msg + ": no card carries the scissors logo",
                                  code="E-LAYERS-NO-SCISSORS", details=details))
        else:
            out.append(CheckEntry("deck", f"counts:{n}", "info", msg, details=details))
    return out


def check(deck: Deck, gen: LayersSet, options: CheckOptions) -> Report:
    p: LayersParams = deck.params
    entries: list[CheckEntry] = []
    figures: dict[str, Any] = {}
    budget = Budget(nodes=deck.check.budget_nodes)
    for obj in gen.objectives:
        a = achieve(gen, obj, budget)
        what = f"{obj.title} ({describe(obj)})"
        if a.verdict == Verdict.COMPLETABLE:
            assert a.certificate is not None
            cards = sum(len(v) for v in a.certificate["landscape"].values())
            entries.append(CheckEntry(
                obj.id, "achievable", "completable",
                f"{what}: a landscape of {cards} cards in {len(a.certificate['turns'])} "
                f"placing turns, replayed",
                details={"certificate": a.certificate, "nodes": a.nodes}))
        elif a.verdict == Verdict.IMPOSSIBLE:
            entries.append(CheckEntry(obj.id, "achievable", "impossible",
                                      f"{obj.title}: {a.reason}",
                                      code="E-LAYERS-OBJECTIVE-IMPOSSIBLE",
                                      details={"reason": a.reason, "nodes": a.nodes}))
        else:
            entries.append(CheckEntry(obj.id, "achievable", "unknown", f"{what}: {a.reason}",
                                      code="E-LAYERS-OBJECTIVE-UNKNOWN",
                                      details={"nodes": a.nodes}))
    entries.extend(colour_entries(gen))
    entries.extend(count_entries(p, gen))
    settings = options.settings(deck)
    if settings.simulations > 0:
        sim_entries, figures["simulation"] = simulation_entries(p, gen, deck.seed, settings)
        entries.extend(sim_entries)
    return Report(deck=deck.name, family="layers", seed=deck.seed, entries=tuple(entries),
                  figures=figures)


NEVER_TAKEN_MIN_GAMES = 10
"""An objective in play this often and never taken is flagged: fewer games say nothing."""


def objective_rate(results: Sequence[GameResult], oid: str) -> Rate:
    """Games where some player took the objective, of the games it was in play."""
    played = [r for r in results if oid in r.objectives]
    return rate(sum(1 for r in played if oid in r.taken), len(played))


def _measure(ids: Sequence[str], results: Sequence[GameResult]) -> list[Interval]:
    out: list[Interval] = [objective_rate(results, oid) for oid in ids]
    out.append(mean_interval([float(x) for r in results for x in r.scores]))
    return out


def simulation_entries(p: LayersParams, gen: LayersSet, seed: int,
                       settings: Settings) -> tuple[list[CheckEntry], dict[str, Any]]:
    """Seeded games in batches until every objective's rate and the mean score reach
    ``[check] precision`` (or the cap): one ``simulated`` entry per objective with its 95%
    interval (and its rank details for the deck-wide ranking). No timings: the report is
    output and must not vary run to run (bench/layers.py measures them)."""
    counts = tuple(p.simulate_players or gen.player_counts())
    sample = sample_until(
        partial(play_batch, gen, rules_for(p, gen), counts, p.piles, p.objectives_per_game),
        partial(_measure, tuple(o.id for o in gen.objectives)), settings.sampling,
        seed=seed, stream=("layers-game",), mapper=settings.pool.map,
        lookahead=settings.pool.workers)
    results = list(sample.outcomes)
    summary = summarise(results)
    figures = summary.figures()
    score = mean_interval([float(x) for r in results for x in r.scores])
    figures["score"] = score.to_json()
    figures["sample"] = sample.to_json()
    entries: list[CheckEntry] = []
    for obj in gen.objectives:
        r = objective_rate(results, obj.id)
        if not r.trials:
            entries.append(CheckEntry(obj.id, "simulated", "info",
                                      f"not in play in the {sample.games} simulated games"))
            continue
        msg = f"taken in {r.text('games it was in play')}"
        when = summary.turn_mean(obj.id)
        if when is not None:
            msg += f", first taken at game turn {when} on average"
        details = {"in_play": r.trials, "taken": r.successes, "first_turn_mean": when,
                   "rate": r.to_json(),
                   "rank": rank_details(r, reward=max(obj.tokens) if obj.tokens else None)}
        if r.successes == 0 and r.trials >= NEVER_TAKEN_MIN_GAMES:
            entries.append(CheckEntry(obj.id, "simulated", "warn",
                                      msg + ": the greedy bot never completes it",
                                      code="E-LAYERS-NEVER-TAKEN", details=details))
        else:
            entries.append(CheckEntry(obj.id, "simulated", "info", msg, details=details))
    entries.append(CheckEntry("deck", "simulation", "info",
                              f"{sample.text()}: score {score.text('pts', 'players')}",
                              details={"score": score.to_json(), "sample": sample.to_json()}))
    return entries, figures


def _question(obj: Objective) -> Question:
    return Question(obj.id, "achievable", f"{obj.title} ({describe(obj)})")


def questions(deck: Deck, gen: LayersSet) -> tuple[Question, ...]:
    """One question per objective card: can one player's landscape show it?"""
    return tuple(_question(obj) for obj in gen.objectives)


def solve_objective(gen: LayersSet, obj: Objective, budget: Budget) -> Answer:
    a = achieve(gen, obj, budget)
    if a.verdict is Verdict.COMPLETABLE:
        return Answer(Verdict.COMPLETABLE, a.certificate, nodes=a.nodes)
    return Answer(a.verdict, reason=a.reason or "search budget ran out", nodes=a.nodes)


def replay_objective(gen: LayersSet, obj: Objective, certificate: Any) -> None:
    """Replay an objective's certificate (JSON, as in the report) through the rules engine
    with the cards of its player count; IllegalMove when it does not hold."""
    try:
        supply = supply_of(gen, int(certificate["players"]))
        replay(gen, obj, certificate, supply)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, IllegalMove):
            raise
        raise IllegalMove(f"the certificate is malformed ({exc!r})") from None


def _objective(gen: LayersSet, question: Question) -> Objective:
    return subject_of(gen.objectives, question)


def solve(deck: Deck, gen: LayersSet, question: Question, budget: Budget) -> Answer:
    return solve_objective(gen, _objective(gen, question), budget)


def replay_certificate(deck: Deck, gen: LayersSet, question: Question,
                       certificate: Any) -> None:
    replay_objective(gen, _objective(gen, question), certificate)
