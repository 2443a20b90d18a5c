"""The PDF and SVG painters agree on geometry for every family's components.

For each default deck: generate, check (without simulations, which only feed figures), lay
out, then compare what the pod PDF and the SVGs drew against the flattened drawings. One
component of each kind per family keeps this fast (kinds share their layout code); proof
pages are included since they draw certificates.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from render_verify import check_agreement

from generator.deckfile import load_deck
from generator.families import FAMILIES
from generator.families.base import CheckOptions, Component

ROOT = Path(__file__).resolve().parent.parent


def sample_components(name: str) -> list[Component]:
    loaded = load_deck(ROOT / "decks" / f"{name}.toml")
    deck = loaded.deck
    generated = loaded.family.generate(deck)
    report = loaded.family.check(deck, generated, CheckOptions(simulations=0))
    components = loaded.family.layout(deck, generated, report)
    seen: set[str] = set()
    sample = []
    for comp in components:
        if comp.kind not in seen:
            seen.add(comp.kind)
            sample.append(comp)
    return sample


@pytest.mark.parametrize("name", [f.name for f in FAMILIES])
def test_painters_agree_on_every_family(name: str) -> None:
    components = sample_components(name)
    assert components
    loaded = load_deck(ROOT / "decks" / f"{name}.toml")
    assert check_agreement(components, loaded.deck.print) == []
