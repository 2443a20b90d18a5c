"""Parks layout: the components a designer prints, at true square size, with features drawn
by colour and symbol, walkways as bands, and proof pages drawing every certificate."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from generator.deckfile import load_deck
from generator.errors import LayoutError
from generator.families.base import CheckOptions, Component
from generator.families.parks.layout import CUT_RED, FEATURE_SYMBOL, WALKWAY
from generator.families.parks.model import Feature
from generator.render.drawing import Group, Item, Line, Rect, Symbol, TextBox

ROOT = Path(__file__).resolve().parent.parent


def _flat(items: Iterable[Item]) -> list[Item]:
    out: list[Item] = []
    for it in items:
        if isinstance(it, Group):
            out.extend(_flat(it.items))
        else:
            out.append(it)
    return out


@pytest.fixture(scope="module")
def built() -> tuple[list[Component], object, object]:
    loaded = load_deck(ROOT / "tests" / "decks" / "parks-small.toml")
    ps = loaded.family.generate(loaded.deck)
    rep = loaded.family.check(loaded.deck, ps, CheckOptions())
    return loaded.family.layout(loaded.deck, ps, rep), ps, rep


def test_components_and_ids(built: tuple[list[Component], object, object]) -> None:
    comps, _, _ = built
    ids = [c.id for c in comps]
    assert ids == ["sheet", "park-01", "park-02", "park-03", "die", "tokens", "score-pad",
                   "proof-park-01", "proof-park-02", "proof-park-03"]
    kinds = {c.id: (c.kind, c.imposition) for c in comps}
    assert kinds["sheet"] == ("park-sheet", "page")
    assert kinds["park-01"] == ("park-card", "grid")
    assert kinds["proof-park-02"] == ("proof", "page")
    assert all(c.back is not None for c in comps if c.kind == "park-card")


def test_sheet_prints_at_true_square_size(built: tuple[list[Component], object, object]
                                          ) -> None:
    comps, ps, _ = built
    sheet = next(c for c in comps if c.id == "sheet").front
    squares = [it for it in _flat(sheet.items) if isinstance(it, Rect) and it.w == 20.0
               and it.h == 20.0]
    assert len(squares) == 20  # 4 x 5 squares of 20 mm
    assert sheet.width == 5 * 20.0
    symbols = [it.name for it in _flat(sheet.items) if isinstance(it, Symbol)]
    # every square shows its feature as a symbol (not colour alone), icons too
    assert symbols.count(FEATURE_SYMBOL[Feature.GREENERY]) == 8
    assert symbols.count("wildlife") == 2 and symbols.count("recycling") == 1


def test_card_outline_matches_sheet_squares_and_walkway_band(
        built: tuple[list[Component], object, object]) -> None:
    comps, _, _ = built
    card = next(c for c in comps if c.id == "park-02").front  # Wet Walk: WW / #.
    assert (card.width, card.height) == (63.5, 88.9)
    cells = [it for it in _flat(card.items) if isinstance(it, Rect) and it.w == 20.0]
    assert len({(r.x, r.y) for r in cells}) == 3
    band = [it for it in _flat(card.items) if isinstance(it, Line)
            and it.stroke.colour == WALKWAY]
    assert len(band) == 1 and band[0].stroke.width == pytest.approx(4.0)
    names = [it.name for it in _flat(card.items) if isinstance(it, Symbol)]
    assert names.count("water") == 2 and "extra-cut" in names
    title = [it for it in _flat(card.items) if isinstance(it, TextBox)]
    assert title and "Wet Walk" in title[0].text


def test_proof_page_draws_every_cut(built: tuple[list[Component], object, object]) -> None:
    comps, _, rep = built
    for entry in rep.entries:  # type: ignore[attr-defined]
        if entry.check != "completable":
            continue
        proof = next(c for c in comps if c.id == f"proof-{entry.subject}").front
        red = [it for it in _flat(proof.items) if isinstance(it, Line)
               and it.stroke.colour == CUT_RED]
        n_cuts = sum(len(r["cuts"]) for r in entry.details["certificate"]["rounds"])
        assert len(red) == n_cuts
        text = " ".join(it.text for it in _flat(proof.items) if isinstance(it, TextBox))
        assert "Round 1, face" in text


def test_too_large_sheet_is_a_layout_error() -> None:
    from generator.deck import deck_model
    from generator.families.parks import ParksFamily
    from generator.families.parks.model import ParksParams

    fam = ParksFamily()
    deck = deck_model("parks", ParksParams).model_validate(
        {"family": "parks", "name": "big",
         "parks": {"rows": 20, "cols": 20, "cards": 0, "grand_cards": 0, "hands": 0}})
    ps = fam.generate(deck)
    rep = fam.check(deck, ps, CheckOptions())
    with pytest.raises(LayoutError, match="does not fit the page"):
        fam.layout(deck, ps, rep)


def test_proof_page_labels_lines_numbers_cuts_in_order_and_keeps_colours_apart() -> None:
    from generator.families.parks.cert import HandCertificate
    from generator.families.parks.layout import SECTION_COLOURS, proof_drawing
    from generator.families.parks.model import Bonus, Card, Die, ParksSet, Sheet

    sheet = Sheet.from_text("GGWAP\nGGWAP\nAAPGG\nPWGGA")
    chain = [Card.from_rows("c1", "", ["#"], bonus=Bonus.EXTRA_CUT),
             Card.from_rows("c2", "", ["#"], bonus=Bonus.EXTRA_CUT),
             Card.from_rows("c3", "", ["#"])]

    def on(card: str, r: int, c: int) -> dict[str, object]:
        return {"card": card, "section": [[r, c]], "transform": 0, "offset": [-r, -c]}

    cert = HandCertificate.from_json({"deal": ["c1", "c2", "c3"], "rounds": [
        {"face": [1, 1], "cuts": ["1,0 E 1", "0,4 S 1"]},
        {"face": [1, 1], "cuts": ["3,0 E 1", "0,2 S 1"]},
        {"face": [1], "cuts": ["0,1 S 1"], "placed": [on("c1", 0, 0)],
         "extra": [{"cut": "1,5 W 1", "placed": [on("c2", 0, 4)]},
                   {"cut": "4,1 N 1", "placed": [on("c3", 3, 0)]}]}]})
    ps = ParksSet(sheet, tuple(chain), Die(((1,), (1, 1))), ())
    d = proof_drawing(ps, chain, cert.rounds, "hand", "proof-hand-1", 180, 260)
    texts = [it.text for it in _flat(d.items) if isinstance(it, TextBox)]
    # cuts numbered round.cut in the order made, Extra Cuts continuing their round
    for label in ("1.1", "1.2", "2.1", "2.2", "3.1", "3.2", "3.3"):
        assert label in texts
    # grid lines numbered as the certificate names corners: rows 0..4, columns 0..5
    assert all(str(n) in texts for n in range(6))
    red = [it for it in _flat(d.items) if isinstance(it, Line) and it.stroke.colour == CUT_RED]
    assert len(red) == 7
    # sections: dashed, never in the cut colour; one letter per section on the cards
    assert CUT_RED not in SECTION_COLOURS
    outlines = [it for it in _flat(d.items) if hasattr(it, "stroke") and it.stroke is not None
                and it.stroke.colour in SECTION_COLOURS]
    assert outlines and all(it.stroke.dash for it in outlines)
    assert sum(1 for t in texts if t in ("**A**", "**B**", "**C**")) == 6
    assert any("Extra Cut 3.2" in t for t in texts)
