"""Parks figures (issue 4): run with ``python bench/parks.py [--cards N] [--hands N]``.

Prints, on this machine, in CPU seconds of one process (one core):
1. the default deck: generate + check as ``paperproof check`` runs them (the goal is < 10 s),
   and the check alone from a cold cache (completability, certificates replayed, difficulty
   simulations and hand figures as in the deck);
2. cards checked per second over N generated candidate cards (planted on the default sheet,
   not filtered), with their verdict counts;
3. the hand-coverage figure over N random hands of the default deck: 5 park cards dealt in
   order (2 face up, 3 in the pile), each played out by the planner under the turn order
   (``--plans`` of them; default all) and counted completable only when its plan replays
   through the rules engine; not completable only when the supply argument proves it;
   unknown otherwise.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

from generator.core.budget import Budget
from generator.core.rng import make_rng
from generator.deckfile import load_deck
from generator.families.base import CheckOptions
from generator.families.parks import planner as solve
from generator.families.parks.check import HAND_BUDGET, HAND_PLAN_BUDGET
from generator.families.parks.generate import plant_card
from generator.families.parks.model import Card, ParksParams, ParksSet, card_box
from generator.families.parks.sim import hand_coverage

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=1000)
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--plans", type=int, default=None,
                    help="hands (of --hands) played out by the planner (default: all)")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} "
          f"{platform.python_version()}, CPU seconds of one process")

    loaded = load_deck(ROOT / "decks" / "parks.toml")
    fam, deck = loaded.family, loaded.deck
    solve.cached_completability.cache_clear()
    t0 = time.process_time()
    ps: ParksSet = fam.generate(deck)
    t1 = time.process_time()
    fam.check(deck, ps, CheckOptions())
    tw = time.process_time()
    print(f"default deck as `paperproof check` runs it: generate {t1 - t0:.2f} s + check "
          f"{tw - t1:.2f} s (completability shared with generation) = {tw - t0:.2f} s "
          "(goal < 10 s)")
    solve.cached_completability.cache_clear()
    t1 = time.process_time()
    report = fam.check(deck, ps, CheckOptions())
    t2 = time.process_time()
    print(f"default deck check from a cold cache: {t2 - t1:.2f} s "
          f"({len(ps.cards)} cards, certificates found and replayed, "
          f"{deck.check.simulations} games each, {deck.params.hands} hands, "
          f"{deck.params.hand_plans} hand plans); counts {report.counts()}")
    print(f"  figures: mean difficulty share {report.figures['mean_difficulty_share']}, "
          f"mean certificate rounds {report.figures['mean_certificate_rounds']}; "
          f"hands {report.figures['hand_coverage']}")

    # Completability alone (what every card costs): certificates found and replayed.
    solve.cached_completability.cache_clear()
    t3 = time.process_time()
    budget = Budget(nodes=deck.check.budget_nodes)
    for card in ps.cards:
        solve.completability(ps.sheet, ps.die, card, budget, deck.seed)
    t4 = time.process_time()
    print(f"default deck completability only: {t4 - t3:.2f} s for {len(ps.cards)} cards")

    p: ParksParams = deck.params
    box = card_box(deck.print.card.width, deck.print.card.height, p.square)
    rng = make_rng(deck.seed, "bench-parks-cards")
    cands: list[Card] = []
    while len(cands) < args.cards:
        c = plant_card(rng, ps.sheet, p, f"b-{len(cands)}", "bench", False, box)
        if c is not None:
            # Re-colour one demand at random half of the time so that some fail.
            if c.demands and rng.random() < 0.5:
                from generator.families.parks.model import Demand, Feature
                cell, d = c.demands[rng.randrange(len(c.demands))]
                new = Demand(rng.choice(list(Feature)), d.icon)
                c = type(c)(c.id, c.name, c.cells,
                            tuple(sorted({**dict(c.demands), cell: new}.items())),
                            c.walkways, c.bonus, c.grand)
            cands.append(c)
    t5 = time.process_time()
    counts: dict[str, int] = {}
    for c in cands:
        v = solve.completability(ps.sheet, ps.die, c, budget, deck.seed)
        counts[v.verdict.value] = counts.get(v.verdict.value, 0) + 1
    t6 = time.process_time()
    print(f"{len(cands)} generated cards: {len(cands) / (t6 - t5):.1f} cards/s "
          f"({t6 - t5:.2f} s); verdicts {dict(sorted(counts.items()))}")

    plans = args.hands if args.plans is None else args.plans
    t7 = time.process_time()
    hc = hand_coverage(ps.sheet, ps.park_cards, deck.seed, args.hands, HAND_BUDGET, ps.die,
                       plans, HAND_PLAN_BUDGET)
    t8 = time.process_time()
    rounds = sorted(len(r.certificate.rounds) for r in hc.results if r.certificate)
    med = rounds[len(rounds) // 2] if rounds else None
    print(f"hand coverage, {hc.hands} hands dealt, {hc.played} played out under the turn order: "
          f"{hc.completable} completable with a replayed plan "
          f"({100 * (hc.share or 0):.1f}%), {hc.impossible} not completable, {hc.unknown} "
          f"unknown (planner gave up; completable share at most "
          f"{100 * (hc.completable + hc.unknown) / max(hc.played, 1):.1f}%); "
          f"median plan {med} rounds; {t8 - t7:.1f} s "
          f"({(t8 - t7) / max(hc.hands, 1):.3f} s per hand)")
    print(f"  {hc.to_json()}")

if __name__ == "__main__":
    main()
