"""How long `paperproof watch` takes to rebuild the default parks deck after a save.

Three figures, CPU and wall time, with the machine load beside them:
- cold: the first build (every card checked, cache written);
- unchanged: a save that changes nothing the checks depend on (the check cache hits);
- one-card edit: one park card's name changed (the deck's content hash changes, so today the
  whole deck is checked again: the cache is per deck, not per card).

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
        marker = 'name = "'
        i = text.find(marker, text.find("[[parks.card]]"))
        if i >= 0:
            deck.write_text(text[:i + len(marker)] + "Edited " + text[i + len(marker):],
                            encoding="utf-8")
        else:
            deck.write_text(text.replace("seed = ", "version = \"edited\"\nseed = ", 1),
                            encoding="utf-8")
        wall, cpu = _timed(deck, out)
        print(f"{'one-card edit':<14} wall {wall:6.2f} s  cpu {cpu:6.2f} s")
        print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
