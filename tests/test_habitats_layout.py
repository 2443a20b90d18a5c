"""Layout of the habitats family: the components and what their drawings contain."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from generator.deckfile import load_deck
from generator.families.base import CheckOptions, HexNest
from generator.families.habitats import HabitatsFamily
from generator.families.habitats.layout import (
    PATTERNS,
    habitat_regions,
    species_label,
    species_symbol,
)
from generator.families.habitats.model import Tile
from generator.render.drawing import Circle, Drawing, Group, Item, Polygon, Symbol, TextBox
from generator.render.symbols import has_symbol

ROOT = Path(__file__).resolve().parent.parent
FAM = HabitatsFamily()


def _items(items: tuple[Item, ...] | list[Item]) -> list[Item]:
    out: list[Item] = []
    for it in items:
        out.append(it)
        if isinstance(it, Group):
            out += _items(it.items)
    return out


def _texts(d: Drawing) -> list[str]:
    return [it.text for it in _items(d.items) if isinstance(it, TextBox)]


def _built(name: str) -> tuple[Any, Any, Any]:
    loaded = load_deck(ROOT / name)
    box = FAM.generate(loaded.deck)
    report = FAM.check(loaded.deck, box, CheckOptions(simulations=0))
    return loaded.deck, box, FAM.layout(loaded.deck, box, report)


def test_components_of_the_small_deck() -> None:
    deck, box, comps = _built("tests/decks/habitats-small.toml")
    ids = [c.id for c in comps]
    assert len(ids) == len(set(ids))
    assert all(c.id.replace("-", "").isalnum() for c in comps)
    kinds = [c.kind for c in comps]
    assert kinds.count("tile") == 27 and kinds.count("starter-tile") == 6
    assert kinds.count("scoring-card") == 5 and kinds.count("score-pad") == 1
    assert kinds.count("proof") >= 1
    tokens = [c for c in comps if c.kind == "token"]
    assert [c.copies for c in tokens] == [12, 12, 12, 10]  # three species, then nature


def test_hex_tiles_are_nested_hexagons_of_the_deck_size() -> None:
    deck, box, comps = _built("tests/decks/habitats-small.toml")
    tile = next(c for c in comps if c.kind == "tile")
    assert tile.imposition == "nest"
    assert tile.nest == HexNest(flat_to_flat=30.0, orientation="pointy")
    d = tile.front
    assert math.isclose(d.width, 30.0) and math.isclose(d.height, 60 / math.sqrt(3))
    assert len(d.cut) == 6
    xs = [p[0] for p in d.cut]
    assert math.isclose(max(xs) - min(xs), 30.0)  # flat to flat


def test_tile_shows_habitat_colours_patterns_and_symbols() -> None:
    deck, box, comps = _built("tests/decks/habitats-small.toml")
    for comp in comps:
        if comp.kind != "tile":
            continue
        t = box.tile(comp.id)
        items = _items(comp.front.items)
        fills = {it.fill for it in items if isinstance(it, Polygon) and it.fill}
        for h in t.habitats:
            assert box.colours[box.rules.habitats.index(h)] in fills
        names = [it.name for it in items if isinstance(it, Symbol)]
        for s in t.species:
            assert species_symbol(box.rules.species.index(s)) in names
        assert ("habitats-nature" in names) == t.keystone
        # a pattern mark (more than the region fills) is drawn on every tile
        assert len(items) > len(t.habitats) + 3 * len(t.species)
    assert len(PATTERNS) >= 8 and all(has_symbol(species_symbol(i)) for i in range(8))


def test_habitat_regions_split_along_an_axis() -> None:
    t = Tile("t", ("fen", "tarn"), ("owl",))
    regions = habitat_regions(t.edges(2), 0.0, 0.0, 10.0)
    assert [h for h, _ in regions] == ["fen", "tarn"] or [h for h, _ in regions] == ["tarn", "fen"]
    for _, poly in regions:
        assert len(poly) == 5  # the centre and four corners: half a hexagon
        area = 0.5 * abs(sum(poly[i][0] * poly[(i + 1) % 5][1]
                             - poly[(i + 1) % 5][0] * poly[i][1] for i in range(5)))
        assert math.isclose(area, 3 * math.sqrt(3) / 2 * 100 / 2, rel_tol=1e-9)
    [(h, poly)] = habitat_regions(("fen",) * 6, 0.0, 0.0, 10.0)
    assert h == "fen" and len(poly) == 6


def test_species_labels_are_unique() -> None:
    names = ("heron", "hare", "newt", "owl")
    labels = [species_label(names, n) for n in names]
    assert labels == ["He", "Ha", "N", "O"]


def test_scoring_card_has_title_rules_table_and_diagram() -> None:
    deck, box, comps = _built("tests/decks/habitats-small.toml")
    card = next(c for c in comps if c.id == "card-vole-b")
    texts = _texts(card.front)
    assert "Hedgerow" in texts
    assert any(t.startswith("Each straight line of 2+ voles") for t in texts)
    # two terms: both tables printed, labels and points
    for v in ("2", "5", "\u00d71", "\u00d73+"):
        assert v in texts
    assert card.back is not None and "vole" in _texts(card.back)
    w, h = deck.print.card.width, deck.print.card.height
    assert (card.front.width, card.front.height) == (w, h) and card.front.bleed == 3.0
    # the diagram draws small hexes with the card's species mark in them
    hexes = [it for it in _items(card.front.items) if isinstance(it, Polygon)
             and len(it.points) == 6]
    assert len(hexes) >= 7
    for it in _items(card.front.items):
        if isinstance(it, TextBox):
            assert it.x >= deck.print.safe - 1e-9 or it.owner.endswith("symbol")


def test_tokens_are_round_and_score_pad_has_every_row() -> None:
    deck, box, comps = _built("tests/decks/habitats-small.toml")
    tok = next(c for c in comps if c.id == "tokens-1")
    assert tok.front.width == tok.front.height == 16.0
    assert len(tok.front.cut) >= 48
    assert any(isinstance(it, Circle) for it in tok.front.items)
    pad = next(c for c in comps if c.kind == "score-pad")
    texts = _texts(pad.front)
    for row in ("vole", "kite", "otter", "bog: corridor", "crag: bonus", "nature tokens",
                "TOTAL"):
        assert row in texts
    pg = deck.print.page
    assert pad.front.width <= pg.width - 2 * deck.print.margin
    assert pad.front.height <= pg.height - 2 * deck.print.margin


def test_proof_pages_draw_each_card_top_certificate() -> None:
    deck, box, comps = _built("tests/decks/habitats-small.toml")
    proofs = [c for c in comps if c.kind == "proof"]
    subjects = [s for p in proofs for s in p.subjects]
    assert subjects == [c.id for c in box.cards]
    text = " ".join(t for p in proofs for t in _texts(p.front))
    assert "card-vole-a" in text and "tier 3" in text


def test_default_deck_renders_to_pdf_and_svg(tmp_path: Path) -> None:
    from generator.render.writers import component_svg, write_sheets_pdf

    deck, box, comps = _built("tests/decks/habitats-small.toml")
    pages = write_sheets_pdf(comps, deck.print, None, tmp_path / "s.pdf")
    assert pages >= 5
    svg = component_svg(comps[0])
    assert svg.startswith("<?xml") or "<svg" in svg
