"""The ``cards`` family's model: a custom deck from a table of rows.

The data-driven card tool every designer needs (player aids, rule summaries, event decks):
each row is a card with a count, a title, body text with light markup (``**bold**``,
``*italic*``, inline icons ``:water:``), header icons and an optional back text.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from ...deck import Colour, Frozen, ImageAnchor, ImageFit


class CardRow(Frozen):
    """One row of the table: one card design, printed ``count`` times."""

    count: int = Field(default=1, ge=1, le=999, description="Copies of this card. Default 1.")
    title: str = Field(default="", description="Title, shown in the header band.")
    text: str = Field(
        default="",
        description="Body text: **bold**, *italic*, :icon: inline symbols, \\n line breaks.",
    )
    icons: tuple[str, ...] = Field(
        default=(), max_length=12,
        description="Symbols shown large under the header (names from the library); at most 12."
    )
    colour: Colour | None = Field(
        default=None, description="Accent colour of this card; default the deck's accent."
    )
    back: str | None = Field(
        default=None, description="Back text of this card; default the deck's back text."
    )
    footer: str = Field(default="", description="Small line at the bottom of the card.")
    source: str = Field(
        default="",
        description="Where a CSV row came from (file:line), set by the loader so problems "
        "point there; leave it out.",
    )
    image: str | None = Field(
        default=None,
        description="A PNG, JPEG or SVG picture (relative to the deck file) in a frame "
        "between the header icons and the text.",
    )
    image_fit: ImageFit = Field(default="contain",
                                description="How the picture fills its frame: contain, "
                                "cover or stretch. Default contain.")
    image_anchor: ImageAnchor = Field(default="center",
                                      description="Where a contained picture sits, or which "
                                      "part a covering one keeps. Default center.")


class CardBack(Frozen):
    """The back design shared by every card (duplex sheets print it behind each front)."""

    title: str = Field(default="", description="Large text on the back; default the deck name.")
    text: str = Field(default="", description="Smaller text under the back's title.")
    colour: Colour = Field(default="#2d3a4a", description="Back background colour.")
    icon: str | None = Field(default="star", description="Symbol in the middle of the back.")


class CardsParams(Frozen):
    """The [cards] table: rows (inline or from a CSV file) and the look of the deck."""

    rows: tuple[CardRow, ...] = Field(
        default=(), description="The cards, as [[cards.rows]] tables. Default none."
    )
    csv: str | None = Field(
        default=None,
        description="A CSV file of more rows, relative to the deck file; columns: count, "
        "title, text, icons (space-separated), colour, back, footer, image, image_fit, "
        "image_anchor. Its rows follow the inline rows.",
    )
    accent: Colour = Field(default="#2b6cb0", description="Default accent colour.")
    title_size: float = Field(default=14.0, ge=2, le=72, description="Title size in pt (shrinks "
                              "to fit). Default 14.")
    body_size: float = Field(default=9.5, ge=2, le=72, description="Body text size in pt (shrinks "
                             "to fit). Default 9.5.")
    min_size: float = Field(default=5.0, ge=2, le=72, description="Smallest size text may shrink "
                            "to before it is an error. Default 5.")
    back: CardBack | None = Field(
        default_factory=CardBack,
        description="Back design (print.duplex = \"none\" prints no backs).",
    )


@dataclass(frozen=True)
class Card:
    """A generated card: one row resolved against the deck's defaults."""

    index: int
    title: str
    text: str
    icons: tuple[str, ...]
    colour: str
    back_title: str
    back_text: str
    footer: str
    copies: int
    image: str | None = None
    """The registered image key (``deck.image_ref``) of the row's picture."""
    image_fit: ImageFit = "contain"
    image_anchor: ImageAnchor = "center"

    @property
    def id(self) -> str:
        return f"card-{self.index:02d}"


@dataclass(frozen=True)
class CardDeck:
    cards: tuple[Card, ...]
    back_colour: str
    back_icon: str | None
