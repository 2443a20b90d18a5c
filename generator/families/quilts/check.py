"""The quilts checks: piece fit and print size, duplicates, value model, board and bonus fill,
simulated balance, and (on request) counting the board's tilings.

Fill (subject ``board``): can the whole board be covered exactly by a subset of the pieces plus
the time track's 1x1 patches? The core's ``tile`` runs its cheap necessary conditions first
(area and subset-sum, pieces that fit nowhere, checkerboard parity) and then an exact-cover
search under the deck's budget. A tiling found is turned into a certificate of placements and
**replayed** through the rules engine (:meth:`Board.place`, each piece used once, no more
patches than the track has, every square covered) before it is reported ``completable``.
The same for the bonus square (subject ``bonus``): a ``bonus_size`` square in the board's corner.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from functools import partial
from typing import Any

from ...core.answer import Answer
from ...core.budget import Budget
from ...core.grid import rectangle
from ...core.polyomino import Symmetry
from ...core.stats import Precision
from ...core.tiling import Piece as TilePiece
from ...core.tiling import TilingResult, count_tilings_up_to_symmetry, tile
from ...core.verdict import Verdict
from ...deck import Deck
from ..base import CheckEntry, CheckOptions, Question, Report, Settings, answer_entry
from ..sampling import deck_sampling
from .model import Piece, QuiltSet, Rules
from .paper import fits as _fits
from .paper import print_area
from .rules import PATCH, PATCH_SHAPE, Board, IllegalMove, Placement, find_transform, options
from .sim import PAIRINGS, Balance, balance, head_to_head, sample_pairing

FAMILY = "quilts"


# ---------------------------------------------------------------------------------------------
# Fill certificates


def certificate_from_tiling(result: TilingResult, pieces: Sequence[Piece]) -> dict[str, Any]:
    """The JSON certificate of a tiling found by the core: one placement per piece used."""
    out = []
    for p in result.placements:
        index = p.piece if p.piece < len(pieces) else PATCH
        shape = pieces[index].shape if index != PATCH else PATCH_SHAPE
        where = find_transform(shape, p.cells)
        if where is None:
            raise IllegalMove(f"the solver placed tile {p.piece} on cells {sorted(p.cells)} "
                              "that are not its shape")
        placement = Placement(index, where.transform, where.row, where.col)
        out.append(placement.to_json(shape, pieces))
    return {"placements": out}


def replay_fill(cert: dict[str, Any], pieces: Sequence[Piece], rules: Rules,
                region: int | None = None, at: tuple[int, int] = (0, 0)) -> Board:
    """Replay a fill certificate through the rules engine and return the board.

    Raises IllegalMove when a placement is illegal (outside the board or on a shaped board's
    hole, overlapping, a piece used twice, more patches than the track holds) or when the
    board (``region`` = None) or the ``region`` x ``region`` square with its corner ``at``
    is not fully covered.
    """
    board = Board(rules.rows, rules.cols, 0, rules.blocked)
    used: set[int] = set()
    patches = 0
    for data in cert["placements"]:
        placement = Placement.from_json(data)
        if placement.piece == PATCH:
            patches += 1
            if patches > len(rules.track.patches):
                raise IllegalMove(f"uses {patches} 1x1 patches; the track has "
                                  f"{len(rules.track.patches)}")
            shape = PATCH_SHAPE
        else:
            if not 0 <= placement.piece < len(pieces):
                raise IllegalMove(f"no piece with index {placement.piece}")
            if placement.piece in used:
                raise IllegalMove(f"{pieces[placement.piece].id} is used twice")
            used.add(placement.piece)
            shape = pieces[placement.piece].shape
        if sorted(map(tuple, data["cells"])) != sorted(placement.cells(shape)):
            raise IllegalMove(f"the listed cells of {data['piece']} do not match its "
                              "transform and position")
        board = board.place(shape, placement)
    if region is None:
        if board.empty_count:
            raise IllegalMove(f"{board.empty_count} squares stay empty")
    else:
        square = rectangle(region, region, *at)
        missing = [c for c in square if not board.filled >> (c[0] * board.cols + c[1]) & 1]
        if missing:
            raise IllegalMove(f"{len(missing)} squares of the {region}x{region} square stay "
                              "empty")
    return board


Region = tuple[int, int] | frozenset[tuple[int, int]]
"""What a fill covers: (rows, cols) of a rectangle, or the cells of a shaped board."""


def questions(deck: Deck, qs: QuiltSet) -> tuple[Question, ...]:
    """The fill questions: the whole board, and the bonus square where one fits."""
    rules = qs.rules
    out = [Question("board", "fill", rules.board_name())]
    if bonus_spot(rules) is not None:
        k = rules.bonus_size
        out.append(Question("bonus", "bonus-fill", f"a {k}x{k} bonus square"))
    return tuple(out)


def _region(qs: QuiltSet, question: Question) -> tuple[Region, int | None, tuple[int, int]]:
    """The region a question fills, its corner square (bonus) if any, and where it sits."""
    if question.check == "bonus-fill":
        k = qs.rules.bonus_size
        return (k, k), k, bonus_spot(qs.rules) or (0, 0)
    return qs.rules.squares, None, (0, 0)


def solve_fill(qs: QuiltSet, size: Region, budget: Budget,
               at: tuple[int, int] = (0, 0)) -> Answer:
    """Can ``size`` -- (rows, cols) of a rectangle with its corner ``at``, or the cells of a
    region (a shaped board) -- be covered by a subset of the pieces plus the patches?"""
    if isinstance(size, frozenset):
        region = size
        rows = 1 + max(r for r, _ in region) - min(r for r, _ in region)
        cols = 1 + max(c for _, c in region) - min(c for _, c in region)
    else:
        rows, cols = size
        region = rectangle(rows, cols, *at)
    patches = len(qs.rules.track.patches)
    # When the areas match exactly every tile must be used: saying so lets the core's
    # parity argument (which weighs required pieces) refute a fill without searching.
    exact = sum(p.size for p in qs.pieces) + patches == len(region)
    tiles = [TilePiece(p.shape, p.id, required=exact) for p in qs.pieces]
    tiles += [TilePiece(PATCH_SHAPE, f"patch-{i + 1}", required=exact) for i in range(patches)]
    result = tile(region, tiles, mode="first", budget=budget)
    extra: dict[str, Any] = {"region": f"{rows}x{cols}"}
    if len(region) != rows * cols:
        extra["squares"] = len(region)
    if result.verdict is Verdict.COMPLETABLE:
        try:
            cert = certificate_from_tiling(result, qs.pieces)
        except IllegalMove as err:
            return Answer(Verdict.UNKNOWN, reason=f"the solver's tiling is no fill: {err}",
                          nodes=result.nodes, extra=extra)
        return Answer(Verdict.COMPLETABLE, cert, nodes=result.nodes, extra=extra)
    if result.verdict is Verdict.IMPOSSIBLE:
        return Answer(Verdict.IMPOSSIBLE, reason=result.reason, nodes=result.nodes, extra=extra)
    return Answer(Verdict.UNKNOWN, reason=f"no tiling found within {budget} ({result.nodes} "
                  "nodes)", nodes=result.nodes, extra=extra)


def _replay(qs: QuiltSet, corner: int | None, at: tuple[int, int], certificate: Any) -> None:
    try:
        replay_fill(certificate, qs.pieces, qs.rules, corner, at)
    except (KeyError, TypeError) as exc:
        raise IllegalMove(f"the certificate is malformed ({exc!r})") from None


def solve(deck: Deck, qs: QuiltSet, question: Question, budget: Budget) -> Answer:
    size, _, at = _region(qs, question)
    return solve_fill(qs, size, budget, at)


def replay_certificate(deck: Deck, qs: QuiltSet, question: Question,
                       certificate: Any) -> None:
    """Replay a fill certificate (JSON, as in the report); IllegalMove when it fails."""
    _, corner, at = _region(qs, question)
    _replay(qs, corner, at, certificate)


def fill_entry(subject: str, check: str, what: str, size: Region, qs: QuiltSet,
               budget: Budget, corner: int | None, at: tuple[int, int] = (0, 0)) -> CheckEntry:
    """The report entry of a fill question (``corner``: the k x k square that must be
    covered, None for the whole region), through the one answer-to-entry helper."""
    answer = solve_fill(qs, size, budget, at)
    message = ""
    if answer.verdict is Verdict.COMPLETABLE:
        used = len([p for p in answer.certificate["placements"] if p["index"] != PATCH])
        placed = len(answer.certificate["placements"]) - used
        message = (f"can be filled with {used} piece{'' if used == 1 else 's'} and {placed} "
                   f"1x1 patch{'' if placed == 1 else 'es'} (certificate replayed)")
    elif answer.verdict is Verdict.IMPOSSIBLE:
        message = f"cannot be filled: {answer.reason}"
    code = f"E-QUILTS-{check.upper()}"
    return answer_entry(Question(subject, check, what), answer,
                        partial(_replay, qs, corner, at), code=code, message=message,
                        impossible_code=code)


def bonus_spot(rules: Rules) -> tuple[int, int] | None:
    """The top-left corner of the first ``bonus_size`` square (row by row) made only of board
    squares; None when there is none. Every such square is the same region up to a shift, so
    one fill check covers them all."""
    k = rules.bonus_size
    squares = rules.squares
    for r in range(rules.rows - k + 1):
        for c in range(rules.cols - k + 1):
            if rectangle(k, k, r, c) <= squares:
                return r, c
    return None


# ---------------------------------------------------------------------------------------------
# Per-piece checks


def piece_entries(deck: Deck, qs: QuiltSet) -> list[CheckEntry]:
    rules = qs.rules
    cell = float(deck.params.cell)
    area = print_area(deck)
    allow_dupes = bool(deck.params.allow_duplicates)
    out: list[CheckEntry] = []
    seen: dict[Any, Piece] = {}
    values = [qs.values.value(p) for p in qs.pieces]
    median = statistics.median(values) if values else 0.0
    for piece, value in zip(qs.pieces, values, strict=True):
        fits = len(options(piece.shape, rules.rows, rules.cols, rules.blocked))
        if fits:
            out.append(CheckEntry(piece.id, "fits-board", "pass",
                                  f"{fits} placements on {rules.board_name()}, empty",
                                  details={"placements": fits}))
        else:
            out.append(CheckEntry(piece.id, "fits-board", "fail",
                                  f"a {piece.shape.height}x{piece.shape.width} piece does not "
                                  f"fit {rules.board_name()} in any orientation",
                                  "E-QUILTS-PIECE-TOO-BIG"))
        w, h = piece.shape.width * cell, piece.shape.height * cell
        if _fits(w, h, area):
            out.append(CheckEntry(piece.id, "print-size", "pass",
                                  f"prints {w:g} x {h:g} mm ({cell:g} mm squares)",
                                  details={"width_mm": w, "height_mm": h}))
        else:
            out.append(CheckEntry(piece.id, "print-size", "fail",
                                  f"prints {w:g} x {h:g} mm, larger than the page's "
                                  f"{area[0]:g} x {area[1]:g} mm inside its margins",
                                  "E-QUILTS-PIECE-PRINT-SIZE",
                                  hint_details(cell, piece.shape.width, piece.shape.height,
                                               area)))
        key = piece.shape.canonical(Symmetry.FREE)
        twin = seen.get(key)
        if twin is None:
            seen[key] = piece
            out.append(CheckEntry(piece.id, "duplicate", "pass",
                                  "no other piece has this shape"))
        elif allow_dupes:
            out.append(CheckEntry(piece.id, "duplicate", "info",
                                  f"same shape as {twin.id} (allowed by allow_duplicates)",
                                  details={"same_as": twin.id}))
        else:
            out.append(CheckEntry(piece.id, "duplicate", "fail",
                                  f"same shape as {twin.id} (rotated or mirrored); set "
                                  "allow_duplicates = true to allow it",
                                  "E-QUILTS-DUPLICATE", {"same_as": twin.id}))
        eff = qs.values.efficiency(piece)
        details = {"value": value, "efficiency": None if eff is None else round(eff, 3),
                   "median": median}
        text = (f"value {value:+g} buttons, efficiency "
                f"{'free' if eff is None else format(eff, '.2f')} (deck median {median:+g})")
        if abs(value - median) > qs.values.outlier:
            out.append(CheckEntry(piece.id, "value", "warn",
                                  f"outlier: {text}, more than {qs.values.outlier:g} away",
                                  "E-QUILTS-VALUE-OUTLIER", details))
        else:
            out.append(CheckEntry(piece.id, "value", "info", text, details=details))
    return out


def hint_details(cell: float, width: int, height: int, area: tuple[float, float]) -> dict[str, Any]:
    biggest = min(max(area) / max(width, height), min(area) / min(width, height))
    return {"largest_cell_mm": round(biggest, 2)}


# ---------------------------------------------------------------------------------------------
# Deck-wide checks


def board_print_entry(deck: Deck, qs: QuiltSet) -> CheckEntry:
    cell = float(deck.params.cell)
    w, h = qs.rules.cols * cell, qs.rules.rows * cell
    area = print_area(deck)
    if _fits(w, h, area):
        return CheckEntry("board", "print-size", "pass",
                          f"board prints {w:g} x {h:g} mm, squares as the pieces' ({cell:g} mm)")
    return CheckEntry("board", "print-size", "fail",
                      f"board prints {w:g} x {h:g} mm, larger than the page's {area[0]:g} x "
                      f"{area[1]:g} mm inside its margins; use a smaller 'cell' or a larger page",
                      "E-QUILTS-BOARD-PRINT-SIZE")


def balance_entry(deck: Deck, qs: QuiltSet, settings: Settings, sampling: Precision
                  ) -> tuple[CheckEntry, dict[str, Any]]:
    """Casual players (greedy self-play), planning players (planner self-play) and the
    planner against the greedy player, each sampled to the precision asked; every rate and
    mean with its 95% interval. The first-player warning needs the whole interval outside
    0.5 +/- ``first_player_tolerance`` (a small sample cannot raise it by luck)."""
    pool = settings.pool
    samples = {p: sample_pairing(qs.pieces, qs.rules, qs.values, p, sampling, deck.seed,
                                 pool.map, pool.workers) for p in PAIRINGS}
    casual = balance(samples["greedy"].outcomes)
    planning = balance(samples["planner"].outcomes)
    h2h = head_to_head(samples["head-to-head"].outcomes)
    data: dict[str, Any] = {
        "greedy": casual.to_json(), "planner": planning.to_json(),
        "head_to_head": h2h.to_json(),
        "samples": {p: smp.to_json() for p, smp in samples.items()},
        "games": {p: smp.games for p, smp in samples.items()},
    }

    def players(b: Balance) -> str:
        return (f"first player wins {b.first_wins.text()}, score {b.score.text('pts')}, "
                f"bonus taken in {b.bonus.text()}")
    text = (f"casual players (greedy): {players(casual)}; planning players: "
            f"{players(planning)}; the planner beats the greedy player in {h2h.wins.text()}, "
            f"by {h2h.margin.text('pts')}")
    tolerance = float(deck.params.first_player_tolerance)
    r = casual.first_wins
    if r.trials and (r.low > 0.5 + tolerance or r.high < 0.5 - tolerance):
        return CheckEntry("deck", "balance", "warn",
                          f"{text}; the first player's rate is more than {tolerance:g} from 0.5",
                          "E-QUILTS-FIRST-PLAYER", data), data
    return CheckEntry("deck", "balance", "info", text, details=data), data


def count_entry(qs: QuiltSet, budget: Budget) -> tuple[CheckEntry, dict[str, Any]]:
    """Count exact tilings of the board by the deck's pieces (no patches): every piece used
    once when the areas match, any subset otherwise; up to the board's symmetry and raw.

    Both counts come from the core (``count_tilings_up_to_symmetry`` and ``tile`` in count
    mode), each under ``budget``. Identical pieces are interchangeable: the counts count
    distinct arrangements, not which copy went where.
    """
    rules = qs.rules
    region = rules.squares
    total = sum(p.size for p in qs.pieces)
    all_used = total == rules.area
    tiles = [TilePiece(p.shape, p.id, required=all_used) for p in qs.pieces]
    classes = count_tilings_up_to_symmetry(region, tiles, budget=budget)
    raw = tile(region, tiles, mode="count", budget=budget)
    complete = classes.complete and raw.complete
    data = {"up_to_symmetry": classes.count, "raw": raw.count, "complete": complete,
            "all_pieces_used": all_used, "nodes": classes.nodes + raw.nodes}
    how = "every piece once" if all_used else "subsets of the pieces"
    if complete:
        return CheckEntry("board", "count-solutions", "info",
                          f"{classes.count} tilings up to the board's symmetry "
                          f"({raw.count} raw) by {how}", details=data), data
    return CheckEntry("board", "count-solutions", "unknown",
                      f"counting stopped at the budget {budget}: at least {classes.count} up "
                      f"to symmetry, {raw.count} raw tilings by {how}",
                      "E-QUILTS-COUNT-UNKNOWN", data), data


def check(deck: Deck, qs: QuiltSet, options: CheckOptions) -> Report:
    settings = options.settings(deck)
    budget = settings.budget
    rules = qs.rules
    entries = piece_entries(deck, qs)
    entries.append(board_print_entry(deck, qs))
    for question in questions(deck, qs):
        size, corner, at = _region(qs, question)
        entries.append(fill_entry(question.subject, question.check, question.what, size, qs,
                                  budget, corner, at))
    k = rules.bonus_size
    if bonus_spot(rules) is None:
        why = "does not fit" if k > min(rules.rows, rules.cols) else \
            "has no place free of holes on"
        entries.append(CheckEntry("bonus", "bonus-fill", "impossible",
                                  f"a {k}x{k} bonus square {why} {rules.board_name()}",
                                  "E-QUILTS-BONUS-FILL"))
    values = [qs.values.value(p) for p in qs.pieces]
    figures: dict[str, Any] = {
        "pieces": len(qs.pieces),
        "piece_area": sum(p.size for p in qs.pieces),
        "board_area": rules.area,
        "value_mean": round(statistics.fmean(values), 3) if values else 0.0,
        "value_stdev": round(statistics.pstdev(values), 3) if values else 0.0,
        "value_median": statistics.median(values) if values else 0.0,
        "outliers": [e.subject for e in entries if e.code == "E-QUILTS-VALUE-OUTLIER"],
    }
    sampling = deck_sampling(deck, settings)
    if sampling.max_games > 0:
        entry, data = balance_entry(deck, qs, settings, sampling)
        entries.append(entry)
        figures["simulation"] = data
    if settings.count_solutions:
        entry, data = count_entry(qs, Budget(nodes=deck.params.count_nodes))
        entries.append(entry)
        figures["count_solutions"] = data
    return Report(deck=deck.name, family=FAMILY, seed=deck.seed, entries=tuple(entries),
                  figures=figures)
