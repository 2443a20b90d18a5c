"""The deck fuzzer at scale: thousands of seeded mutations of every default deck, starter and
test deck, each loaded, checked and (when it passes) built, in worker processes.

    python bench/fuzz.py [--cases 10000] [--seed 1] [--workers 2] [--cap 300]
                         [--out fuzz-report.json]

Prints the count of each outcome (see tests/fuzzdeck.py) and every defect (crash, unlocated
error, bad exit, check-passed-build-failed, over the wall-clock guard), with the machine
load beside the timings, and writes every outcome to the JSON report. Exit 1 on any defect.
The guard (``--cap`` seconds) only separates a hang from a slow check on a loaded machine;
verdicts are bounded by node counts, never by it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fuzzdeck import BAD_KINDS, Case, cases, run_case  # noqa: E402


def _one(args: tuple[Case, float]) -> dict[str, Any]:
    case, cap = args
    return run_case(case, build=True, seconds_cap=cap, simulations=0).to_json()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cap", type=float, default=300.0)
    ap.add_argument("--out", type=Path, default=Path("fuzz-report.json"))
    args = ap.parse_args()
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    start, cpu = time.perf_counter(), time.process_time()
    results: list[dict[str, Any]] = []
    work = ((c, args.cap) for c in cases(args.seed, args.cases))
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for n, res in enumerate(pool.map(_one, work, chunksize=4), start=1):
            results.append(res)
            if res["kind"] in BAD_KINDS:
                print(f"DEFECT case {res['case']} {res['seed']} [{res['mutation']}]: "
                      f"{res['kind']}: {res['message'][-800:]}", flush=True)
            if n % 250 == 0:
                counts = Counter(r["kind"] for r in results)
                print(f"{n} cases, {time.perf_counter() - start:.0f} s: {dict(counts)}",
                      flush=True)
                args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    wall = time.perf_counter() - start
    counts = Counter(r["kind"] for r in results)
    slowest = max(results, key=lambda r: r["seconds"]) if results else None
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"{len(results)} cases (seed {args.seed}, {args.workers} workers) in {wall:.0f} s "
          f"wall, parent CPU {time.process_time() - cpu:.0f} s; load {load_before:.1f} -> "
          f"{load_after:.1f}")
    for kind in ("ok", "fails-checks", "invalid", *BAD_KINDS):
        print(f"  {kind:<13} {counts.get(kind, 0)}")
    if slowest is not None:
        print(f"  slowest case {slowest['case']} ({slowest['seed']}): {slowest['seconds']} s")
    sys.exit(1 if any(counts.get(k) for k in BAD_KINDS) else 0)


if __name__ == "__main__":
    main()
