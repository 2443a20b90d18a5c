"""Streets end to end: build, check and score through the CLI; the layout's components."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.deckfile import load_deck, load_deck_text
from generator.errors import DeckError
from generator.families.base import CheckOptions
from generator.families.streets.layout import sheet_drawing
from generator.render.drawing import Drawing, Line, Polygon, Rect, Symbol, TextBox

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "decks/streets.toml"

SHEET = """\
# Elm Row is full; fences after houses 2, 4, 6 make groups of 2, 2, 2 and 3.
workers = 1
refusals = 1
price = [0, 1]

[[street]]
houses = [1, 2, 3, 4, 5, 6, "6d", 9, 10]
fences = [2, 4, 6]
pools = [3]
parks = 2

[[street]]
houses = [".", ".", ".", ".", ".", ".", ".", ".", ".", ".", "."]

[[street]]
houses = [".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", "."]

[[plan]]
id = "plan-01"
first = true
groups = [[1, 1, 2], [1, 3, 4], [1, 5, 6]]
"""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_score_a_filled_sheet_text_and_json(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.toml"
    sheet.write_text(SHEET, encoding="utf-8")
    code, out = run("score", str(DECK), str(sheet), "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    lines = {line["label"]: line["points"] for line in data["lines"]}
    assert lines["plan plan-01"] == 7
    assert lines["parks Elm Row"] == 3
    assert lines["pools"] == 2 and lines["workers"] == 0
    assert lines["groups of 2"] == 9          # three groups at the raised value 3
    assert lines["groups of 3"] == 3
    assert lines["duplicates"] == -1 and lines["refusals"] == 0
    assert data["total"] == 23
    code, out = run("score", str(DECK), str(sheet))
    assert code == 0 and out.strip().endswith("23")


@pytest.mark.parametrize(("edit", "line", "words"), [
    (("[1, 2, 3, 4, 5, 6,", "[1, 2, 3, 4, 7, 6,"), 7, "rising order"),
    (("pools = [3]", "pools = [4]"), 9, "no pool spot"),
    (("parks = 2", "parks = 4"), 10, "out of range"),
    (("groups = [[1, 1, 2], [1, 3, 4], [1, 5, 6]]", "groups = [[1, 1, 2], [1, 3, 4], [1, 7, 9]]"),
     19, "needs groups of sizes"),
    (("id = \"plan-01\"", "id = \"plan-99\""), 20, "unknown plan"),
])
def test_bad_sheets_are_rejected_at_file_and_line(tmp_path: Path, edit: tuple[str, str],
                                                  line: int, words: str) -> None:
    text = SHEET.replace(*edit)
    assert text != SHEET
    sheet = tmp_path / "bad.toml"
    sheet.write_text(text, encoding="utf-8")
    loaded = load_deck(DECK)
    with pytest.raises(DeckError) as err:
        loaded.family.score(loaded.deck, loaded.family.generate(loaded.deck), sheet, text)
    message = str(err.value)
    assert words in message
    assert f"{sheet}:" in message
    lines = {p.line for p in err.value.problems}
    assert lines and all(n > 1 for n in lines)
    assert abs(min(lines) - line) <= 2
    code, out = run("score", str(DECK), str(sheet))
    assert code == 2 and words in out


def test_check_exit_codes() -> None:
    code, out = run("check", str(DECK))
    assert code == 0, out
    assert "plan-01" in out and "completable" in out
    code, out = run("check", str(ROOT / "tests/decks/streets-impossible.toml"))
    assert code == 1
    assert "needs 5 groups of 6; streets of 9, 11, 13 houses hold at most 4" in out


def test_build_default_and_hand_written_deck(tmp_path: Path) -> None:
    for deck in (DECK, ROOT / "tests/decks/streets-small.toml"):
        code, out = run("build", str(deck), "-o", str(tmp_path))
        assert code == 0, out
        folder = tmp_path / deck.stem
        assert (folder / "sheets.pdf").stat().st_size > 10_000
        report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
        assert report["ok"]
        svgs = {p.name for p in (folder / "svg").iterdir()}
        assert "sheet.svg" in svgs and "plan-01.svg" in svgs and "proof-plan-01.svg" in svgs
        assert any(name.startswith("card-") and name.endswith("-back.svg") for name in svgs)


def test_invalid_params_are_located() -> None:
    text = DECK.read_text(encoding="utf-8").replace("cards = 84", "cards = 85").replace(
        "pools = [3, 7]", "pools = [3, 17]")
    with pytest.raises(DeckError) as err:
        load_deck_text(text, "bad.toml")
    codes = {p.code for p in err.value.problems}
    assert {"E-STREETS-CARDS", "E-STREETS-POOL"} <= codes
    assert all(p.line > 1 for p in err.value.problems)


def _walk(d: Drawing) -> list[object]:
    return list(d.items)


@pytest.mark.parametrize("page", ["A4", "Letter"])
def test_sheet_fits_one_page_and_has_every_part(page: str) -> None:
    text = DECK.read_text(encoding="utf-8").replace('page = "A4"', f'page = "{page}"')
    loaded = load_deck_text(text, "deck.toml")
    game = loaded.family.generate(loaded.deck)
    d = sheet_drawing(loaded.deck, game)
    pw, ph = loaded.deck.print.page.width, loaded.deck.print.page.height
    assert d.width <= pw - 2 * loaded.deck.print.margin + 1e-6
    assert d.height <= ph - 2 * loaded.deck.print.margin + 1e-6
    items = _walk(d)
    houses = [i for i in items if isinstance(i, Polygon)]
    assert len(houses) == 9 + 11 + 13          # one polygon per house
    pools = [i for i in items if isinstance(i, Symbol) and i.name == "pool"]
    assert len(pools) == 2 + 3 + 3 + 1          # spots + the pool track's icon
    fence_slots = [i for i in items if isinstance(i, Line) and i.stroke.dash]
    assert len(fence_slots) == 8 + 10 + 12
    texts = " ".join(i.text for i in items if isinstance(i, TextBox))
    for word in ("Elm Row", "Quarry Street", "Lantern Way", "Pools", "Workers",
                 "Duplicates", "Refusals", "total", "25", "14"):
        assert word in texts
    for item in items:
        if isinstance(item, Rect | TextBox):
            assert item.x >= -1e-6 and item.x + item.w <= d.width + 1e-6
            assert item.y >= -1e-6 and item.y + item.h <= d.height + 1e-6


def test_components_cards_plans_aid_and_proofs() -> None:
    loaded = load_deck(DECK)
    game = loaded.family.generate(loaded.deck)
    report = loaded.family.check(loaded.deck, game, CheckOptions(simulations=0))
    comps = loaded.family.layout(loaded.deck, game, report)
    ids = [c.id for c in comps]
    assert len(ids) == len(set(ids))
    cards = [c for c in comps if c.kind == "construction"]
    assert sum(c.copies for c in cards) == 84
    assert all(c.back is not None and c.imposition == "grid" for c in cards)
    one = next(c for c in cards if c.id == "card-08-fence")
    assert any(isinstance(i, TextBox) and i.text == "**8**" for i in one.front.items)
    assert one.back is not None
    assert any(isinstance(i, Symbol) and i.name == "fence" for i in one.back.items)
    assert (one.front.width, one.front.height) == (one.back.width, one.back.height)
    plans = [c for c in comps if c.kind == "plan"]
    assert [c.id for c in plans] == [f"plan-{i:02d}" for i in range(1, 14)]
    assert all(c.back is not None for c in plans)
    proofs = [c for c in comps if c.kind == "proof"]
    assert len(proofs) == 13 and all(c.imposition == "page" for c in proofs)
    assert [c.kind for c in comps].count("aid") == 1
    assert comps[0].id == "sheet" and comps[0].imposition == "page"


def test_a_run_of_only_duplicates_is_rejected(tmp_path: Path) -> None:
    text = SHEET.replace('[1, 2, 3, 4, 5, 6, "6d", 9, 10]', '[1, 2, 3, 4, 5, "7d", "7d", 9, 10]')
    sheet = tmp_path / "dups.toml"
    sheet.write_text(text, encoding="utf-8")
    code, out = run("score", str(DECK), str(sheet))
    assert code == 2 and "all duplicates" in out


def test_every_simulated_sheet_round_trips_through_the_score_format() -> None:
    """The score file is the sheet's text form: every sheet the bots play is accepted by the
    score validator and reads back equal, with the same total."""
    from generator.families.streets.score import read_sheet, sheet_to_toml
    from generator.families.streets.sim import play_game
    from generator.tomldoc import parse_toml

    loaded = load_deck(DECK)
    game = loaded.family.generate(loaded.deck)
    for index in range(6):
        result = play_game(game, 5, index, 3, 120)
        for sheet in result.sheets:
            text = sheet_to_toml(sheet, game.plans)
            back = read_sheet(game.sheet, game.plans, parse_toml(text, "sim.toml"))
            assert back == sheet
            assert back.total() == sheet.total()


def test_new_streets_starter_checks_green(tmp_path: Path) -> None:
    target = tmp_path / "my-streets.toml"
    code, out = run("new", "streets", str(target))
    assert code == 0, out
    text = target.read_text(encoding="utf-8")
    assert 'name = "my-streets"' in text
    loaded = load_deck(target)
    report = loaded.family.check(loaded.deck, loaded.family.generate(loaded.deck),
                                 CheckOptions(simulations=3))
    assert report.ok, [e.to_json() for e in report.entries if e.failing]


def test_a_crowded_sheet_still_fits_its_page() -> None:
    streets = "".join(f'[[streets.streets]]\nname = "Street {i}"\nhouses = 20\n'
                      f'pools = [1, 20]\nparks = [1, 2, 3, 4, 5, 6, 7]\n\n' for i in range(6))
    text = (
        'family = "streets"\nname = "crowded"\n[print]\npage = "Letter"\n[streets]\n'
        "number_max = 24\ncards = 96\n"
        "pool_points = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n"
        "group_values = [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]" + ", [2, 3]" * 9 + "]\n\n"
        + streets)
    loaded = load_deck_text(text, "crowded.toml")
    d = sheet_drawing(loaded.deck, loaded.family.generate(loaded.deck))
    items = _walk(d)
    assert len([i for i in items if isinstance(i, Polygon)]) == 120
    score_top = min(i.y for i in items if isinstance(i, Rect) and i.h == 11.0)
    for item in items:
        if isinstance(item, Rect | TextBox):
            assert item.x >= -1e-6 and item.x + item.w <= d.width + 1e-6
            assert item.y >= -1e-6 and item.y + item.h <= d.height + 1e-6
            if isinstance(item, TextBox) and item.owner == "sheet group value":
                assert item.y + item.h <= score_top
