"""Bounds at the boundary: each value that used to crash generate, validate or build (NaN,
infinity, zero sizes, 1e308, a hundred million stars, control characters, absurd counts) is
refused at load time with a located exit-2 error naming the key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.build import render_starter
from generator.deckfile import load_deck_text
from generator.errors import DeckError
from generator.families import FAMILIES
from tests.clirun import run_cli

ROOT = Path(__file__).resolve().parent.parent


def _deck(name: str) -> str:
    return (ROOT / "decks" / f"{name}.toml").read_text(encoding="utf-8")


def _set(text: str, key: str, value: str, table: str | None = None) -> tuple[str, int]:
    """``text`` with ``key = value`` (replacing the key's line if present, else added after
    ``[table]``) and the line it is on."""
    lines = text.splitlines()
    pattern = re.compile(rf"^{re.escape(key)}\s*=")
    for i, line in enumerate(lines):
        if pattern.match(line):
            lines[i] = f"{key} = {value}"
            return "\n".join(lines) + "\n", i + 1
    assert table is not None, f"{key} not in the deck"
    i = lines.index(f"[{table}]")
    lines.insert(i + 1, f"{key} = {value}")
    return "\n".join(lines) + "\n", i + 2


def _problem(text: str) -> list[tuple[int, str, str]]:
    with pytest.raises(DeckError) as info:
        load_deck_text(text, "deck.toml")
    return [(p.line, p.key, p.code) for p in info.value.problems]


@pytest.mark.parametrize(("deck", "key", "value", "table", "where"), [
    ("quilts", "target", "inf", None, "quilts.value.target"),
    ("parks", "square", "0", None, "parks.square"),
    ("cards", "gutter", "nan", "print", "print.gutter"),
    ("cards", "bleed", "nan", None, "print.bleed"),
    ("cards", "back_offset", "[inf, inf]", "print", "print.back_offset[0]"),
    ("habitats", "symbol_mix", "[1e308, 1e308, 1e308]", None, "habitats.symbol_mix[0]"),
    ("layers", "stars", "[0, 1, 1, 2, 100000000]", None, "layers.stars[4]"),
    ("cards", "bleed", '"1e9mm"', None, "print.bleed"),
    ("cards", "bleed", '"99999mm"', None, "print.bleed"),
    ("layers", "simulations", "-1", None, "check.simulations"),
    ("layers", "simulations", "10000000", None, "check.simulations"),
    ("layers", "budget_nodes", "1000000000000", None, "check.budget_nodes"),
    ("layers", "budget_nodes", "nan", None, "check.budget_nodes"),
])
def test_each_value_from_the_issue_gets_a_located_error(deck: str, key: str, value: str,
                                                        table: str | None, where: str) -> None:
    text, line = _set(_deck(deck), key, value, table)
    found = _problem(text)
    assert (line, where) in {(ln, k) for ln, k, _ in found}, found


def test_streets_conditions_per_plan_are_capped() -> None:
    conditions = "\n".join(f"[[streets.plans.conditions]]\nkind = \"groups\"\nsizes = [{i % 3 + 1}]"
                           for i in range(24))
    text = ('family = "streets"\nname = "s"\n\n[[streets.plans]]\nlevel = 1\nfirst = 3\n'
            f"later = 1\n{conditions}\n")
    found = _problem(text)
    assert (8, "streets.plans[0].conditions") in {(ln, k) for ln, k, _ in found}, found


def test_nul_and_control_characters_in_text_are_refused_with_their_line() -> None:
    text = _deck("cards")
    assert 'title = "' in text
    bad = text.replace('title = "', 'title = "A\\u0000', 1)
    line = bad.splitlines().index(next(ln for ln in bad.splitlines() if "\\u0000" in ln)) + 1
    found = _problem(bad)
    assert [(ln, code) for ln, _, code in found] == [(line, "E-TEXT-CONTROL")]
    esc = text.replace('title = "', 'title = "\\u001b[31m', 1)
    assert {code for _, _, code in _problem(esc)} == {"E-TEXT-CONTROL"}
    # line breaks and tabs stay allowed
    ok = text.replace('title = "', 'title = "a\\tb', 1)
    load_deck_text(ok, "deck.toml")


def test_control_character_in_a_key_and_in_a_csv_cell(tmp_path: Path) -> None:
    found = _problem('family = "cards"\nname = "c"\n[cards]\n"a\\u0007" = 1\n')
    assert (4, "E-TEXT-CONTROL") in {(ln, code) for ln, _, code in found}
    (tmp_path / "rows.csv").write_text("title,text\nA,ok\nB,bad\x00x\n", encoding="utf-8")
    deck = tmp_path / "d.toml"
    deck.write_text('family = "cards"\nname = "c"\n[cards]\ncsv = "rows.csv"\n',
                    encoding="utf-8")
    status, _, err = run_cli("check", str(deck))
    assert status == 2 and "rows.csv:3:" in err and "U+0000" in err, err


def test_overlong_lists_texts_and_nesting_are_refused() -> None:
    base = 'family = "cards"\nname = "c"\n'
    found = _problem(base + "[cards]\naccent = " + "[" * 40 + "]" * 40 + "\n")
    assert {code for _, _, code in found} == {"E-DECK-TOO-DEEP"}
    found = _problem(base + "description = \"" + "x" * 10_001 + "\"\n")
    assert found == [(3, "description", "E-TEXT-TOO-LONG")]
    found = _problem(base + "[cards]\nrows = [" + "{}," * 10_001 + "]\n")
    assert found == [(4, "cards.rows", "E-DECK-TOO-MANY")]
    found = _problem(base + "x = " + "[" * 600 + "]" * 600 + "\n")
    assert found[0][0] == 3 and found[0][2] == "E-TOML-SYNTAX"


def test_cli_refuses_negative_simulations_and_huge_only_ranges(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text('family = "cards"\nname = "c"\n[[cards.rows]]\ntitle = "A"\n',
                    encoding="utf-8")
    status, _, err = run_cli("check", str(deck), "--simulations", "-1")
    assert status == 2 and "--simulations" in err
    status, _, err = run_cli("build", str(deck), "-o", str(tmp_path / "out"),
                             "--only", "1-999999999999999")
    assert status == 2 and "Traceback" not in err
    status, _, err = run_cli("build", str(deck), "-o", str(tmp_path / "out"),
                             "--only", "1-20000")
    assert status == 2 and "more components than any deck" in err, err
    status, _, err = run_cli("build", str(deck), "-o", str(tmp_path / "out"), "--only", "²")
    assert status == 2 and "Traceback" not in err


def test_every_default_deck_is_within_the_limits() -> None:
    for path in sorted((ROOT / "decks").glob("*.toml")):
        load_deck_text(path.read_text(encoding="utf-8"), str(path))
    for path in sorted((ROOT / "tests" / "decks").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        if "family = " in text:
            load_deck_text(text, str(path))
    for fam in FAMILIES:
        load_deck_text(render_starter(fam.name, "starter"), f"{fam.name}.toml")


def test_rows_times_counts_is_capped() -> None:
    rows = "".join(f'[[cards.rows]]\ncount = 999\ntitle = "R{i}"\n' for i in range(11))
    found = _problem('family = "cards"\nname = "c"\n' + rows)
    assert (3, "cards.rows", "E-CARDS-TOO-MANY") in found, found


def test_unknown_inline_symbol_in_any_text_is_refused_at_its_line() -> None:
    text, line = _set(_deck("habitats"), "habitats", '[":nosuch:", "meadow", "copse", "ridge"]',
                      None)
    assert (line, "habitats.habitats[0]", "E-TEXT-SYMBOL") in _problem(text)
