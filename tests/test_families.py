"""Every family has the same shape, and every family's starter deck builds as written."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from generator.build import render_starter
from generator.deckfile import load_deck_text
from generator.families import FAMILIES
from generator.families.base import CheckOptions

NAMES = [f.name for f in FAMILIES]
MODULES = ("model", "generate", "rules", "check", "layout")


@pytest.mark.parametrize("name", NAMES)
def test_family_has_the_common_shape(name: str) -> None:
    for module in MODULES:
        importlib.import_module(f"generator.families.{name}.{module}")
    family = next(f for f in FAMILIES if f.name == name)
    assert family.components and family.summary and family.title


@pytest.mark.parametrize("name", NAMES)
def test_starter_deck_loads_checks_and_lays_out(name: str, tmp_path: Path) -> None:
    text = render_starter(name, "starter")
    assert text.lstrip().startswith("#"), "a starter deck opens with comments"
    loaded = load_deck_text(text, str(tmp_path / "starter.toml"), base_dir=tmp_path)
    deck = loaded.deck
    options = CheckOptions(simulations=min(deck.check.simulations, 5))
    generated = loaded.family.generate(deck)
    report = loaded.family.check(deck, generated, options)
    bad = [f"{e.subject}: {e.check}: {e.status}: {e.message}" for e in report.entries
           if e.failing]
    assert not bad, "\n".join(bad)
    components = loaded.family.layout(deck, generated, report)
    ids = [c.id for c in components]
    assert len(ids) == len(set(ids)), "component ids are unique"
    assert all(re.fullmatch(r"[a-z0-9][a-z0-9-]*", i) for i in ids), ids


@pytest.mark.parametrize("name", NAMES)
def test_paperproof_new_writes_a_deck_that_builds(name: str, tmp_path: Path) -> None:
    from clirun import run_cli

    target = tmp_path / f"my-{name}.toml"
    code, out, err = run_cli("new", name, str(target))
    assert code == 0, err
    code, out, err = run_cli("build", str(target), "-o", str(tmp_path / "out"),
                             "--simulations", "2")
    assert code == 0, err + out
    folder = tmp_path / "out" / f"my-{name}"
    for file in ("sheets.pdf", "pod.pdf", "cut.svg", "report.json", "index.html"):
        assert (folder / file).stat().st_size > 0, file
