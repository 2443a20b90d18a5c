"""Checks of a cards deck: every card's text fits its box at or above the minimum size, every
symbol it names exists, and deck figures (cards, copies)."""

from __future__ import annotations

from ...deck import Deck
from ...errors import LayoutError
from ...render.fit import check_drawing_fits
from ..base import CheckEntry, CheckOptions, Report
from .layout import card_back, card_front
from .model import CardDeck


def check(deck: Deck, cards: CardDeck, options: CheckOptions) -> Report:
    """Every check of a custom card table (it asks no search questions: ``options`` is
    the family contract's argument, unused)."""
    entries: list[CheckEntry] = []
    for card in cards.cards:
        problems: list[str] = []
        sizes: list[float] = []
        faces = [card_front(deck, card)]
        if deck.print.duplex != "none" and deck.params.back is not None:
            faces.append(card_back(deck, cards, card))
        for face in faces:
            try:
                sizes.extend(size for _, size in check_drawing_fits(face))
            except LayoutError as exc:
                problems.append(str(exc))
        if problems:
            entries.append(CheckEntry(card.id, "text-fits", "fail", "; ".join(problems),
                                      code="E-CARDS-TEXT-OVERFLOW"))
        else:
            smallest = min(sizes, default=deck.params.body_size)
            entries.append(CheckEntry(card.id, "text-fits", "pass",
                                      f"all text fits; smallest set at {smallest:g} pt "
                                      f"(minimum {deck.params.min_size:g} pt)",
                                      details={"smallest_pt": smallest}))
    total = sum(c.copies for c in cards.cards)
    figures = {"designs": len(cards.cards), "cards": total}
    entries.append(CheckEntry("deck", "count", "info",
                              f"{len(cards.cards)} designs, {total} cards to print"))
    return Report(deck.name, "cards", deck.seed, tuple(entries), figures)
