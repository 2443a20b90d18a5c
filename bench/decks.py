#!/usr/bin/env python3
"""Every default deck checked at its default precision: time with ``--jobs 2``, games played,
the widest interval left; then ``--jobs 1`` against ``--jobs 2`` on all six decks together,
with the speed-up and a byte-for-byte comparison of the reports (issue 15).

Games and intervals are read from the reports themselves: every ``sample`` (the sampler's
``{"games", "stopped", ...}``) and every rate or mean written by ``generator.core.stats``.
CPU seconds include the worker processes. Wall times on a shared machine depend on the load
(printed beside them); the speed-up is measured in one run, the same load on both sides.

Run: ``python bench/decks.py [--decks decks/parks.toml ...]`` (minutes: it checks every deck
three times). ``games/cpu-s`` is games played per CPU second of the whole check (search
included), a floor on each engine's games per second per core.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.build import check_decks, report_json  # noqa: E402
from generator.deckfile import load_deck  # noqa: E402
from generator.families.base import CheckOptions  # noqa: E402
from generator.parallel import make_pool  # noqa: E402

GOAL_SECONDS = 30.0
"""The issue's goal: every default deck checked under 30 s with --jobs 2."""


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _walk(node: Any, samples: list[dict[str, Any]], widths: list[tuple[float, str]],
          where: str) -> None:
    if isinstance(node, dict):
        if {"games", "stopped"} <= node.keys():
            samples.append(node)
        if {"successes", "trials", "low", "high"} <= node.keys() and node["trials"]:
            widths.append(((node["high"] - node["low"]) / 2 * 100, f"{where} (points)"))
        if {"mean", "low", "high", "n"} <= node.keys() and node["low"] is not None:
            m = abs(node["mean"]) or 1.0
            widths.append(((node["high"] - node["low"]) / 2 / m * 100, f"{where} (% of mean)"))
        for k, v in node.items():
            _walk(v, samples, widths, where if k in ("details", "figures") else
                  (f"{where}.{k}" if where.count(".") < 2 else where))
    elif isinstance(node, list):
        for v in node:
            _walk(v, samples, widths, where)


def _figures(data: dict[str, Any]) -> tuple[int, int, int, str]:
    samples: list[dict[str, Any]] = []
    widths: list[tuple[float, str]] = []
    for e in data["entries"]:
        _walk(e.get("details", {}), samples, widths, e["subject"])
    _walk(data.get("figures", {}), samples, widths, "deck")
    games = sum(int(s["games"]) for s in samples)
    capped = sum(s["stopped"] == "cap" for s in samples)
    widest = max(widths, default=None)
    text = f"+/-{widest[0]:.1f} {widest[1]}" if widest else "-"
    return games, len(samples), capped, text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decks", nargs="*", default=None)
    ap.add_argument("--no-compare", action="store_true", help="skip --jobs 1 against 2")
    args = ap.parse_args(argv)
    paths = [Path(p) for p in args.decks] if args.decks else sorted((ROOT / "decks").glob("*.toml"))
    loaded = [load_deck(p) for p in paths]
    print(f"{os.cpu_count()} cpus; load average at start {os.getloadavg()[0]:.2f}")
    print(f"\n{'deck':10s} {'wall s':>7s} {'cpu s':>7s} {'goal':>5s} {'games':>7s} "
          f"{'games/cpu-s':>11s} {'samples':>7s} {'capped':>6s}  widest interval left")
    for item in loaded:
        with make_pool(2) as pool:
            c0, t0 = _cpu(), time.perf_counter()
            [checked] = check_decks([item], options=CheckOptions(pool=pool))
            wall, cpu = time.perf_counter() - t0, _cpu() - c0
        games, n, capped, widest = _figures(report_json(checked))
        ok = "MET" if wall <= GOAL_SECONDS else "MISS"
        rate = f"{games / cpu:11.0f}" if cpu > 0 and games else f"{'-':>11s}"
        print(f"{item.family.name:10s} {wall:7.1f} {cpu:7.1f} {ok:>5s} {games:7d} {rate} {n:7d} "
              f"{capped:6d}  {widest}  (load {os.getloadavg()[0]:.1f})", flush=True)

    if args.no_compare:
        return 0
    print("\nall decks together, --jobs 1 against --jobs 2:")
    texts = {}
    walls = {}
    for jobs in (1, 2):
        with make_pool(jobs) as pool:
            t0 = time.perf_counter()
            results = check_decks(loaded, options=CheckOptions(pool=pool))
            walls[jobs] = time.perf_counter() - t0
        texts[jobs] = json.dumps([report_json(r) for r in results], indent=2, sort_keys=True)
        print(f"  --jobs {jobs}: {walls[jobs]:.1f} s wall (load {os.getloadavg()[0]:.1f})",
              flush=True)
    same = texts[1] == texts[2]
    print(f"  speed-up {walls[1] / walls[2]:.2f}x; reports byte-identical: {same}")
    print(f"load average at end {os.getloadavg()[0]:.2f}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
