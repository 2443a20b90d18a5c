"""Quilts checks: known answers for fill (completable with a replayed certificate, impossible
with a reason, unknown on a tiny budget), duplicates, sizes, value outliers, balance figures
and counting tilings against a brute-force oracle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.budget import Budget
from generator.core.polyomino import Polyomino
from generator.deckfile import LoadedDeck, load_deck, load_deck_text
from generator.families.base import CheckOptions, Report
from generator.families.quilts.check import fill_entry, replay_fill
from generator.families.quilts.model import Piece, QuiltSet, Rules, Track, ValueModel
from generator.families.quilts.rules import IllegalMove, options

ROOT = Path(__file__).resolve().parent.parent


def deck(table: str, *, check: str = "simulations = 0", board: str = "rows = 9, cols = 9",
         track: str = "") -> LoadedDeck:
    text = (f'family = "quilts"\nname = "t"\nseed = 9\n[check]\n{check}\n[quilts]\n'
            f"board = {{ {board} }}\n{table}\n[quilts.track]\n{track}\n")
    return load_deck_text(text)


def run(loaded: LoadedDeck, options_: CheckOptions | None = None) -> tuple[QuiltSet, Report]:
    qs = loaded.family.generate(loaded.deck)
    return qs, loaded.family.check(loaded.deck, qs, options_ or CheckOptions())


def entry(report: Report, subject: str, check: str) -> Any:
    found = [e for e in report.entries if e.subject == subject and e.check == check]
    assert len(found) == 1, (subject, check, found)
    return found[0]


def pieces_toml(*shapes: str) -> str:
    return "".join(f'[[quilts.pieces]]\nshape = "{s}"\n' for s in shapes)


@pytest.fixture(scope="module")
def default() -> tuple[LoadedDeck, QuiltSet, Report]:
    loaded = load_deck(ROOT / "decks" / "quilts.toml")
    qs, report = run(loaded, CheckOptions(simulations=4))
    return loaded, qs, report


def test_default_deck_fills_board_and_bonus(default: tuple[LoadedDeck, QuiltSet, Report]
                                            ) -> None:
    _, qs, report = default
    assert report.ok, [e for e in report.entries if e.failing]
    fill = entry(report, "board", "fill")
    assert fill.status == "completable"
    cert = fill.details["certificate"]
    board = replay_fill(cert, qs.pieces, qs.rules)  # independent replay
    assert board.empty_count == 0
    used = [p["index"] for p in cert["placements"] if p["index"] >= 0]
    assert len(used) == len(set(used))
    bonus = entry(report, "bonus", "bonus-fill")
    assert bonus.status == "completable"
    replay_fill(bonus.details["certificate"], qs.pieces, qs.rules, region=7)
    for piece in qs.pieces:
        assert entry(report, piece.id, "fits-board").status == "pass"
        assert entry(report, piece.id, "duplicate").status == "pass"
        assert entry(report, piece.id, "print-size").status == "pass"
        assert entry(report, piece.id, "value").status in ("info", "warn")
    assert report.figures["pieces"] == 33 and report.figures["board_area"] == 81


def test_tampered_certificates_do_not_replay(default: tuple[LoadedDeck, QuiltSet, Report]
                                             ) -> None:
    _, qs, report = default
    cert = entry(report, "board", "fill").details["certificate"]
    placements = cert["placements"]
    with pytest.raises(IllegalMove, match="empty"):
        replay_fill({"placements": placements[1:]}, qs.pieces, qs.rules)
    with pytest.raises(IllegalMove):
        replay_fill({"placements": placements + placements[:1]}, qs.pieces, qs.rules)
    moved = dict(placements[0], row=placements[0]["row"] + 1)
    with pytest.raises(IllegalMove):
        replay_fill({"placements": [moved, *placements[1:]]}, qs.pieces, qs.rules)
    patch = {"piece": "patch", "index": -1, "transform": 0, "row": 0, "col": 0,
             "cells": [[0, 0]]}
    too_many = [dict(patch, row=0, col=c, cells=[[0, c]]) for c in range(6)]
    with pytest.raises(IllegalMove, match="patches"):
        replay_fill({"placements": too_many}, qs.pieces, qs.rules)


def test_too_little_area_is_impossible_with_a_reason() -> None:
    loaded = deck(pieces_toml("#####", "###/#.."))
    _, report = run(loaded)
    fill = entry(report, "board", "fill")
    assert fill.status == "impossible" and fill.code == "E-QUILTS-FILL"
    assert fill.details["reason"]
    assert "81" in fill.message or "area" in fill.message.lower()
    assert not report.ok


def test_exhausted_search_is_impossible() -> None:
    # two T-tetrominoes cannot tile 2x4 although area and colour counts allow it
    loaded = deck("allow_duplicates = true\n" + pieces_toml("###/.#.", "###/.#."),
                  board="rows = 2, cols = 4", track="length = 8\nincome = []\npatches = []")
    _, report = run(loaded)
    fill = entry(report, "board", "fill")
    assert fill.status == "impossible", fill
    assert fill.details["reason"]
    bonus = entry(report, "bonus", "bonus-fill")
    assert bonus.status == "impossible"  # a 7x7 square does not fit a 2x4 board


def test_tiny_budget_gives_unknown() -> None:
    loaded = load_deck(ROOT / "decks" / "quilts.toml")
    tiny = loaded.deck.model_copy(update={"check": loaded.deck.check.model_copy(
        update={"budget_nodes": 1, "simulations": 0})})
    qs = loaded.family.generate(tiny)
    report = loaded.family.check(tiny, qs, CheckOptions())
    fill = entry(report, "board", "fill")
    assert fill.status == "unknown" and fill.code == "E-QUILTS-FILL-UNKNOWN"


def test_duplicates_sizes_and_outliers() -> None:
    table = ('cell = "60mm"\n' + pieces_toml("##/#.", ".#/##", "#####") +
             '[[quilts.pieces]]\nshape = "##"\ncost = 0\ntime = 0\nincome = 3\n')
    loaded = deck(table, board="rows = 4, cols = 4")
    _, report = run(loaded)
    assert entry(report, "piece-01", "duplicate").status == "pass"
    dup = entry(report, "piece-02", "duplicate")
    assert dup.status == "fail" and dup.code == "E-QUILTS-DUPLICATE"
    assert dup.details["same_as"] == "piece-01"
    big = entry(report, "piece-03", "fits-board")
    assert big.status == "fail" and big.code == "E-QUILTS-PIECE-TOO-BIG"
    printed = entry(report, "piece-03", "print-size")
    assert printed.status == "fail" and printed.code == "E-QUILTS-PIECE-PRINT-SIZE"
    assert entry(report, "piece-01", "print-size").status == "pass"
    outlier = entry(report, "piece-04", "value")
    assert outlier.status == "warn" and outlier.code == "E-QUILTS-VALUE-OUTLIER"
    assert report.figures["outliers"] == ["piece-04"]
    allowed = deck("allow_duplicates = true\n" + pieces_toml("##/#.", ".#/##"),
                   board="rows = 4, cols = 4")
    _, report2 = run(allowed)
    assert entry(report2, "piece-02", "duplicate").status == "info"


def test_balance_figures_are_seeded(default: tuple[LoadedDeck, QuiltSet, Report]) -> None:
    loaded, qs, _ = default
    a = loaded.family.check(loaded.deck, qs, CheckOptions(simulations=6))
    b = loaded.family.check(loaded.deck, qs, CheckOptions(simulations=6))
    assert a.figures["simulation"] == b.figures["simulation"]
    sim = a.figures["simulation"]
    assert sim["games"] == {"greedy": 6, "planner": 6, "head-to-head": 6}
    for who in ("greedy", "planner"):  # every rate and mean carries its 95% interval
        r = sim[who]["first_player_wins"]
        assert r["trials"] == 6 and 0 <= r["low"] <= r["value"] <= r["high"] <= 1
        assert sim[who]["score"]["n"] == 12  # both players' scores
    assert sim["head_to_head"]["planner_wins"]["trials"] == 6
    balance = entry(a, "deck", "balance")
    assert balance.status in ("info", "warn")
    assert "casual players" in balance.message and "planning players" in balance.message
    assert "6 games)" in balance.message
    other = loaded.deck.with_seed(loaded.deck.seed + 1)
    c = loaded.family.check(other, loaded.family.generate(other), CheckOptions(simulations=6))
    assert c.figures["simulation"] != a.figures["simulation"]


# -- counting tilings against a brute-force oracle ------------------------------------------


def oracle_tilings(shapes: list[Polyomino], rows: int, cols: int
                   ) -> list[tuple[frozenset[Any] | None, ...]]:
    """Every tiling by plain backtracking on the first empty cell: all pieces used when the
    areas match, any subset otherwise (an unused piece is None)."""
    region = {(r, c) for r in range(rows) for c in range(cols)}
    all_used = sum(s.size for s in shapes) == len(region)
    opts = [[frozenset((b // cols, b % cols) for b in range(rows * cols) if o.mask >> b & 1)
             for o in options(s, rows, cols)] for s in shapes]
    out: list[tuple[frozenset[Any] | None, ...]] = []

    def go(covered: frozenset[Any], chosen: dict[int, frozenset[Any]]) -> None:
        if covered == region:
            if not all_used or len(chosen) == len(shapes):
                out.append(tuple(chosen.get(i) for i in range(len(shapes))))
            return
        first = min(region - covered)
        for i in range(len(shapes)):
            if i in chosen:
                continue
            for cells in opts[i]:
                if first in cells and not cells & covered:
                    chosen[i] = cells
                    go(covered | cells, chosen)
                    del chosen[i]

    go(frozenset(), {})
    return out


def board_symmetries(rows: int, cols: int) -> list[Any]:
    maps = [lambda r, c: (r, c), lambda r, c: (rows - 1 - r, cols - 1 - c),
            lambda r, c: (rows - 1 - r, c), lambda r, c: (r, cols - 1 - c)]
    if rows == cols:
        maps += [lambda r, c: (c, r), lambda r, c: (cols - 1 - c, rows - 1 - r),
                 lambda r, c: (c, rows - 1 - r), lambda r, c: (cols - 1 - c, r)]
    return maps


def orbit_count(tilings: list[tuple[frozenset[Any] | None, ...]], rows: int, cols: int) -> int:
    """Tilings that differ only by a symmetry of the whole board count once (each piece keeps
    its identity)."""
    def image(t: tuple[frozenset[Any] | None, ...], f: Any) -> tuple[Any, ...]:
        return tuple(None if cells is None else tuple(sorted(f(r, c) for r, c in cells))
                     for cells in t)

    return len({min(image(t, f) for f in board_symmetries(rows, cols)) for t in tilings})


@pytest.mark.parametrize(("shapes", "rows", "cols"), [
    (["###", "##/#.", "##/##", "##"], 3, 4),
    (["##", "###", "#./##", "##/##"], 3, 4),
    (["#", "##", "##/#.", "###", "##/##"], 3, 4),
    (["##", "##/#.", "###/#.."], 3, 3),
])
def test_count_solutions_matches_oracle(shapes: list[str], rows: int, cols: int) -> None:
    polys = [Polyomino.from_text(s) for s in shapes]
    loaded = deck(pieces_toml(*shapes), board=f"rows = {rows}, cols = {cols}",
                  track="length = 8\nincome = []\npatches = []")
    _, report = run(loaded, CheckOptions(count_solutions=True))
    counted = entry(report, "board", "count-solutions")
    tilings = oracle_tilings(polys, rows, cols)
    assert tilings  # the cases are chosen to have tilings
    assert counted.status == "info"
    assert counted.details["raw"] == len(tilings)
    assert counted.details["up_to_symmetry"] == orbit_count(tilings, rows, cols)
    assert counted.details["all_pieces_used"] == (sum(p.size for p in polys) == rows * cols)
    assert report.figures["count_solutions"]["raw"] == len(tilings)


def test_oracle_sanity() -> None:
    # 2x2 by two labelled dominoes: 2 layouts x 2 labellings; up to the square's symmetry the
    # horizontal and vertical layouts are one, and swapping labels is a half-turn: 1 orbit
    d = Polyomino.from_text("##")
    tilings = oracle_tilings([d, d], 2, 2)
    assert len(tilings) == 4
    assert orbit_count(tilings, 2, 2) == 1


def test_pentominoes_on_3x20_known_count() -> None:
    # the hand-written pentomino deck on 3x20: 2 tilings up to symmetry, 8 raw (a classic
    # known answer; bench/quilts.py counts the 6x10 board: 2,339 / 9,356)
    text = (ROOT / "tests" / "decks" / "quilts-pentominoes.toml").read_text(encoding="utf-8")
    text = text.replace("board = { rows = 6, cols = 10 }", "board = { rows = 3, cols = 20 }")
    text = text.replace("simulations = 6", "simulations = 0")
    loaded = load_deck_text(text)
    _, report = run(loaded, CheckOptions(count_solutions=True))
    counted = entry(report, "board", "count-solutions")
    assert counted.status == "info"
    assert (counted.details["up_to_symmetry"], counted.details["raw"]) == (2, 8)
    assert "2 tilings up to the board's symmetry (8 raw)" in counted.message


@st.composite
def small_fill_cases(draw: st.DrawFn) -> tuple[list[Polyomino], int, int]:
    rows = draw(st.integers(2, 3))
    cols = draw(st.integers(2, 3))
    shapes = []
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(1, 4))
        cells = {(0, 0)}
        while len(cells) < n:
            r, c = draw(st.sampled_from(sorted(cells)))
            dr, dc = draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
            cells.add((r + dr, c + dc))
        shapes.append(Polyomino.of(cells))
    return shapes, rows, cols


@settings(max_examples=40, deadline=None)
@given(small_fill_cases())
def test_fill_verdict_matches_oracle(case: tuple[list[Polyomino], int, int]) -> None:
    shapes, rows, cols = case
    pieces = tuple(Piece(i, s, 0, 1, 0) for i, s in enumerate(shapes))
    rules = Rules(rows=rows, cols=cols, bonus_size=2, track=Track(5, (), (), 0))
    qs = QuiltSet(pieces, rules, ValueModel(), generated=False)
    got = fill_entry("board", "fill", "the board", (rows, cols), qs, Budget(nodes=100_000),
                     None)
    expected = bool(oracle_tilings(shapes, rows, cols))
    assert got.status == ("completable" if expected else "impossible"), got
    if expected:  # the certificate replays to a full board, each piece once
        assert replay_fill(got.details["certificate"], pieces, rules).empty_count == 0
    else:
        assert got.details["reason"]


def test_checkerboard_parity_refutes_without_search() -> None:
    # three T-tetrominoes and a square on 4x4: each T covers 3 squares of one colour and 1 of
    # the other, so three of them can never balance the board's 8 light and 8 dark squares
    table = ('allow_duplicates = true\n[[quilts.pieces]]\nshape = "###/.#."\ncount = 3\n'
             + pieces_toml("##/##"))
    loaded = deck(table, board="rows = 4, cols = 4", track="patches = []")
    _, report = run(loaded)
    fill = entry(report, "board", "fill")
    assert fill.status == "impossible"
    assert "checkerboard" in fill.details["reason"]


def test_a_wrong_solver_answer_is_not_believed(monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.core import tiling
    from generator.core.verdict import Verdict
    from generator.families.quilts import check as check_mod

    def liar(region: Any, pieces: Any, **_: Any) -> tiling.TilingResult:
        # claims the 2x2 board is covered by the domino alone
        cells = {(0, 0): None, (0, 1): None}
        return tiling.TilingResult(Verdict.COMPLETABLE,
                                   placements=(tiling.Placement(0, 0, (0, 0), cells),))

    monkeypatch.setattr(check_mod, "tile", liar)
    loaded = deck(pieces_toml("##", "##"), board="rows = 2, cols = 2",
                  track="patches = []")
    _, report = run(loaded)
    fill = entry(report, "board", "fill")
    assert fill.status == "unknown" and fill.code == "E-QUILTS-FILL-REPLAY"  # REPLAY_FAILED
    assert "2 squares stay empty" in fill.message
