"""Quilts figures (issue 5): fill-check time of the default deck, simulated-game speed and
balance figures, and the time to count every tiling of 6x10 by the 12 pentominoes.

Also the planning bot against the greedy one (issue 15): head-to-head win rate and points
margin with 95% intervals, and both bots' self-play figures.

Run:  python bench/quilts.py [--games N] [--h2h N] [--skip-count]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path

from generator.core.budget import Budget
from generator.core.stats import Precision
from generator.deckfile import load_deck
from generator.families.quilts.check import count_entry, fill_entry
from generator.families.quilts.model import QuiltSet
from generator.families.quilts.sim import balance, head_to_head, sample_pairing, simulate

ROOT = Path(__file__).resolve().parent.parent


def timed_fill(qs: QuiltSet, size: tuple[int, int], corner: int | None, budget: Budget,
               repeats: int) -> tuple[float, str, int]:
    times = []
    status = ""
    nodes = 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        entry = fill_entry("x", "fill", "region", size, qs, budget, corner)
        times.append(time.perf_counter() - t0)
        status, nodes = entry.status, int(entry.details.get("nodes", 0))
    return statistics.median(times), status, nodes


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--skip-count", action="store_true")
    ap.add_argument("--h2h", type=int, default=400, help="planner vs greedy games")
    args = ap.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''} "
          f"{os.cpu_count()} cores, Python {platform.python_version()}")

    loaded = load_deck(ROOT / "decks" / "quilts.toml")
    deck = loaded.deck
    qs: QuiltSet = loaded.family.generate(deck)
    budget = Budget(nodes=deck.check.budget_nodes)
    r = qs.rules
    t, status, nodes = timed_fill(qs, (r.rows, r.cols), None, budget, args.repeats)
    print(f"default deck fill {r.rows}x{r.cols} ({len(qs.pieces)} pieces + "
          f"{len(r.track.patches)} patches): {status}, {nodes} nodes, {t * 1000:.1f} ms "
          f"(median of {args.repeats})")
    k = r.bonus_size
    t, status, nodes = timed_fill(qs, (k, k), k, budget, args.repeats)
    print(f"default deck bonus fill {k}x{k}: {status}, {nodes} nodes, {t * 1000:.1f} ms")

    t0 = time.perf_counter()
    figures = simulate(qs.pieces, qs.rules, qs.values, args.games, deck.seed)
    t = time.perf_counter() - t0
    print(f"{args.games} greedy games: {t:.2f} s ({t / max(1, args.games) * 1000:.1f} ms/game)")
    print(f"  figures: {figures.to_json()}")
    again = simulate(qs.pieces, qs.rules, qs.values, args.games, deck.seed)
    print(f"  same seed twice gives identical figures: {again == figures}")

    # planner vs greedy (issue 15): head-to-head, seats swapping, same seeded rings
    t0, c0 = time.perf_counter(), time.process_time()
    h2h = sample_pairing(qs.pieces, qs.rules, qs.values, "head-to-head",
                         Precision.fixed(args.h2h), deck.seed)
    c = time.process_time() - c0
    h = head_to_head(h2h.outcomes)
    print(f"planner vs greedy, {h2h.games} games: planner wins {h.wins.text()}, by "
          f"{h.margin.text('pts')} ({c / max(1, h2h.games) * 1000:.0f} ms CPU per game, "
          f"{time.perf_counter() - t0:.1f} s wall)")
    for pairing in ("greedy", "planner"):
        smp = sample_pairing(qs.pieces, qs.rules, qs.values, pairing,
                             Precision.fixed(args.h2h), deck.seed)
        b = balance(smp.outcomes)
        print(f"  {pairing} self-play: first player wins {b.first_wins.text()}, score "
              f"{b.score.text('pts')}, bonus {b.bonus.text()}")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    holed = load_deck(ROOT / "tests" / "decks" / "quilts-holed.toml")
    hqs: QuiltSet = holed.family.generate(holed.deck)
    c0 = time.process_time()
    _, data = count_entry(hqs, Budget(nodes=50_000_000))
    print(f"count the 8x8 board minus its 2x2 centre by the 12 pentominoes: "
          f"{data['up_to_symmetry']} up to symmetry, {data['raw']} raw (known: 65 / 520), "
          f"complete={data['complete']}, {time.process_time() - c0:.2f} s CPU")

    if not args.skip_count:
        pent = load_deck(ROOT / "tests" / "decks" / "quilts-pentominoes.toml")
        pqs: QuiltSet = pent.family.generate(pent.deck)
        t0 = time.perf_counter()
        entry, data = count_entry(pqs, Budget())
        t = time.perf_counter() - t0
        print(f"count 6x10 by the 12 pentominoes: {data['up_to_symmetry']} up to symmetry, "
              f"{data['raw']} raw (known: 2339 / 9356), complete={data['complete']}, "
              f"{data['nodes']} nodes, {t:.2f} s")

if __name__ == "__main__":
    main()
