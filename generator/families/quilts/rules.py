"""The quilts rules engine: boards, placements, the ring of pieces, the time track, turns.

Rules (from the seed, with the decisions the seed leaves open; see docs/families/quilts.md):

- Two players, each with a quilt board (default 9 x 9) and ``start_buttons`` (5) buttons; both
  time tokens start on space 0. The starting player's token is on top.
- The pieces lie in a ring; the marker sits just after the smallest piece (fewest squares,
  then lowest deck index). The player to move is the one whose token is further behind; on a
  tie, the one on top (who arrived last) moves again.
- Buy: take one of the three pieces after the marker (clockwise), pay its cost, place it on
  your board (any of 8 orientations, inside, no overlap), move the marker to where the piece
  was, and advance your token by the piece's time.
- Pass: move your token to the space just after the opponent's token and take one button per
  space moved.
- Crossing or reaching an income space pays one button per income icon on your board; the
  first player to cross or reach a patch space takes the 1x1 patch and places it at once (lost
  if the board is full). A move never goes past the end space; reaching it pays
  ``end_buttons`` once. The game ends when both tokens are on the end space.
- The first player with a completely filled ``bonus_size`` square takes the bonus tile.
- Score = buttons + bonus - ``empty_penalty`` per empty square. Ties go to the player who
  reached the end space first.

Boards are bit masks (bit ``r * cols + c`` for cell (r, c)), so a placement test is one AND:
this keeps a simulated game near 10 ms (measured in bench/quilts.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, TypeAlias

from ...core.answer import IllegalMove as IllegalMove
from ...core.polyomino import Polyomino
from .model import Piece, Rules

Cell: TypeAlias = tuple[int, int]

PATCH = -1
"""Piece index of a 1x1 patch from the time track in a :class:`Placement`."""


# IllegalMove (a move the rules forbid; the message says why) is the core's one illegal-move
# error, imported above and re-exported for this family's modules.


# ---------------------------------------------------------------------------------------------
# Placements and boards


@dataclass(frozen=True)
class Placement:
    """A piece (deck index, or ``PATCH``) in orientation ``transform`` (index into
    ``Polyomino.transforms()``) with its normalised image's corner at (row, col)."""

    piece: int
    transform: int
    row: int
    col: int

    def cells(self, shape: Polyomino) -> frozenset[Cell]:
        image = shape.transforms()[self.transform]
        return frozenset((r + self.row, c + self.col) for r, c in image.cells)

    def to_json(self, shape: Polyomino, pieces: Sequence[Piece] = ()) -> dict[str, Any]:
        out: dict[str, Any] = {
            "piece": "patch" if self.piece == PATCH else pieces[self.piece].id
            if pieces else self.piece,
            "index": self.piece,
            "transform": self.transform,
            "row": self.row,
            "col": self.col,
            "cells": sorted([r, c] for r, c in self.cells(shape)),
        }
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Placement:
        return cls(int(data["index"]), int(data["transform"]), int(data["row"]),
                   int(data["col"]))


PATCH_SHAPE = Polyomino.from_text("#")


def find_transform(shape: Polyomino, cells: Iterable[Cell]) -> Placement | None:
    """The (transform, row, col) that puts ``shape`` on exactly ``cells``; None when the cells
    are not congruent to the shape. The piece index is left 0 for the caller to set."""
    cell_set = frozenset(cells)
    if not cell_set or len(cell_set) != shape.size:
        return None
    r0 = min(r for r, _ in cell_set)
    c0 = min(c for _, c in cell_set)
    normal = frozenset((r - r0, c - c0) for r, c in cell_set)
    for k, image in enumerate(shape.transforms()):
        if image.cells == normal:
            return Placement(0, k, r0, c0)
    return None


def cell_mask(cells: Iterable[Cell], cols: int) -> int:
    mask = 0
    for r, c in cells:
        mask |= 1 << (r * cols + c)
    return mask


def mask_cells(mask: int, cols: int) -> list[Cell]:
    out: list[Cell] = []
    while mask:
        low = mask & -mask
        bit = low.bit_length() - 1
        out.append((bit // cols, bit % cols))
        mask ^= low
    return out


@dataclass(frozen=True)
class Option:
    """One placement of a shape on an empty board, with what the greedy bot scores it by."""

    mask: int
    transform: int
    row: int
    col: int
    border: int
    """Board cells next to the placement (4-neighbourhood, outside it)."""
    edges: int
    """Placement edges on the board's outer border."""


@lru_cache(maxsize=4096)
def options(shape: Polyomino, rows: int, cols: int, blocked: int = 0) -> tuple[Option, ...]:
    """Every placement of ``shape`` on an empty rows x cols board whose ``blocked`` cells (a
    shaped board's holes) are not squares (distinct cell sets, as the core enumerates them),
    with its transform and what the greedy bot scores it by (a hole's side counts as the
    board's edge)."""
    region = frozenset((r, c) for r in range(rows) for c in range(cols)
                       if not blocked >> (r * cols + c) & 1)
    out: list[Option] = []
    for cells in shape.placements(region):
        where = find_transform(shape, cells)
        if where is None:  # pragma: no cover - the core only returns congruent images
            raise AssertionError(f"core placement {sorted(cells)} is not an image of {shape!r}")
        mask = cell_mask(cells, cols)
        border = 0
        edges = 0
        for r, c in cells:
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nr < rows and 0 <= nc < cols and not blocked >> (nr * cols + nc) & 1:
                    bit = 1 << (nr * cols + nc)
                    if not mask & bit:
                        border |= bit
                else:
                    edges += 1
        out.append(Option(mask, where.transform, where.row, where.col, border, edges))
    return tuple(out)


@lru_cache(maxsize=256)
def square_masks(rows: int, cols: int, size: int) -> tuple[int, ...]:
    """Masks of every size x size square on the board (empty when it does not fit)."""
    out = []
    for r in range(rows - size + 1):
        for c in range(cols - size + 1):
            out.append(cell_mask(((r + i, c + j) for i in range(size) for j in range(size)),
                                 cols))
    return tuple(out)


@dataclass(frozen=True)
class Board:
    """A player's quilt board: which cells are covered. ``blocked`` marks the cells of the
    rows x cols box that are not squares of a shaped board (holes, outside the outline)."""

    rows: int
    cols: int
    filled: int = 0
    blocked: int = 0

    @property
    def full_mask(self) -> int:
        """Every square of the board."""
        return ((1 << (self.rows * self.cols)) - 1) & ~self.blocked

    @property
    def area(self) -> int:
        return self.full_mask.bit_count()

    @property
    def empty_count(self) -> int:
        return self.area - self.filled.bit_count()

    def cells(self) -> list[Cell]:
        return mask_cells(self.filled, self.cols)

    def covers(self, cells: Iterable[Cell]) -> int:
        """The mask of ``cells``; raises IllegalMove if one is not a square of the board."""
        cells = list(cells)
        for r, c in cells:
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise IllegalMove(f"cell ({r}, {c}) is outside the {self.rows}x{self.cols} "
                                  "board")
            if self.blocked >> (r * self.cols + c) & 1:
                raise IllegalMove(f"cell ({r}, {c}) is not a square of the shaped board")
        return cell_mask(cells, self.cols)

    def place(self, shape: Polyomino, placement: Placement) -> Board:
        """The board with ``shape`` placed; raises IllegalMove when it is outside the board
        or overlaps a covered square."""
        if not 0 <= placement.transform < 8:
            raise IllegalMove(f"transform {placement.transform} is not one of 0..7")
        mask = self.covers(placement.cells(shape))
        if mask & self.filled:
            overlap = mask_cells(mask & self.filled, self.cols)
            raise IllegalMove(f"overlaps covered squares {sorted(overlap)}")
        return replace(self, filled=self.filled | mask)

    def has_filled_square(self, size: int) -> bool:
        return any(self.filled & m == m for m in square_masks(self.rows, self.cols, size))

    def __str__(self) -> str:
        """Rows of '#' (covered), '.' (empty) and 'x' (not a square of a shaped board)."""
        def ch(r: int, c: int) -> str:
            bit = r * self.cols + c
            return "x" if self.blocked >> bit & 1 else "#" if self.filled >> bit & 1 else "."
        return "\n".join("".join(ch(r, c) for c in range(self.cols)) for r in range(self.rows))

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Read ``str(board)`` back: rows of '#' (covered), '.' (empty), 'x' (no square)."""
        rows = [row.strip() for row in text.strip().splitlines()]
        if not rows or len({len(r) for r in rows}) != 1 or not all(set(r) <= {"#", ".", "x"}
                                                                   for r in rows):
            raise ValueError("a board is equal-length rows of '#' (covered), '.' (empty) and "
                             "'x' (not a square)")

        def mask(want: str) -> int:
            return cell_mask(((r, c) for r, row in enumerate(rows)
                              for c, ch in enumerate(row) if ch == want), len(rows[0]))
        return cls(len(rows), len(rows[0]), mask("#"), mask("x"))


# ---------------------------------------------------------------------------------------------
# Game state and moves


@dataclass(frozen=True)
class Buy:
    """Buy the ``choice``-th piece after the marker (0, 1 or 2) and place it."""

    choice: int
    transform: int
    row: int
    col: int


@dataclass(frozen=True)
class Pass:
    """Move just past the opponent's token, one button per space moved."""


@dataclass(frozen=True)
class PlacePatch:
    """Place a 1x1 patch just taken from the time track."""

    row: int
    col: int


Action: TypeAlias = Buy | Pass | PlacePatch


@dataclass(frozen=True)
class PlayerState:
    position: int
    buttons: int
    board: Board
    income: int = 0
    placed: tuple[Placement, ...] = ()


@dataclass(frozen=True)
class GameState:
    players: tuple[PlayerState, PlayerState]
    ring: tuple[int, ...]
    """Deck indices of the pieces still in the ring, clockwise, starting just after the
    marker."""
    top: int
    """The player whose token is on top when both share a space (moves first on a tie)."""
    patches: tuple[int, ...]
    """Patch spaces not yet taken."""
    pending: int = 0
    """Patches the patch player must place before play goes on."""
    patch_player: int = 0
    bonus_owner: int | None = None
    end_order: tuple[int, ...] = ()
    turn: int = 0
    log: tuple[Action, ...] = field(default=(), repr=False)


def initial_ring(pieces: Sequence[Piece], circle: Sequence[int]) -> tuple[int, ...]:
    """The ring as seen from the marker: ``circle`` is the clockwise order of deck indices;
    the marker goes just after the smallest piece (fewest squares, then lowest index)."""
    if not circle:
        return ()
    smallest = min(circle, key=lambda i: (pieces[i].size, i))
    s = list(circle).index(smallest)
    return tuple(circle[s + 1:]) + tuple(circle[:s + 1])


class Game:
    """The rules of one two-player game over a fixed piece set."""

    def __init__(self, pieces: Sequence[Piece], rules: Rules) -> None:
        self.pieces = tuple(pieces)
        self.rules = rules

    def start(self, circle: Sequence[int], first: int = 0) -> GameState:
        """A new game: the ring from the clockwise ``circle`` of deck indices."""
        r = self.rules
        empty = Board(r.rows, r.cols, 0, r.blocked)
        player = PlayerState(0, r.start_buttons, empty)
        return GameState((player, player), initial_ring(self.pieces, circle), first,
                         r.track.patches)

    # -- whose turn ---------------------------------------------------------------------------

    def is_over(self, state: GameState) -> bool:
        end = self.rules.track.length
        return state.pending == 0 and all(p.position >= end for p in state.players)

    def to_move(self, state: GameState) -> int:
        if state.pending:
            return state.patch_player
        a, b = state.players[0].position, state.players[1].position
        if a != b:
            return 0 if a < b else 1
        return state.top

    # -- moves --------------------------------------------------------------------------------

    def choices(self, state: GameState) -> tuple[int, ...]:
        """The deck indices a player may buy from (up to three after the marker)."""
        return state.ring[:3]

    def apply(self, state: GameState, action: Action) -> GameState:
        """The state after ``action`` by the player to move; raises IllegalMove."""
        if self.is_over(state):
            raise IllegalMove("the game is over")
        me = self.to_move(state)
        if state.pending:
            if not isinstance(action, PlacePatch):
                raise IllegalMove(f"player {me + 1} must first place a 1x1 patch")
            return self._place_patch(state, me, action)
        if isinstance(action, PlacePatch):
            raise IllegalMove("no patch to place")
        if isinstance(action, Pass):
            return self._pass(state, me)
        return self._buy(state, me, action)

    def _buy(self, state: GameState, me: int, action: Buy) -> GameState:
        choices = self.choices(state)
        if not 0 <= action.choice < len(choices):
            raise IllegalMove(f"choice {action.choice} is not one of the {len(choices)} pieces "
                              "after the marker")
        index = choices[action.choice]
        piece = self.pieces[index]
        player = state.players[me]
        if piece.cost > player.buttons:
            raise IllegalMove(f"{piece.id} costs {piece.cost} buttons; player {me + 1} has "
                              f"{player.buttons}")
        placement = Placement(index, action.transform, action.row, action.col)
        board = player.board.place(piece.shape, placement)
        player = replace(player, buttons=player.buttons - piece.cost, board=board,
                         income=player.income + piece.income,
                         placed=player.placed + (placement,))
        ring = state.ring[action.choice + 1:] + state.ring[:action.choice]
        state = replace(state, ring=ring)
        state = self._set_player(state, me, player)
        state = self._claim_bonus(state, me)
        target = min(player.position + piece.time, self.rules.track.length)
        return self._advance(state, me, target, action)

    def _pass(self, state: GameState, me: int) -> GameState:
        player = state.players[me]
        other = state.players[1 - me]
        target = min(other.position + 1, self.rules.track.length)
        if target <= player.position:
            raise IllegalMove("passing would not move the token")
        state = self._set_player(state, me, replace(
            player, buttons=player.buttons + target - player.position))
        return self._advance(state, me, target, Pass())

    def _place_patch(self, state: GameState, me: int, action: PlacePatch) -> GameState:
        player = state.players[me]
        placement = Placement(PATCH, 0, action.row, action.col)
        board = player.board.place(PATCH_SHAPE, placement)
        player = replace(player, board=board, placed=player.placed + (placement,))
        state = self._set_player(state, me, player)
        state = self._claim_bonus(state, me)
        pending = state.pending - 1
        if not player.board.empty_count:
            pending = 0  # a full board cannot take the remaining patches: they are lost
        return replace(state, pending=pending, log=state.log + (action,))

    def _advance(self, state: GameState, me: int, target: int, action: Action) -> GameState:
        track = self.rules.track
        player = state.players[me]
        old = player.position
        buttons = player.buttons
        for space in track.income:
            if old < space <= target:
                buttons += player.income
        taken = tuple(p for p in state.patches if old < p <= target)
        end_order = state.end_order
        if target >= track.length > old:
            buttons += track.end_buttons
            end_order = end_order + (me,)
        player = replace(player, position=target, buttons=buttons)
        state = self._set_player(state, me, player)
        other = state.players[1 - me].position
        top = me if target == other else state.top
        pending = len(taken)
        if pending and not player.board.empty_count:
            pending = 0
        return replace(state, top=top,
                       patches=tuple(p for p in state.patches if p not in taken),
                       pending=pending, patch_player=me, end_order=end_order,
                       turn=state.turn + 1, log=state.log + (action,))

    def _claim_bonus(self, state: GameState, me: int) -> GameState:
        if state.bonus_owner is not None:
            return state
        if state.players[me].board.has_filled_square(self.rules.bonus_size):
            return replace(state, bonus_owner=me)
        return state

    @staticmethod
    def _set_player(state: GameState, me: int, player: PlayerState) -> GameState:
        players = (player, state.players[1]) if me == 0 else (state.players[0], player)
        return replace(state, players=players)

    # -- legal moves --------------------------------------------------------------------------

    def legal_buys(self, state: GameState) -> list[Buy]:
        """Every legal buy of the player to move (each distinct placement once)."""
        if state.pending or self.is_over(state):
            return []
        me = self.to_move(state)
        player = state.players[me]
        out: list[Buy] = []
        for k, index in enumerate(self.choices(state)):
            piece = self.pieces[index]
            if piece.cost > player.buttons:
                continue
            for opt in options(piece.shape, self.rules.rows, self.rules.cols,
                               self.rules.blocked):
                if not opt.mask & player.board.filled:
                    out.append(Buy(k, opt.transform, opt.row, opt.col))
        return out

    def legal_actions(self, state: GameState) -> list[Action]:
        if self.is_over(state):
            return []
        me = self.to_move(state)
        if state.pending:
            board = state.players[me].board
            free = board.full_mask & ~board.filled
            return [PlacePatch(r, c) for r, c in mask_cells(free, board.cols)]
        actions: list[Action] = list(self.legal_buys(state))
        player = state.players[me]
        if min(state.players[1 - me].position + 1, self.rules.track.length) > player.position:
            actions.append(Pass())
        return actions

    # -- scoring ------------------------------------------------------------------------------

    def score(self, state: GameState, player: int) -> int:
        p = state.players[player]
        bonus = self.rules.bonus_points if state.bonus_owner == player else 0
        return p.buttons + bonus - self.rules.empty_penalty * p.board.empty_count

    def winner(self, state: GameState) -> int:
        """The winner (0 or 1): higher score; on a tie, who reached the end first."""
        a, b = self.score(state, 0), self.score(state, 1)
        if a != b:
            return 0 if a > b else 1
        return state.end_order[0] if state.end_order else 0
