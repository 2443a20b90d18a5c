"""The quilts family's model: the deck table (``[quilts]``) and the generated components.

A quilts deck prints a set of polyomino **quilt pieces** (each with a button cost, a time cost
and 0-3 button-income icons), a square-grid **quilt board** per player, a **time track** with
income checkpoints and 1x1 patch spaces, button tokens and a bonus tile.

The **value model** prices a piece in buttons, so that pieces can be generated balanced and a
designer's hand-written pieces can be compared::

    value = area * size + income * icons - cost - time * time_cost

- ``area`` (default 2): buttons per covered square. Every square left empty at the end costs
  ``empty_penalty`` = 2 points, so covering one is worth 2.
- ``income`` (default 3): buttons per income icon: the icon pays once at every income
  checkpoint still ahead; a piece bought in mid-game of a default track (8 checkpoints over 53
  spaces) sees about 3 of them.
- ``time`` (default 1): buttons per time space: passing pays exactly 1 button per space, so a
  space of time is worth 1 button.

``value`` is the net gain over passing for the same time; ``efficiency`` = gain / spend =
``(area * size + income * icons) / (cost + time * time_cost)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated

from pydantic import BeforeValidator, Field

from ...core.polyomino import Polyomino
from ...deck import Frozen, Length

COUNT_NODES = 20_000_000
"""Default node budget of one ``--count-solutions`` count: the 6x10 box by the twelve
pentominoes (2,339 tilings up to symmetry) counts completely within it, and on one core it
stops a count that cannot finish after a few minutes. Nodes, not seconds, so the reported
lower bound is the same on every machine."""


def _split_shape(value: object) -> object:
    """A shape may be written as a list of rows or as one string with '/' or newlines."""
    if isinstance(value, str):
        rows = value.replace("/", "\n").split("\n")
        return [r.strip() for r in rows if r.strip()]
    return value


ShapeRows = Annotated[list[str], BeforeValidator(_split_shape)]


class PieceSpec(Frozen):
    """A hand-written quilt piece: its shape as rows of '#' (square) and '.' (gap)."""

    shape: ShapeRows = Field(
        description="Rows of '#' and '.', e.g. [\"##.\", \".##\"] or \"##./.##\". Required."
    )
    cost: int = Field(default=0, ge=0, le=99, description="Button cost. Default 0.")
    time: int = Field(default=1, ge=0, le=99, description="Time cost in track spaces. Default 1.")
    income: int = Field(default=0, ge=0, le=3, description="Button-income icons, 0-3. Default 0.")
    count: int = Field(
        default=1, ge=1, le=20,
        description="Copies of this piece (copies are congruent duplicates). Default 1.",
    )


class TrackParams(Frozen):
    """The time track: spaces 1..length after the start space 0; the last space is the end."""

    length: int = Field(default=53, ge=5, le=200, description="Spaces from start to end. "
                        "Default 53.")
    income: list[int] = Field(
        default=[5, 11, 17, 23, 29, 35, 41, 47],
        description="Spaces that pay button income when crossed or reached. "
        "Default [5, 11, 17, 23, 29, 35, 41, 47].",
    )
    patches: list[int] = Field(
        default=[26, 32, 38, 44, 50],
        description="Spaces holding a 1x1 patch; the first player to cross or reach one takes "
        "it and places it at once. Default [26, 32, 38, 44, 50].",
    )
    end_buttons: int = Field(
        default=1, ge=0, le=20,
        description="Buttons paid once to a player who reaches the end space. Default 1.",
    )


class ValueParams(Frozen):
    """Weights of the value model (see docs/families/quilts.md)."""

    area: float = Field(default=2.0, ge=0, description="Buttons per covered square. Default 2.")
    income: float = Field(
        default=3.0, ge=0,
        description="Buttons per income icon (checkpoints still ahead on average). Default 3.",
    )
    time: float = Field(default=1.0, ge=0, description="Buttons per time space. Default 1.")
    target: float = Field(
        default=7.0,
        description="Value the generator aims each piece at. Default 7 buttons (measured: "
        "with greedy bots the default deck then averages a positive score).",
    )
    spread: float = Field(
        default=2.0, ge=0,
        description="Generated values fall within target +- spread. Default 2 buttons.",
    )
    outlier: float = Field(
        default=5.0, gt=0,
        description="Flag a piece whose value is more than this far from the deck's median "
        "value. Default 5 buttons.",
    )


class BoardSize(Frozen):
    """The quilt board: a rows x cols rectangle of squares, or any shape drawn as rows."""

    rows: int = Field(default=9, ge=2, le=20, description="Board rows. Default 9.")
    cols: int = Field(default=9, ge=2, le=20, description="Board columns. Default 9.")
    shape: ShapeRows = Field(
        default_factory=list,
        description="A board of any shape: rows of '#' (a square of the board) and '.' (no "
        "square: a hole or outside the outline), e.g. [\"###.\", \"#.##\"] or \"###./#.##\"; "
        "rows and cols are then the shape's. Used by the fill checks, --count-solutions (the "
        "symmetries of this shape) and the printed board. Default none: the full rows x cols "
        "rectangle.",
    )

    def squares(self) -> frozenset[tuple[int, int]]:
        """The board's squares (row, col): the shape's '#', or the full rectangle."""
        if not self.shape:
            return frozenset((r, c) for r in range(self.rows) for c in range(self.cols))
        return frozenset((r, c) for r, row in enumerate(self.shape)
                         for c, ch in enumerate(row) if ch == "#")

    def extent(self) -> tuple[int, int]:
        """(rows, cols) of the board's bounding box (of the shape as written)."""
        if not self.shape:
            return self.rows, self.cols
        return len(self.shape), max(len(row) for row in self.shape)


DEFAULT_SIZES: dict[int, int] = {2: 1, 3: 2, 4: 5, 5: 9, 6: 8, 7: 6, 8: 2}


class Params(Frozen):
    """The quilts deck table ``[quilts]``."""

    board: BoardSize = Field(default_factory=BoardSize, description="Quilt board: size in "
                             "squares, or a shape. Default 9 x 9.")
    cell: Length = Field(
        default=15.0, ge=3.0, le=100.0,
        description="Printed square size of pieces and board. Default 15mm.",
    )
    sizes: dict[int, int] = Field(
        default_factory=lambda: dict(DEFAULT_SIZES),
        description="Generated pieces: how many pieces of each size (squares). "
        "Default {2=1, 3=2, 4=5, 5=9, 6=8, 7=6, 8=2} (33 pieces). Ignored when 'pieces' is set.",
    )
    max_span: int = Field(
        default=5, ge=1, le=20,
        description="Generated pieces fit a max_span x max_span box. Default 5.",
    )
    allow_holes: bool = Field(
        default=False, description="Generated pieces may enclose holes. Default false."
    )
    allow_duplicates: bool = Field(
        default=False,
        description="Allow congruent pieces (copies, mirror images). Default false.",
    )
    max_cost: int = Field(default=10, ge=0, le=99, description="Generated button cost cap. "
                          "Default 10.")
    max_time: int = Field(default=6, ge=1, le=99, description="Generated time cost cap. "
                          "Default 6.")
    income_odds: list[float] = Field(
        default=[0.4, 0.3, 0.2, 0.1],
        description="Relative odds of 0, 1, 2, 3 income icons on a generated piece. "
        "Default [0.4, 0.3, 0.2, 0.1].",
    )
    pieces: list[PieceSpec] = Field(
        default_factory=list,
        description="Hand-written pieces; when set they are the deck (no generation).",
    )
    start_buttons: int = Field(default=5, ge=0, le=99, description="Buttons each player "
                               "starts with. Default 5.")
    empty_penalty: int = Field(default=2, ge=0, le=20, description="Points lost per empty "
                               "square at the end. Default 2.")
    bonus_size: int = Field(default=7, ge=1, le=20, description="Side of the bonus square. "
                            "Default 7.")
    bonus_points: int = Field(default=7, ge=0, le=99, description="Points of the bonus tile. "
                              "Default 7.")
    track: TrackParams = Field(default_factory=TrackParams, description="The time track.")
    value: ValueParams = Field(default_factory=ValueParams, description="Value model weights.")
    buttons: dict[int, int] = Field(
        default_factory=lambda: {1: 30, 5: 12, 10: 6},
        description="Button tokens to print: denomination -> count. Default {1=30, 5=12, 10=6}.",
    )
    count_nodes: int = Field(
        default=COUNT_NODES, ge=1,
        description="Search-node budget of each --count-solutions count (up to symmetry, "
        "raw); a count it stops is reported as a lower bound. Default 20,000,000.",
    )
    first_player_tolerance: float = Field(
        default=0.15, ge=0, le=0.5,
        description="Warn when the simulated first-player win rate is further than this "
        "from 0.5. Default 0.15.",
    )


# ---------------------------------------------------------------------------------------------
# Generated components (frozen dataclasses)

_PIECE_HEAD = re.compile(r"piece-(?P<n>\d+): cost (?P<cost>\d+), time (?P<time>\d+), "
                         r"income (?P<income>\d+)")


@dataclass(frozen=True)
class Piece:
    """One quilt piece. ``index`` is its position in the deck (0-based); ``id`` its component
    id (``piece-01``)."""

    index: int
    shape: Polyomino
    cost: int
    time: int
    income: int

    @property
    def id(self) -> str:
        return f"piece-{self.index + 1:02d}"

    @property
    def size(self) -> int:
        return self.shape.size

    def __str__(self) -> str:
        return (f"{self.id}: cost {self.cost}, time {self.time}, income {self.income}\n"
                f"{self.shape}")

    @classmethod
    def from_text(cls, text: str) -> Piece:
        """Read ``str(piece)`` back: ``piece-NN: cost C, time T, income I`` then the rows."""
        head, _, rows = text.strip().partition("\n")
        m = _PIECE_HEAD.fullmatch(head.strip())
        if not m or not rows.strip():
            raise ValueError("expected 'piece-NN: cost C, time T, income I' and shape rows")
        return cls(int(m["n"]) - 1, Polyomino.from_text(rows.strip()), int(m["cost"]),
                   int(m["time"]), int(m["income"]))


@dataclass(frozen=True)
class Track:
    """The time track as the rules see it."""

    length: int
    income: tuple[int, ...]
    patches: tuple[int, ...]
    end_buttons: int


@dataclass(frozen=True)
class ValueModel:
    """The value model's weights (see module docstring)."""

    area: float = 2.0
    income: float = 3.0
    time: float = 1.0
    target: float = 7.0
    spread: float = 2.0
    outlier: float = 5.0

    def gain(self, size: int, income: int) -> float:
        return self.area * size + self.income * income

    def spend(self, cost: int, time: int) -> float:
        return cost + self.time * time

    def value(self, piece: Piece) -> float:
        """Net buttons a piece is worth over passing for the same time."""
        return self.gain(piece.size, piece.income) - self.spend(piece.cost, piece.time)

    def efficiency(self, piece: Piece) -> float | None:
        """Gain per button spent; None for a free piece (nothing spent)."""
        spend = self.spend(piece.cost, piece.time)
        if spend <= 0:
            return None
        return self.gain(piece.size, piece.income) / spend


@dataclass(frozen=True)
class Rules:
    """The numbers of the game the rules engine needs (from the deck)."""

    rows: int = 9
    cols: int = 9
    start_buttons: int = 5
    empty_penalty: int = 2
    bonus_size: int = 7
    bonus_points: int = 7
    track: Track = Track(53, (5, 11, 17, 23, 29, 35, 41, 47), (26, 32, 38, 44, 50), 1)
    holes: frozenset[tuple[int, int]] = frozenset()
    """Cells of the rows x cols box that are not squares of the board (a shaped board)."""

    @property
    def blocked(self) -> int:
        """The holes as a bit mask (bit ``r * cols + c``)."""
        mask = 0
        for r, c in self.holes:
            mask |= 1 << (r * self.cols + c)
        return mask

    @property
    def squares(self) -> frozenset[tuple[int, int]]:
        """Every square of the board."""
        return frozenset((r, c) for r in range(self.rows) for c in range(self.cols)
                         if (r, c) not in self.holes)

    @property
    def area(self) -> int:
        return self.rows * self.cols - len(self.holes)

    @property
    def shaped(self) -> bool:
        return bool(self.holes)

    def board_name(self) -> str:
        """How reports name the board: ``the 9x9 board`` or ``the 60-square board``."""
        if self.shaped:
            return f"the {self.area}-square board ({self.rows}x{self.cols} outline)"
        return f"the {self.rows}x{self.cols} board"


@dataclass(frozen=True)
class QuiltSet:
    """Everything a quilts deck generates."""

    pieces: tuple[Piece, ...]
    rules: Rules
    values: ValueModel
    generated: bool
    """True when the pieces were generated (False: hand-written)."""


def rules_from_params(params: Params) -> Rules:
    t = params.track
    rows, cols = params.board.extent()
    squares = params.board.squares()
    return Rules(
        rows=rows,
        cols=cols,
        holes=frozenset((r, c) for r in range(rows) for c in range(cols)
                        if (r, c) not in squares),
        start_buttons=params.start_buttons,
        empty_penalty=params.empty_penalty,
        bonus_size=params.bonus_size,
        bonus_points=params.bonus_points,
        track=Track(t.length, tuple(sorted(t.income)), tuple(sorted(t.patches)), t.end_buttons),
    )


def values_from_params(params: Params) -> ValueModel:
    v = params.value
    return ValueModel(v.area, v.income, v.time, v.target, v.spread, v.outlier)
