"""Layers layout: the components and what their drawings show; end-to-end build and check."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.deckfile import load_deck
from generator.families.base import CheckOptions, Component
from generator.render.drawing import Drawing, Group, Item, Rect, Symbol, TextBox

ROOT = Path(__file__).resolve().parent.parent


def walk(items: tuple[Item, ...]) -> Iterator[Item]:
    for it in items:
        yield it
        if isinstance(it, Group):
            yield from walk(it.items)


def symbols(d: Drawing) -> list[str]:
    return [it.name for it in walk(d.items) if isinstance(it, Symbol)]


def texts(d: Drawing) -> list[str]:
    return [it.text for it in walk(d.items) if isinstance(it, TextBox)]


def components(deck: str = "decks/layers.toml", sims: int = 0) -> list[Component]:
    loaded = load_deck(ROOT / deck)
    gen = loaded.family.generate(loaded.deck)
    report = loaded.family.check(loaded.deck, gen, CheckOptions(simulations=sims))
    return loaded.family.layout(loaded.deck, gen, report)


def test_components_of_the_default_deck() -> None:
    comps = components()
    ids = [c.id for c in comps]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9][a-z0-9-]*", i) for i in ids)
    kinds: dict[str, int] = {}
    for c in comps:
        kinds[c.kind] = kinds.get(c.kind, 0) + c.copies
    assert kinds["landscape card"] == 92
    assert kinds["starting card"] == 4
    assert kinds["objective card"] == 11
    assert kinds["scissors token"] == 1
    assert kinds["proof"] == 11
    # three sets of the default tokens (4, 3, 2) and the custom sets of four objectives
    assert kinds["score token"] == 3 * 3 + 4 * 3
    for c in comps:
        if c.kind == "proof":
            assert c.imposition == "page" and c.front.width <= 210 - 16
        else:
            assert c.imposition == "grid"
        if c.kind in ("landscape card", "starting card", "objective card"):
            assert (c.front.width, c.front.height) == (63.5, 88.9)
            assert c.front.bleed == 3.0 and c.back is not None


def test_landscape_card_shows_colour_pattern_value_stars_scissors_and_mark() -> None:
    comps = {c.id: c for c in components()}
    plain = comps["land-fern-5"].front
    assert "layers-leaves" in symbols(plain)
    assert "5" in texts(plain)
    assert symbols(plain).count("star") == 3
    assert "scissors" not in symbols(plain)
    assert any(isinstance(it, Rect) and it.fill == "#4f9a4a" for it in plain.items)
    cut = next(c for i, c in comps.items() if i.startswith("land-") and "-scissors" in i)
    assert "scissors" in symbols(cut.front)
    marked = comps["land-lagoon-1-4p"].front
    assert "4+" in texts(marked)
    assert "START" in texts(comps["start-saffron"].front)
    assert "layers-dots" in symbols(comps["start-saffron"].front)


def test_objective_card_has_a_3x3_diagram_with_the_shape_shaded() -> None:
    comps = {c.id: c for c in components()}
    cross = comps["obj-08"].front  # Crossroads: cross, all different values
    cells = [it for it in cross.items if isinstance(it, Rect) and it.w < 20 and it.w == it.h]
    assert len(cells) == 9
    assert sum(1 for r in cells if r.fill == "#5b5b5b") == 5
    assert symbols(cross).count("layers-differ") == 5
    assert [t for t in texts(cross) if t in ("5", "4", "3")] == ["5", "4", "3"]
    rising = comps["obj-04"].front
    assert [t for t in texts(rising) if t in ("1", "3", "5")][:3] == ["1", "3", "5"]
    count = comps["obj-10"].front  # 2 scissors tops and a line summing to 9
    assert "scissors" in symbols(count)
    assert any("line: sum 9" in t for t in texts(count))


def test_proof_page_draws_the_certificate() -> None:
    comps = {c.id: c for c in components()}
    proof = comps["proof-obj-05"]
    joined = " ".join(texts(proof.front))
    assert "Proof obj-05: Deep Column" in joined and "Start:" in joined
    assert proof.subjects == ("obj-05",)


def test_build_default_deck_end_to_end(tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["build", str(ROOT / "decks/layers.toml"), "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    out = tmp_path / "layers"
    for name in ("sheets.pdf", "pod.pdf", "cut.svg", "report.json", "index.html"):
        assert (out / name).stat().st_size > 0
    report = json.loads((out / "report.json").read_text())
    assert report["ok"] and report["counts"]["completable"] == 11
    assert (out / "svg" / "obj-01.svg").exists()


def test_check_and_build_of_the_hand_written_deck(tmp_path: Path) -> None:
    runner = CliRunner()
    deck = str(ROOT / "tests/decks/layers-small.toml")
    r = runner.invoke(main, ["check", deck, "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    entries = data["entries"] if "entries" in data else data[0]["entries"]
    assert sum(1 for e in entries if e["status"] == "completable") == 4
    r = runner.invoke(main, ["build", deck, "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "layers-small" / "sheets.pdf").exists()
    r = runner.invoke(main, ["check", str(ROOT / "tests/decks/layers-impossible.toml")])
    assert r.exit_code == 1
    assert "sums at most 15 (values stop at 5); it asks 16" in r.output
