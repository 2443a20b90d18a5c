"""Bench of the habitats family: time to check the default deck, and maps scored per second.

Run: python bench/habitats.py [--games N] [--band N]
Prints: generate / reach / full-check times for decks/habitats.toml, seconds per simulated
game, and how many finished 23-tile maps the rules engine scores per second (all five cards of
a game plus corridors and bonuses), solo and four players at a time; and the planning bot's
margin over the greedy one in the same seeded games (issue 15).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from pathlib import Path

from generator.core.budget import Budget
from generator.core.stats import Precision, mean_interval, rate
from generator.deckfile import load_deck
from generator.families.base import CheckOptions
from generator.families.habitats import HabitatsFamily
from generator.families.habitats.check import reach
from generator.families.habitats.rules import Game, PlayerMap, one_card_per_species, score_maps
from generator.families.habitats.sim import GreedyBot, margin, sample_bot, simulate

ROOT = Path(__file__).resolve().parent.parent


def finished_maps(box: object, n: int, seed: int) -> list[PlayerMap]:
    """``n`` finished maps from greedy-bot games (4 players at a time)."""
    from generator.families.habitats.model import HabitatsSet

    assert isinstance(box, HabitatsSet)
    maps: list[PlayerMap] = []
    g = 0
    while len(maps) < n:
        cards = one_card_per_species(box.cards, box.rules.species, g)
        game = Game(box, 4, random.Random(seed + g), cards)
        bot = GreedyBot(cards, box.rules)
        turn = 0
        while not game.over:
            game.resolve_overpopulation()
            bot.play_turn(game, turn % 4)
            turn += 1
        maps += game.maps
        g += 1
    return maps[:n]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40, help="simulated games for the timing")
    ap.add_argument("--band", type=int, default=60, help="games of each bot for the margin")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {platform.processor() or '?'}, "
          f"Python {platform.python_version()}")
    fam = HabitatsFamily()
    loaded = load_deck(ROOT / "decks" / "habitats.toml")
    deck = loaded.deck

    t0 = time.perf_counter()
    box = fam.generate(deck)
    t_gen = time.perf_counter() - t0

    t0 = time.perf_counter()
    entries, _ = reach(box, Budget(deck.check.budget_nodes))
    t_reach = time.perf_counter() - t0
    tiers = sum(1 for e in entries if e.check.startswith("tier-"))

    t0, c0 = time.perf_counter(), time.process_time()
    report = fam.check(deck, box, CheckOptions())
    t_check, c_check = time.perf_counter() - t0, time.process_time() - c0

    t0 = time.perf_counter()
    simulate(box, args.games, deck.seed)
    t_sim = time.perf_counter() - t0

    print(f"generate: {t_gen * 1000:.1f} ms ({len(box.tiles)} tiles, {len(box.cards)} cards)")
    print(f"reach (every tier, certificates replayed): {t_reach:.3f} s for {tiers} tiers "
          f"({t_reach / tiers * 1000:.1f} ms per tier)")
    print(f"full check of decks/habitats.toml (max_games {deck.check.max_games}): "
          f"{t_check:.2f} s wall, {c_check:.2f} s CPU, ok={report.ok}, {report.counts()}")
    print(f"simulated solo games: {args.games} in {t_sim:.2f} s "
          f"({t_sim / args.games * 1000:.0f} ms per game)")

    # planner vs greedy (issue 15): the same seeded games (same tiles, draws and cards)
    c0 = time.process_time()
    greedy = sample_bot(box, "greedy", Precision.fixed(args.band), deck.seed)
    c_greedy = time.process_time() - c0
    c0 = time.process_time()
    planner = sample_bot(box, "planner", Precision.fixed(args.band), deck.seed)
    c_planner = time.process_time() - c0
    gap = margin(greedy.outcomes, planner.outcomes)
    wins = sum(1 for a, b in zip(greedy.outcomes, planner.outcomes, strict=True)
               if b.total > a.total)
    for name, smp, cpu in (("greedy", greedy, c_greedy), ("planner", planner, c_planner)):
        total = mean_interval([r.total for r in smp.outcomes])
        print(f"{name}: total {total.text('pts')}, {cpu / smp.games * 1000:.0f} ms CPU per game")
    print(f"planner over greedy in the same {gap.n} games: {gap.text('pts')}; planner ahead "
          f"in {rate(wins, gap.n).text()}")

    maps = finished_maps(box, 200, 1)
    cards = one_card_per_species(box.cards, box.rules.species, 0)
    reps = 5
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(reps):
        for m in maps:
            score_maps([m], cards, box.rules)
    t_solo, c_solo = time.perf_counter() - t0, time.process_time() - c0
    t0 = time.perf_counter()
    for _ in range(reps):
        for i in range(0, len(maps), 4):
            score_maps(maps[i:i + 4], cards, box.rules)
    t_four = time.perf_counter() - t0
    n = reps * len(maps)
    tokens = sum(len(m.tokens) for m in maps) / len(maps)
    print(f"maps scored per second: {n / t_solo:,.0f} solo ({n / c_solo:,.0f} per CPU second), "
          f"{n / t_four:,.0f} in 4-player groups (23-tile maps, {tokens:.1f} tokens on "
          "average, 5 cards each)")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
