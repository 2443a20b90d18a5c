"""The ``habitats`` family's model: hex habitat tiles, wildlife tokens and scoring cards.

A tile is a hexagon showing one habitat (a *keystone* tile, with exactly one wildlife symbol)
or two habitats split along an axis through two opposite corners, with 1-3 wildlife symbols.
A player drafts 20 tiles (one per turn) onto a map that starts from a starter group of three,
places a wildlife token on a tile showing its symbol, and scores the tokens with one scoring
card per species, plus the largest corridor of each habitat.

A scoring card is a sum of *terms*; each term is a scoring primitive (``group``, ``line``,
``run``, ``isolated``, ``sight``, ``ring``, ``variety``) that finds *matches* in the player's
tokens, each with a *measure* (a group's size, a line's length, a number of neighbours), and
a points table read either per match (``each``: ``table[i]`` for measure ``min + i``) or by
the number of matches (``count``: ``table[i]`` for ``i + 1`` matches); values past the end of
the table take its last entry.

This module holds the deck table (:class:`HabitatsParams`, pydantic) and the frozen
dataclasses every other module uses. It imports no hex geometry: edges are indices 0..5 in
the order of :data:`generator.core.hexgrid.DIRECTIONS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from pydantic import Field

from ...deck import Frozen, Length

Kind: TypeAlias = Literal["group", "line", "run", "isolated", "sight", "ring", "variety"]
Mode: TypeAlias = Literal["each", "count"]
KINDS: tuple[str, ...] = ("group", "line", "run", "isolated", "sight", "ring", "variety")
ONCE_KINDS: tuple[str, ...] = ("group", "line", "sight")
"""The primitives whose matches can share tokens, so `once` changes them."""

DEFAULT_HABITATS: tuple[str, ...] = ("fen", "heath", "thicket", "scree", "tarn")
DEFAULT_SPECIES: tuple[str, ...] = ("badger", "heron", "hare", "newt", "owl")

# --------------------------------------------------------------------------------------------
# The deck table
# --------------------------------------------------------------------------------------------


class TermDef(Frozen):
    """One scoring term of a card: a primitive, its filters and its points table."""

    kind: Kind = Field(
        description="Primitive: group (connected tokens, measure = size), line (maximal "
        "straight segment, measure = length), run (group whose members each touch at most "
        "`touch` others, measure = size), isolated (token with no adjacent token, measure 1), "
        "sight (pair of tokens on one straight line with no blocking token between, "
        "measure 1), ring (token and the tokens around it, measure = how many), variety "
        "(token and the distinct other species next to it, measure = how many). Required."
    )
    mode: Mode = Field(
        default="each",
        description="each: every match scores table[measure - min]; count: the number of "
        "matches n scores table[n - 1]. Values past the end take the last entry. Default each.",
    )
    table: tuple[int, ...] = Field(
        min_length=1, max_length=12, description="Points table (1-12 non-negative integers)."
    )
    min: int = Field(
        default=1, ge=1, le=20,
        description="Smallest measure that makes a match (e.g. a line of at least 3). "
        "Default 1 (2 for line).",
    )
    max: int | None = Field(
        default=None, ge=1, le=20,
        description="Largest measure that makes a match; larger ones do not score. "
        "Default none.",
    )
    sizes: tuple[int, ...] = Field(
        default=(),
        description="group only: the exact sizes that match (groups of other sizes score "
        "nothing). Default any size.",
    )
    touch: int = Field(
        default=2, ge=1, le=5,
        description="run only: most same-species neighbours a member may have. Default 2.",
    )
    apart: Literal["same", "any"] = Field(
        default="same",
        description="isolated: no adjacent token of the same species (same) or of any "
        "species (any); sight: the line is blocked by a token of the same species (same) or "
        "of any species (any) between the two. Default same.",
    )
    distance: int = Field(
        default=2, ge=1, le=10,
        description="sight only: least distance in hexes between the two tokens. Default 2.",
    )
    around: Literal["other", "any"] = Field(
        default="other",
        description="ring only: which neighbouring tokens count: of other species (other) or "
        "of any species (any). Default other.",
    )
    best: bool = Field(
        default=False,
        description="each mode: only the best-scoring match counts (e.g. only the largest "
        "group). Default false.",
    )
    once: bool = Field(
        default=False,
        description="line, group, sight: each token counts in at most one match, and the "
        "matches are the disjoint choice that scores most (proved optimal): lines partition "
        "the tokens (a longer segment may be split; `max` is then the longest line), groups "
        "may touch (a connected patch is split into the groups that score most), each token "
        "is in at most one pair in sight. Default false: a token counts in every match it "
        "belongs to (every maximal segment on each axis, its whole connected group, every "
        "pair it sees).",
    )
    own_species: bool = Field(
        default=False,
        description="variety only: a neighbouring token of the card's own species counts as "
        "one more species. Default false (other species only).",
    )


class CardDef(Frozen):
    """One wildlife scoring card: a species, a title, and one to three terms (summed)."""

    species: str = Field(description="The species the card scores (a name from `species`).")
    title: str = Field(description="Card title.")
    text: str = Field(
        default="", description="Rules text; default a sentence written from the terms."
    )
    terms: tuple[TermDef, ...] = Field(
        min_length=1, max_length=3, description="Scoring terms, summed (1-3)."
    )


class HabitatsParams(Frozen):
    """The [habitats] table: habitats, species, tile mix, supply, scoring rules, print sizes."""

    habitats: tuple[str, ...] = Field(
        default=DEFAULT_HABITATS, min_length=2, max_length=8,
        description="Habitat names (2-8). Default fen, heath, thicket, scree, tarn.",
    )
    habitat_colours: tuple[str, ...] = Field(
        default=(),
        description="Fill colour (#rrggbb) per habitat, in order; default a built-in palette. "
        "Every habitat also gets its own pattern so tiles read in greyscale.",
    )
    species: tuple[str, ...] = Field(
        default=DEFAULT_SPECIES, min_length=2, max_length=8,
        description="Wildlife species names (2-8). Default badger, heron, hare, newt, owl.",
    )
    max_players: int = Field(default=4, ge=1, le=6, description="Most players. Default 4.")
    turns: int = Field(
        default=20, ge=1, le=60, description="Turns per player (tiles drafted). Default 20."
    )
    display: int = Field(
        default=4, ge=2, le=8, description="Tile + token pairs on display. Default 4."
    )
    tiles: int = Field(
        default=0, ge=0, le=400,
        description="Habitat tiles in the box (starter tiles not included); 0 means "
        "turns x max_players + display - 1 (83 by default), the count the game uses at the "
        "most players. Default 0.",
    )
    keystones_per_habitat: int = Field(
        default=5, ge=0, le=40,
        description="Keystone tiles (one habitat, one symbol) per habitat. Default 5.",
    )
    symbol_mix: tuple[float, float, float] = Field(
        default=(0.0, 0.65, 0.35),
        description="Shares of two-habitat tiles with 1, 2 and 3 symbols. Default 0, 0.65, "
        "0.35.",
    )
    starter_groups: int = Field(
        default=5, ge=1, le=12,
        description="Starter groups of three tiles (at least max_players). Default 5.",
    )
    tokens_per_species: int = Field(
        default=20, ge=1, le=60, description="Wildlife tokens per species. Default 20."
    )
    nature_tokens: int = Field(default=25, ge=0, le=100, description="Nature tokens. Default 25.")
    corridor_points: int = Field(
        default=1, ge=0, le=5, description="Points per tile of a habitat's largest corridor. "
        "Default 1."
    )
    solo_threshold: int = Field(
        default=7, ge=1, le=40, description="Solo: a corridor of at least this many tiles "
        "earns the solo bonus. Default 7."
    )
    solo_bonus: int = Field(default=2, ge=0, le=20, description="Solo corridor bonus. Default 2.")
    majority_two: tuple[int, int] = Field(
        default=(2, 1),
        description="Two players: bonus for the larger corridor of a habitat, and for each "
        "on a tie. Default 2, 1.",
    )
    majority_more: tuple[int, int, int, int] = Field(
        default=(3, 1, 2, 1),
        description="Three or more players: bonus for the largest corridor, the second "
        "largest, each of two tied largest, each of three or more tied largest. A tie for "
        "second earns nothing. Default 3, 1, 2, 1.",
    )
    nature_points: int = Field(
        default=1, ge=0, le=5, description="Points per unspent nature token. Default 1."
    )
    cards: tuple[CardDef, ...] = Field(
        default=(),
        description="Wildlife scoring cards as [[habitats.cards]] tables; default (empty) "
        "the built-in set of four original cards per species.",
    )
    hex_size: Length = Field(
        default=40.0, ge=10.0, le=300.0,
        description="Tile size flat-to-flat. Default 40mm; 10mm to 300mm."
    )
    token_size: Length = Field(default=20.0, ge=5.0, le=200.0,
                               description="Token diameter. Default 20mm; 5mm to 200mm.")
    score_pad_players: int = Field(
        default=0, ge=0, le=8,
        description="Player columns on the score pad; 0 means max_players. Default 0.",
    )

    @property
    def tile_count(self) -> int:
        """Tiles in the box: ``tiles`` or the game's count at the most players."""
        return self.tiles or self.turns * self.max_players + self.display - 1


# --------------------------------------------------------------------------------------------
# The built-in cards: four per species slot, original
# --------------------------------------------------------------------------------------------

def _t(kind: Kind, mode: Mode, table: tuple[int, ...], **kw: object) -> TermDef:
    return TermDef.model_validate({"kind": kind, "mode": mode, "table": table, **kw})


# One list per species slot (species i uses slot i mod 5). Titles are ours; the tables were
# chosen so that every tier is reachable with 20 tokens in 20 turns (the check proves it).
BUILTIN_CARDS: tuple[tuple[tuple[str, tuple[TermDef, ...]], ...], ...] = (
    (
        ("Pairs", (_t("group", "count", (5, 12, 20, 28), sizes=(2,)),)),
        ("Trios", (_t("group", "count", (10, 21, 33), sizes=(3,)),)),
        ("Burrow", (_t("group", "each", (4, 8, 13, 19), min=2),)),
        ("Busy corner", (_t("ring", "each", (2, 4, 7, 11, 15, 20), best=True),)),
    ),
    (
        ("Wading line", (_t("line", "each", (3, 6, 10, 15), min=2),)),
        ("Stalkers", (_t("sight", "count", (3, 7, 12, 18)),)),
        ("Shore rows", (_t("line", "count", (2, 5, 9, 14, 20), min=2),)),
        ("Solitary", (_t("isolated", "count", (4, 8, 13, 18, 24), apart="any"),)),
    ),
    (
        ("Meadow mix", (_t("variety", "each", (2, 5, 9), min=2),)),
        ("Warren", (_t("group", "each", (2, 4, 7, 10, 14, 18, 23), best=True),)),
        ("Company", (_t("ring", "count", (3, 7, 12, 18, 25), min=3, around="any"),)),
        ("Scattered", (_t("isolated", "count", (2, 4, 7, 10, 14, 18)),)),
    ),
    (
        ("Stream", (_t("run", "each", (2, 4, 7, 11, 16)),)),
        ("Ponds", (_t("run", "count", (7, 15, 24), min=3),)),
        ("Threes and fours", (_t("group", "count", (8, 17, 27), sizes=(3, 4)),)),
        ("Far calls", (_t("sight", "count", (4, 9, 15, 22), apart="any"),)),
    ),
    (
        ("Watchers", (_t("sight", "count", (2, 5, 9, 14, 20)),)),
        ("Roost", (_t("ring", "count", (3, 7, 12, 18), min=3),)),
        ("Hunting grounds", (_t("variety", "count", (4, 9, 15, 22), min=2),)),
        ("Lookout", (_t("isolated", "count", (3, 6, 10, 14)),)),
    ),
)

# --------------------------------------------------------------------------------------------
# Frozen components
# --------------------------------------------------------------------------------------------

_SLUG_BAD = re.compile(r"[^a-z0-9]+")


def slug(name: str, fallback: str) -> str:
    """A file-safe ASCII id part for a user-given name (``"Red Deer"`` -> ``red-deer``)."""
    s = _SLUG_BAD.sub("-", name.lower()).strip("-")
    return s or fallback


@dataclass(frozen=True)
class Tile:
    """A habitat tile.

    ``habitats`` has one entry (the whole tile) or two (edges 0-2 show the first, edges 3-5
    the second, before rotation). ``species`` are its wildlife symbols. A keystone tile has
    one habitat and one symbol; a token of that species placed on it earns a nature token.
    """

    id: str
    habitats: tuple[str, ...]
    species: tuple[str, ...]
    starter: str = ""
    """The starter group's id for starter tiles, else empty."""

    @property
    def keystone(self) -> bool:
        return len(self.habitats) == 1 and len(self.species) == 1

    def edges(self, rotation: int = 0) -> tuple[str, ...]:
        """The habitat on each of the six edges (index = direction index) after turning the
        tile by ``rotation`` sixth-turns in the direction order."""
        if len(self.habitats) == 1:
            return (self.habitats[0],) * 6
        a, b = self.habitats
        base = (a, a, a, b, b, b)
        k = rotation % 6
        return tuple(base[(i - k) % 6] for i in range(6))

    def rotations(self) -> tuple[int, ...]:
        """Rotations that give distinct edge patterns (1 for single-habitat tiles)."""
        return (0,) if len(self.habitats) == 1 else (0, 1, 2, 3, 4, 5)

    def __str__(self) -> str:
        return f"{self.id}: {'/'.join(self.habitats)} [{' '.join(self.species)}]"


@dataclass(frozen=True)
class StarterGroup:
    """Three tiles a player starts with, placed at fixed spots and rotations."""

    id: str
    tiles: tuple[Tile, Tile, Tile]


@dataclass(frozen=True)
class Term:
    """A scoring term (see :class:`TermDef`), as the rules engine uses it."""

    kind: str
    mode: str
    table: tuple[int, ...]
    min: int = 1
    max: int | None = None
    sizes: tuple[int, ...] = ()
    touch: int = 2
    apart: str = "same"
    distance: int = 2
    around: str = "other"
    best: bool = False
    once: bool = False
    own_species: bool = False

    @classmethod
    def from_def(cls, d: TermDef) -> Term:
        lo = d.min
        if d.kind == "line" and "min" not in d.model_fields_set:
            lo = 2  # a line of one token is not a line
        if d.kind == "group" and d.sizes and "min" not in d.model_fields_set:
            lo = min(d.sizes)
        return cls(kind=d.kind, mode=d.mode, table=tuple(d.table), min=lo, max=d.max,
                   sizes=tuple(sorted(set(d.sizes))), touch=d.touch, apart=d.apart,
                   distance=d.distance, around=d.around, best=d.best,
                   once=d.once and d.kind in ONCE_KINDS, own_species=d.own_species)

    @property
    def disjoint(self) -> bool:
        """Whether matches are chosen disjoint and optimal (``once``; a lone best match
        needs no choice)."""
        return self.once and not (self.mode == "each" and self.best)

    def points_for(self, index: int) -> int:
        """The table entry at ``index`` (0-based), values past the end taking the last."""
        return self.table[min(index, len(self.table) - 1)]

    def tier_of_measure(self, measure: int) -> int:
        """each mode: the table index a match of this measure scores."""
        return min(measure - self.min, len(self.table) - 1)

    def tier_of_count(self, n: int) -> int:
        """count mode: the table index ``n`` matches score (n >= 1)."""
        return min(n - 1, len(self.table) - 1)

    def tier_target(self, tier: int) -> int:
        """The least measure (each) or number of matches (count) that reaches ``tier``."""
        return self.min + tier if self.mode == "each" else tier + 1

    def describe(self, species: str) -> str:
        """A sentence a player reads on the card."""
        sp = species
        sizes = f" of exactly {_or(self.sizes)}" if self.sizes else ""
        near = "token" if self.apart == "any" else sp
        who = "other-species tokens" if self.around == "other" else "tokens"
        lo = self.min
        if self.mode == "count":
            what = {
                "group": f"groups of {sp}{sizes}" + (f" ({lo}+)" if lo > 1 and not sizes
                                                     else ""),
                "line": f"straight lines of {lo}+ {sp}",
                "run": f"runs of {lo}+ {sp} (each touching at most {self.touch} others)",
                "isolated": f"{sp} with no {near} next to it",
                "sight": f"pairs of {sp} in a straight line, {self.distance}+ apart, with no "
                         f"{near} between",
                "ring": f"{sp} with {lo}+ {who} around it",
                "variety": f"{sp} next to {lo}+ different {self._others()}",
            }[self.kind]
            return f"Count {what}; score by how many.{self._once_text(sp)}"
        what = {
            "group": f"Each group of {sp}{sizes} scores by its size",
            "line": f"Each straight line of {sp} scores by its length",
            "run": f"Each run of {sp} (each touching at most {self.touch} others) scores by "
                   "its size",
            "isolated": f"Each {sp} with no {near} next to it scores",
            "sight": f"Each pair of {sp} in a straight line, {self.distance}+ apart, with no "
                     f"{near} between, scores",
            "ring": f"Each {sp} scores by the {who} around it",
            "variety": f"Each {sp} scores by the different {self._others()} next to it",
        }[self.kind]
        if lo > 1 and not sizes and self.kind not in ("isolated", "sight"):
            what += f" ({lo}+)"
        return what + ("; only the best one counts." if self.best else ".") + (
            self._once_text(sp))

    def _others(self) -> str:
        return "species (its own counts as one)" if self.own_species else "other species"

    def _once_text(self, species: str) -> str:
        if not self.disjoint:
            return ""
        what = {"line": "line", "group": "group", "sight": "pair"}[self.kind]
        extra = " Groups may touch." if self.kind == "group" else ""
        longest = (f" Lines are at most {self.max} long." if self.kind == "line"
                   and self.max is not None else "")
        return (f" Each {species} counts in one {what} only (the split that scores most)."
                f"{extra}{longest}")

    def table_labels(self) -> tuple[str, ...]:
        """The measure/count each table entry is for, the last one with ``+``."""
        n = len(self.table)
        start = self.min if self.mode == "each" else 1
        out = []
        for i in range(n):
            v = start + i
            last = i == n - 1 and (self.max is None or v < self.max)
            out.append(f"{v}+" if last else str(v))
        return tuple(out)


def _or(values: tuple[int, ...]) -> str:
    return " or ".join(str(v) for v in values)


@dataclass(frozen=True)
class ScoringCard:
    """A wildlife scoring card: the species and its summed terms."""

    id: str
    species: str
    letter: str
    title: str
    terms: tuple[Term, ...]
    text: str = ""

    def rules_text(self) -> str:
        return self.text or " ".join(t.describe(self.species) for t in self.terms)


@dataclass(frozen=True)
class Ruleset:
    """The numbers of the game the rules engine needs (from the deck table)."""

    habitats: tuple[str, ...]
    species: tuple[str, ...]
    turns: int = 20
    display: int = 4
    max_players: int = 4
    tokens_per_species: int = 20
    nature_tokens: int = 25
    corridor_points: int = 1
    solo_threshold: int = 7
    solo_bonus: int = 2
    majority_two: tuple[int, int] = (2, 1)
    majority_more: tuple[int, int, int, int] = (3, 1, 2, 1)
    nature_points: int = 1


@dataclass(frozen=True)
class HabitatsSet:
    """Everything the generator makes for one deck."""

    rules: Ruleset
    tiles: tuple[Tile, ...]
    starters: tuple[StarterGroup, ...]
    cards: tuple[ScoringCard, ...]
    colours: tuple[str, ...] = field(default=())

    def tile(self, tile_id: str) -> Tile | None:
        for t in self.all_tiles():
            if t.id == tile_id:
                return t
        return None

    def all_tiles(self) -> tuple[Tile, ...]:
        return self.tiles + tuple(t for g in self.starters for t in g.tiles)

    def cards_of(self, species: str) -> tuple[ScoringCard, ...]:
        return tuple(c for c in self.cards if c.species == species)

    def card(self, card_id: str) -> ScoringCard | None:
        for c in self.cards:
            if c.id == card_id:
                return c
        return None
