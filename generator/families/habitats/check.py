"""Every check of a habitats deck: distribution, reachable tiers, simulated points.

- ``distribution`` (subject ``deck``): tiles per habitat, species, habitat pair and keystone;
  ``balance`` warns when one habitat or species shows up on more than 25 % more tiles than
  another (E-HABITATS-BALANCE).
- ``supply`` (subject ``tokens-<species>``): the tiles showing a species and its tokens cover
  the most tokens any of its cards' tiers needs (lower bound); fail E-HABITATS-SUPPLY.
- ``tier-N`` (subject the card id; ``term-T-tier-N`` for cards with several terms): the tier's
  verdict from :mod:`generator.families.habitats.reach` -- completable with a certificate
  replayed through the rules engine, impossible with a reason (E-HABITATS-TIER-UNREACHABLE),
  or unknown (E-HABITATS-TIER-UNKNOWN).
- ``reach`` (info, per card): the highest tier reached and the card's most points.
- ``sim`` (info, per card): the card's mean points with their 95% intervals for a casual
  (greedy) and a planning player, sampled to ``[check] precision``, and how often each
  reaches the card's top reachable points (``details["rank"]`` for the deck-wide ranking); a
  card whose casual interval lies wholly under half or over twice its species' average is a
  ``warn`` (E-HABITATS-SIM-SPREAD).
- ``sim-players`` (info, deck): both players' mean totals and the planner's paired margin.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import partial
from typing import Any

from ...core.answer import Answer, IllegalMove
from ...core.budget import Budget
from ...core.stats import Precision, mean_interval, rate
from ...core.verdict import Verdict
from ...deck import Deck
from ...ranking import rank_details
from ..base import (
    CheckEntry,
    CheckOptions,
    Question,
    Report,
    Settings,
    answer_entry,
    subject_of,
)
from ..sampling import deck_sampling
from .model import HabitatsSet, ScoringCard, Term
from .reach import TierAnswer, check_term, least_measure, measures_for, replay, token_bounds
from .rules import score_card
from .sim import BOTS, card_stats, margin, sample_bot

BALANCE_RATIO = 1.25
SIM_LOW, SIM_HIGH = 0.5, 2.0


def distribution(box: HabitatsSet) -> tuple[list[CheckEntry], dict[str, Any]]:
    tiles = box.tiles
    hab = Counter(h for t in tiles for h in t.habitats)
    spc = Counter(s for t in tiles for s in t.species)
    pairs = Counter("/".join(sorted(t.habitats)) for t in tiles if len(t.habitats) == 2)
    keys = Counter(f"{t.habitats[0]}:{t.species[0]}" for t in tiles if t.keystone)
    nsym = Counter(len(t.species) for t in tiles)
    figures = {
        "tiles": len(tiles),
        "keystones": sum(1 for t in tiles if t.keystone),
        "per_habitat": {h: hab[h] for h in box.rules.habitats},
        "per_species": {s: spc[s] for s in box.rules.species},
        "per_pair": dict(sorted(pairs.items())),
        "keystone_pairs": dict(sorted(keys.items())),
        "symbols_per_tile": {str(k): nsym[k] for k in sorted(nsym)},
        "starter_groups": len(box.starters),
        # a game with p players uses turns x p + display - 1 of the box's tiles
        "tiles_in_play": {str(p): box.rules.turns * p + box.rules.display - 1
                          for p in range(1, box.rules.max_players + 1)},
    }
    out = [CheckEntry("deck", "distribution", "info",
                      f"{len(tiles)} tiles ({figures['keystones']} keystones), "
                      f"{len(box.starters)} starter groups; habitats "
                      + ", ".join(f"{h} {hab[h]}" for h in box.rules.habitats)
                      + "; species " + ", ".join(f"{s} {spc[s]}" for s in box.rules.species),
                      details=figures)]
    for what, counts, names in (("habitat", hab, box.rules.habitats),
                                ("species", spc, box.rules.species)):
        vals = [counts[n] for n in names]
        lo, hi = min(vals), max(vals)
        if lo == 0 or hi > BALANCE_RATIO * lo:
            rare = min(names, key=lambda n: counts[n])
            out.append(CheckEntry("deck", f"balance-{what}", "warn",
                                  f"{what} counts range {lo}..{hi} ({rare} is rarest); more "
                                  f"than {BALANCE_RATIO:g}x apart", "E-HABITATS-BALANCE",
                                  {"counts": dict(zip(names, vals, strict=True))}))
        else:
            out.append(CheckEntry("deck", f"balance-{what}", "pass",
                                  f"{what} counts within {lo}..{hi}"))
    return out, figures


def _need(term: Term, box: HabitatsSet) -> int:
    """Own-species tokens the term's top reachable-by-structure tier needs (lower bound)."""
    best = 0
    for tier in range(len(term.table)):
        if term.mode == "each":
            ms, _ = measures_for(term, tier, box)
            if ms:
                best = max(best, token_bounds(term, 1, ms[0])[0])
        else:
            m = least_measure(term, box)
            if m is not None:
                best = max(best, token_bounds(term, term.tier_target(tier), m)[0])
    return best


def supply(box: HabitatsSet) -> list[CheckEntry]:
    out = []
    for sp in box.rules.species:
        tiles = sum(1 for t in box.tiles if sp in t.species)
        cards = box.cards_of(sp)
        need = max((_need(t, box) for c in cards for t in c.terms), default=0)
        have = min(tiles, box.rules.tokens_per_species)
        subject = f"tokens-{box.rules.species.index(sp) + 1}"
        if not cards:
            out.append(CheckEntry(subject, "supply", "warn", f"no scoring card scores {sp}",
                                  "E-HABITATS-NO-CARD"))
        elif need > have:
            out.append(CheckEntry(subject, "supply", "fail",
                                  f"{sp}: a card needs {need} tokens; {tiles} tiles show {sp} "
                                  f"and the box has {box.rules.tokens_per_species} tokens",
                                  "E-HABITATS-SUPPLY", {"tiles": tiles, "need": need}))
        else:
            out.append(CheckEntry(subject, "supply", "pass",
                                  f"{sp}: {tiles} tiles, {box.rules.tokens_per_species} tokens; "
                                  f"cards need at most {need}",
                                  details={"tiles": tiles, "need": need}))
    return out


def _tier_check(card: ScoringCard, ti: int, tier: int) -> str:
    return f"tier-{tier + 1}" if len(card.terms) == 1 else f"term-{ti + 1}-tier-{tier + 1}"


def questions(deck: Deck, box: HabitatsSet) -> tuple[Question, ...]:
    """One question per tier of every term of every scoring card: can one map reach it?"""
    return tuple(Question(card.id, _tier_check(card, ti, tier), "")
                 for card in box.cards for ti, term in enumerate(card.terms)
                 for tier in range(len(term.table)))


def _answer(a: TierAnswer) -> Answer:
    if a.verdict is Verdict.COMPLETABLE:
        return Answer(Verdict.COMPLETABLE, a.certificate)
    return Answer(a.verdict, reason=a.message)


def _locate(box: HabitatsSet, question: Question) -> tuple[ScoringCard, int, int]:
    card = subject_of(box.cards, question)
    for ti, term in enumerate(card.terms):
        for tier in range(len(term.table)):
            if _tier_check(card, ti, tier) == question.check:
                return card, ti, tier
    raise IllegalMove(f"{card.id} has no {question.check}")


def solve(deck: Deck, box: HabitatsSet, question: Question, budget: Budget) -> Answer:
    card, ti, tier = _locate(box, question)
    return _answer(check_term(card, ti, box, budget)[tier])


def replay_certificate(deck: Deck, box: HabitatsSet, question: Question,
                       certificate: Any) -> None:
    """Replay a tier certificate (JSON, as in the report): the map must be legal and score
    the tier it claims."""
    _replay(box, question, certificate)


def _replay(box: HabitatsSet, question: Question, certificate: Any) -> None:
    card, ti, tier = _locate(box, question)
    try:
        played = replay(certificate, box)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, IllegalMove):
            raise
        raise IllegalMove(f"the certificate is malformed ({exc!r})") from None
    if tier not in score_card(card, played.tokens).terms[ti].tiers:
        raise IllegalMove(f"the replayed map does not reach tier {tier + 1}")


def reach(box: HabitatsSet, budget: Budget) -> tuple[list[CheckEntry], dict[str, Any]]:
    out: list[CheckEntry] = []
    figures: dict[str, Any] = {}
    for card in box.cards:
        best_pts = 0
        summary = []
        for ti in range(len(card.terms)):
            answers = check_term(card, ti, box, budget)
            top = None
            for a in answers:
                question = Question(card.id, _tier_check(card, ti, a.tier), "")
                entry = answer_entry(question, _answer(a),
                                     partial(_replay, box, question),
                                     code="E-HABITATS-TIER", message=a.message,
                                     impossible_code="E-HABITATS-TIER-UNREACHABLE")
                out.append(replace(entry, details={k: v for k, v in entry.details.items()
                                                   if k == "certificate"}))
                if entry.status == "completable":
                    top = a
            n = len(card.terms[ti].table)
            if top is None:
                summary.append(f"term {ti + 1}: no tier reached")
            else:
                pts = card.terms[ti].table[top.tier]
                best_pts += pts
                summary.append(f"term {ti + 1}: tier {top.tier + 1}/{n} ({pts} pts)")
        figures[card.id] = {"top_tiers": summary, "top_points": best_pts}
        out.append(CheckEntry(card.id, "reach", "info",
                              f"{card.title}: highest reachable " + "; ".join(summary)))
    return out, figures


def sims(box: HabitatsSet, settings: Settings, seed: int, sampling: Precision,
         top: dict[str, int] | None = None) -> tuple[list[CheckEntry], dict[str, Any]]:
    """Per card: mean points for a casual (greedy) and a planning player, each with its 95%
    interval, sampled in seeded batches to ``[check] precision`` or its games cap."""
    if not sampling.max_games:
        return [], {"games": 0}
    pool = settings.pool
    samples = {name: sample_bot(box, name, sampling, seed, pool.map, pool.workers)
               for name in BOTS}
    stats = {name: {s.card: s for s in card_stats(box, smp.outcomes)}
             for name, smp in samples.items()}
    greedy = stats["greedy"]
    outcomes: dict[str, dict[str, list[int]]] = {
        name: {c.id: [] for c in box.cards} for name in BOTS}
    for name, smp in samples.items():
        for r in smp.outcomes:
            for cid, got in zip(r.cards, r.card_points, strict=True):
                outcomes[name][cid].append(got)
    out = []
    for sp in box.rules.species:
        cards = box.cards_of(sp)
        played = [greedy[c.id] for c in cards if greedy[c.id].games]
        avg = sum(s.mean for s in played) / len(played) if played else 0.0
        for c in cards:
            g, p = greedy[c.id], stats["planner"][c.id]
            if not g.games:
                out.append(CheckEntry(c.id, "sim", "info",
                                      f"not played in {samples['greedy'].games} games (raise "
                                      "[check] max_games)"))
                continue
            msg = (f"casual player {g.points.text('pts')}, planning player "
                   f"{p.points.text('pts')} (casual low {g.low}, high {g.high}; {sp} cards "
                   f"average {avg:.1f} for the casual player)")
            details: dict[str, Any] = {
                "greedy": g.points.to_json(), "planner": p.points.to_json(),
                "band": [round(g.mean, 3), round(p.mean, 3)], "low": g.low, "high": g.high}
            best = (top or {}).get(c.id, 0)
            if best > 0:
                # difficulty for the deck-wide ranking: how often each player reaches the
                # card's highest reachable points (the check's top tiers)
                casual = rate(sum(1 for x in outcomes["greedy"][c.id] if x >= best),
                              g.games)
                planning = rate(sum(1 for x in outcomes["planner"][c.id] if x >= best),
                                p.games)
                msg += (f"; top tier ({best} pts) reached: casual {casual.text()}, planning "
                        f"{planning.text()}")
                details["rank"] = rank_details(casual, planning, reward=best)
            m = g.points
            outside = m.bounded and (m.high < SIM_LOW * avg or m.low > SIM_HIGH * avg)
            if avg > 0 and len(played) > 1 and outside:
                out.append(CheckEntry(c.id, "sim", "warn", msg + "; its whole interval is "
                                      "far from its species' other cards",
                                      "E-HABITATS-SIM-SPREAD", details))
            else:
                out.append(CheckEntry(c.id, "sim", "info", msg, details=details))
    totals = {name: mean_interval([r.total for r in smp.outcomes])
              for name, smp in samples.items()}
    gap = margin(samples["greedy"].outcomes, samples["planner"].outcomes)
    out.append(CheckEntry("deck", "sim-players", "info",
                          f"total points: casual player {totals['greedy'].text('pts')}, "
                          f"planning player {totals['planner'].text('pts')}; the planner "
                          f"scores {gap.text('pts more')} in the same games; casual "
                          f"{samples['greedy'].text()}, planning {samples['planner'].text()}",
                          details={"greedy": totals["greedy"].to_json(),
                                   "planner": totals["planner"].to_json(),
                                   "margin": gap.to_json()}))
    figures = {
        "games": {name: smp.games for name, smp in samples.items()},
        "samples": {name: smp.to_json() for name, smp in samples.items()},
        "mean_total": {name: m.to_json() for name, m in totals.items()},
        "planner_margin": gap.to_json(),
        "cards": {cid: {name: stats[name][cid].points.to_json() for name in BOTS}
                  for cid in greedy},
    }
    return out, figures


def check(deck: Deck, box: HabitatsSet, options: CheckOptions) -> Report:
    settings = options.settings(deck)
    deck_name, seed = deck.name, deck.seed
    entries: list[CheckEntry] = []
    dist, dfig = distribution(box)
    entries += dist
    entries += supply(box)
    r, rfig = reach(box, settings.budget)
    entries += r
    top = {cid: int(f["top_points"]) for cid, f in rfig.items()}
    s, sfig = sims(box, settings, seed, deck_sampling(deck, settings), top)
    entries += s
    return Report(deck=deck_name, family="habitats", seed=seed, entries=tuple(entries),
                  figures={"distribution": dfig, "reach": rfig, "simulation": sfig})
