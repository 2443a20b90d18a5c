"""Parks through the command line: build the default deck, check an impossible deck (exit 1
with the reason), JSON output with certificates, and the starter deck template."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import run_cli as run

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = str(ROOT / "decks" / "parks.toml")
SMALL = str(ROOT / "tests" / "decks" / "parks-small.toml")
IMPOSSIBLE = str(ROOT / "tests" / "decks" / "parks-impossible.toml")




def test_build_default_deck(tmp_path: Path) -> None:
    code, out, err = run("build", DEFAULT, "-o", str(tmp_path), "--simulations", "1")
    assert code == 0, err + out
    folder = tmp_path / "parks"
    for name in ("sheets.pdf", "pod.pdf", "cut.svg", "report.json", "index.html"):
        assert (folder / name).is_file(), name
    for svg in ("sheet", "park-01", "park-30", "grand-04", "die", "tokens", "score-pad",
                "proof-park-01", "proof-grand-04"):
        assert (folder / "svg" / f"{svg}.svg").is_file(), svg
    report = json.loads((folder / "report.json").read_text())
    assert report["ok"] is True and report["family"] == "parks"
    assert report["counts"]["completable"] == 34


def test_check_impossible_deck_exits_1_with_reasons() -> None:
    code, out, _ = run("check", IMPOSSIBLE)
    assert code == 1
    assert "walkway 1 needs 3 spaces" in out
    assert "demands 2 recycling icon squares; the sheet has 1" in out


def test_check_json_has_replayable_certificates() -> None:
    from generator.families.parks.cert import Certificate
    from generator.families.parks.model import Card, Die, Sheet
    from generator.families.parks.replay import replay

    code, out, _ = run("check", SMALL, "--format", "json")
    assert code == 0
    data = json.loads(out)
    doc = data[0] if isinstance(data, list) else data
    entries = [e for e in doc["entries"] if e["check"] == "completable"]
    assert len(entries) == 3
    sheet = Sheet.from_text("GGWAP\nGGWAP\nAAPGG\nPWGGA\n\nicons:\n..w..\n.....\nr....\n...w.")
    die = Die.from_text("1 | 2,2 | 3,3,3 | 1,2 | 2,3 | 4")
    wet = Card.from_rows("park-02", "Wet Walk", ["WW", "#."], walkways=["11", ".."],
                         bonus="extra-cut")
    e = next(x for x in entries if x["subject"] == "park-02")
    assert replay(sheet, die, wet, Certificate.from_json(e["details"]["certificate"])) == ""


def test_new_parks_template_checks(tmp_path: Path) -> None:
    code, _, err = run("new", "parks", str(tmp_path / "mine.toml"))
    assert code == 0, err
    text = (tmp_path / "mine.toml").read_text()
    assert 'family = "parks"' in text and 'name = "mine"' in text
    code, out, err = run("check", str(tmp_path / "mine.toml"), "--simulations", "1")
    assert code == 0, err + out


def test_score_a_solo_game(tmp_path: Path) -> None:
    game = tmp_path / "game.toml"
    game.write_text('completed = ["park-01", "park-03"]\ntokens = 1\nlargest_section = 4\n'
                    "crumpled = 2\nincomplete = 1\n")
    code, out, err = run("score", SMALL, str(game), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["total"] == 2 * 3 + 1 + 4 - 2 - 1
    # cards may be named by their printed names too
    game.write_text('completed = ["corner lawn", "Quiet Den"]\ntokens = 1\n'
                    'largest_section = 4\ncrumpled = 2\nincomplete = 1\n')
    code, out, err = run("score", SMALL, str(game), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["total"] == data["total"]
    game.write_text('completed = ["park-09"]\ntokens = -1\ncolour = "red"\n')
    code, out, err = run("score", SMALL, str(game))
    assert code == 2
    text = out + err
    assert "no card 'park-09'" in text and "tokens must be a whole number" in text
    assert "unknown key 'colour'" in text


def test_the_report_alone_is_enough_to_replay_every_certificate() -> None:
    # an independent checker: rebuilds sheet, cards and die from report.json's model only
    from generator.core.grid import Cell
    from generator.families.parks.cert import Certificate
    from generator.families.parks.model import (
        Bonus,
        Card,
        Demand,
        Die,
        Feature,
        Icon,
        Sheet,
        Square,
    )
    from generator.families.parks.replay import replay

    code, out, _ = run("check", SMALL, "--format", "json")
    assert code == 0
    data = json.loads(out)
    doc = data[0] if isinstance(data, list) else data
    model = doc["figures"]["model"]
    squares = {(r, c): Square(Feature(sq["feature"]), Icon(sq["icon"]) if sq["icon"] else None)
               for r, row in enumerate(model["sheet"]["squares"]) for c, sq in enumerate(row)}
    sheet = Sheet.from_text(model["sheet"]["text"])
    assert all(sheet.at(cell) == sq for cell, sq in squares.items())
    die = Die(tuple(tuple(f) for f in model["die"]))

    def cell(x: list[int]) -> Cell:
        return (x[0], x[1])

    cards = {m["id"]: Card(m["id"], m["name"], frozenset(cell(x) for x in m["cells"]),
                           tuple((cell(d["cell"]), Demand(
                               Feature(d["feature"]) if d["feature"] else None,
                               Icon(d["icon"]) if d["icon"] else None))
                                 for d in m["demands"]),
                           tuple(frozenset(cell(x) for x in w) for w in m["walkways"]),
                           bonus=Bonus(m["bonus"]), grand=m["grand"]) for m in model["cards"]}
    done = 0
    for e in doc["entries"]:
        if e["check"] == "completable" and "certificate" in e["details"]:
            cert = Certificate.from_json(e["details"]["certificate"])
            assert replay(sheet, die, cards[cert.card], cert) == ""
            done += 1
    assert done == 3
