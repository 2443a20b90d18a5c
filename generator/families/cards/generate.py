"""Rows -> cards. Deterministic and trivial by design: the cards family prints what the
designer wrote; its value is the print engine and the checks."""

from __future__ import annotations

from ...deck import Deck
from .model import Card, CardDeck, CardsParams


def generate(deck: Deck) -> CardDeck:
    params: CardsParams = deck.params
    back = params.back
    cards = tuple(
        Card(
            index=i,
            title=row.title,
            text=row.text,
            icons=row.icons,
            colour=row.colour or params.accent,
            back_title=(back.title if back and back.title else deck.name),
            back_text=row.back if row.back is not None else (back.text if back else ""),
            footer=row.footer,
            copies=row.count,
            image=deck.image_ref(row.image) if row.image else None,
            image_fit=row.image_fit,
            image_anchor=row.image_anchor,
        )
        for i, row in enumerate(params.rows, start=1)
    )
    return CardDeck(cards, back.colour if back else "#ffffff", back.icon if back else None)
