"""``[check]`` keys and command-line overrides are resolved in one place into one object."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from generator.deckfile import load_deck
from generator.errors import DeckError
from generator.families.base import CheckOptions
from generator.parallel import SERIAL, Pool, ProcessPool


def _deck(tmp_path: Path, check: str) -> Path:
    path = tmp_path / "d.toml"
    path.write_text(f'family = "cards"\nname = "d"\n[check]\n{check}\n'
                    '[[cards.rows]]\ntitle = "a"\n', encoding="utf-8")
    return path


def test_precision_keys_reach_the_resolved_settings(tmp_path: Path) -> None:
    loaded = load_deck(_deck(tmp_path, "precision = 0.1\nmean_precision = 0.2\nmax_games = 90"))
    s = CheckOptions().settings(loaded.deck)
    assert (s.sampling.rate, s.sampling.mean, s.sampling.max_games) == (0.1, 0.2, 90)
    assert s.simulations == 200 and s.budget.nodes == 200_000
    # the command line wins, and --simulations fixes the game count
    fixed = CheckOptions(simulations=7, precision=0.2).settings(loaded.deck)
    assert (fixed.sampling.min_games, fixed.sampling.max_games, fixed.sampling.rate) == (7, 7, 0.2)
    resolved = CheckOptions(max_games=5).resolve(loaded.deck)
    assert resolved.settings(loaded.deck) is resolved.resolved
    assert resolved.settings(loaded.deck).sampling.max_games == 5


def test_default_precision_is_five_points(tmp_path: Path) -> None:
    s = CheckOptions().settings(load_deck(_deck(tmp_path, "")).deck)
    assert s.sampling.rate == 0.05 and s.sampling.max_games == 2000


@pytest.mark.parametrize("bad", ["precision = 0", "precision = 0.7", "max_games = -1",
                                 "mean_precision = -1", "band = [0.9, 0.2]"])
def test_bad_precision_keys_are_rejected_with_their_line(tmp_path: Path, bad: str) -> None:
    with pytest.raises(DeckError) as err:
        load_deck(_deck(tmp_path, bad))
    text = err.value.problems[0].format()
    assert ":4" in text and bad.split(" ")[0] in text


def test_a_pool_pickled_into_a_worker_becomes_serial() -> None:
    pool = ProcessPool(2)
    back = pickle.loads(pickle.dumps(pool))
    assert type(back) is Pool and back.workers == 1
    assert pickle.loads(pickle.dumps(SERIAL)).map(abs, [-1, 2]) == [1, 2]
