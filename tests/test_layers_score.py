"""``paperproof score`` for layers: totals, every problem at file:line, JSON through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.deckfile import load_deck
from generator.errors import DeckError
from generator.families.base import ScoreResult

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "decks" / "layers.toml"


def score(text: str) -> ScoreResult:
    loaded = load_deck(DECK)
    gen = loaded.family.generate(loaded.deck)
    return loaded.family.score(loaded.deck, gen, Path("land.toml"), text)


def scissors_card() -> str:
    loaded = load_deck(DECK)
    gen = loaded.family.generate(loaded.deck)
    text: str = next(c.card.text for c in gen.landscape if c.card.scissors and c.card.value == 5)
    return text


GOOD = """hand = 2
discard = 1
tokens = [4, 2]
[stacks]
"0,0" = ["fern 1 start", "fern 2", "fern 3"]
"0,1" = ["lagoon 1", "lagoon 3"]
"1,1" = ["cinder 1", "cinder 2", "cinder 3", "cinder 4", "cinder 5"]
"""


def test_total_is_stars_plus_tokens_minus_hand_and_discard() -> None:
    r = score(GOOD)
    by = {line.label: line.points for line in r.lines}
    assert by["stars on top cards"] == 1 + 1 + 3
    assert by["objective tokens"] == 6
    assert by["scissors token"] == 0
    assert by["cards in hand"] == -2 and by["cards in discard"] == -1
    assert r.total == 5 + 6 - 3
    assert any(line.label == "note" and "skip to lagoon 3" in line.detail for line in r.lines)


def test_scissors_token_bonus_and_objectives_met() -> None:
    card = scissors_card()  # e.g. "cinder 5 scissors"
    colour = card.split()[0]
    stack = ", ".join(f'"{colour} {v}"' for v in range(1, 5)) + f', "{card}"'
    text = f'scissors = "0,1"\n[stacks]\n"0,0" = ["fern 1 start"]\n"0,1" = [{stack}]\n'
    r = score(text)
    by = {line.label: line.points for line in r.lines}
    assert by["scissors token"] == 2
    assert r.total == 3 + 2
    text = ('[stacks]\n"0,0" = ["fern 1 start"]\n"0,1" = ["fern 1"]\n"0,2" = ["fern 1"]\n')
    labels = [line.label for line in score(text).lines]
    assert "meets obj-01 Ridge Line" in labels


BAD: list[tuple[str, int, str]] = [
    ('[stacks]\n"0,0" = ["fern 1", "lagoon 2"]\n', 2, "lagoon 2 on a fern stack"),
    ('[stacks]\n"0,0" = ["fern 1", "fern 4"]\n', 2, "fern 4 on a 1"),
    ('[stacks]\n"0,0" = ["fern 3"]\n', 2, "fern 3 to start a stack"),
    ('[stacks]\n"0,0" = ["mauve 1"]\n', 2, "the deck has no 'mauve 1' card"),
    ('[stacks]\n"0,0" = ["fern 1"]\n"0,2" = ["fern 1"]\n', 1, "do not hang together"),
    ('[stacks]\n"0,0" = ["fern 1"]\n"0,1" = ["fern 1"]\n"0,2" = ["fern 1"]\n'
     '"0,3" = ["fern 1"]\n', 1, "do not fit a 3x3"),
    ('hand = -1\n[stacks]\n"0,0" = ["fern 1"]\n', 1, "hand must be a whole number"),
    ('colour = 3\n[stacks]\n"0,0" = ["fern 1"]\n', 1, "unknown key 'colour'"),
    ('scissors = "0,0"\n[stacks]\n"0,0" = ["fern 1"]\n', 1, "has no scissors logo"),
    ('[stacks]\n"a" = ["fern 1"]\n', 2, "'a' is not a position"),
    ('[stacks]\n"0,0" = ["fern 2 start"]\n', 2, "is not a starting card"),
    ('[stacks]\n"0,0" = ["fern 1", "fern 2", "fern 3", "fern 4", "fern 5"]\n'
     '"0,1" = ["fern 1", "fern 2", "fern 3", "fern 4", "fern 5"]\n'
     '"0,2" = ["fern 1", "fern 2", "fern 3", "fern 4", "fern 5"]\n'
     '"1,0" = ["fern 1", "fern 2", "fern 3", "fern 4", "fern 5"]\n'
     '"1,1" = ["fern 1", "fern 2", "fern 3", "fern 4", "fern 5"]\n'
     '"1,2" = ["fern 1", "fern 2", "fern 3", "fern 4", "fern 5"]\n', 1, "but the deck prints"),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD)
def test_bad_landscape_is_refused_at_its_line(text: str, line: int, message: str) -> None:
    with pytest.raises(DeckError) as err:
        score(text)
    found = [p for p in err.value.problems if message in p.message]
    assert found, [p.format() for p in err.value.problems]
    assert found[0].line == line and found[0].file == "land.toml"


def test_every_problem_is_reported_not_only_the_first() -> None:
    with pytest.raises(DeckError) as err:
        score('hand = "x"\n[stacks]\n"0,0" = ["mauve 1"]\n"0,1" = ["fern 9"]\n')
    assert len(err.value.problems) >= 3


def test_cli_score_text_json_and_errors(tmp_path: Path) -> None:
    land = tmp_path / "land.toml"
    land.write_text(GOOD)
    runner = CliRunner()
    r = runner.invoke(main, ["score", str(DECK), str(land)])
    assert r.exit_code == 0, r.output
    assert "stars on top cards" in r.output
    r = runner.invoke(main, ["score", str(DECK), str(land), "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["total"] == 8
    land.write_text('[stacks]\n"0,0" = ["fern 1", "fern 4"]\n')
    r = runner.invoke(main, ["score", str(DECK), str(land)])
    assert r.exit_code == 2
    assert "land.toml:2" in r.output and "fern 4 on a 1" in r.output
