"""Bench of the layers family: time to check the default deck, simulated games per second.

    python bench/layers.py [--games 300]

Prints the achievability time per objective (search nodes, seconds), the whole check of
decks/layers.toml (with its own simulations), and the bot's games per second by player count,
with the score spread and the share of games each objective was taken in.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from pathlib import Path

from generator.core.budget import Budget
from generator.deckfile import load_deck
from generator.families.base import CheckOptions
from generator.families.layers.achieve import achieve
from generator.families.layers.check import rules_for
from generator.families.layers.sim import simulate

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''} "
          f"python {platform.python_version()}")
    loaded = load_deck(ROOT / "decks" / "layers.toml")
    deck, fam = loaded.deck, loaded.family
    gen = fam.generate(deck)
    p = deck.params

    budget = Budget(nodes=deck.check.budget_nodes)
    print("\nachievability (default deck):")
    total = 0.0
    for obj in gen.objectives:
        t = time.perf_counter()
        a = achieve(gen, obj, budget)
        dt = time.perf_counter() - t
        total += dt
        print(f"  {obj.id} {obj.title:<14} {a.verdict.value:<11} {a.nodes:>6} nodes "
              f"{dt * 1000:8.2f} ms")
    print(f"  all objectives: {total * 1000:.1f} ms")

    times = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        fam.check(deck, gen, CheckOptions(simulations=0))
        times.append(time.perf_counter() - t)
    print(f"\ncheck without simulations: median {statistics.median(times) * 1000:.1f} ms "
          f"over {args.repeat} runs")
    t = time.perf_counter()
    report = fam.check(deck, gen, CheckOptions())
    print(f"check as the deck sets it ({deck.check.simulations} simulations): "
          f"{time.perf_counter() - t:.2f} s, ok={report.ok}")

    rules = rules_for(p, gen)
    print(f"\nsimulated games ({args.games} per player count):")
    for n in gen.player_counts():
        t = time.perf_counter()
        s = simulate(gen, rules, args.games, (n,), p.piles, p.objectives_per_game, deck.seed)
        dt = time.perf_counter() - t
        f = s.figures()
        print(f"  {n} players: {args.games / dt:6.1f} games/s  score {f['score_min']}.."
              f"{f['score_max']} mean {f['score_mean']} sd {f['score_stdev']}  winner mean "
              f"{f['winner_mean']}  turns {f['turns_mean']}")
        shares = " ".join(f"{k[-2:]}:{v:.2f}" for k, v in f["objective_taken_share"].items())
        print(f"     taken share {shares}")


if __name__ == "__main__":
    main()
