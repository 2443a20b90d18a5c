"""Quilts through the command line: build the default deck, check a hand-written deck and an
impossible one, score a finished quilt, write a starter deck."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import run_cli as run

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = str(ROOT / "decks" / "quilts.toml")
PENTOMINOES = str(ROOT / "tests" / "decks" / "quilts-pentominoes.toml")




def test_build_default_deck(tmp_path: Path) -> None:
    code, out, err = run("build", DEFAULT, "-o", str(tmp_path))
    assert code == 0, err + out
    folder = tmp_path / "quilts"
    for name in ("sheets.pdf", "pod.pdf", "cut.svg", "report.json", "index.html"):
        assert (folder / name).is_file(), name
    for svg in ("piece-01", "board", "track", "bonus", "proof-board", "proof-bonus"):
        assert (folder / "svg" / f"{svg}.svg").is_file(), svg
    report = json.loads((folder / "report.json").read_text())
    assert report["ok"] is True and report["family"] == "quilts"
    fills = [e for e in report["entries"] if e["check"] in ("fill", "bonus-fill")]
    assert [e["status"] for e in fills] == ["completable", "completable"]
    assert fills[0]["details"]["certificate"]["placements"]


def test_check_hand_written_deck_json() -> None:
    code, out, err = run("check", PENTOMINOES, "--format", "json")
    assert code == 0, err + out
    report = json.loads(out)
    fill = next(e for e in report["entries"] if e["check"] == "fill")
    assert fill["status"] == "completable"
    cells = [tuple(c) for p in fill["details"]["certificate"]["placements"] for c in p["cells"]]
    assert len(cells) == len(set(cells)) == 60


def test_impossible_deck_exits_1_with_reason(tmp_path: Path) -> None:
    deck = tmp_path / "thin.toml"
    deck.write_text('family = "quilts"\nname = "thin"\n[check]\nsimulations = 0\n[quilts]\n'
                    'sizes = { 5 = 2 }\n', encoding="utf-8")
    code, out, _ = run("check", str(deck))
    assert code == 1
    line = next(x for x in out.splitlines() if " fill " in x)
    assert "impossible" in line and "cannot be filled" in line


def test_bad_deck_exits_2_with_location(tmp_path: Path) -> None:
    deck = tmp_path / "bad.toml"
    deck.write_text('family = "quilts"\nname = "bad"\n[quilts]\n\n[[quilts.pieces]]\n'
                    'shape = "#.#"\n', encoding="utf-8")
    code, _, err = run("check", str(deck))
    assert code == 2
    assert "bad.toml:6" in err and "E-QUILTS-SHAPE" in err


def test_score_a_finished_quilt(tmp_path: Path) -> None:
    rows = ["#########"] * 7 + ["####.....", "........."]
    src = tmp_path / "end.toml"
    src.write_text(f"buttons = 21\nbonus = true\nboard = {json.dumps(rows)}\n",
                   encoding="utf-8")
    code, out, err = run("score", DEFAULT, str(src), "--format", "json")
    assert code == 0, err
    result = json.loads(out)
    assert result["total"] == 21 + 7 - 2 * 14
    bad = tmp_path / "bad.toml"
    bad.write_text('buttons = 3\nbonus = true\nboard = ["#########"]\n', encoding="utf-8")
    code, _, err = run("score", DEFAULT, str(bad))
    assert code == 2 and "board" in err
    bad.write_text('buttons = "3"\nbonus = 1\npatches = 2\n', encoding="utf-8")
    code, _, err = run("score", DEFAULT, str(bad))
    assert code == 2
    for where in ("bad.toml:1: buttons", "bad.toml:2: bonus", "bad.toml:3: patches"):
        assert where in err, (where, err)
    assert "board: required key is missing" in err


def test_new_writes_a_deck_that_checks(tmp_path: Path) -> None:
    code, _, err = run("new", "quilts", "mine.toml", cwd=tmp_path)
    assert code == 0, err
    code, out, err = run("check", str(tmp_path / "mine.toml"), "--simulations", "2")
    assert code == 0, err + out
