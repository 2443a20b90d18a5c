"""How many of the default deck's cards change verdict under the forced-placement rule.

``parks_cards_before_forced_placement.json`` holds the sheet and the 34 cards the default deck
(``decks/parks.toml``, seed 2026) generated before freed sections had to be placed (then a
placeable section could be crumpled, and 26 of 39 certificates did so). This script checks
each of those cards with today's engine (forced placement, every choice recorded) and counts
the verdicts. Run: ``python bench/parks_rule_change.py``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.core.budget import Budget  # noqa: E402
from generator.deckfile import load_deck  # noqa: E402
from generator.families.parks.model import Card, Sheet  # noqa: E402
from generator.families.parks.planner import completability  # noqa: E402
from generator.families.parks.replay import replay  # noqa: E402


def main() -> None:
    data = json.loads((Path(__file__).parent / "parks_cards_before_forced_placement.json")
                      .read_text(encoding="utf-8"))
    loaded = load_deck(ROOT / "decks" / "parks.toml")
    deck = loaded.deck
    die = loaded.family.generate(deck).die
    sheet = Sheet.from_text(data["sheet"])
    budget = Budget(nodes=deck.check.budget_nodes)
    counts: dict[str, int] = {}
    t0 = time.process_time()
    for text in data["cards"]:
        card = Card.from_text(text)
        v = completability(sheet, die, card, budget, deck.seed)
        if v.certificate is not None:
            assert replay(sheet, die, card, v.certificate) == ""
        counts[v.verdict.value] = counts.get(v.verdict.value, 0) + 1
        if v.verdict.value != "completable":
            print(f"  {card.id}: {v.verdict.value}: {v.reason}")
    print(f"{len(data['cards'])} cards completable under the old rule; under forced placement: "
          f"{counts} ({time.process_time() - t0:.1f} CPU s)")


if __name__ == "__main__":
    main()
