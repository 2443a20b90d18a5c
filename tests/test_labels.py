"""Printed labels in the deck's language, and a deck's own label texts."""

from __future__ import annotations

from pathlib import Path

from clirun import run_cli as run

from generator.labels import LABELS, LANGUAGES

ROOT = Path(__file__).resolve().parent.parent


def test_every_label_has_every_language() -> None:
    for key, texts in LABELS.items():
        assert set(texts) == set(LANGUAGES), key
        assert all(t.strip() for t in texts.values()), key


def test_russian_parks_deck_prints_russian_labels(tmp_path: Path) -> None:
    text = (ROOT / "tests/decks/parks-impossible.toml").read_text(encoding="utf-8")
    deck = tmp_path / "ru.toml"
    deck.write_text(text.replace('seed = 7', 'seed = 7\nlanguage = "ru"\n'
                                 '[labels]\n"parks.die" = "Мой кубик"'), encoding="utf-8")
    code, _, err = run("build", str(deck), "-o", str(tmp_path / "out"), "--keep-going")
    assert code == 0, err
    svg = tmp_path / "out" / "parks-impossible" / "svg"
    sheet = (svg / "sheet.svg").read_text(encoding="utf-8")
    assert ">Лист парка<" in sheet and "режьте по серым линиям" in sheet and "сид 7" in sheet
    assert "ПАРК" in (svg / "park-01-back.svg").read_text(encoding="utf-8")
    assert "НЕВЫПОЛНИМО" in (svg / "park-01.svg").read_text(encoding="utf-8")
    assert "Мой кубик" in (svg / "die.svg").read_text(encoding="utf-8")


def test_unknown_label_and_language_are_located_errors(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text('family = "cards"\nname = "d"\nlanguage = "de"\n[labels]\n'
                    '"parks.shet" = "x"\n[[cards.rows]]\ntitle = "a"\n', encoding="utf-8")
    code, _, err = run("check", str(deck))
    assert code == 2
    assert "d.toml:3: language:" in err and "d.toml:" in err and "unknown label 'parks.shet'" \
        in err
