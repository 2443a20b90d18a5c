"""Quilts layout: every component is there, pieces nest on their outline with cost, time and
income shown, board squares match the pieces' squares, proof pages draw the certificate."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.deckfile import load_deck, load_deck_text
from generator.families.base import CheckEntry, PolyNest, Report
from generator.families.quilts.model import QuiltSet
from generator.families.quilts.rules import PATCH, Placement
from generator.render.drawing import Drawing, Group, Item, Polygon, Rect, Symbol, TextBox
from generator.render.fit import check_drawing_fits

ROOT = Path(__file__).resolve().parent.parent


def flat(items: tuple[Item, ...]) -> list[Item]:
    out: list[Item] = []
    for item in items:
        out.append(item)
        if isinstance(item, Group):
            out.extend(flat(item.items))
    return out


def texts(d: Drawing) -> list[str]:
    return [i.text for i in flat(d.items) if isinstance(i, TextBox)]


def symbols(d: Drawing) -> list[str]:
    return [i.name for i in flat(d.items) if isinstance(i, Symbol)]


@pytest.fixture(scope="module")
def default() -> tuple[object, QuiltSet]:
    loaded = load_deck(ROOT / "decks" / "quilts.toml")
    return loaded, loaded.family.generate(loaded.deck)


def test_components_of_the_default_deck(default: tuple[object, QuiltSet]) -> None:
    loaded, qs = default
    report = Report("quilts", "quilts", 1, ())
    comps = loaded.family.layout(loaded.deck, qs, report)  # type: ignore[attr-defined]
    ids = [c.id for c in comps]
    assert len(ids) == len(set(ids))
    assert ids[:33] == [f"piece-{i:02d}" for i in range(1, 34)]
    for extra in ("patch-1", "patch-5", "board", "track", "time-1", "time-2", "marker",
                  "buttons-1", "buttons-5", "buttons-10", "bonus"):
        assert extra in ids
    assert not any(i.startswith("proof-") for i in ids)  # no certificate, no proof page
    for c in comps:
        check_drawing_fits(c.front)  # every text fits at its minimum size
    board = next(c for c in comps if c.id == "board")
    assert board.imposition == "page" and board.copies == 2
    squares = [i for i in flat(board.front.items) if isinstance(i, Rect)]
    assert any(abs(r.w - 9 * 15) < 1e-9 and abs(r.h - 9 * 15) < 1e-9 for r in squares)
    buttons = {c.id: c for c in comps}["buttons-1"]
    assert buttons.copies == 30 and "1" in texts(buttons.front)


def test_piece_drawing_shows_cost_time_income_and_nests(default: tuple[object, QuiltSet]
                                                        ) -> None:
    loaded, qs = default
    comps = loaded.family.layout(loaded.deck, qs, Report("q", "quilts", 1, ()))  # type: ignore[attr-defined]
    for piece, comp in zip(qs.pieces, comps, strict=False):
        assert comp.id == piece.id and comp.imposition == "nest"
        assert isinstance(comp.nest, PolyNest)
        assert set(comp.nest.cells) == set(piece.shape.cells) and comp.nest.cell_mm == 15.0
        d = comp.front
        assert (d.width, d.height) == (piece.shape.width * 15.0, piece.shape.height * 15.0)
        # the cut follows the outline: every corner on the 15 mm lattice, area = squares
        area = 0.0
        pts = d.cut
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1], strict=True):
            area += x1 * y2 - x2 * y1
        assert abs(abs(area) / 2 - piece.size * 225.0) < 1e-6
        t = texts(d)
        assert str(piece.cost) in t and str(piece.time) in t
        sy = symbols(d)
        assert sy.count("clock") == 1
        assert sy.count("button") == 1 + piece.income  # the cost's button + one per icon


def test_track_marks_income_and_patch_spaces(default: tuple[object, QuiltSet]) -> None:
    loaded, qs = default
    comps = loaded.family.layout(loaded.deck, qs, Report("q", "quilts", 1, ()))  # type: ignore[attr-defined]
    track = next(c for c in comps if c.id == "track")
    sy = symbols(track.front)
    assert sy.count("button") == len(qs.rules.track.income)
    assert sy.count("quilt-patch") == len(qs.rules.track.patches)
    labels = texts(track.front)
    for space in range(qs.rules.track.length + 1):
        assert str(space) in labels
    page = loaded.deck.print.page  # type: ignore[attr-defined]
    assert track.front.width <= max(page.width, page.height)


def test_proof_page_draws_the_certificate() -> None:
    text = ('family = "quilts"\nname = "tiny"\n[check]\nsimulations = 0\n[quilts]\n'
            'board = { rows = 2, cols = 3 }\nbonus_size = 2\n'
            '[quilts.track]\nlength = 6\nincome = [3]\npatches = [2]\n'
            '[[quilts.pieces]]\nshape = "##/#."\n[[quilts.pieces]]\nshape = "##"\n')
    loaded = load_deck_text(text)
    qs = loaded.family.generate(loaded.deck)
    placements = [Placement(0, 0, 0, 0), Placement(1, 1, 0, 2), Placement(PATCH, 0, 1, 1)]
    cert = {"placements": [p.to_json(qs.pieces[p.piece].shape if p.piece != PATCH
                                      else qs.pieces[0].shape.from_text("#"), qs.pieces)
                           for p in placements]}
    entry = CheckEntry("board", "fill", "completable", "ok", details={"certificate": cert})
    comps = loaded.family.layout(loaded.deck, qs, Report("tiny", "quilts", 1, (entry,)))
    proof = next(c for c in comps if c.id == "proof-board")
    assert proof.kind == "proof" and proof.imposition == "page"
    assert proof.subjects == ("board",)
    t = texts(proof.front)
    assert "01" in t and "02" in t and "1x1" in t
    outlines = [i for i in flat(proof.front.items) if isinstance(i, Polygon)]
    assert len(outlines) == 3  # one outline per placement
    check_drawing_fits(proof.front)
