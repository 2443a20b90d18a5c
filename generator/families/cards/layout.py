"""Cards -> drawings: a header band in the card's accent colour (running into the bleed),
the title, a row of large icons, the body text and an optional footer; a back with the
deck's back design. Text stays inside the safe zone."""

from __future__ import annotations

from ...deck import Deck
from ...render.drawing import Drawing, Image, Item, Rect, Stroke, Symbol, TextBox
from ..base import Component, Report
from .model import Card, CardDeck

IMAGE_SHARE = 0.5
"""A row's picture takes half the space between the icons and the footer when the card also
has text (all of it otherwise): the text keeps room for a few lines at body size."""
ICON_MM = 9.0
"""Header icons: 9 mm reads across a table (tested at arm's length on a poker card)."""


def card_front(deck: Deck, card: Card) -> Drawing:
    size = deck.print.card
    w, h, bleed, safe = size.width, size.height, deck.print.bleed, deck.print.safe
    band = min(16.0, h * 0.2)
    items: list[Item] = [
        Rect(-bleed, -bleed, w + 2 * bleed, band + bleed, fill=card.colour),
        TextBox(safe, safe * 0.6, w - 2 * safe, band - safe * 0.6, card.title,
                size=deck.params.title_size, min_size=deck.params.min_size, align="center",
                valign="middle", colour="#ffffff", bold=True, owner=f"{card.id} title",
                font=deck.font_chain("title")),
    ]
    y = band + 2.5
    if card.icons:
        n = len(card.icons)
        icon = min(ICON_MM, (w - 2 * safe - (n - 1) * 2.0) / n)
        x0 = (w - (n * icon + (n - 1) * 2.0)) / 2
        for i, name in enumerate(card.icons):
            items.append(Symbol(name, x0 + i * (icon + 2.0), y, icon))
        y += icon + 2.5
    footer_h = 5.0 if card.footer else 0.0
    body_bottom = h - safe - footer_h
    if card.image:
        frame_h = (body_bottom - y) * (IMAGE_SHARE if card.text else 1.0)
        items.append(Image(safe, y, w - 2 * safe, frame_h - 1.0, card.image,
                           fit=card.image_fit, anchor=card.image_anchor))
        y += frame_h + 1.0
    if card.text:
        items.append(TextBox(safe, y, w - 2 * safe, body_bottom - y, card.text,
                             size=deck.params.body_size, min_size=deck.params.min_size,
                             owner=f"{card.id} text", font=deck.font_chain("body")))
    if card.footer:
        items.append(TextBox(safe, h - safe - footer_h, w - 2 * safe, footer_h, card.footer,
                             size=6.5, min_size=deck.params.min_size, align="center",
                             valign="bottom", italic=True, colour="#555555",
                             owner=f"{card.id} footer", font=deck.font_chain("body")))
    items.append(Rect(0, 0, w, h, stroke=Stroke(card.colour, 0.6), radius=3.0))
    return Drawing(w, h, tuple(items), bleed=bleed, background="#ffffff")


def card_back(deck: Deck, cards: CardDeck, card: Card) -> Drawing:
    size = deck.print.card
    w, h, bleed, safe = size.width, size.height, deck.print.bleed, deck.print.safe
    items: list[Item] = [Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed,
                              fill=cards.back_colour)]
    if cards.back_icon:
        s = min(w, h) * 0.45
        items.append(Symbol(cards.back_icon, (w - s) / 2, h * 0.42 - s / 2, s,
                            colour="#ffffff"))
    items.append(TextBox(safe, h * 0.68, w - 2 * safe, h * 0.12, card.back_title,
                         size=16, min_size=deck.params.min_size, align="center",
                         valign="middle", colour="#ffffff", bold=True,
                         owner=f"{card.id} back title", font=deck.font_chain("title")))
    if card.back_text:
        items.append(TextBox(safe, h * 0.80, w - 2 * safe, h * 0.2 - safe, card.back_text,
                             size=9, min_size=deck.params.min_size, align="center",
                             colour="#ffffff", owner=f"{card.id} back text",
                             font=deck.font_chain("body")))
    return Drawing(w, h, tuple(items), bleed=bleed, background=cards.back_colour)


def layout(deck: Deck, cards: CardDeck, report: Report) -> list[Component]:
    with_backs = deck.print.duplex != "none" and deck.params.back is not None
    return [
        Component(
            id=card.id, kind="card", title=card.title or card.id,
            front=card_front(deck, card),
            back=card_back(deck, cards, card) if with_backs else None,
            copies=card.copies, imposition="grid",
        )
        for card in cards.cards
    ]
