#!/usr/bin/env python3
"""The core's placement set-up on the solver study's 1,000 small coloured cards, beside the C
``exact_cover`` library in the same run.

For each card (``../shared/bench/solvers/instances/small-1000.jsonl``): ours is
:func:`generator.core.tiling.tile` from the card itself (it builds its own placements, runs
its necessary conditions and searches); the library is timed as the study times it: its dense
matrix build plus its solve, given the already expanded exact-cover options (the expansion is
not timed for it). The two alternate card by card, so load from other users of the machine
falls on both alike. Prints totals, medians, maxima and the ratio ours / library.

exact_cover is NOT a project dependency; install it for the bench only:
    pip install --target /tmp/paperproof-bench-libs exact-cover==1.5.0
Run: ``python bench/placement.py [--repeat 3] [--libs DIR]`` (about a minute).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT.parent / "shared" / "bench" / "solvers"
sys.path.insert(0, str(ROOT))

from generator.core.tiling import Piece, tile  # noqa: E402


def _args(spec: dict[str, Any]) -> tuple[Any, ...]:
    region = [tuple(b) for b in spec["board"]]
    demands = {(r, c): col for r, c, col in spec.get("demand", [])}
    req = bool(spec.get("use_all_pieces"))
    pieces = [Piece({(r, c): col for r, c, col in p["cells"]}, p["name"], req)
              for p in spec["pieces"]]
    return region, pieces, demands, spec.get("reflect", True)


def _ours(args: tuple[Any, ...]) -> bool:
    region, pieces, demands, refl = args
    return tile(region, pieces, demands=demands, reflections=refl).count > 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--libs", default="/tmp/paperproof-bench-libs")
    ap.add_argument("--repeat", type=int, default=3, help="runs per card; the best counts")
    ap.add_argument("--cards", type=int, default=1000)
    args = ap.parse_args(argv)
    if os.path.isdir(args.libs):
        sys.path.append(args.libs)
    sys.path.insert(0, str(HARNESS))
    import bench_solvers as h  # type: ignore[import-not-found]  # the study's harness

    specs = [json.loads(line) for line in
             (HARNESS / "instances" / "small-1000.jsonl").read_text().splitlines()][: args.cards]
    print(f"{len(specs)} small cards; load average at start {os.getloadavg()[0]:.2f}")
    try:
        import exact_cover  # noqa: F401
        lib = h.ADAPTERS["exact_cover"]
    except ImportError:
        lib = None
        print("  (exact_cover is not installed: ours only; see the header)")
    cards = [_args(s) for s in specs]
    insts = [h.expand(s, "filter") for s in specs] if lib else []
    # warm up both (imports, caches of shapes that a long run would also have)
    _ours(cards[0])
    if lib:
        lib.solve(lib.build(insts[0]), "first")
    gc.collect()
    gc.freeze()
    ours_t: list[float] = []
    lib_t: list[float] = []
    agree = 0
    for i, card in enumerate(cards):
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            a = _ours(card)
            best = min(best, time.perf_counter() - t0)
        ours_t.append(best)
        if lib:
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                b = bool(lib.solve(lib.build(insts[i]), "first"))
                best = min(best, time.perf_counter() - t0)
            lib_t.append(best)
            agree += a == b
    tot = sum(ours_t)
    med = statistics.median(ours_t)
    print(f"  ours (core.tile)  total {tot * 1e3:8.1f} ms  median {med * 1e3:.3f} ms"
          f"  max {max(ours_t) * 1e3:.2f} ms")
    if lib:
        lt = sum(lib_t)
        lmed = statistics.median(lib_t)
        print(f"  exact_cover (C)   total {lt * 1e3:8.1f} ms  median {lmed * 1e3:.3f} ms"
              f"  max {max(lib_t) * 1e3:.2f} ms")
        print(f"  ratio ours / exact_cover: {tot / lt:.2f}x (goal <= 1.0x); answers agree on "
              f"{agree}/{len(cards)} cards")
    print(f"  median per card {statistics.median(ours_t) * 1e3:.3f} ms (goal <= 0.1 ms)")
    print(f"load average at end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
