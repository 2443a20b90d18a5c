"""The command line as a user meets it: exit codes, messages, files written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run_cli as run

ROOT = Path(__file__).resolve().parent.parent
CARDS = str(ROOT / "decks" / "cards.toml")




def test_build_cards_deck_writes_every_output(tmp_path: Path) -> None:
    code, out, err = run("build", CARDS, "-o", str(tmp_path))
    assert code == 0, err
    folder = tmp_path / "player-aid"  # the deck's name, not its file name
    for name in ("sheets.pdf", "pod.pdf", "cut.svg", "report.json", "index.html"):
        assert (folder / name).is_file(), name
    assert (folder / "svg" / "card-01.svg").is_file()
    assert (folder / "svg" / "card-01-back.svg").is_file()
    report = json.loads((folder / "report.json").read_text())
    assert report["ok"] is True and report["family"] == "cards"
    assert "player-aid: 5 components" in out
    # the paper it takes: two front sheets of cards, each followed by its back
    assert "pages: 4 sheets.pdf" in out
    assert (folder / "cut" / "sheets-01.svg").is_file()
    assert (folder / "cut" / "sheets-01.dxf").is_file()
    assert not (folder / "cut" / "sheets-02.svg").exists()  # a back has nothing to cut
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_build_is_byte_identical_twice(tmp_path: Path) -> None:
    run("build", CARDS, "-o", str(tmp_path / "a"))
    run("build", CARDS, "-o", str(tmp_path / "b"))
    for name in ("sheets.pdf", "pod.pdf", "cut.svg", "report.json", "index.html",
                 "svg/card-03.svg", "cut/sheets-01.svg", "cut/sheets-01.dxf"):
        assert (tmp_path / "a/player-aid" / name).read_bytes() == \
            (tmp_path / "b/player-aid" / name).read_bytes(), name


def test_only_selects_components(tmp_path: Path) -> None:
    code, out, _ = run("build", CARDS, "-o", str(tmp_path))
    full = sorted(p.name for p in (tmp_path / "player-aid" / "svg").iterdir())
    code, out, _ = run("build", CARDS, "-o", str(tmp_path), "--only", "2,End of the game,card-05")
    assert code == 0
    folder = tmp_path / "player-aid-only-2-end-of-the-game-card-05"
    svgs = sorted(p.name for p in (folder / "svg").glob("card-??.svg"))
    assert svgs == ["card-02.svg", "card-04.svg", "card-05.svg"]
    # The stamp keeps the deck's numbering, not the position in the selection.
    svg = (folder / "svg" / "card-04.svg").read_text(encoding="utf-8")
    assert "#4 card-04" in svg and "#2" not in svg
    # the full build is untouched by the partial one
    assert sorted(p.name for p in (tmp_path / "player-aid" / "svg").iterdir()) == full
    code, _, _ = run("build", CARDS, "-o", str(tmp_path), "--only", "features", "--into",
                     "one")
    assert code == 0 and (tmp_path / "one" / "svg" / "card-02.svg").is_file()
    code, _, err = run("build", CARDS, "-o", str(tmp_path), "--only", "feature")
    assert code == 2 and "no component is called 'feature'; did you mean features" in err
    code, _, err = run("build", CARDS, "-o", str(tmp_path), "--only", "x-1")
    assert code == 2 and "--only" in err


def test_check_names_every_card_verdict_first() -> None:
    code, out, _ = run("check", CARDS)
    assert code == 0
    assert "  pass         #4 card-04 End of the game" in out
    code, out, _ = run("check", CARDS, "--card", "end of the game", "--card", "1")
    lines = [line for line in out.splitlines() if line.startswith("  pass")]
    assert [line.split()[1:3] for line in lines] == [["#1", "card-01"], ["#4", "card-04"]]
    code, out, _ = run("check", CARDS, "--card", "card-02", "--format", "json")
    data = json.loads(out)
    assert [(e["index"], e["subject"], e["name"]) for e in data["entries"]] == \
        [(2, "card-02", "Features")]
    assert data["components"][4] == {"index": 5, "id": "card-05", "kind": "card",
                                     "name": "Vocabulario · Словарь · Szótár"}
    code, _, err = run("check", CARDS, "--card", "nope")
    assert code == 2 and "no component is called 'nope'" in err


def test_two_decks_of_one_name_are_refused(tmp_path: Path) -> None:
    for stem in ("a", "b"):
        (tmp_path / f"{stem}.toml").write_text(
            'family = "cards"\nname = "same"\n[[cards.rows]]\ntitle = "Hi"\n',
            encoding="utf-8")
    code, _, err = run("build", str(tmp_path / "a.toml"), str(tmp_path / "b.toml"), "-o",
                       str(tmp_path / "out"))
    assert code == 2 and "both named 'same'" in err and not (tmp_path / "out").exists()


def test_bad_deck_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('family = "cards"\nname = "b"\nsed = 1\n[print]\nbleed = "3 parsecs"\n',
                   encoding="utf-8")
    out_dir = tmp_path / "out"
    code, _, err = run("build", str(bad), "-o", str(out_dir))
    assert code == 2
    assert "bad.toml:3: sed: unknown key 'sed'; did you mean 'seed'?" in err
    assert "bad.toml:5: print.bleed:" in err
    assert "Traceback" not in err
    assert not out_dir.exists()


def test_failed_build_leaves_previous_output(tmp_path: Path) -> None:
    code, _, _ = run("build", CARDS, "-o", str(tmp_path))
    assert code == 0
    before = (tmp_path / "player-aid" / "sheets.pdf").read_bytes()
    deck = tmp_path / "cards.toml"
    text = Path(CARDS).read_text(encoding="utf-8")
    # A title far too long for its band at the minimum size: the check fails, nothing prints.
    deck.write_text(text.replace('title = "Your turn"', 'title = "' + "Long " * 80 + '"'),
                    encoding="utf-8")
    code, _, err = run("build", str(deck), "-o", str(tmp_path))
    assert code == 1 and "text-fits" in err
    assert (tmp_path / "player-aid" / "sheets.pdf").read_bytes() == before


def test_index_html_escapes_user_text(tmp_path: Path) -> None:
    deck = tmp_path / "esc.toml"
    deck.write_text('family = "cards"\nname = "esc"\ndescription = "<b>bold</b> & co"\n'
                    '[[cards.rows]]\ntitle = "<script>alert(1)</script>"\n', encoding="utf-8")
    code, _, err = run("build", str(deck), "-o", str(tmp_path / "out"))
    assert code == 0, err
    html = (tmp_path / "out" / "esc" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; co" in html
    assert 'src="svg/card-01.svg"' in html


def test_check_exit_codes_and_json() -> None:
    code, out, _ = run("check", CARDS, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["ok"] and data["counts"]["pass"] == 5
    code, _, err = run("check", str(ROOT / "nonexistent.toml"))
    assert code == 2 and "no such deck file" in err


def test_new_writes_a_starter_that_builds(tmp_path: Path) -> None:
    target = tmp_path / "mine.toml"
    code, out, _ = run("new", "cards", str(target))
    assert code == 0 and target.is_file()
    code, _, err = run("build", str(target), "-o", str(tmp_path / "out"))
    assert code == 0, err
    code, _, err = run("new", "cards", str(target))
    assert code == 2 and "--force" in err
    code, _, err = run("new", "nofamily", str(tmp_path / "x.toml"))
    assert code == 2 and "unknown family" in err


def test_families_and_schema() -> None:
    code, out, _ = run("families")
    assert code == 0 and "cards" in out
    code, out, _ = run("schema", "cards")
    schema = json.loads(out)
    assert schema["properties"]["family"] == {"const": "cards", "description": "The family."}
    assert "cards" in schema["properties"]
    code, out, _ = run("schema")
    assert "oneOf" in json.loads(out)


@pytest.mark.parametrize("args", [["build"], ["check"]])
def test_default_decks_folder(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "mini.toml").write_text(
        'family = "cards"\nname = "mini"\n[[cards.rows]]\ntitle = "Hi"\n', encoding="utf-8")
    code, out, err = run(*args, cwd=tmp_path)
    assert code == 0, err
    if args == ["build"]:
        assert (tmp_path / "output" / "mini" / "sheets.pdf").is_file()


def test_every_default_deck_builds_byte_identical_twice(tmp_path: Path) -> None:
    """Same deck and seed, same bytes: reports carry no timings, PDFs no dates."""
    decks = sorted(str(p) for p in (ROOT / "decks").glob("*.toml"))
    for out in ("a", "b"):
        code, _, err = run("build", *decks, "-o", str(tmp_path / out), "--simulations", "3")
        assert code == 0, err
    a_files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*")
                     if p.is_file())
    assert len(a_files) > 100
    for rel in a_files:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel
