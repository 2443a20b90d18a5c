"""Checks of a cards deck: every card's text fits its box at or above the minimum size, every
symbol it names exists, and deck figures (cards, copies)."""

from __future__ import annotations

from ...deck import Deck
from ...errors import LayoutError
from ...render.fit import check_drawing_fits
from ..base import CheckEntry, Report
from .layout import card_back, card_front
from .model import CardDeck


def check(deck: Deck, cards: CardDeck) -> Report:
    entries: list[CheckEntry] = []
    for card in cards.cards:
        problems: list[str] = []
        faces = [card_front(deck, card)]
        if deck.print.duplex != "none" and deck.params.back is not None:
            faces.append(card_back(deck, cards, card))
        for face in faces:
            try:
                check_drawing_fits(face)
            except LayoutError as exc:
                problems.append(str(exc))
        if problems:
            entries.append(CheckEntry(card.id, "text-fits", "fail", "; ".join(problems),
                                      code="E-CARDS-TEXT-OVERFLOW"))
        else:
            entries.append(CheckEntry(card.id, "text-fits", "pass",
                                      f"all text fits at {deck.params.min_size:g} pt or more"))
    total = sum(c.copies for c in cards.cards)
    figures = {"designs": len(cards.cards), "cards": total}
    entries.append(CheckEntry("deck", "count", "info",
                              f"{len(cards.cards)} designs, {total} cards to print"))
    return Report(deck.name, "cards", deck.seed, tuple(entries), figures)
