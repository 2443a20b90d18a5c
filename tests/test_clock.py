"""Verdicts do not depend on the clock: budgets count search nodes, and a check run under a
clock slowed a millionfold gives the same report; only ``--time-limit`` reads the clock, and
it stops the whole command with an error that says so."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from generator.build import check_deck
from generator.deckfile import load_deck
from generator.families.base import CheckOptions
from tests.clirun import run_cli

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "tests" / "decks"
CLOCK_CALLS = re.compile(
    r"\b(perf_counter|monotonic|process_time|time\.time|thread_time)\b|\bimport time\b")


class _SlowClock:
    """Every read of any clock moves it on by an hour: a machine a millionfold slower."""

    HOUR = 3600.0

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.HOUR
        return self.now

    def ns(self) -> int:
        return int(self() * 1e9)


def _report(path: Path) -> str:
    checked = check_deck(load_deck(path), options=CheckOptions(simulations=3))
    return json.dumps(checked.report.to_json(), sort_keys=True)


@pytest.mark.parametrize("deck", ["parks-small.toml", "streets-small.toml",
                                  "layers-small.toml", "habitats-small.toml"])
def test_a_slowed_clock_gives_the_same_report(deck: str, monkeypatch: Any) -> None:
    normal = _report(DECKS / deck)
    clock = _SlowClock()
    for name in ("perf_counter", "monotonic", "time", "process_time", "thread_time"):
        monkeypatch.setattr(time, name, clock)
    for name in ("perf_counter_ns", "monotonic_ns", "time_ns", "process_time_ns"):
        monkeypatch.setattr(time, name, clock.ns)
    slowed = _report(DECKS / deck)
    assert slowed == normal
    assert '"unknown"' not in normal or '"unknown"' in slowed


def test_no_check_code_reads_the_clock() -> None:
    """The rules core and the families never look at the time (only the CLI and the build's
    duration line do), so no verdict or figure can depend on it."""
    readers = []
    for folder in ("core", "families"):
        for path in sorted((ROOT / "generator" / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if CLOCK_CALLS.search(text):
                readers.append(str(path.relative_to(ROOT)))
    assert readers == []


def test_a_seconds_budget_in_a_deck_is_refused_with_the_reason(tmp_path: Path) -> None:
    deck = (DECKS / "streets-small.toml").read_text(encoding="utf-8")
    deck = deck.replace("[check]", "[check]\nbudget_seconds = 5.0", 1)
    assert "budget_seconds" in deck
    path = tmp_path / "deck.toml"
    path.write_text(deck, encoding="utf-8")
    code, _, err = run_cli("check", str(path), cwd=tmp_path)
    assert code == 2
    assert "budget_seconds" in err and "nodes" in err
    assert re.search(r"deck\.toml:\d+", err)


def test_time_limit_stops_the_whole_command_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "out"
    # A fresh interpreter: the alarm may fire anywhere, even inside an import.
    done = subprocess.run(
        [sys.executable, "-m", "generator", "build", str(DECKS / "parks-small.toml"),
         "-o", str(out), "--time-limit", "0.05"],
        cwd=tmp_path, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 4, done.stderr
    assert "--time-limit" in done.stderr and "stopped" in done.stderr
    assert not any(out.rglob("*.pdf")), "nothing of the stopped deck is written"
