"""Quilts deck loading, validation and generation: deterministic, distinct, priced by the value
model; hand-written pieces; every bad input reported with its key path."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.core.polyomino import Polyomino, Symmetry
from generator.deckfile import load_deck, load_deck_text
from generator.errors import DeckError
from generator.families.quilts.generate import candidate_shapes, generate, has_hole
from generator.families.quilts.model import Params

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "decks" / "quilts.toml"
PENTOMINOES = ROOT / "tests" / "decks" / "quilts-pentominoes.toml"


def deck_text(table: str, extra: str = "") -> str:
    return f'family = "quilts"\nname = "t"\nseed = 4\n{extra}\n[quilts]\n{table}\n'


def test_default_deck_has_33_distinct_priced_pieces() -> None:
    loaded = load_deck(DEFAULT)
    qs = loaded.family.generate(loaded.deck)
    assert len(qs.pieces) == 33
    assert sorted({p.size for p in qs.pieces}) == [2, 3, 4, 5, 6, 7, 8]
    keys = {p.shape.canonical(Symmetry.FREE) for p in qs.pieces}
    assert len(keys) == 33  # no two congruent
    params: Params = loaded.deck.params
    for p in qs.pieces:
        assert max(p.shape.height, p.shape.width) <= params.max_span
        assert not has_hole(p.shape)
        assert 0 <= p.cost <= params.max_cost and 1 <= p.time <= params.max_time
        assert 0 <= p.income <= 3
        value = qs.values.value(p)
        # the value model: gain - spend, within target +- spread unless clamped by the caps
        assert value == 2 * p.size + 3 * p.income - p.cost - p.time
        if 0 < p.cost < params.max_cost:
            assert abs(value - 7) <= 2 + 0.5


def test_generation_is_deterministic_and_seeded() -> None:
    a = generate(Params(), 11)
    b = generate(Params(), 11)
    c = generate(Params(), 12)
    assert a == b
    assert a != c
    assert [str(p.shape) for p in a.pieces] != [str(p.shape) for p in c.pieces]


def test_holes_are_detected() -> None:
    ring = Polyomino.from_text("###/#.#/###")
    assert has_hole(ring)
    assert not has_hole(Polyomino.from_text("###/#.#"))
    sevens = candidate_shapes(7, 7, True)
    assert len(sevens) == 108 and sum(has_hole(p) for p in sevens) == 1
    assert len(candidate_shapes(7, 7, False)) == 107


def test_hand_written_pieces_and_copies() -> None:
    text = deck_text('allow_duplicates = true\n[[quilts.pieces]]\nshape = ["##", "#."]\n'
                     'cost = 2\ntime = 3\nincome = 1\ncount = 2\n'
                     '[[quilts.pieces]]\nshape = "####"\n')
    loaded = load_deck_text(text)
    qs = loaded.family.generate(loaded.deck)
    assert [p.id for p in qs.pieces] == ["piece-01", "piece-02", "piece-03"]
    assert str(qs.pieces[0].shape) == "##\n#."
    assert (qs.pieces[1].cost, qs.pieces[1].time, qs.pieces[1].income) == (2, 3, 1)
    assert str(qs.pieces[2].shape) == "####" and not qs.generated


def test_pentomino_deck_loads() -> None:
    loaded = load_deck(PENTOMINOES)
    qs = loaded.family.generate(loaded.deck)
    assert len(qs.pieces) == 12 and sum(p.size for p in qs.pieces) == 60
    assert len({p.shape.canonical(Symmetry.FREE) for p in qs.pieces}) == 12
    assert (qs.rules.rows, qs.rules.cols) == (6, 10)


@pytest.mark.parametrize(
    ("table", "code", "key"),
    [
        ('[[quilts.pieces]]\nshape = ["#.", ".#"]', "E-QUILTS-SHAPE", "quilts.pieces[0].shape"),
        ('[[quilts.pieces]]\nshape = ["#x"]', "E-QUILTS-SHAPE", "quilts.pieces[0].shape"),
        ('[[quilts.pieces]]\nshape = [".."]', "E-QUILTS-SHAPE", "quilts.pieces[0].shape"),
        ("sizes = { 2 = 3 }", "E-QUILTS-SIZES", "quilts.sizes.2"),
        ("sizes = { 2 = 0 }", "E-QUILTS-EMPTY", "quilts.sizes"),
        ("sizes = { 11 = 1 }", "E-QUILTS-SIZES", "quilts.sizes.11"),
        ("income_odds = [0, 0]", "E-QUILTS-ODDS", "quilts.income_odds"),
        ("[quilts.track]\nlength = 20\npatches = [5, 25]", "E-QUILTS-TRACK",
         "quilts.track.patches[1]"),
        ("[quilts.track]\nincome = [5, 5]", "E-QUILTS-TRACK", "quilts.track.income"),
        ("buttons = { 0 = 4 }", "E-QUILTS-BUTTONS", "quilts.buttons.0"),
    ],
)
def test_bad_decks_are_reported_with_their_key(table: str, code: str, key: str) -> None:
    with pytest.raises(DeckError) as info:
        load_deck_text(deck_text(table), "bad.toml")
    found = [(p.code, p.key) for p in info.value.problems]
    assert (code, key) in found, found
    problem = next(p for p in info.value.problems if p.code == code)
    assert problem.hint and problem.line > 0


def test_every_problem_is_collected() -> None:
    table = ('income_odds = [-1]\n[quilts.track]\nincome = [0]\n'
             '[[quilts.pieces]]\nshape = "#.#"\n[[quilts.pieces]]\nshape = "q"')
    with pytest.raises(DeckError) as info:
        load_deck_text(deck_text(table), "bad.toml")
    codes = sorted(p.code for p in info.value.problems)
    assert codes == ["E-QUILTS-ODDS", "E-QUILTS-SHAPE", "E-QUILTS-SHAPE", "E-QUILTS-TRACK"]


def test_schema_errors_name_the_key() -> None:
    with pytest.raises(DeckError) as info:
        load_deck_text(deck_text("[[quilts.pieces]]\nshape = \"##\"\nincome = 4\ncolor = 1"))
    keys = {p.key for p in info.value.problems}
    assert "quilts.pieces[0].income" in keys
