"""The parks model: park sheet squares, park cards, the die, cuts, and the deck table.

Everything here is a frozen value with a text form that round-trips (``from_text(to_text())``)
and a ``repr`` that pastes back as code, so a card or sheet can be copied out of a report into
a test or a deck file.

Text forms (also what deck files use):

- a sheet is rows of feature letters ``P`` pavilion, ``A`` play area, ``W`` water,
  ``G`` greenery, optionally followed by a blank line, ``icons:`` and rows of ``.``, ``w``
  (wildlife) and ``r`` (recycling);
- a card is ``key: value`` lines (id, name, bonus, grand) then ``shape:`` rows where ``.`` is
  not part of the park, ``#`` is a plain space and a feature letter demands that feature; an
  optional ``icons:`` block demands icons; an optional ``walkways:`` block marks the cells of
  walkway ``1``..``9`` (all cells of one walkway must be covered by one section).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from typing import Literal

from pydantic import Field

from ...core.grid import Cell, Edge, Vertex
from ...deck import Frozen, Length


class Feature(StrEnum):
    """The four park features; each prints as a colour and a symbol."""

    PAVILION = "pavilion"
    PLAY = "play"
    WATER = "water"
    GREENERY = "greenery"

    @property
    def letter(self) -> str:
        return _FEATURE_LETTER[self]

    @classmethod
    def from_letter(cls, letter: str) -> Feature:
        try:
            return _LETTER_FEATURE[letter]
        except KeyError:
            raise ValueError(
                f"unknown feature letter {letter!r}; valid: P pavilion, A play area, "
                "W water, G greenery"
            ) from None

    def __repr__(self) -> str:
        return f"Feature.{self.name}"


_FEATURE_LETTER = {Feature.PAVILION: "P", Feature.PLAY: "A", Feature.WATER: "W",
                   Feature.GREENERY: "G"}
_LETTER_FEATURE = {v: k for k, v in _FEATURE_LETTER.items()}
FEATURE_WORDS = {Feature.PAVILION: "pavilion", Feature.PLAY: "play area",
                 Feature.WATER: "water", Feature.GREENERY: "greenery"}


class Icon(StrEnum):
    """Icons a sheet square may bear and a card space may demand."""

    WILDLIFE = "wildlife"
    RECYCLING = "recycling"

    @property
    def letter(self) -> str:
        return "w" if self is Icon.WILDLIFE else "r"

    @classmethod
    def from_letter(cls, letter: str) -> Icon | None:
        if letter == ".":
            return None
        if letter == "w":
            return Icon.WILDLIFE
        if letter == "r":
            return Icon.RECYCLING
        raise ValueError(f"unknown icon letter {letter!r}; valid: '.' none, w wildlife, "
                         "r recycling")

    def __repr__(self) -> str:
        return f"Icon.{self.name}"


class Bonus(StrEnum):
    """What completing a card gives: one more cut, or a token."""

    EXTRA_CUT = "extra-cut"
    GARDENER = "gardener"
    WILDLIFE_TOKEN = "wildlife-token"
    NONE = "none"

    def __repr__(self) -> str:
        return f"Bonus.{self.name}"


class Token(StrEnum):
    """Bonus tokens: a Gardener waives one feature demand, a Wildlife/Recycling token one icon
    demand; neither ever waives a walkway."""

    GARDENER = "gardener"
    WILDLIFE = "wildlife"

    def __repr__(self) -> str:
        return f"Token.{self.name}"


@dataclass(frozen=True, order=True)
class Square:
    """One park square of the sheet: its feature and optional icon."""

    feature: Feature
    icon: Icon | None = None

    def __str__(self) -> str:
        return self.feature.letter + (self.icon.letter if self.icon else "")


@dataclass(frozen=True)
class Demand:
    """What a card space asks for: a feature, an icon, or both (``None`` = anything)."""

    feature: Feature | None = None
    icon: Icon | None = None

    def accepts(self, square: Square, waive_feature: bool = False,
                waive_icon: bool = False) -> bool:
        """True when ``square`` meets this demand (a token may waive one part)."""
        if self.feature is not None and not waive_feature and square.feature != self.feature:
            return False
        return self.icon is None or waive_icon or square.icon == self.icon

    @property
    def empty(self) -> bool:
        return self.feature is None and self.icon is None

    def words(self) -> str:
        """A designer's wording: "water", "wildlife", "water with wildlife"."""
        if self.feature and self.icon:
            return f"{FEATURE_WORDS[self.feature]} with {self.icon.value}"
        if self.feature:
            return FEATURE_WORDS[self.feature]
        if self.icon:
            return f"{self.icon.value} icon"
        return "any square"


ANY = Demand()


def _block(lines: list[str], start: int) -> tuple[list[str], int]:
    out: list[str] = []
    i = start
    while i < len(lines) and lines[i].strip() and not lines[i].rstrip().endswith(":"):
        out.append(lines[i].strip())
        i += 1
    return out, i


@dataclass(frozen=True)
class Sheet:
    """A park sheet: ``rows`` x ``cols`` squares (row 0 at the top)."""

    squares: tuple[tuple[Square, ...], ...]

    def __post_init__(self) -> None:
        if not self.squares or not self.squares[0]:
            raise ValueError("a sheet needs at least one row and one column")
        width = len(self.squares[0])
        if any(len(row) != width for row in self.squares):
            raise ValueError("every sheet row must have the same number of squares")

    @property
    def rows(self) -> int:
        return len(self.squares)

    @property
    def cols(self) -> int:
        return len(self.squares[0])

    def cells(self) -> frozenset[Cell]:
        return frozenset((r, c) for r in range(self.rows) for c in range(self.cols))

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, tuple) or len(cell) != 2:
            return False
        r, c = cell
        return isinstance(r, int) and isinstance(c, int) and \
            0 <= r < self.rows and 0 <= c < self.cols

    def at(self, cell: Cell) -> Square:
        return self.squares[cell[0]][cell[1]]

    def feature_rows(self) -> list[str]:
        return ["".join(s.feature.letter for s in row) for row in self.squares]

    def icon_rows(self) -> list[str]:
        return ["".join(s.icon.letter if s.icon else "." for s in row) for row in self.squares]

    def has_icons(self) -> bool:
        return any(s.icon for row in self.squares for s in row)

    def to_text(self) -> str:
        text = "\n".join(self.feature_rows())
        if self.has_icons():
            text += "\n\nicons:\n" + "\n".join(self.icon_rows())
        return text

    @classmethod
    def from_rows(cls, rows: Iterable[str], icons: Iterable[str] = ()) -> Sheet:
        """Build from feature-letter rows and optional icon rows (same size)."""
        frows = [r.strip() for r in rows]
        irows = [r.strip() for r in icons] or ["." * len(r) for r in frows]
        if len(irows) != len(frows) or any(len(a) != len(b) for a, b in zip(frows, irows,
                                                                          strict=True)):
            raise ValueError("icon rows must have the same size as the feature rows")
        return cls(tuple(
            tuple(Square(Feature.from_letter(f), Icon.from_letter(i))
                  for f, i in zip(fr, ir, strict=True))
            for fr, ir in zip(frows, irows, strict=True)))

    @classmethod
    def from_text(cls, text: str) -> Sheet:
        lines = text.strip("\n").splitlines()
        frows, i = _block(lines, 0)
        icons: list[str] = []
        while i < len(lines):
            if lines[i].strip() == "icons:":
                icons, i = _block(lines, i + 1)
            else:
                i += 1
        return cls.from_rows(frows, icons)

    def count(self, feature: Feature | None = None, icon: Icon | None = None) -> int:
        """How many squares match ``feature`` and/or ``icon``."""
        d = Demand(feature, icon)
        return sum(1 for row in self.squares for s in row if d.accepts(s))

    def __repr__(self) -> str:
        return f"Sheet.from_text({self.to_text()!r})"


@dataclass(frozen=True)
class Card:
    """A park card (or grand park card): its outline, demands, walkways and bonus.

    ``cells`` are normalised to start at row 0 and column 0 of their bounding box.
    """

    id: str
    name: str
    cells: frozenset[Cell]
    demands: tuple[tuple[Cell, Demand], ...] = ()
    walkways: tuple[frozenset[Cell], ...] = ()
    bonus: Bonus = Bonus.NONE
    grand: bool = False

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def height(self) -> int:
        return 1 + max(r for r, _ in self.cells)

    @property
    def width(self) -> int:
        return 1 + max(c for _, c in self.cells)

    def demand_map(self) -> dict[Cell, Demand]:
        return dict(self.demands)

    def demand(self, cell: Cell) -> Demand:
        for c, d in self.demands:
            if c == cell:
                return d
        return ANY

    def to_text(self) -> str:
        dm = self.demand_map()
        shape, icons, walks = [], [], []
        walk_of = {cell: i + 1 for i, w in enumerate(self.walkways) for cell in w}
        for r in range(self.height):
            srow, irow, wrow = "", "", ""
            for c in range(self.width):
                d = dm.get((r, c), ANY)
                if (r, c) not in self.cells:
                    srow += "."
                elif d.feature:
                    srow += d.feature.letter
                else:
                    srow += "#"
                irow += d.icon.letter if d.icon else "."
                wrow += str(walk_of[(r, c)]) if (r, c) in walk_of else "."
            shape.append(srow)
            icons.append(irow)
            walks.append(wrow)
        out = [f"id: {self.id}", f"name: {self.name}", f"bonus: {self.bonus.value}",
               f"grand: {'yes' if self.grand else 'no'}", "shape:", *shape]
        if any(d.icon for d in dm.values()):
            out += ["icons:", *icons]
        if self.walkways:
            out += ["walkways:", *walks]
        return "\n".join(out)

    @classmethod
    def from_rows(cls, id: str, name: str, shape: Iterable[str], icons: Iterable[str] = (),
                  walkways: Iterable[str] = (), bonus: Bonus | str = Bonus.NONE,
                  grand: bool = False) -> Card:
        """Build from the row blocks (as written in a deck file). Raises ValueError."""
        srows = [r.strip() for r in shape]
        irows = [r.strip() for r in icons]
        wrows = [r.strip() for r in walkways]
        cells: set[Cell] = set()
        demands: dict[Cell, Demand] = {}
        groups: dict[str, set[Cell]] = {}
        for r, row in enumerate(srows):
            for c, ch in enumerate(row):
                if ch == ".":
                    continue
                cells.add((r, c))
                if ch != "#":
                    demands[(r, c)] = Demand(Feature.from_letter(ch))
        for r, row in enumerate(irows):
            for c, ch in enumerate(row):
                icon = Icon.from_letter(ch)
                if icon is None:
                    continue
                if (r, c) not in cells:
                    raise ValueError(f"icon demand at row {r}, col {c} is outside the shape")
                old = demands.get((r, c), ANY)
                demands[(r, c)] = Demand(old.feature, icon)
        for r, row in enumerate(wrows):
            for c, ch in enumerate(row):
                if ch == ".":
                    continue
                if not ch.isdigit() or ch == "0":
                    raise ValueError(f"walkway mark {ch!r} at row {r}, col {c}: use 1-9 or '.'")
                if (r, c) not in cells:
                    raise ValueError(f"walkway cell at row {r}, col {c} is outside the shape")
                groups.setdefault(ch, set()).add((r, c))
        if not cells:
            raise ValueError("a card shape needs at least one cell ('#' or a feature letter)")
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)

        def norm(cell: Cell) -> Cell:
            return (cell[0] - r0, cell[1] - c0)

        return cls(
            id=id, name=name, cells=frozenset(norm(x) for x in cells),
            demands=tuple(sorted((norm(k), v) for k, v in demands.items() if not v.empty)),
            walkways=tuple(frozenset(norm(x) for x in groups[k]) for k in sorted(groups)),
            bonus=Bonus(bonus), grand=grand)

    def rotated(self) -> Card:
        """The card turned a quarter (clockwise): outline, demands and walkways together."""
        h = self.height

        def turn(cell: Cell) -> Cell:
            return (cell[1], h - 1 - cell[0])

        return replace(self, cells=frozenset(turn(c) for c in self.cells),
                       demands=tuple(sorted((turn(c), d) for c, d in self.demands)),
                       walkways=tuple(frozenset(turn(c) for c in w) for w in self.walkways))

    def fitted(self, rows: int, cols: int) -> Card | None:
        """The card as it fits a ``rows`` x ``cols`` box: as drawn, else turned a quarter (a
        designer may draw a tall outline sideways); None when neither fits."""
        if self.height <= rows and self.width <= cols:
            return self
        turned = self.rotated()
        if turned.height <= rows and turned.width <= cols:
            return turned
        return None

    @classmethod
    def from_text(cls, text: str) -> Card:
        lines = text.strip("\n").splitlines()
        meta: dict[str, str] = {}
        blocks: dict[str, list[str]] = {}
        i = 0
        while i < len(lines):
            line = lines[i].strip()
            if line.endswith(":") and line[:-1] in ("shape", "icons", "walkways"):
                blocks[line[:-1]], i = _block(lines, i + 1)
                continue
            if ":" in line:
                k, v = line.split(":", 1)
                meta[k.strip()] = v.strip()
            i += 1
        return cls.from_rows(meta.get("id", "card"), meta.get("name", ""),
                             blocks.get("shape", []), blocks.get("icons", []),
                             blocks.get("walkways", []), Bonus(meta.get("bonus", "none")),
                             meta.get("grand", "no") == "yes")

    def __repr__(self) -> str:
        return f"Card.from_text({self.to_text()!r})"


Direction = Literal["N", "E", "S", "W"]
DIRECTIONS: tuple[Direction, ...] = ("N", "E", "S", "W")
_DIRS: dict[str, Direction] = {d: d for d in DIRECTIONS}
STEP: dict[str, Vertex] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


@dataclass(frozen=True)
class Cut:
    """A straight cut: from lattice vertex ``start``, ``length`` unit edges towards
    ``direction``. Text form ``"2,3 E 2"``."""

    start: Vertex
    direction: Direction
    length: int

    def vertices(self) -> tuple[Vertex, ...]:
        dr, dc = STEP[self.direction]
        r, c = self.start
        return tuple((r + dr * i, c + dc * i) for i in range(self.length + 1))

    @property
    def end(self) -> Vertex:
        dr, dc = STEP[self.direction]
        return (self.start[0] + dr * self.length, self.start[1] + dc * self.length)

    def keys(self) -> tuple[tuple[Vertex, Vertex], ...]:
        """The cut's edges as sorted vertex pairs ``(a, b)`` (``Edge.a``, ``Edge.b``), cheap
        to hash: the planner's inner loop uses these instead of :class:`Edge` objects."""
        return _cut_keys(self.start, self.direction, self.length)

    def edges(self) -> tuple[Edge, ...]:
        vs = self.vertices()
        return tuple(Edge.between(vs[i], vs[i + 1]) for i in range(self.length))

    @property
    def horizontal(self) -> bool:
        return self.direction in ("E", "W")

    def __str__(self) -> str:
        return f"{self.start[0]},{self.start[1]} {self.direction} {self.length}"

    @classmethod
    def parse(cls, text: str) -> Cut:
        try:
            pos, d, n = text.split()
            r, c = (int(x) for x in pos.split(","))
            if d not in STEP:
                raise ValueError
            return cls((r, c), _DIRS[d], int(n))
        except ValueError:
            raise ValueError(f"not a cut {text!r}: expected 'row,col DIR length', "
                             "e.g. '0,3 S 2' (DIR one of N E S W)") from None

    def __repr__(self) -> str:
        return f"Cut.parse({str(self)!r})"


@lru_cache(maxsize=65536)
def _cut_keys(start: Vertex, direction: str, length: int) -> tuple[tuple[Vertex, Vertex], ...]:
    dr, dc = STEP[direction]
    r, c = start
    vs = [(r + dr * i, c + dc * i) for i in range(length + 1)]
    return tuple((vs[i], vs[i + 1]) if vs[i] < vs[i + 1] else (vs[i + 1], vs[i])
                 for i in range(length))


@dataclass(frozen=True)
class Die:
    """The die: each face is a list of cut lengths made that round (``[3, 3, 3]``)."""

    faces: tuple[tuple[int, ...], ...]

    def to_text(self) -> str:
        return " | ".join(",".join(str(n) for n in f) for f in self.faces)

    @classmethod
    def from_text(cls, text: str) -> Die:
        return cls(tuple(tuple(int(n) for n in part.split(",")) for part in text.split("|")))

    def __repr__(self) -> str:
        return f"Die.from_text({self.to_text()!r})"


def face_label(face: Iterable[int]) -> str:
    """How a face prints: ``3x3`` for three cuts of 3, ``1+2`` for mixed lengths."""
    f = tuple(face)
    if len(set(f)) == 1:
        return f"{len(f)}\u00d7{f[0]}" if len(f) > 1 else str(f[0])
    return "+".join(str(n) for n in f)


@dataclass(frozen=True)
class ParksSet:
    """Everything the parks generator makes for one deck."""

    sheet: Sheet
    cards: tuple[Card, ...]
    die: Die
    tokens: tuple[tuple[Token, int], ...]

    @property
    def park_cards(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if not c.grand)

    @property
    def grand_cards(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.grand)

    def card(self, card_id: str) -> Card:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)


# ---------------------------------------------------------------------------------------------
# The deck table ``[parks]``.


class CardSpec(Frozen):
    """A hand-written park card (``[[parks.card]]``)."""

    name: str = Field(default="", description="Card title. Default: empty (an id is used).")
    shape: list[str] = Field(
        description="Rows of the park outline: '.' outside, '#' plain space, P/A/W/G a space "
        "demanding pavilion/play area/water/greenery.")
    icons: list[str] = Field(
        default_factory=list,
        description="Optional rows of icon demands: '.' none, 'w' wildlife, 'r' recycling. "
        "Default: none.")
    walkways: list[str] = Field(
        default_factory=list,
        description="Optional rows marking walkway cells with digits 1-9 ('.' elsewhere); the "
        "cells of one walkway must be connected and are covered by one section. Default: none.")
    bonus: Literal["extra-cut", "gardener", "wildlife-token", "none"] = Field(
        default="none", description="Completion bonus. Default none.")
    grand: bool = Field(default=False, description="A grand park card (solo). Default false.")


FeatureName = Literal["pavilion", "play", "water", "greenery"]
BonusName = Literal["extra-cut", "gardener", "wildlife-token", "none"]


def _even_features() -> dict[FeatureName, float]:
    return {"pavilion": 1.0, "play": 1.0, "water": 1.0, "greenery": 1.0}


def _even_bonuses() -> dict[BonusName, float]:
    return {"extra-cut": 1.0, "gardener": 1.0, "wildlife-token": 1.0, "none": 1.0}


DEFAULT_FACES: list[list[int]] = [[1], [2, 2], [3, 3, 3], [1, 2], [2, 3], [4]]


class ParksParams(Frozen):
    """The ``[parks]`` table: sheet, cards, die and checks of a roll-and-cut park deck."""

    rows: int = Field(default=7, ge=2, le=20, description="Sheet rows. Default 7.")
    cols: int = Field(default=9, ge=2, le=20, description="Sheet columns. Default 9.")
    square: Length = Field(
        default=20.0, ge=5.0, le=100.0,
        description="Printed size of one park square, on the sheet and on the cards alike. "
        "Default 20mm; 5mm to 100mm.")
    sheet: list[str] = Field(
        default_factory=list,
        description="A hand-drawn sheet: rows of P/A/W/G (pavilion, play area, water, "
        "greenery). Default: empty, the sheet is generated from rows/cols/mix/seed.")
    sheet_icons: list[str] = Field(
        default_factory=list,
        description="Icons of a hand-drawn sheet: rows of '.', 'w' wildlife, 'r' recycling. "
        "Default: none.")
    feature_mix: dict[FeatureName, float] = Field(
        default_factory=_even_features,
        description="Relative weights of the features on a generated sheet. Default equal.")
    icon_share: float = Field(
        default=0.16, ge=0, le=1,
        description="Share of generated sheet squares bearing an icon (split between wildlife "
        "and recycling). Default 0.16.")
    clustering: float = Field(
        default=0.45, ge=0, le=1,
        description="Chance that a generated square copies a neighbour's feature (0 = "
        "independent squares, 1 = large patches). Default 0.45.")
    cards: int = Field(default=30, ge=0, le=200,
                       description="Generated park cards. Default 30.")
    grand_cards: int = Field(default=4, ge=0, le=50,
                             description="Generated grand park cards. Default 4.")
    card_cells: tuple[int, int] = Field(
        default=(5, 10), description="Size range (squares) of a generated park card; the "
        "outline also fits the card at the printed square size. Default [5, 10].")
    grand_cells: tuple[int, int] = Field(
        default=(12, 18), description="Size range (squares) of a generated grand park card. "
        "Default [12, 18].")
    grand_box: tuple[int, int] = Field(
        default=(5, 4), description="Rows and columns a grand park outline fits in. "
        "Default [5, 4].")
    demand_share: float = Field(
        default=0.3, ge=0, le=1,
        description="Share of a generated card's spaces that demand a feature. Default 0.3.")
    icon_demands: tuple[int, int] = Field(
        default=(0, 1), description="Range of icon demands per generated card. Default [0, 1].")
    walkway_share: float = Field(
        default=0.35, ge=0, le=1,
        description="Share of generated cards with a walkway. Default 0.35.")
    bonus_mix: dict[BonusName, float] = Field(
        default_factory=_even_bonuses,
        description="Relative weights of generated bonuses. Default equal.")
    card: list[CardSpec] = Field(
        default_factory=list,
        description="Hand-written park cards ([[parks.card]]), added after the generated ones.")
    die: list[list[int]] = Field(
        default_factory=lambda: [list(f) for f in DEFAULT_FACES],
        description="Die faces, each a list of cut lengths made in one round. Default "
        "[[1], [2, 2], [3, 3, 3], [1, 2], [2, 3], [4]].")
    gardener_tokens: int = Field(default=6, ge=0, le=60,
                                 description="Gardener tokens printed. Default 6.")
    wildlife_tokens: int = Field(default=6, ge=0, le=60,
                                 description="Wildlife/Recycling tokens printed. Default 6.")
    rounds: int = Field(
        default=8, ge=1, le=60,
        description="R for the difficulty figure: share of simulated games completing the "
        "card within R rounds. Default 8.")
    hands: int = Field(
        default=60, ge=0, le=100_000,
        description="Random dealt hands (2 face-up + 3 pile) sampled for the hand-coverage "
        "figure. Default 60.")
    hand_plans: int = Field(
        default=8, ge=0, le=100_000,
        description="How many of those hands also get a full cut plan, replayed through the "
        "rules (about 0.3 s each). Default 8.")
    max_tries: int = Field(
        default=60, ge=1, le=10_000,
        description="Tries per generated card before a generation error. Default 60.")
    proofs: bool = Field(default=True,
                         description="Print a proof page per certificate. Default true.")


def card_box(card_w: float, card_h: float, square: float) -> tuple[int, int]:
    """Rows and columns of squares a park outline may use on a card of this size: the grid
    leaves 1 mm each side, 0.5 mm below and a 7.5 mm title band at the top (a 9 pt title
    needs 4.5 mm inside the 3 mm safe zone). Poker cards at 20 mm squares: 4 rows x 3 cols."""
    cols = int((card_w - 2.0) // square)
    rows = int((card_h - 8.0) // square)
    return max(rows, 0), max(cols, 0)


def cells_of(mapping: Mapping[Cell, object]) -> frozenset[Cell]:
    return frozenset(mapping)
