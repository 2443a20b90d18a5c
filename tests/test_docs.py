"""Documentation that must stay true: the deck reference is generated from the models."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from generator.schema import decks_markdown


def test_deck_reference_is_current(golden: Callable[[Path, str], None]) -> None:
    golden(Path("docs/decks.md"), decks_markdown())


def test_readme_quick_start_has_the_two_commands(root: Path) -> None:
    text = (root / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("##", 1)[0]
    commands = [line for line in quick.splitlines() if line.startswith("pip install")]
    assert len(commands) == 2
    assert "paperproof build" in commands[0]
    assert "pytest" in commands[1]
    ci = (root / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[test]'" in ci and "pytest" in ci
