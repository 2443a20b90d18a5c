"""The PDF and SVG painters agree on geometry: every shape, clip and text run of every face,
read back from the PDF content stream and from the SVG, matches the flattened drawing. Run
over the sample components and the default cards deck, and shown to catch a painter that
drifts. Any family's test can call ``check_agreement(components)`` on its own components."""

from __future__ import annotations

from pathlib import Path

import pytest
from render_samples import (
    PIECES,
    board,
    hex_tile,
    poly_piece,
    showcase_card,
    typical_card,
)
from render_verify import check_agreement

from generator.deck import PrintSettings
from generator.families import FAMILIES
from generator.families.base import Component, Report
from generator.render import pdf as pdf_mod
from generator.render import svg as svg_mod
from generator.render.drawing import Rect
from generator.render.flatten import Flat

ROOT = Path(__file__).resolve().parent.parent


def _samples() -> list[Component]:
    return [typical_card(0), typical_card(1, back=False), showcase_card(),
            hex_tile(0), hex_tile(1, 24.0, "flat"), poly_piece(0, PIECES[3]), board()]


def test_samples_agree() -> None:
    assert check_agreement(_samples()) == []


def test_a_drifting_pdf_painter_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A PDF painter that puts rectangles 0.2 mm off is reported, on the PDF side only."""
    original = pdf_mod.PdfPainter.paint

    def shifted(self: pdf_mod.PdfPainter, items: list[Flat], x: float, y: float,
                page_h: float) -> None:
        moved: list[Flat] = [Rect(r.x + 0.2, r.y, r.w, r.h, r.fill, r.stroke, r.radius)
                             if isinstance(r, Rect) else r for r in items]
        original(self, moved, x, y, page_h)

    monkeypatch.setattr(pdf_mod.PdfPainter, "paint", shifted)
    problems = check_agreement([typical_card(0, back=False)])
    assert problems and all("(pdf)" in p for p in problems)


def test_a_drifting_svg_painter_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = svg_mod.SvgPainter._paint_attrs

    def wrong_colour(self: svg_mod.SvgPainter, fill: str | None, stroke: object) -> dict[str, str]:
        out = original(self, fill, stroke)  # type: ignore[arg-type]
        if fill == "#ffffff":
            out["fill"] = "#fffffe"
        return out

    monkeypatch.setattr(svg_mod.SvgPainter, "_paint_attrs", wrong_colour)
    problems = check_agreement([typical_card(0, back=False)])
    assert problems and all("(svg)" in p for p in problems)


def _family_components(name: str) -> list[Component]:
    from generator.deckfile import load_deck

    deck_file = ROOT / "decks" / f"{name}.toml"
    if not deck_file.exists():
        pytest.skip(f"no default deck decks/{name}.toml")
    loaded = load_deck(deck_file)
    deck = loaded.deck
    generated = loaded.family.generate(deck)
    report = Report(deck.name, deck.family, deck.seed, ())
    return list(loaded.family.layout(deck, generated, report))


def test_the_cards_deck_agrees() -> None:
    """Every face of the default cards deck (the other families' decks are checked with
    the same helper where their tests build them: generating some takes minutes)."""
    assert "cards" in {f.name for f in FAMILIES}
    comps = _family_components("cards")
    assert comps
    assert check_agreement(comps, PrintSettings()) == []
