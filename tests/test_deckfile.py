"""Deck files: valid decks load into frozen models; every problem in a bad deck is reported
at file:line: key with what would be valid."""

from __future__ import annotations

from pathlib import Path

import pydantic
import pytest

from generator.deckfile import load_deck, load_deck_text
from generator.errors import DeckError
from generator.tomldoc import parse_toml

GOOD = """\
family = "cards"
name = "t"
seed = 3

[print]
card = "bridge"
bleed = "0.125in"
page = { width = "8.5in", height = "11in" }

[[cards.rows]]
title = "A"
text = "Hello"

[[cards.rows]]
count = 2
title = "B"
"""


def problems(text: str) -> list[str]:
    with pytest.raises(DeckError) as info:
        load_deck_text(text, "deck.toml")
    return [p.format() for p in info.value.problems]


def test_good_deck_loads_frozen_with_units() -> None:
    loaded = load_deck_text(GOOD, "deck.toml")
    deck = loaded.deck
    assert deck.family == "cards" and deck.seed == 3
    assert deck.print.card.width == pytest.approx(57.15)
    assert deck.print.bleed == pytest.approx(3.175)
    assert deck.print.page.height == pytest.approx(279.4)
    assert [r.count for r in deck.params.rows] == [1, 2]
    with pytest.raises(pydantic.ValidationError):
        deck.seed = 4  # type: ignore[misc]


def test_back_offset_may_be_negative() -> None:
    text = GOOD.replace('bleed = "0.125in"', 'bleed = "0.125in"\nback_offset = ["-0.5mm", 0.25]')
    deck = load_deck_text(text, "deck.toml").deck
    assert deck.print.back_offset == (-0.5, 0.25)


def test_unknown_key_reports_line_and_did_you_mean() -> None:
    text = GOOD.replace('title = "B"', 'titel = "B"')
    [msg] = problems(text)
    assert msg.startswith("deck.toml:16: cards.rows[1].titel: unknown key 'titel'")
    assert "did you mean 'title'?" in msg


def test_every_problem_is_reported_not_only_the_first() -> None:
    text = GOOD.replace("seed = 3", 'seed = "three"').replace('"0.125in"', '"3 furlongs"')
    text = text.replace("count = 2", "count = 0")
    msgs = problems(text)
    assert len(msgs) == 3
    assert msgs[0].startswith("deck.toml:3: seed:")
    assert "deck.toml:7: print.bleed: expected a length like '63mm'" in msgs[1]
    assert msgs[2].startswith("deck.toml:15: cards.rows[1].count:")


def test_unknown_family_suggests() -> None:
    [msg] = problems('family = "crads"\nname = "x"\n')
    assert msg.startswith("deck.toml:1: family: unknown family 'crads'")
    assert "did you mean 'cards'?" in msg


def test_bad_toml_syntax_names_the_line() -> None:
    [msg] = problems('family = "cards"\nname = \n')
    assert msg.startswith("deck.toml:2: (deck): not valid TOML")


def test_bad_preset_lists_valid_ones() -> None:
    [msg] = problems(GOOD.replace('"bridge"', '"huge"'))
    assert "deck.toml:6: print.card: unknown card preset 'huge'" in msg
    assert "poker" in msg and "tarot" in msg


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DeckError) as info:
        load_deck(tmp_path / "nope.toml")
    assert "no such deck file" in info.value.problems[0].format()


def test_semantic_problem_unknown_icon_is_located() -> None:
    text = GOOD.replace('text = "Hello"', 'text = "Hello :nosuch:"')
    [msg] = problems(text)
    assert msg.startswith("deck.toml:12: cards.rows[0].text: unknown inline symbol :nosuch:")


def test_csv_rows_are_read_relative_to_the_deck(tmp_path: Path) -> None:
    (tmp_path / "rows.csv").write_text("count,title,text,icons\n2,From CSV,Body,star\n",
                                       encoding="utf-8")
    deck_path = tmp_path / "d.toml"
    deck_path.write_text('family = "cards"\nname = "c"\n[cards]\ncsv = "rows.csv"\n',
                         encoding="utf-8")
    deck = load_deck(deck_path).deck
    assert [(r.count, r.title, r.icons) for r in deck.params.rows] == [(2, "From CSV", ("star",))]


def test_csv_errors_name_the_csv_line(tmp_path: Path) -> None:
    (tmp_path / "rows.csv").write_text("count,title\n1,ok\nlots,bad\n", encoding="utf-8")
    deck_path = tmp_path / "d.toml"
    deck_path.write_text('family = "cards"\nname = "c"\n[cards]\ncsv = "rows.csv"\n',
                         encoding="utf-8")
    with pytest.raises(DeckError) as info:
        load_deck(deck_path)
    [p] = info.value.problems
    assert p.file.endswith("rows.csv") and p.line == 3 and "count" in p.message


def test_toml_line_locator_sees_arrays_and_inline_tables() -> None:
    doc = parse_toml(
        'a = 1\n[t]\nb = [\n  { x = 1 },\n  { x = 2, y = 3 },\n]\n[[arr]]\nk = 1\n[[arr]]\nk = 2\n',
        "f.toml",
    )
    assert doc.line_of(("a",)) == 1
    assert doc.line_of(("t", "b", 0)) == 4
    assert doc.line_of(("t", "b", 1, "y")) == 5
    assert doc.line_of(("arr", 1, "k")) == 10
    assert doc.line_of(("arr", 1, "missing")) == 9
