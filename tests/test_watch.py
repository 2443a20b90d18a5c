"""paperproof watch: each rebuild reuses the cached checks of an unchanged deck, re-checks a
changed one, and says which components changed."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.build import build_deck
from generator.cli import _rebuild
from generator.deckfile import load_deck

ROOT = Path(__file__).resolve().parent.parent


def test_check_cache_hits_only_for_the_same_deck(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "tests/decks/own-art", tmp_path / "deck")
    deck = tmp_path / "deck" / "own-art.toml"
    out = tmp_path / "out"
    cache = out / ".paperproof-cache"
    calls: list[int] = []
    loaded = load_deck(deck)
    family = type(loaded.family)
    real = family.check

    def counting(self: object, *args: object) -> object:
        calls.append(1)
        return real(self, *args)  # type: ignore[arg-type]

    import pytest

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(family, "check", counting)
        first = build_deck(load_deck(deck), out, cache=cache)
        second = build_deck(load_deck(deck), out, cache=cache)
        assert len(calls) == 1  # the second build reused the check
        assert second.checked.report.to_json() == first.checked.report.to_json()
        (tmp_path / "deck" / "rows.csv").write_text(
            (tmp_path / "deck" / "rows.csv").read_text(encoding="utf-8").replace("Холм", "Гора"),
            encoding="utf-8")
        build_deck(load_deck(deck), out, cache=cache)
        assert len(calls) == 2  # an edited row is checked again
        # an edited image is a change too, though the deck text is the same
        png = tmp_path / "deck" / "art" / "back.png"
        png.write_bytes((ROOT / "tests/decks/own-art/art/hills.png").read_bytes())
        build_deck(load_deck(deck), out, cache=cache)
        assert len(calls) == 3


def test_rebuild_reports_changed_components(tmp_path: Path, capsys: object) -> None:
    import pytest

    shutil.copytree(ROOT / "tests/decks/own-art", tmp_path / "deck")
    deck = tmp_path / "deck" / "own-art.toml"
    out = tmp_path / "out"
    _rebuild(deck, out, None)
    _rebuild(deck, out, None)
    text = deck.read_text(encoding="utf-8").replace('title = "Szótár"', 'title = "Szótárak"')
    deck.write_text(text, encoding="utf-8")
    _rebuild(deck, out, None)
    deck.write_text(text.replace("[fonts]", "[fontz]"), encoding="utf-8")
    _rebuild(deck, out, None)  # a broken save prints its problems and the loop goes on
    assert isinstance(capsys, pytest.CaptureFixture)
    lines = capsys.readouterr()
    outs = [line for line in lines.out.splitlines() if "own-art:" in line]
    assert "changed: card-01, card-01-back" in outs[0]
    assert "nothing changed" in outs[1]
    assert "changed: card-02" in outs[2] and "card-01" not in outs[2]
    assert "unknown key 'fontz'" in lines.err
