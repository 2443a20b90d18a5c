"""Streets rule patterns a designer writes in the deck (issue 14), each with a worked example:
an explicit construction-card list, ..."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.deckfile import load_deck_text
from generator.errors import DeckError
from generator.families.streets.generate import generate, offered_pairs
from generator.families.streets.model import Effect, StreetsParams

HEAD = """\
family = "streets"
name = "patterns"
seed = 3
[check]
simulations = 0
[streets]
number_min = 1
number_max = 9
"""

STREETS = """
[[streets.streets]]
name = "North"
houses = 4
[[streets.streets]]
name = "South"
houses = 5
"""

CARD_LIST = """\
card_list = [
  { number = 1, effect = "fence" },
  { number = 2, effect = "park" },
  { number = 3, effect = "pool", copies = 2 },
  { number = 4, effect = "worker" },
  { number = 5, effect = "price" },
]
"""


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


# --- explicit card list ---------------------------------------------------------------


def test_card_list_is_the_deck_card_by_card() -> None:
    # Six physical cards, in the listed order: 1/fence, 2/park, 3/pool, 3/pool, 4/worker,
    # 5/price. A combination is the number of one card with the effect of ANOTHER card:
    # number 1 exists only on the fence card, and that is the only fence card, so 1/fence
    # can never come up; likewise 2/park, 4/worker and 5/price. 3/pool can (two such
    # cards). 1/park can (card 1's number, card 2's effect).
    loaded = load_deck_text(HEAD + CARD_LIST + STREETS)
    params: StreetsParams = loaded.deck.params
    game = generate(params, 3)
    assert [str(c) for c in game.cards] == ["1/fence", "2/park", "3/pool", "3/pool",
                                            "4/worker", "5/price"]
    offered = offered_pairs(game.cards)
    for never in ((1, Effect.FENCE), (2, Effect.PARK), (4, Effect.WORKER), (5, Effect.PRICE)):
        assert never not in offered
    assert (3, Effect.POOL) in offered and (1, Effect.PARK) in offered
    assert len(offered) == 5 * 5 - 4


def test_card_list_check_reports_the_listed_counts(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text(HEAD + CARD_LIST + STREETS, encoding="utf-8")
    code, out = _run("check", str(deck), "--format", "json")
    data = json.loads(out)
    entry = next(e for e in data["entries"] if e["check"] == "effect-counts")
    assert entry["status"] == "pass"
    assert "6 cards as listed in card_list" in entry["message"]
    assert "pool 2" in entry["message"] and "duplicate 0" in entry["message"]
    # Five distinct numbers (1..5) fill North (4 houses: 1 2 3 4) and South (5: 1..5).
    fill = next(e for e in data["entries"] if e["check"] == "numbers-fill-streets")
    assert fill["status"] == "pass"
    # (exit 1: default plans such as groups of 2, 3, 6 cannot fit on 9 houses: impossible)
    assert code == 1
    assert any(e["status"] == "impossible" for e in data["entries"])


@pytest.mark.parametrize(("text", "line", "words"), [
    ('  { number = 12, effect = "fence" },\n', 11, "outside the numbers 1..9"),
    ('  { number = 2, effect = "fence", copies = 2 },\n', 9, "holds 8 cards"),
])
def test_bad_card_lists_name_line_and_key(text: str, line: int, words: str) -> None:
    deck = HEAD + CARD_LIST.replace('  { number = 1, effect = "fence" },\n',
                                    '  { number = 1, effect = "fence" },\n' + text) + STREETS
    with pytest.raises(DeckError) as err:
        load_deck_text(deck, "d.toml")
    msg = str(err.value)
    assert words in msg, msg
    assert f"d.toml:{line}" in msg, msg


def test_card_list_unknown_effect_is_rejected() -> None:
    deck = HEAD + CARD_LIST.replace('"price"', '"lottery"') + STREETS
    with pytest.raises(DeckError) as err:
        load_deck_text(deck, "d.toml")
    assert "card_list" in str(err.value)


def test_generated_deck_stays_the_default() -> None:
    # Without card_list the deck is generated: 84 cards apportioned to the effect mix.
    params = StreetsParams()
    assert params.card_list == []
    game = generate(params, 11)
    assert len(game.cards) == 84
    assert game.effect_counts()[Effect.FENCE] == 18
