"""The streets family's model: the deck table ``[streets]`` and the generated components.

A street sheet has streets of houses (with pool spots and a park track each), a pool track, a
worker track, a duplicate track, a refusal track and one value column per group size. The
construction deck is two-sided cards (a house number on one side, an effect on the other),
dealt into three stacks. Plan cards ask for groups of given sizes and other composable
conditions, with points for the first achiever and fewer for the later ones.

Every default below is original to PaperProof (street lengths, tracks, values, plans).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator

from ...deck import Frozen


class Effect(StrEnum):
    """The effect side of a construction card."""

    FENCE = "fence"
    """Draw one fence between two neighbouring houses of any street: fences close groups."""
    PARK = "park"
    """Mark the next box of the park track of the street the house was built on."""
    POOL = "pool"
    """Build the pool if the house just built stands on a pool spot."""
    WORKER = "worker"
    """Write the number shifted by up to +-worker_shift, and mark the worker track."""
    PRICE = "price"
    """Raise the value of one group size: mark the next box of its value column."""
    DUPLICATE = "duplicate"
    """Also copy a built house's number into an empty neighbouring house (duplicate track)."""
    ROUNDABOUT = "roundabout"
    """Also write a roundabout in an empty house: the street's parts on either side number
    independently and groups end there (roundabout penalty track)."""

    def __repr__(self) -> str:
        return f"Effect.{self.name}"


EFFECT_ORDER: tuple[Effect, ...] = tuple(Effect)

# --- deck table (pydantic) ---------------------------------------------------------------


class StreetParams(Frozen):
    """One street of the sheet."""

    name: str = Field(description="Street name printed on the sheet.")
    houses: int = Field(ge=2, le=20, description="Number of houses (2..20).")
    pools: list[int] = Field(
        default_factory=list,
        description="Houses (1-based) with a pool spot. Default none.",
    )
    parks: list[int] = Field(
        default_factory=list,
        description="Park track: the points shown after the 1st, 2nd, ... park on this street "
        "(the last marked box scores). Default none (no park track).",
    )


class EffectMix(Frozen):
    """Relative weights of the six effects on the construction cards. The generator
    apportions the deck's card count to these weights (largest remainder)."""

    fence: int = Field(default=18, ge=0, description="Weight of fence cards. Default 18.")
    park: int = Field(default=17, ge=0, description="Weight of park cards. Default 17.")
    pool: int = Field(default=12, ge=0, description="Weight of pool cards. Default 12.")
    worker: int = Field(default=13, ge=0, description="Weight of worker cards. Default 13.")
    price: int = Field(default=14, ge=0, description="Weight of price-rise cards. Default 14.")
    duplicate: int = Field(default=10, ge=0, description="Weight of duplicate cards. Default 10.")
    roundabout: int = Field(default=0, ge=0, description="Weight of roundabout cards (needs a "
                            "roundabout_penalty track). Default 0 (no roundabouts).")

    def weights(self) -> dict[Effect, int]:
        return {e: int(getattr(self, e.value)) for e in EFFECT_ORDER}


class CardParams(Frozen):
    """One physical construction card of an explicit ``card_list``: its number side and its
    effect side (``copies`` identical cards)."""

    number: int = Field(ge=0, le=99, description="The house number on the number side.")
    effect: Effect = Field(description="The effect side: fence, park, pool, worker, price, "
                           "duplicate or roundabout.")
    copies: int = Field(default=1, ge=1, le=100, description="How many identical cards. "
                        "Default 1.")


ConditionKind = Literal["groups", "parks", "pools", "street_full", "workers", "duplicates", "ends"]


class ConditionParams(Frozen):
    """One condition of a plan card; a plan is met when all its conditions hold at once.

    - ``groups``: completed groups of the listed ``sizes`` (distinct groups, not used by an
      earlier plan); they are locked once the plan is claimed.
    - ``parks`` / ``pools``: at least ``count`` parks / pools on ``street`` (0 = all the
      street has).
    - ``street_full``: every house of ``street`` built.
    - ``workers``: at least ``count`` workers hired.
    - ``duplicates``: at least ``count`` duplicate houses on ``street``.
    - ``ends``: the first and last house of every street built.

    ``street`` is 1-based; 0 means "on any one street", or with ``streets = n`` "on n
    different streets".
    """

    kind: ConditionKind = Field(description="groups, parks, pools, street_full, workers, "
                                "duplicates or ends.")
    sizes: list[int] = Field(default_factory=list, max_length=12,
                             description="groups: the group sizes asked for. Default none.")
    street: int = Field(default=0, ge=0, le=6, description="1-based street; 0 = any one street. "
                        "Default 0.")
    count: int = Field(default=0, ge=0, le=1000, description="How many (parks, pools, workers, "
                       "duplicates); 0 = all the street has (parks, pools). Default 0.")
    streets: int = Field(default=1, ge=1, le=6, description="parks, pools, street_full, "
                         "duplicates with street = 0: on at least this many different "
                         "streets (e.g. 2 = two streets with every park). Default 1.")


MAX_CONDITIONS = 8
"""Most conditions on one plan card: a printed plan shows at most a few; the certifier's work
grows with the product of the conditions' choices (24 conditions ran out of memory)."""


class PlanParams(Frozen):
    """One plan card."""

    level: int = Field(ge=1, le=3, description="Plan level 1, 2 or 3.")
    title: str = Field(default="", description="Title printed on the card. Default: from the "
                       "conditions.")
    conditions: list[ConditionParams] = Field(
        min_length=1, max_length=MAX_CONDITIONS,
        description=f"All must hold. At most {MAX_CONDITIONS}.")
    first: int = Field(ge=0, le=1000, description="Points for the first player(s) to complete it.")
    later: int = Field(ge=0, le=1000, description="Points for every later player who completes it.")

    @model_validator(mode="after")
    def _first_not_less(self) -> PlanParams:
        if self.later > self.first:
            raise ValueError(f"later points ({self.later}) exceed first points ({self.first})")
        return self


def _g(*sizes: int) -> ConditionParams:
    return ConditionParams(kind="groups", sizes=list(sizes))


DEFAULT_STREETS: tuple[StreetParams, ...] = (
    StreetParams(name="Elm Row", houses=9, pools=[3, 7], parks=[1, 3, 6]),
    StreetParams(name="Quarry Street", houses=11, pools=[2, 6, 9], parks=[1, 3, 5, 9]),
    StreetParams(name="Lantern Way", houses=13, pools=[4, 8, 11], parks=[1, 2, 4, 7, 12]),
)

DEFAULT_PLANS: tuple[PlanParams, ...] = (
    PlanParams(level=1, title="Three pairs", conditions=[_g(2, 2, 2)], first=7, later=4),
    PlanParams(level=1, title="Twin trios", conditions=[_g(3, 3)], first=6, later=3),
    PlanParams(level=1, title="Two fours", conditions=[_g(4, 4)], first=8, later=4),
    PlanParams(level=1, title="Cottages", conditions=[_g(1, 1, 1, 1)], first=7, later=4),
    PlanParams(level=2, title="Staircase", conditions=[_g(1, 2, 3)], first=10, later=6),
    PlanParams(level=2, title="Long and short", conditions=[_g(2, 5)], first=9, later=5),
    PlanParams(level=2, title="Lido quarter",
               conditions=[_g(4), ConditionParams(kind="pools", street=2, count=2)],
               first=10, later=5),
    PlanParams(level=3, title="Terraces", conditions=[_g(2, 3, 6)], first=13, later=7),
    PlanParams(level=3, title="Garden street",
               conditions=[ConditionParams(kind="parks", street=1),
                           ConditionParams(kind="street_full", street=1)],
               first=12, later=6),
    PlanParams(level=3, title="Town limits", conditions=[ConditionParams(kind="ends"),
                                                         _g(5)], first=12, later=7),
)


RankedTrackName = Literal["workers", "pools", "parks"]


class RankedTrackParams(Frozen):
    """A track scored by rank across the players instead of by its own boxes: the player with
    the most marks scores ``points[0]``, the next ``points[1]``, ... Ties share the better
    place; a player with no mark scores nothing."""

    track: RankedTrackName = Field(description="workers, pools or parks (all streets' parks "
                                   "together).")
    points: list[int] = Field(min_length=1, description="Points for the 1st, 2nd, ... place.")
    solo: int = Field(default=0, ge=0, description="In a one-player game: at least this many "
                      "marks score points[0]; 0 = the track scores nothing alone. Default 0.")


class StreetsParams(Frozen):
    """The ``[streets]`` table: the sheet, the construction deck, the plans."""

    streets: list[StreetParams] = Field(
        default_factory=lambda: list(DEFAULT_STREETS), min_length=1, max_length=6,
        description="The streets, top to bottom. Default: 3 streets of 9, 11, 13 houses.")
    group_values: list[list[int]] = Field(
        default_factory=lambda: [[1, 2, 3], [2, 3, 4, 5], [3, 4, 5, 6], [4, 5, 6, 7, 8],
                                 [5, 6, 7, 9, 11], [6, 8, 10, 12, 14]],
        min_length=1,
        description="One value column per group size 1, 2, ...: points per completed group "
        "at each price level (a price rise marks the next box). Groups larger than the last "
        "column never score. Default sizes 1..6.")
    pool_points: list[int] = Field(
        default_factory=lambda: [2, 4, 7, 10, 13, 17, 21, 25],
        description="Pool track: points after 1, 2, ... pools. Default 2..25 (8 boxes).")
    worker_points: list[int] = Field(
        default_factory=lambda: [0, 1, 2, 3, 5, 6, 8, 10],
        description="Worker track: points after 1, 2, ... workers; beyond the last box a "
        "worker still shifts numbers but scores nothing more. Default 0..10 (8 boxes).")
    duplicate_penalty: list[int] = Field(
        default_factory=lambda: [1, 3, 5, 7, 10, 13, 16],
        description="Duplicate track: points lost after 1, 2, ... duplicates; no duplicate "
        "once it is full. Default 1..16 (7 boxes).")
    ranked: list[RankedTrackParams] = Field(
        default_factory=list,
        description="Tracks scored by rank across players (e.g. the most workers), replacing "
        "their own points. Default none (every track scores per sheet).")
    refusal_penalty: list[int] = Field(
        default_factory=lambda: [0, 2, 5], min_length=1,
        description="Refusal track: points lost after 1, 2, ... refusals; filling its last "
        "box ends the game. Default 0, 2, 5.")
    roundabout_penalty: list[int] = Field(
        default_factory=list, max_length=10,
        description="Roundabout track: points lost after 1, 2, ... roundabouts; its length "
        "caps the roundabouts of a sheet. Default none (no roundabouts).")
    number_min: int = Field(default=1, ge=0, le=99,
                            description="Lowest house number on the cards. Default 1.")
    number_max: int = Field(default=16, ge=0, le=99,
                            description="Highest house number on the cards. Default 16.")
    number_shape: Literal["triangle", "flat", "bell"] = Field(
        default="triangle",
        description="How often each number appears: triangle (middle numbers most), flat, "
        "or bell (binomial). Default triangle.")
    number_counts: list[int] = Field(
        default_factory=list,
        description="Explicit copies of each number from number_min up (overrides "
        "number_shape and cards when given). Default none.")
    cards: int = Field(default=84, ge=6, le=999, description="Construction cards (a multiple of 3: "
                       "three equal stacks). Default 84.")
    effects: EffectMix = Field(default_factory=EffectMix,
                               description="Weights of the effects on the cards.")
    card_list: list[CardParams] = Field(
        default_factory=list,
        description="The construction deck card by card (number side and effect side of each "
        "physical card, in this order), instead of generating it: overrides cards, "
        "number_shape, number_counts and effects. Default none (generated).")
    duplicate_rule: Literal["left-first", "joined"] = Field(
        default="left-first",
        description="How a duplicate (bis) house copies: left-first (the left neighbour when "
        "built, else the right one; fences may fall anywhere) or joined (the player chooses "
        "the neighbour, and no fence may ever separate the duplicate from the house it "
        "copies). Default left-first.")
    worker_shift: int = Field(default=2, ge=1, le=5, description="A worker shifts the "
                              "number by up to this much either way. Default 2.")
    plans: list[PlanParams] = Field(
        default_factory=lambda: list(DEFAULT_PLANS),
        description="The plan cards; each game deals one of each level. Default 10 plans.")
    generated_plans: list[int] = Field(
        default_factory=lambda: [0, 0, 0], min_length=3, max_length=3,
        description="How many plans of level 1, 2, 3 to generate (seeded group-size plans "
        "that fit the streets, none repeating another plan), after `plans`. Default [0, 0, 0].")
    players: int = Field(default=2, ge=1, le=6, description="Players (greedy bots) in each "
                         "simulated game. Default 2.")
    max_rounds: int = Field(default=120, ge=1, le=1000, description="Safety cap on rounds of a "
                            "simulated game. Default 120.")
    planner_games: int = Field(
        default=0, ge=0, le=2000,
        description="Games of planning bots (every seat plans: lookahead over the draw, aims "
        "at the dealt plans) played besides the greedy ones, so each plan's difficulty is a "
        "band: casual (greedy) / planning. About 5x a greedy game's time. Default 0 (none).")


# --- generated components (frozen dataclasses) ------------------------------------------


@dataclass(frozen=True)
class Street:
    """A street of the sheet. ``pools`` are 0-based house indices; ``parks`` the track."""

    name: str
    houses: int
    pools: tuple[int, ...]
    parks: tuple[int, ...]


@dataclass(frozen=True)
class SheetSpec:
    """The printed street sheet: everything the rules engine needs about the player's area."""

    streets: tuple[Street, ...]
    group_values: tuple[tuple[int, ...], ...]
    pool_points: tuple[int, ...]
    worker_points: tuple[int, ...]
    duplicate_penalty: tuple[int, ...]
    refusal_penalty: tuple[int, ...]
    worker_shift: int
    written_min: int
    written_max: int
    roundabout_penalty: tuple[int, ...] = ()
    ranked: tuple[tuple[str, tuple[int, ...], int], ...] = ()
    duplicate_rule: str = "left-first"
    """Ranked tracks: (track, points by place, solo threshold)."""

    @property
    def max_group(self) -> int:
        return len(self.group_values)

    @property
    def total_houses(self) -> int:
        return sum(s.houses for s in self.streets)

    @property
    def total_pools(self) -> int:
        return sum(len(s.pools) for s in self.streets)


@dataclass(frozen=True)
class ConstructionCard:
    """A two-sided construction card: ``number`` on one side, ``effect`` on the other."""

    index: int
    number: int
    effect: Effect

    def __str__(self) -> str:
        return f"{self.number}/{self.effect.value}"


@dataclass(frozen=True)
class Condition:
    """A plan condition (see :class:`ConditionParams`); ``street`` is 0-based, -1 = any."""

    kind: str
    sizes: tuple[int, ...] = ()
    street: int = -1
    count: int = 0
    streets: int = 1
    """With ``street == -1``: on at least this many different streets."""

    def describe(self, spec: SheetSpec) -> str:
        """The condition in words, as printed on the card."""
        if self.street >= 0:
            where = spec.streets[self.street].name
        else:
            where = "one street" if self.streets == 1 else f"each of {self.streets} streets"
        if self.kind == "groups":
            return "groups of " + ", ".join(str(s) for s in self.sizes)
        if self.kind == "parks":
            return f"{self.count or 'all'} parks on {where}"
        if self.kind == "pools":
            return f"{self.count or 'all'} pools on {where}"
        if self.kind == "street_full":
            return f"every house of {where}"
        if self.kind == "workers":
            return f"{self.count} workers"
        if self.kind == "duplicates":
            return f"{self.count} duplicates on {where}"
        return "first and last house of every street"


@dataclass(frozen=True)
class PlanCard:
    """A plan card: level, conditions (all at once), first/later points."""

    id: str
    level: int
    title: str
    conditions: tuple[Condition, ...]
    first: int
    later: int

    @property
    def group_sizes(self) -> tuple[int, ...]:
        out: list[int] = []
        for c in self.conditions:
            if c.kind == "groups":
                out.extend(c.sizes)
        return tuple(sorted(out))


@dataclass(frozen=True)
class StreetsGame:
    """Everything the generator makes from a deck: sheet, cards, the dealt stacks, plans."""

    sheet: SheetSpec
    cards: tuple[ConstructionCard, ...]
    stacks: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    plans: tuple[PlanCard, ...]

    def number_counts(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for c in self.cards:
            out[c.number] = out.get(c.number, 0) + 1
        return dict(sorted(out.items()))

    def effect_counts(self) -> dict[Effect, int]:
        out = {e: 0 for e in EFFECT_ORDER}
        for c in self.cards:
            out[c.effect] += 1
        return out
