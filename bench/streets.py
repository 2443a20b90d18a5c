"""Streets figures (issue 7): time to check the default deck (plan certificates and deck
checks, without and with the simulations) and simulated games per second, with the balance
figures those games give.

Run:  python bench/streets.py [--games N] [--players P] [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path

from generator.deckfile import load_deck
from generator.families.base import CheckOptions
from generator.families.streets.sim import simulate

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--players", type=int, default=0, help="0 = the deck's players")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    loaded = load_deck(ROOT / "decks/streets.toml")
    deck, family = loaded.deck, loaded.family
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    t0 = time.perf_counter()
    game = family.generate(deck)
    print(f"generate: {1000 * (time.perf_counter() - t0):.1f} ms "
          f"({len(game.cards)} cards, {len(game.plans)} plans)")

    times = []
    report = None
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        report = family.check(deck, game, CheckOptions(simulations=0))
        times.append(time.perf_counter() - t0)
    assert report is not None
    print(f"check without simulations: median {1000 * statistics.median(times):.1f} ms over "
          f"{args.repeats} runs ({report.counts()})")
    t0 = time.perf_counter()
    report = family.check(deck, game, CheckOptions())
    print(f"check as the deck sets it ({deck.check.simulations} simulations): "
          f"{time.perf_counter() - t0:.2f} s, ok={report.ok}")

    players = args.players or deck.params.players
    t0 = time.perf_counter()
    figs = simulate(game, deck.seed, args.games, players, deck.params.max_rounds)
    elapsed = time.perf_counter() - t0
    data = figs.to_json()
    print(f"simulated {args.games} games of {players} bots in {elapsed:.2f} s: "
          f"{args.games / elapsed:.1f} games/s, {args.games * players / elapsed:.1f} sheets/s")
    print(f"mean refusals per sheet {data['mean_refusals']}, mean rounds {data['mean_rounds']}, "
          f"houses built {data['mean_built_share']:.1%}")
    print("games ended by: " + ", ".join(f"{k} {v}" for k, v in data["ended_by"].items()))
    print(f"scores min {data['score_min']} median {data['score_median']} max "
          f"{data['score_max']} mean {data['score_mean']} sd {data['score_stdev']}")
    print("plan completion (share of games where dealt in which some bot completed it):")
    for plan in game.plans:
        d = data["plans"][plan.id]
        share = d["share_of_games"]
        print(f"  {plan.id} L{plan.level} {plan.title:<16} dealt {d['dealt']:>4}  "
              f"completed {d['games_completed']:>4}  "
              f"share {'-' if share is None else f'{share:.1%}'}")


if __name__ == "__main__":
    main()
