"""``paperproof schema`` is what an editor reads: it offers no null (TOML has none), lists
the enumerations a designer picks from, and every default deck is valid against it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from generator.render.symbols import symbol_names
from generator.schema import deck_schema

ROOT = Path(__file__).resolve().parent.parent


def _nodes(node: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(node, dict):
        out.append(node)
        for v in node.values():
            out += _nodes(v)
    elif isinstance(node, list):
        for v in node:
            out += _nodes(v)
    return out


def test_no_null_and_enumerations_to_complete() -> None:
    schema = deck_schema()
    text = json.dumps(schema)
    assert '"null"' not in text and all(n.get("default", 0) is not None
                                        for n in _nodes(schema))
    defs = schema["$defs"]
    icon = defs["CardBack"]["properties"]["icon"]
    assert {"enum": list(symbol_names())} in icon["anyOf"]  # symbol names complete
    assert {"type": "string"} in icon["anyOf"]  # a deck's own icon folder still validates
    card = defs["PrintSettings"]["properties"]["card"]
    assert any("poker" in alt.get("enum", []) for alt in card["anyOf"])  # presets
    features = defs["ParksParams"]["properties"]["feature_mix"]["propertyNames"]["enum"]
    assert set(features) == {"pavilion", "play", "water", "greenery"}


@pytest.mark.parametrize("deck", sorted(p.name for p in (ROOT / "decks").glob("*.toml")))
def test_every_default_deck_is_valid_against_the_schema(deck: str) -> None:
    data = tomllib.loads((ROOT / "decks" / deck).read_text(encoding="utf-8"))
    jsonschema.validate(data, deck_schema(data["family"]))
