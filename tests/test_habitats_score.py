"""`paperproof score` for habitats maps, score-file errors with file:line, and the CLI end to
end (check, score, new, build) on the hand-written deck."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.deckfile import load_deck
from generator.errors import DeckError
from generator.families.habitats import HabitatsFamily

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "tests/decks/habitats-small.toml"
MAP = ROOT / "tests/decks/habitats-small-map.toml"
FAM = HabitatsFamily()


def _score(text: str, name: str = "m.toml") -> object:
    loaded = load_deck(SMALL)
    return FAM.score(loaded.deck, FAM.generate(loaded.deck), Path(name), text)


def test_hand_scored_map() -> None:
    res = _score(MAP.read_text())
    lines = {ln.label: ln.points for ln in res.lines}  # type: ignore[attr-defined]
    # vole pair at (0,0)-(1,0): 1 pair = 3; kites at (3,0) and (5,0) see each other over an
    # otter (only kites block): 1 pair = 2; the otter has two tokens around it: 2
    assert lines["vole: card-vole-a (Burrows)"] == 3
    assert lines["kite: card-kite-a (Sky watch)"] == 2
    assert lines["otter: card-otter-a (Holt)"] == 2
    assert lines["corridor bog"] == 3 and lines["corridor glade"] == 2
    assert lines["corridor crag"] == 2 and lines["nature tokens"] == 2
    assert res.total == 16  # type: ignore[attr-defined]


def test_choosing_other_cards_and_solo_bonus() -> None:
    tiles = "".join(f'[[tiles]]\nhabitats = ["bog"]\nspecies = ["vole"]\nq = {q}\nr = 0\n'
                    for q in range(7))
    res = _score('cards = ["card-vole-b"]\n' + tiles
                 + '[[tokens]]\nq = 0\nr = 0\nspecies = "vole"\n')
    lines = {ln.label: ln.points for ln in res.lines}  # type: ignore[attr-defined]
    assert lines["bonus bog"] == 2  # solo: a corridor of 7 earns +2
    assert lines["vole: card-vole-b (Hedgerow)"] == 1  # one vole alone: isolated table [1..]
    assert res.total == 7 + 2 + 1  # type: ignore[attr-defined]


def test_multiplayer_majorities() -> None:
    def player(name: str, n: int) -> str:
        return f'[[players]]\nname = "{name}"\n' + "".join(
            f'[[players.tiles]]\nhabitats = ["crag"]\nspecies = ["kite"]\nq = {q}\nr = 0\n'
            for q in range(n))
    res = _score(player("ann", 4) + player("bo", 2))
    lines = {ln.label: ln.points for ln in res.lines}  # type: ignore[attr-defined]
    assert lines["ann: bonus crag"] == 2 and "bo: bonus crag" not in lines
    assert lines["ann: total"] == 6 and lines["bo: total"] == 2
    assert res.total == 6  # type: ignore[attr-defined]


def test_score_file_errors_name_file_and_line() -> None:
    text = ('[[tiles]]\nhabitats = ["bog"]\nspecies = ["vole"]\nq = 0\nr = 0\n'
            'token = "kite"\n'
            '[[tiles]]\ntile = "tile-999"\nq = 1\nr = 0\n'
            '[[tiles]]\nhabitats = ["bog"]\nspecies = ["vole"]\nq = 7\nr = 7\n'
            '[[tokens]]\nq = 0\nr = 0\nspecies = "yak"\n')
    with pytest.raises(DeckError) as exc:
        _score(text, "bad.toml")
    msgs = [p.format() for p in exc.value.problems]
    assert any(m.startswith("bad.toml:6:") and "shows vole, not kite" in m for m in msgs)
    assert any(m.startswith("bad.toml:8:") and "unknown tile 'tile-999'" in m for m in msgs)
    assert any("E-HABITATS-MAP-CONNECTED" in m for m in msgs)
    assert any(m.startswith("bad.toml:19:") and "unknown species 'yak'" in m for m in msgs)


def test_cli_check_score_new_and_build(tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["check", str(SMALL), "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    report = data[0] if isinstance(data, list) else data
    assert report["ok"] and report["family"] == "habitats"
    r = runner.invoke(main, ["score", str(SMALL), str(MAP), "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["total"] == 16
    r = runner.invoke(main, ["check", str(ROOT / "tests/decks/habitats-unreachable.toml")])
    assert r.exit_code == 1
    assert "impossible   #46 card-vole-a vole: Too many pairs  tier-7" in r.output
    assert "14 vole tokens" in r.output
    new = tmp_path / "mine.toml"
    r = runner.invoke(main, ["new", "habitats", str(new)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["check", str(new), "--simulations", "0"])
    assert r.exit_code == 0, r.output
    out = tmp_path / "out"
    r = runner.invoke(main, ["build", str(SMALL), "-o", str(out)])
    assert r.exit_code == 0, r.output
    built = out / "habitats-small"
    assert (built / "sheets.pdf").stat().st_size > 10_000
    rep = json.loads((built / "report.json").read_text())
    certs = [e for e in rep["entries"] if e["status"] == "completable"]
    assert certs and all("certificate" in e["details"] for e in certs)
