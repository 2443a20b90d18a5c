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
from typing import Any

from ...core.budget import Budget
from ...core.verdict import Verdict
from ...deck import Deck
from ..base import CheckEntry, CheckOptions, Report
from .achieve import achieve
from .model import LayersParams, LayersSet
from .objectives import describe
from .rules import Rules
from .sim import simulate


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
    budget = Budget(nodes=deck.check.budget_nodes, seconds=deck.check.budget_seconds)
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
    games = options.simulations if options.simulations is not None else deck.check.simulations
    if games > 0:
        counts = p.simulate_players or gen.player_counts()
        summary = simulate(gen, rules_for(p, gen), games, tuple(counts), p.piles,
                           p.objectives_per_game, deck.seed)
        for obj in gen.objectives:
            share = summary.share(obj.id)
            n = summary.in_play.get(obj.id, 0)
            if share is None:
                entries.append(CheckEntry(obj.id, "simulated", "info",
                                          f"not in play in the {games} simulated games"))
                continue
            taken = summary.taken.get(obj.id, 0)
            msg = f"taken in {taken} of the {n} simulated games it was in play ({share:.0%})"
            when = summary.turn_mean(obj.id)
            if when is not None:
                msg += f", first taken at game turn {when} on average"
            if taken == 0 and n >= 10:
                entries.append(CheckEntry(obj.id, "simulated", "warn",
                                          msg + ": the greedy bot never completes it",
                                          code="E-LAYERS-NEVER-TAKEN",
                                          details={"in_play": n, "taken": taken}))
            else:
                entries.append(CheckEntry(obj.id, "simulated", "info", msg,
                                          details={"in_play": n, "taken": taken,
                                                   "first_turn_mean": when}))
        # No timings here: the report is part of the output, which must not vary run to run
        # (bench/layers.py measures them).
        figures["simulation"] = summary.figures()
    return Report(deck=deck.name, family="layers", seed=deck.seed, entries=tuple(entries),
                  figures=figures)
