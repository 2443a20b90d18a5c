"""``paperproof shapes N``: the gallery text and the command."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from generator.commands_shapes import shapes
from generator.core.polyomino import Symmetry
from generator.core.shapes import shapes_text


def test_pentomino_gallery_lists_the_twelve() -> None:
    text = shapes_text(5)
    assert text.startswith("12 free pentominoes\n")
    assert "#####" in text
    assert text.splitlines()[2].split() == [str(k) for k in range(1, 13)]  # numbered
    assert all(len(line) <= 78 for line in text.splitlines())


def test_counts_only() -> None:
    assert shapes_text(8, count_only=True) == "369\n"
    assert shapes_text(6, symmetry=Symmetry.ONE_SIDED, count_only=True) == "60\n"
    assert shapes_text(4, hex=True, count_only=True) == "7\n"
    assert shapes_text(3, hex=True, symmetry=Symmetry.FIXED, count_only=True) == "11\n"


def test_hex_gallery_draws_hexes() -> None:
    text = shapes_text(3, hex=True)
    assert text.startswith("3 free polyhexes of 3 cells")
    gallery = text.split("\n", 1)[1]
    assert gallery.count("o") == 9


def test_bad_n_is_refused() -> None:
    with pytest.raises(ValueError):
        shapes_text(0)
    with pytest.raises(ValueError):
        shapes_text(13)


def test_command_prints_the_gallery_and_counts() -> None:
    runner = CliRunner()
    res = runner.invoke(shapes, ["4"])
    assert res.exit_code == 0 and res.output.startswith("5 free tetrominoes")
    res = runner.invoke(shapes, ["5", "--one-sided", "--count"])
    assert res.exit_code == 0 and res.output == "18\n"
    res = runner.invoke(shapes, ["5", "--fixed", "--count"])
    assert res.output == "63\n"
    res = runner.invoke(shapes, ["5", "--hex", "--count"])
    assert res.output == "22\n"
    res = runner.invoke(shapes, ["0"])
    assert res.exit_code == 2


def test_the_paperproof_group_has_the_shapes_command() -> None:
    from generator.cli import main

    res = CliRunner().invoke(main, ["shapes", "5", "--count"])
    assert res.exit_code == 0 and res.output == "12\n"
