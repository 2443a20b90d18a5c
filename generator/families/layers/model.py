"""The layers family's components and deck table.

Landscape cards carry a colour, a value, stars and maybe the scissors logo; a player stacks
them in a 3x3 landscape. Objective cards are built from *parts* a designer combines in the
deck file: a shape of stacks with a condition on its top cards, or a count of tops. Every
model here is frozen; every card has a text form that parses back (``fern 3 scissors``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Literal, TypeAlias

from pydantic import Field

from ...deck import Frozen

Pattern: TypeAlias = Literal[
    "leaves", "waves", "flames", "dots", "stripes", "checks", "rings", "zigzag"
]
PATTERNS: tuple[str, ...] = (
    "leaves", "waves", "flames", "dots", "stripes", "checks", "rings", "zigzag"
)
ShapeName: TypeAlias = Literal["line", "column", "diagonal", "l", "square", "cross", "corners"]
Condition: TypeAlias = Literal[
    "filled",
    "same-colour",
    "different-colours",
    "same-value",
    "different-values",
    "values",
    "sum",
]
CountKind: TypeAlias = Literal["value", "colour", "scissors", "all-values"]
Compare: TypeAlias = Literal["eq", "ge", "le"]

_NAME = re.compile(r"^[a-z][a-z0-9-]*$")


# --------------------------------------------------------------------------------------------
# Deck table (pydantic)


class ColourSpec(Frozen):
    """One landscape colour: a name, an ink, and a pattern so it reads in greyscale."""

    name: str = Field(description="Colour name, lowercase letters/digits/'-' (no default).")
    ink: str = Field(
        default="#888888", pattern=r"^#[0-9a-fA-F]{6}$",
        description="Printed colour as #rrggbb. Default #888888.",
    )
    pattern: Pattern = Field(
        default="dots",
        description="Pattern printed with the colour for greyscale and colour-blind reading: "
        "leaves, waves, flames, dots, stripes, checks, rings, zigzag. Default dots.",
    )


class PartSpec(Frozen):
    """One part of an objective: either a shape of stacks with a condition on their top
    cards, or a count of top cards. An objective is met when all its parts are."""

    shape: ShapeName | None = Field(
        default=None,
        description="Named shape of stacks: line (row of 3), column (3 down), diagonal (3 "
        "corner to corner, either way), l (5: a column of 3 and a row of 3 sharing a corner, "
        "any orientation), square (2x2), cross (centre and its 4 neighbours), corners (the 4 "
        "corners of the 3x3). Default none.",
    )
    cells: str | None = Field(
        default=None,
        description="Custom shape instead of a named one: rows of '#' (a stack) and '.' "
        "separated by '/' or newlines, e.g. '#../##.'. Cells are read row by row. Default none.",
    )
    turn: bool | None = Field(
        default=None,
        description="Whether the shape may be rotated and mirrored. Default: false for line, "
        "column, square, cross, corners and custom cells; diagonal may be mirrored; l turns.",
    )
    condition: Condition = Field(
        default="filled",
        description="Condition on the shape's top cards: filled (stacks only), same-colour, "
        "different-colours, same-value, different-values, values (the given values, in cell "
        "order), sum (the values' total compared with `sum`). Default filled.",
    )
    colour: str | None = Field(
        default=None,
        description="With same-colour: the colour required. With count = colour: the colour "
        "counted. Default none (any).",
    )
    values: tuple[int, ...] = Field(
        default=(), description="With condition = values: one value per shape cell. Default []."
    )
    sum: int | None = Field(
        default=None, description="With condition = sum: the total of the top values. Default none."
    )
    compare: Compare = Field(
        default="eq",
        description="With condition = sum: eq (exactly), ge (at least), le (at most). "
        "Default eq.",
    )
    count: CountKind | None = Field(
        default=None,
        description="A count of top cards instead of a shape: value (tops of `value`), colour "
        "(tops of `colour`), scissors (tops with the scissors logo), all-values (every value "
        "of the deck on some top). Default none.",
    )
    value: int | None = Field(
        default=None, description="With count = value: the value counted. Default none."
    )
    at_least: int = Field(
        default=1, ge=1, description="With count value/colour/scissors: how many tops. Default 1."
    )


class ObjectiveSpec(Frozen):
    """An objective card: a title, its parts (all must hold), its score tokens."""

    title: str = Field(description="Title printed on the card (no default).")
    parts: tuple[PartSpec, ...] = Field(
        min_length=1, description="What the landscape must show; every part must hold (no default)."
    )
    tokens: tuple[int, ...] | None = Field(
        default=None,
        description="Score tokens of this objective, taken highest first. Default: the "
        "deck's `tokens`.",
    )


MAX_VALUE = 99
"""Highest card value: printed large in two digits on the card's panel."""

MAX_STARS = 20
"""Most stars one card shows (a hundred million drew for hours; twenty already crowd the
card)."""


class CardSpec(Frozen):
    """One printed landscape card of an explicit ``card_list`` (``copies`` identical cards)."""

    colour: str = Field(description="Colour name, one of `colours` (no default).")
    value: int = Field(description="Value, within min_value..max_value (no default).")
    stars: int = Field(default=0, ge=0, le=MAX_STARS, description="Stars printed on the card. "
                       "Default 0.")
    scissors: bool = Field(default=False, description="Whether the card carries the scissors "
                           "logo. Default false.")
    copies: int = Field(default=1, ge=1, le=100, description="How many identical cards. "
                        "Default 1.")
    min_players: int = Field(default=0, ge=0, description="Used from this many players on "
                             "(printed 'n+'); 0 = at every player count. Default 0.")


class StartSpec(Frozen):
    """The starting cards: one per colour; player i starts with colour i's card."""

    value: int = Field(default=1, ge=0, le=MAX_VALUE,
                       description="Value of every starting card. Default 1.")
    stars: int = Field(default=0, ge=0, le=MAX_STARS,
                       description="Stars of a starting card. Default 0.")


def _default_colours() -> tuple[ColourSpec, ...]:
    return (
        ColourSpec(name="fern", ink="#4f9a4a", pattern="leaves"),
        ColourSpec(name="lagoon", ink="#3b7fc4", pattern="waves"),
        ColourSpec(name="cinder", ink="#d0573a", pattern="flames"),
        ColourSpec(name="saffron", ink="#e2b43c", pattern="dots"),
    )


def _p(**kw: object) -> PartSpec:
    return PartSpec.model_validate(kw)


def _default_objectives() -> tuple[ObjectiveSpec, ...]:
    return (
        ObjectiveSpec(title="Ridge Line", parts=(_p(shape="line", condition="same-colour"),)),
        ObjectiveSpec(
            title="Waterfall", parts=(_p(shape="column", condition="different-values"),)
        ),
        ObjectiveSpec(
            title="Quilted Field", parts=(_p(shape="square", condition="different-colours"),)
        ),
        ObjectiveSpec(
            title="Rising Path", parts=(_p(shape="diagonal", condition="values", values=(1, 3, 5)),)
        ),
        ObjectiveSpec(
            title="Deep Column",
            parts=(_p(shape="column", condition="sum", sum=12, compare="ge"),),
        ),
        ObjectiveSpec(title="Four Cairns", parts=(_p(shape="corners", condition="same-value"),)),
        ObjectiveSpec(title="Elbow Valley", parts=(_p(shape="l", condition="same-colour"),)),
        ObjectiveSpec(title="Crossroads", parts=(_p(shape="cross", condition="different-values"),)),
        ObjectiveSpec(title="High Country", parts=(_p(count="value", value=5, at_least=3),)),
        ObjectiveSpec(
            title="Cut and Fold",
            parts=(_p(count="scissors", at_least=2), _p(shape="line", condition="sum", sum=9)),
        ),
        ObjectiveSpec(title="Every Season", parts=(_p(count="all-values"),)),
    )


def _default_copies() -> dict[int, tuple[int, ...]]:
    return {2: (3, 3, 3, 3, 2), 3: (4, 4, 4, 3, 3), 4: (5, 5, 5, 4, 4)}


class LayersParams(Frozen):
    """The [layers] table: landscape cards, starting cards, objectives, tokens, game numbers."""

    colours: tuple[ColourSpec, ...] = Field(
        default_factory=_default_colours, min_length=1,
        description="Landscape colours. Default four: fern, lagoon, cinder, saffron.",
    )
    min_value: int = Field(default=1, ge=0, le=MAX_VALUE,
                           description="Lowest card value. Default 1.")
    max_value: int = Field(default=5, ge=1, le=MAX_VALUE,
                           description=f"Highest card value. Default 5, at most {MAX_VALUE}.")
    stars: tuple[Annotated[int, Field(ge=0, le=MAX_STARS)], ...] = Field(
        default=(0, 1, 1, 2, 3),
        description="Stars per value, lowest value first (one entry per value). "
        "Default [0, 1, 1, 2, 3].",
    )
    copies: dict[int, tuple[int, ...]] = Field(
        default_factory=_default_copies,
        description="Per player count: copies of each (colour, value) card, one entry per "
        "value, lowest first. Keys are the supported player counts. Copies must not shrink "
        "as players grow: cards used only from n players print an 'n+' mark. Default "
        "{2 = [3,3,3,3,2], 3 = [4,4,4,3,3], 4 = [5,5,5,4,4]} (56/72/92 cards with 4 colours).",
    )
    scissors_share: float = Field(
        default=0.15, ge=0.0, le=1.0,
        description="Share of printed landscape cards with the scissors logo, spread evenly "
        "over colours and chosen by the seed. Default 0.15.",
    )
    card_list: tuple[CardSpec, ...] = Field(
        default=(),
        description="The landscape cards card by card (colour, value, stars, scissors logo, "
        "copies, min_players) instead of generating them from copies, stars and "
        "scissors_share; the player counts stay the keys of `copies` (its rows are then "
        "unused). Default none (generated).",
    )
    start: StartSpec = Field(default_factory=StartSpec, description="Starting cards.")
    piles: int = Field(default=6, ge=1, description="Face-up piles in the centre. Default 6.")
    end_piles: int = Field(
        default=2, ge=0,
        description="The end is triggered when at most this many piles remain. Default 2.",
    )
    hand_limit: int = Field(
        default=9, ge=1,
        description="Cards a player may hold at the end of a turn; the excess is discarded "
        "(-1 point each). Default 9.",
    )
    scissors_bonus: int = Field(
        default=2, description="Points for the scissors token on one of your stacks. Default 2."
    )
    tokens: tuple[int, ...] = Field(
        default=(4, 3, 2), min_length=1,
        description="Default score tokens per objective, taken highest first. Default [4, 3, 2].",
    )
    objectives_per_game: int = Field(
        default=3, ge=1, description="Objective cards revealed per game. Default 3."
    )
    objectives: tuple[ObjectiveSpec, ...] = Field(
        default_factory=_default_objectives,
        description="Objective cards. Default: eleven original objectives.",
    )
    simulate_players: tuple[int, ...] = Field(
        default=(),
        description="Player counts the simulated games use, in turn. Default: every key of "
        "`copies`.",
    )


# --------------------------------------------------------------------------------------------
# Generated components (frozen dataclasses)

Pos: TypeAlias = tuple[int, int]
"""A stack position (row, col)."""


@dataclass(frozen=True, order=True)
class Card:
    """A landscape card. ``text`` is its round-tripping form: ``fern 3`` or
    ``fern 3 scissors``; stars follow from the deck and are not part of the identity."""

    colour: str
    value: int
    scissors: bool = False
    stars: int = field(default=0, compare=False)
    start: bool = field(default=False, compare=False)

    @property
    def kind(self) -> tuple[str, int, bool]:
        return (self.colour, self.value, self.scissors)

    @property
    def text(self) -> str:
        return f"{self.colour} {self.value}" + (" scissors" if self.scissors else "")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return (
            f"Card({self.colour!r}, {self.value!r}, scissors={self.scissors!r}, "
            f"stars={self.stars!r}, start={self.start!r})"
        )


_CARD_TEXT = re.compile(r"^\s*([a-z][a-z0-9-]*)\s+(-?\d+)(\s+scissors)?\s*$")


def parse_card_text(text: str) -> tuple[str, int, bool]:
    """``"fern 3 scissors"`` -> ``("fern", 3, True)``; raises ValueError saying what is valid."""
    m = _CARD_TEXT.match(text)
    if not m:
        raise ValueError(
            f"{text!r} is not a card; write '<colour> <value>' or '<colour> <value> scissors'"
        )
    return m.group(1), int(m.group(2)), m.group(3) is not None


@dataclass(frozen=True)
class LandscapeCard:
    """A printed landscape card: its rules card, its id, and from how many players it is used."""

    id: str
    card: Card
    min_players: int


@dataclass(frozen=True)
class StartCard:
    id: str
    card: Card


@dataclass(frozen=True)
class ShapePart:
    """A shape of stacks with a condition on its tops. ``variants`` are the ordered cell tuples
    (normalised to row/col 0) the shape may take; the first one is the drawn orientation."""

    name: str
    variants: tuple[tuple[Pos, ...], ...]
    condition: Condition
    colour: str | None = None
    values: tuple[int, ...] = ()
    total: int | None = None
    compare: Compare = "eq"

    @property
    def size(self) -> int:
        return len(self.variants[0])


@dataclass(frozen=True)
class CountPart:
    """A count of tops: ``at_least`` tops of ``value`` / ``colour`` / with scissors, or every
    value of the deck visible (``all-values``)."""

    kind: CountKind
    at_least: int = 1
    value: int | None = None
    colour: str | None = None


Part: TypeAlias = ShapePart | CountPart


@dataclass(frozen=True)
class Objective:
    id: str
    title: str
    parts: tuple[Part, ...]
    tokens: tuple[int, ...]


@dataclass(frozen=True)
class Colour:
    name: str
    ink: str
    pattern: str


@dataclass(frozen=True)
class LayersSet:
    """Everything the generator makes for one deck."""

    colours: tuple[Colour, ...]
    values: tuple[int, ...]
    stars: dict[int, int]
    landscape: tuple[LandscapeCard, ...]
    starts: tuple[StartCard, ...]
    objectives: tuple[Objective, ...]
    copies: dict[int, dict[tuple[str, int], int]]
    """Per player count: copies of each (colour, value)."""
    kind_stars: dict[tuple[str, int, bool], int] = field(default_factory=dict)
    """Stars of each (colour, value, scissors) card of an explicit card list (overrides the
    per-value ``stars``)."""

    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.copies))

    def cards_for(self, players: int) -> tuple[Card, ...]:
        """The landscape cards used in a game of ``players`` players."""
        return tuple(c.card for c in self.landscape if c.min_players <= players)

    def colour(self, name: str) -> Colour:
        for c in self.colours:
            if c.name == name:
                return c
        raise KeyError(name)

    def objective(self, oid: str) -> Objective:
        for o in self.objectives:
            if o.id == oid:
                return o
        raise KeyError(oid)

    def make_card(self, colour: str, value: int, scissors: bool = False) -> Card:
        stars = self.kind_stars.get((colour, value, scissors), self.stars.get(value, 0))
        return Card(colour, value, scissors, stars)
