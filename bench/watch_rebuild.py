"""How long `paperproof watch` takes to rebuild the default parks deck after a save.

Three figures, CPU and wall time, with the machine load beside them:
- cold: the first build (every card checked, cache written);
- unchanged: a save that changes nothing the checks depend on (the check cache hits);
- one-card edit: a key the checks depend on changed (the deck's content hash changes, so
  today the whole deck is checked again: the cache is per deck, not per card).

Run: python bench/watch_rebuild.py   (takes a minute or more on a busy machine)
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from generator.build import build_deck
from generator.deckfile import load_deck

ROOT = Path(__file__).resolve().parent.parent


def _timed(deck: Path, out: Path) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    build_deck(load_deck(deck), out, cache=out / ".paperproof-cache")
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        deck = Path(tmp) / "parks.toml"
        shutil.copy(ROOT / "decks" / "parks.toml", deck)
        out = Path(tmp) / "out"
        print(f"load average {os.getloadavg()[0]:.2f}")
        for label in ("cold", "unchanged"):
            wall, cpu = _timed(deck, out)
            print(f"{label:<14} wall {wall:6.2f} s  cpu {cpu:6.2f} s")
        text = deck.read_text(encoding="utf-8")
        # an edit the checks depend on: the deck's version line (the default parks deck
        # generates its cards, so there is no hand-written card to edit)
        lines = text.splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("name = "))
        lines = [line for line in lines if not line.startswith("version = ")]
        lines.insert(at + 1, 'version = "edited"')
        deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
        wall, cpu = _timed(deck, out)
        print(f"{'one-card edit':<14} wall {wall:6.2f} s  cpu {cpu:6.2f} s")
        print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
