"""Layers rule patterns a designer writes in the deck (issue 14), each with a worked example:
an explicit card list, the seed's tie-break (fewer cards in the discard), score files that
need the starting card and tokens the deck offers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.deckfile import load_deck_text
from generator.errors import DeckError
from generator.families.base import ScoreResult
from generator.families.layers.rules import standings
from generator.families.layers.sim import GameResult

DECK = """\
family = "layers"
name = "patterns"
seed = 5
[check]
simulations = 0
[layers]
min_value = 1
max_value = 3
stars = [0, 1, 2]
objectives_per_game = 2
card_list = [
  { colour = "fern", value = 1, copies = 3 },
  { colour = "fern", value = 2, stars = 1, copies = 2 },
  { colour = "fern", value = 3, stars = 4, scissors = true },
  { colour = "lagoon", value = 2, stars = 2, copies = 2 },
  { colour = "lagoon", value = 3, stars = 5, min_players = 3 },
]
[layers.copies]           # only the player counts matter with a card list
2 = [1, 1, 1]
3 = [1, 1, 1]
[[layers.colours]]
name = "fern"
[[layers.colours]]
name = "lagoon"
pattern = "waves"
[[layers.colours]]
name = "cinder"
pattern = "flames"
[[layers.objectives]]
title = "Tall fern"
tokens = [5, 2]
parts = [{ count = "colour", colour = "fern" }]
[[layers.objectives]]
title = "Two lakes"
tokens = [3]
parts = [{ count = "colour", colour = "lagoon", at_least = 2 }]
"""


def _score(land: str, deck: str = DECK) -> ScoreResult:
    loaded = load_deck_text(deck, "d.toml")
    gen = loaded.family.generate(loaded.deck)
    return loaded.family.score(loaded.deck, gen, Path("land.toml"), land)


# --- explicit card list -----------------------------------------------------------------


def test_card_list_prints_exactly_the_listed_cards() -> None:
    # 3 + 2 + 1 + 2 = 8 cards at 2 players; the lagoon 3 joins from 3 players (9 cards).
    loaded = load_deck_text(DECK, "d.toml")
    gen = loaded.family.generate(loaded.deck)
    assert [c.id for c in gen.landscape] == [
        "land-fern-1-1", "land-fern-1-2", "land-fern-1-3", "land-fern-2-1", "land-fern-2-2",
        "land-fern-3-1", "land-lagoon-2-1", "land-lagoon-2-2", "land-lagoon-3-1"]
    assert len(gen.cards_for(2)) == 8 and len(gen.cards_for(3)) == 9
    assert gen.copies[2][("lagoon", 3)] == 0 and gen.copies[3][("lagoon", 3)] == 1
    # Stars come from the list, per card, not from the per-value `stars` ([0, 1, 2]).
    assert gen.make_card("fern", 3, True).stars == 4
    assert gen.make_card("lagoon", 2).stars == 2
    assert [c.card.scissors for c in gen.landscape].count(True) == 1


def test_card_list_checks_see_the_gaps(tmp_path: Path) -> None:
    # lagoon has no 1 (a lagoon stack must start with a skip: warn) and cinder has no card at
    # all (no 1 and no 2 in a row: fail).
    deck = tmp_path / "d.toml"
    deck.write_text(DECK, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(deck), "--format", "json"])
    data = json.loads(result.output)
    status = {e["check"]: e["status"] for e in data["entries"] if e["subject"] == "deck"}
    assert status["colour-values:fern"] == "pass"
    assert status["colour-values:lagoon"] == "warn"
    assert status["colour-values:cinder"] == "fail"
    counts = next(e for e in data["entries"] if e["check"] == "counts:2")
    assert counts["details"]["cards"] == 8 and counts["details"]["scissors"] == 1


@pytest.mark.parametrize(("old", "new", "code"), [
    ('{ colour = "lagoon", value = 2, stars = 2, copies = 2 }',
     '{ colour = "lagoon", value = 2, stars = 2 }, { colour = "lagoon", value = 2, stars = 1 }',
     "E-LAYERS-CARD-STARS"),
    ('colour = "fern", value = 1,', 'colour = "moss", value = 1,', "E-LAYERS-CARD-COLOUR"),
    ('colour = "fern", value = 1,', 'colour = "fern", value = 4,', "E-LAYERS-CARD-VALUE"),
    ("min_players = 3", "min_players = 5", "E-LAYERS-CARD-PLAYERS"),
])
def test_bad_card_lists_are_rejected_at_their_line(old: str, new: str, code: str) -> None:
    text = DECK.replace(old, new)
    assert text != DECK
    line = next(i + 1 for i, row in enumerate(text.splitlines()) if new.split(",")[0] in row
                and ("stars = 1" in row or code != "E-LAYERS-CARD-STARS"))
    with pytest.raises(DeckError) as err:
        load_deck_text(text, "d.toml")
    msg = str(err.value)
    assert code in msg, msg
    assert f"d.toml:{line}" in msg, msg


# --- the seed's tie-break ----------------------------------------------------------------


def test_tie_break_fewer_cards_in_the_discard() -> None:
    # Totals 10, 10, 9 with discards 2, 1, 0: the two 10s tie; 1 card in the discard beats 2.
    assert standings([10, 10, 9], [2, 1, 0]) == [2, 1, 3]
    # Equal totals and equal discards share the place ("partager une belle victoire").
    assert standings([10, 10], [1, 1]) == [1, 1]
    game = GameResult(2, (10, 10), 30, (), (), {}, (2, 1))
    assert game.tie == "tie-break"
    assert GameResult(2, (10, 10), 30, (), (), {}, (1, 1)).tie == "shared"
    assert GameResult(2, (11, 10), 30, (), (), {}, (1, 1)).tie == ""


# --- score files: the starting card and the tokens ---------------------------------------

LAND = """\
discard = 1
tokens = [5, 3]
[stacks]
"0,0" = ["fern 1 start", "fern 2", "fern 3 scissors"]
"0,1" = ["lagoon 2"]
"""


def test_score_with_listed_stars_and_the_tie_break_line() -> None:
    # Tops: fern 3 scissors (4 stars, from the card list) and lagoon 2 (2 stars; a stack may
    # start with a skip over the missing 1). Tokens 5 (Tall fern) + 3 (Two lakes) = 8.
    # Discard 1: -1. Total 4 + 2 + 8 - 1 = 13.
    r = _score(LAND)
    by = {line.label: line for line in r.lines}
    assert by["stars on top cards"].points == 6
    assert by["objective tokens"].points == 8
    assert r.total == 13
    assert by["tie-break"].points == 0
    assert by["tie-break"].detail.startswith("1 cards in the discard")


def test_score_file_needs_the_starting_card() -> None:
    with pytest.raises(DeckError) as err:
        _score(LAND.replace('"fern 1 start", ', ""))
    msg = str(err.value)
    assert "E-LAYERS-SCORE-START" in msg and "no starting card" in msg
    assert "land.toml:3" in msg, msg      # the [stacks] line


@pytest.mark.parametrize(("tokens", "words"), [
    ("[7]", "no objective card offers a token of 7 (token values: 2, 3, 5)"),
    # 5 and 2 are both on Tall fern: one token per objective card.
    ("[5, 2]", "different objective card"),
    # three tokens, but only 2 objectives are in play per game
    ("[5, 3, 2]", "3 tokens, but only 2 objectives are in play per game"),
])
def test_score_file_tokens_must_come_from_the_deck(tokens: str, words: str) -> None:
    with pytest.raises(DeckError) as err:
        _score(LAND.replace("tokens = [5, 3]", f"tokens = {tokens}"))
    msg = str(err.value)
    assert "E-LAYERS-SCORE-TOKENS" in msg and words in msg, msg
    assert "land.toml:2" in msg, msg
