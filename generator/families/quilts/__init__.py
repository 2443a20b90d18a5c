"""The ``quilts`` family: polyomino quilt pieces with button cost, time cost and income, a
quilt board, a time track with income checkpoints and 1x1 patches, tokens and a bonus tile;
checks that the pieces fill the board and a bonus square, and simulated-game balance."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel, Field

from ...core.grid import is_connected
from ...deck import Deck
from ...errors import DeckError, Problem
from ..base import (
    Family,
    ScoreFileModel,
    ScoreLine,
    ScoreResult,
)
from . import generate as generate_mod
from .model import Params, QuiltSet
from .rules import Board, cell_mask


def _shape_problems(rows: list[str], path: tuple[str | int, ...]) -> list[Problem]:
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
    bad = sorted({ch for row in rows for ch in row if ch not in "#."})
    if bad:
        return [Problem("E-QUILTS-SHAPE", path, f"unexpected characters {''.join(bad)!r}",
                        "write rows of '#' (square) and '.' (gap)")]
    if not cells:
        return [Problem("E-QUILTS-SHAPE", path, "the shape has no square",
                        "write rows of '#' (square) and '.' (gap), e.g. [\"##\", \"#.\"]")]
    if not is_connected(cells):
        return [Problem("E-QUILTS-SHAPE", path, "the shape's squares are not connected",
                        "every '#' must touch another '#' by a side")]
    return []


BOARD_MAX = 20
"""Most rows and columns of a board (as for rows and cols): a board mask stays one small
integer and the printed board fits an A3 page at 15 mm squares."""


def _board_problems(params: Params) -> list[Problem]:
    """A shaped board: rows of '#' and '.', at least one square, within 20 x 20, and no
    rows / cols that contradict it."""
    board = params.board
    path: tuple[str | int, ...] = ("quilts", "board", "shape")
    if not board.shape:
        return []
    rows = board.shape
    bad = sorted({ch for row in rows for ch in row if ch not in "#."})
    if bad:
        return [Problem("E-QUILTS-BOARD", path, f"unexpected characters {''.join(bad)!r}",
                        "write rows of '#' (a square of the board) and '.' (no square)")]
    out: list[Problem] = []
    if not any("#" in row for row in rows):
        out.append(Problem("E-QUILTS-BOARD", path, "the board has no square",
                           "write at least one '#'"))
    height, width = board.extent()
    if height > BOARD_MAX or width > BOARD_MAX:
        out.append(Problem("E-QUILTS-BOARD", path, f"the board is {height}x{width}",
                           f"at most {BOARD_MAX} rows of at most {BOARD_MAX} squares"))
    for key, got in (("rows", height), ("cols", width)):
        if key in board.model_fields_set and getattr(board, key) != got:
            out.append(Problem("E-QUILTS-BOARD", ("quilts", "board", key),
                               f"{key} = {getattr(board, key)} but the shape has {got}",
                               f"drop '{key}' (a shaped board takes its size from the shape)"))
    return out


class QuiltsScoreFile(ScoreFileModel):
    """A finished quilt (``paperproof score DECK FILE``)."""

    buttons: int = Field(default=0, ge=0, description="Buttons held at the end.")
    bonus: bool = Field(default=False, description="Whether this player holds the bonus tile.")
    board: list[str] = Field(description="The board, one string a row: '#' covered, '.' "
                             "empty ('x' or '.' where a shaped board has no square).")


class QuiltsFamily(Family[Params, QuiltSet]):
    name: ClassVar[str] = "quilts"
    title: ClassVar[str] = "Polyomino quilt pieces"
    summary: ClassVar[str] = ("polyomino quilt pieces with cost, time and income, a quilt "
                              "board and a time track; fill checks and simulated balance")
    components: ClassVar[tuple[str, ...]] = (
        "quilt pieces (polyominoes with button cost, time cost, income icons), nested",
        "quilt board (squares the size of the pieces' squares), one per player",
        "time track with income spaces and 1x1 patch spaces",
        "1x1 patches, time tokens, ring marker, button tokens, bonus tile",
        "proof pages of the board and bonus-square fills",
    )
    Params: ClassVar[type[BaseModel]] = Params
    ScoreFile: ClassVar[type[ScoreFileModel] | None] = QuiltsScoreFile

    def validate(self, deck: Deck) -> list[Problem]:
        params: Params = deck.params
        fam = self.name
        problems: list[Problem] = []
        for i, spec in enumerate(params.pieces):
            problems += _shape_problems(spec.shape, (fam, "pieces", i, "shape"))
        problems += _board_problems(params)
        if not params.pieces:
            total = 0
            for size, count in sorted(params.sizes.items()):
                path: tuple[str | int, ...] = (fam, "sizes", str(size))
                if not 1 <= size <= 10:
                    problems.append(Problem("E-QUILTS-SIZES", path,
                                            f"piece size {size} is out of range",
                                            "sizes run from 1 to 10 squares"))
                    continue
                if count < 0:
                    problems.append(Problem("E-QUILTS-SIZES", path, "a count cannot be negative",
                                            "use 0 or more"))
                    continue
                total += count
                pool = generate_mod.candidate_shapes(size, params.max_span, params.allow_holes)
                if count > len(pool) and not params.allow_duplicates:
                    problems.append(Problem(
                        "E-QUILTS-SIZES", path,
                        f"{count} distinct {size}-square pieces asked for, only {len(pool)} "
                        f"exist within {params.max_span}x{params.max_span}"
                        + ("" if params.allow_holes else " without holes"),
                        f"ask for at most {len(pool)}, raise max_span, or set "
                        "allow_duplicates = true"))
            if total == 0:
                problems.append(Problem("E-QUILTS-EMPTY", (fam, "sizes"), "the deck has no pieces",
                                        "give counts in 'sizes' or write [[quilts.pieces]]"))
        odds = params.income_odds
        if not 1 <= len(odds) <= 4 or any(o < 0 for o in odds) or sum(odds) <= 0:
            problems.append(Problem("E-QUILTS-ODDS", (fam, "income_odds"),
                                    f"invalid odds {odds}",
                                    "give 1 to 4 non-negative numbers (odds of 0, 1, 2, 3 "
                                    "icons), not all zero"))
        t = params.track
        for key, spaces in (("income", t.income), ("patches", t.patches)):
            for j, space in enumerate(spaces):
                if not 1 <= space <= t.length:
                    problems.append(Problem("E-QUILTS-TRACK", (fam, "track", key, j),
                                            f"space {space} is not on the track",
                                            f"use a space from 1 to {t.length}"))
            if len(set(spaces)) != len(spaces):
                problems.append(Problem("E-QUILTS-TRACK", (fam, "track", key),
                                        f"repeated spaces in {sorted(spaces)}",
                                        "list each space once"))
        for value, count in params.buttons.items():
            if value < 1 or count < 0:
                problems.append(Problem("E-QUILTS-BUTTONS", (fam, "buttons", str(value)),
                                        f"invalid button token {value} x {count}",
                                        "denominations are 1 or more; counts 0 or more"))
        return problems

    def generate(self, deck: Deck) -> QuiltSet:
        return generate_mod.generate(deck.params, deck.seed)

    def score(self, deck: Deck, generated: QuiltSet, source: Path, text: str) -> ScoreResult:
        """Score a finished quilt: ``buttons = N``, ``bonus = true|false`` and
        ``board = ["#########", ...]`` (rows of '#' covered and '.' empty)."""
        filled_file, doc = self.read_score_file(source, text)
        qs: QuiltSet = generated
        r = qs.rules
        problems: list[Problem] = []

        def bad(key: str, message: str, hint: str) -> None:
            problems.append(Problem("E-QUILTS-SCORE", (key,), message, hint, str(source),
                                    doc.line_of((key,))))

        buttons, bonus, board = filled_file.buttons, filled_file.bonus, filled_file.board
        marks = {"#", ".", "x"} if r.shaped else {"#", "."}
        if len(board) != r.rows or not all(len(row) == r.cols and set(row) <= marks
                                           for row in board):
            example = '"' + "#" * r.cols + '"'
            holes = (" ('x' or '.' where the shaped board has no square)" if r.shaped else "")
            bad("board", f"board must be {r.rows} rows of {r.cols} '#' (covered) or '.' "
                f"(empty){holes}", f"e.g. board = [{example}, {example}, ...]")
        elif r.shaped:
            on_hole = sorted((i, j) for i, row in enumerate(board) for j, ch in enumerate(row)
                             if ch == "#" and (i, j) in r.holes)
            if on_hole:
                bad("board", f"squares {on_hole[:4]} are covered but are not squares of the "
                    "shaped board", "write 'x' or '.' where the board has no square")
        if problems:
            raise DeckError(problems)
        if bonus:
            filled = Board(r.rows, r.cols, cell_mask(
                ((i, j) for i, row in enumerate(board) for j, ch in enumerate(row) if ch == "#"),
                r.cols), r.blocked)
            if not filled.has_filled_square(r.bonus_size):
                bad("bonus", f"bonus = true but the board has no filled {r.bonus_size}x"
                    f"{r.bonus_size} square", "only a player with such a square can hold it")
                raise DeckError(problems)
        empty = sum(1 for i, row in enumerate(board) for j, ch in enumerate(row)
                    if ch != "#" and (i, j) not in r.holes)
        lines = [
            ScoreLine("buttons", int(buttons)),
            ScoreLine("bonus tile", r.bonus_points if bonus else 0,
                      f"first full {r.bonus_size}x{r.bonus_size} square" if bonus else ""),
            ScoreLine("empty squares", -r.empty_penalty * empty,
                      f"{empty} x -{r.empty_penalty}"),
        ]
        return ScoreResult(sum(line.points for line in lines), tuple(lines))
