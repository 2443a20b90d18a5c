"""Every default deck in decks/ is also a test: it loads and every check passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import check_deck
from generator.deckfile import load_deck

DECKS = sorted((Path(__file__).resolve().parent.parent / "decks").glob("*.toml"))


@pytest.mark.parametrize("path", DECKS, ids=[p.stem for p in DECKS])
def test_default_deck_checks_green(path: Path) -> None:
    checked = check_deck(load_deck(path))
    bad = [f"{e.subject}: {e.check}: {e.status}: {e.message}"
           for e in checked.report.entries if e.failing]
    assert not bad, "\n".join(bad)
