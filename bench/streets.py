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


def planner_margin(games: int) -> None:
    """The planning bot against the greedy one in the same games: seat 0 plans in even
    games, seat 1 in odd ones (the other seat is greedy), so both see the same cards.
    Reports the mean score margin (planner - greedy) with its 95% interval, and plan
    completion per sheet for each bot. Run: python bench/streets.py --planner 60"""
    from generator.core.stats import mean_interval, rate
    from generator.families.streets.sim import play_game

    loaded = load_deck(ROOT / "decks/streets.toml")
    deck = loaded.deck
    game = loaded.family.generate(deck)
    margins: list[float] = []
    claims = {"planner": [0, 0], "greedy": [0, 0]}
    t0 = time.process_time()
    for g in range(games):
        seat = g % 2
        result = play_game(game, deck.seed, g, 2, deck.params.max_rounds, planners=(seat,))
        scores = result.scores
        margins.append(float(scores[seat] - scores[1 - seat]))
        for i, sh in enumerate(result.sheets):
            who = "planner" if i == seat else "greedy"
            claims[who][0] += len(sh.claims)
            claims[who][1] += len(result.plans)
    cpu = time.process_time() - t0
    m = mean_interval(margins)
    print(f"planner vs greedy over {games} games ({cpu:.1f} s CPU, load "
          f"{os.getloadavg()[0]:.1f}): margin {m.text('pts')}")
    for who, (got, dealt) in claims.items():
        print(f"  {who}: plans completed per sheet {rate(got, dealt).text('plans dealt')}")


if __name__ == "__main__":
    import sys

    if "--planner" in sys.argv:
        planner_margin(int(sys.argv[sys.argv.index("--planner") + 1]))
    else:
        main()
