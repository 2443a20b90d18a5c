"""Completability of a park card from a fresh sheet: a tiling, a cut plan, a replayed proof.

The question: is there a sequence of rounds (die faces chosen freely, since the check asks
whether the card *can* be completed) of legal cuts from a fresh sheet whose freed sections
cover the card exactly, with its feature/icon demands and walkways met?

How it is answered:

1. **Supply (exact, complete).** Any tiling can be split into single squares plus the
   sections that carry a walkway (a walkway's cells must stay in one piece); conversely single
   squares and walkway pieces are themselves valid sections. So a tiling of the card by
   disjoint sheet regions exists iff an exact cover exists with primary items = card spaces,
   secondary items = sheet squares, options = (walkway group, isometric placement on the
   sheet) and (card space, one sheet square that meets its demand). ``core.exactcover``
   solves it; when it has no solution the card is ``impossible`` and the reason names the
   demand or walkway that cannot be met (a supply count, or the pattern the sheet lacks).
2. **Big pieces (heuristic).** For a short certificate, pieces are chosen greedily: the
   largest connected part of the card that one placement of the card on the sheet satisfies,
   cheapest to cut out first, keeping the rest coverable (re-checked with step 1).
3. **Cut plan (heuristic search).** Round by round, for every die face, cuts are chosen
   greedily: most edges of the pieces' borders cut, fewest wasted edges, never through a
   piece, never freeing a part that mixes a piece with other squares.
4. **Replay.** The plan is replayed through :mod:`.rules` (cuts legal, sections freed, the
   largest part kept, placements legal, card complete) before it is believed.

When steps 2-3 fail within the budget the verdict is ``unknown`` (never ``impossible``: the
cut planner is not complete).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ...core.budget import Budget, Meter
from ...core.exactcover import CoverProblem, solve
from ...core.grid import Cell, components, components_cut, interior_edges
from ...core.polyomino import TRANSFORMS
from ...core.verdict import Verdict
from .cert import Certificate, Placed, RoundPlan
from .model import FEATURE_WORDS, Card, Cut, Demand, Die, Feature, Icon, Sheet
from .replay import replay
from .rules import (
    CardState,
    Placement,
    SheetState,
    cut_outcomes,
    fits,
    forced_builds,
    free_spaces,
    legal_cuts,
    place,
    placement_for,
    required_edges,
)

# --------------------------------------------------------------------------------------------
# Step 1: supply (complete)


def walkway_groups(card: Card) -> list[frozenset[Cell]]:
    """Walkways merged where they share a space (such cells bind both into one section)."""
    groups: list[set[Cell]] = [set(w) for w in card.walkways]
    merged = True
    while merged:
        merged = False
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                if groups[i] & groups[j]:
                    groups[i] |= groups.pop(j)
                    merged = True
                    break
            if merged:
                break
    return [frozenset(g) for g in groups]


Iso = tuple[int, tuple[int, int], dict[Cell, Cell]]


def isometries(cells: Iterable[Cell], sheet: Sheet, need_all: bool = True) -> tuple[Iso, ...]:
    """Every (transform, offset, card space -> sheet square) mapping of ``cells`` onto the
    sheet: all cells inside when ``need_all``, else at least one. Cached (the mappings only
    depend on the shape and the sheet size; callers must not mutate them)."""
    return _isometries(frozenset(cells), sheet.rows, sheet.cols, need_all)


@lru_cache(maxsize=2048)
def _isometries(cells: frozenset[Cell], rows: int, cols: int, need_all: bool
                ) -> tuple[Iso, ...]:
    cs = sorted(cells)
    out: list[Iso] = []
    seen: set[tuple[tuple[Cell, Cell], ...]] = set()
    for k, t in enumerate(TRANSFORMS):
        img = {c: t(c) for c in cs}
        rs = [p[0] for p in img.values()]
        ks = [p[1] for p in img.values()]
        if need_all:
            r_range = range(-min(rs), rows - max(rs))
            c_range = range(-min(ks), cols - max(ks))
        else:
            r_range = range(-max(rs), rows - min(rs))
            c_range = range(-max(ks), cols - min(ks))
        for dr in r_range:
            for dc in c_range:
                m = {c: (p[0] + dr, p[1] + dc) for c, p in img.items()}
                key = tuple(sorted(m.items()))
                if key in seen:
                    continue
                seen.add(key)
                out.append((k, (dr, dc), m))
    return tuple(out)


@dataclass(frozen=True)
class Supply:
    verdict: Verdict
    reason: str = ""
    assignment: tuple[tuple[Cell, Cell], ...] = ()
    """A solution: card space -> sheet square."""


def supply(sheet: Sheet, card: Card, cells: Iterable[Cell] | None = None,
           free: frozenset[Cell] | None = None, budget: Budget | None = None) -> Supply:
    """Can ``cells`` (default: the whole card) be covered by disjoint sheet squares from
    ``free`` (default: the whole sheet), walkways kept in one piece? Exact and complete."""
    todo = frozenset(card.cells if cells is None else cells)
    avail = sheet.cells() if free is None else free
    dm = card.demand_map()
    groups = [g for g in walkway_groups(card) if g & todo]
    in_group = {c for g in groups for c in g}
    options: list[list[Any]] = []
    for g in groups:
        for _, _, m in isometries(g, sheet):
            if all(s in avail and dm.get(c, Demand()).accepts(sheet.at(s)) for c, s in m.items()):
                options.append([("c", c) for c in sorted(g)] + [("s", s) for s in m.values()])
    for c in sorted(todo - in_group):
        d = dm.get(c, Demand())
        for s in sorted(avail):
            if d.accepts(sheet.at(s)):
                options.append([("c", c), ("s", s)])
    if not todo:
        return Supply(Verdict.COMPLETABLE)
    problem = CoverProblem(primary=[("c", c) for c in sorted(todo)], options=options,
                           secondary=[("s", s) for s in sorted(avail)])
    res = solve(problem, mode="first", budget=budget)
    if res.verdict is Verdict.COMPLETABLE:
        assign: dict[Cell, Cell] = {}
        for idx in res.solutions[0]:
            opt = options[idx]
            cs = [it[1] for it in opt if it[0] == "c"]
            ss = [it[1] for it in opt if it[0] == "s"]
            assign.update(zip(cs, ss, strict=True))
        return Supply(Verdict.COMPLETABLE, assignment=tuple(sorted(assign.items())))
    if res.verdict is Verdict.UNKNOWN:
        return Supply(Verdict.UNKNOWN, "the supply search ran out of budget")
    return Supply(Verdict.IMPOSSIBLE, explain_impossible(sheet, card) or
                  "no way to give every space its own matching sheet square with each "
                  "walkway in one piece (" + (res.reason or "exact cover has no solution") + ")")


def _pattern(card: Card, cells: frozenset[Cell]) -> str:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    r1 = max(r for r, _ in cells)
    c1 = max(c for _, c in cells)
    dm = card.demand_map()
    rows = []
    for r in range(r0, r1 + 1):
        row = ""
        for c in range(c0, c1 + 1):
            d = dm.get((r, c), Demand())
            if (r, c) not in cells:
                row += "."
            elif d.feature:
                row += d.feature.letter
            elif d.icon:
                row += d.icon.letter
            else:
                row += "#"
        rows.append(row)
    return "/".join(rows)


def explain_impossible(sheet: Sheet, card: Card) -> str:
    """A designer's reason, from the cheap arguments: a supply count, or a walkway pattern the
    sheet does not contain. Empty when neither explains it."""
    dm = card.demand_map()
    # Supply counts: per exact demand, per feature, per icon.
    kinds: dict[tuple[Feature | None, Icon | None], int] = {}
    for d in dm.values():
        kinds[(d.feature, d.icon)] = kinds.get((d.feature, d.icon), 0) + 1
    for (feat0, icon0), n in sorted(kinds.items(), key=lambda kv: str(kv[0])):
        have = sheet.count(feat0, icon0)
        if have < n:
            return (f"demands {n} {Demand(feat0, icon0).words()} square{'s' if n > 1 else ''}; "
                    f"the sheet has {have}")
    for feat in Feature:
        n = sum(1 for d in dm.values() if d.feature is feat)
        if n > sheet.count(feat):
            return (f"demands {n} {FEATURE_WORDS[feat]} squares; the sheet has "
                    f"{sheet.count(feat)}")
    for ic in Icon:
        n = sum(1 for d in dm.values() if d.icon is ic)
        if n > sheet.count(None, ic):
            return f"demands {n} {ic.value} icons; the sheet has {sheet.count(None, ic)}"
    if card.size > len(sheet.cells()):
        return f"has {card.size} spaces; the sheet has {len(sheet.cells())} squares"
    for i, g in enumerate(walkway_groups(card)):
        ok = any(all(dm.get(c, Demand()).accepts(sheet.at(s)) for c, s in m.items())
                 for _, _, m in isometries(g, sheet))
        if not ok:
            demanded = [dm[c].words() for c in sorted(g) if c in dm]
            what = ", ".join(demanded) if demanded else "no demands"
            return (f"walkway {i + 1} needs {len(g)} spaces in one section in the pattern "
                    f"{_pattern(card, g)} ({what}); the sheet has no such arrangement in "
                    "any rotation or reflection")
    return ""


# --------------------------------------------------------------------------------------------
# Step 2: big pieces


@dataclass(frozen=True)
class Piece:
    """A planned section: sheet squares and how they lie on the card."""

    section: frozenset[Cell]
    placement: Placement
    card: int = 0
    """Which face-up card it goes on (index), when a plan serves several cards."""


def _perimeter_cost(sheet: Sheet, cells: frozenset[Cell]) -> int:
    """Edges to cut to free ``cells`` from a whole sheet (its border needs none)."""
    rows, cols = sheet.rows, sheet.cols
    n = 0
    for r, c in cells:
        for nr, nc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if 0 <= nr < rows and 0 <= nc < cols and (nr, nc) not in cells:
                n += 1
    return n


@dataclass
class _Mapping:
    transform: int
    offset: tuple[int, int]
    img: dict[Cell, Cell]
    ok: frozenset[Cell]


def _mappings(sheet: Sheet, card: Card, free: frozenset[Cell]) -> list[_Mapping]:
    # The free squares each demanded space accepts, found once per call instead of once per
    # space per isometry (this test was 1/5 of a played hand's time, profiled).
    usable = {c: frozenset(s for s in free if d.accepts(sheet.at(s)))
              for c, d in card.demand_map().items()}
    out = []
    for k, off, m in isometries(card.cells, sheet, need_all=False):
        ok = frozenset(c for c, s in m.items() if s in usable.get(c, free))
        if ok:
            out.append(_Mapping(k, off, m, ok))
    return out


def big_pieces(sheet: Sheet, card: Card, rng: random.Random, meter: Meter,
               free: frozenset[Cell] | None = None, cells: frozenset[Cell] | None = None,
               jitter: float = 0.0) -> list[Piece] | None:
    """Cover ``cells`` (default: the card) with few, cheap, large pieces from ``free`` sheet
    squares; None when the greedy gets stuck (or the budget runs out)."""
    free_sq = set(sheet.cells() if free is None else free)
    remaining = set(card.cells if cells is None else cells)
    maps = _mappings(sheet, card, frozenset(free_sq))
    groups = walkway_groups(card)
    pieces: list[Piece] = []
    while remaining:
        if not meter.tick():
            return None
        cands: list[tuple[float, frozenset[Cell], _Mapping]] = []
        seen: set[frozenset[Cell]] = set()
        pre: list[tuple[int, int, set[Cell], _Mapping]] = []
        for i, mp in enumerate(maps):
            sat = {c for c in mp.ok if c in remaining and mp.img[c] in free_sq}
            for g in groups:
                if g & sat and not g <= sat:
                    sat -= g
            if sat:
                pre.append((len(sat), i, sat, mp))
        pre.sort(key=lambda t: (-t[0], t[1]))
        top: list[float] = []  # min-heap of the best 12 scores so far
        for n, _, sat, mp in pre:
            # A part of sat scores at most 10 * |sat| (+ jitter): once that cannot beat the
            # 12th best candidate, no later mapping can (they are sorted by |sat|). This cut
            # the greedy's time by 4x on the default deck (components() was 40% of a check).
            if len(top) >= 12 and 10.0 * n + jitter <= top[0]:
                break
            for comp in components(sat):
                image = frozenset(mp.img[c] for c in comp)
                if image in seen:
                    continue
                seen.add(image)
                score = 10.0 * len(comp) - _perimeter_cost(sheet, image)
                if jitter:
                    score += rng.uniform(0, jitter)
                cands.append((score, comp, mp))
                if len(top) < 12:
                    heapq.heappush(top, score)
                elif score > top[0]:
                    heapq.heapreplace(top, score)
        cands.sort(key=lambda t: -t[0])
        chosen = None
        for _, comp, mp in cands[:12]:
            image = frozenset(mp.img[c] for c in comp)
            if _encloses(sheet, image):
                continue
            rest = frozenset(remaining - comp)
            if rest:
                sup = supply(sheet, card, rest, frozenset(free_sq - image),
                             Budget(nodes=20_000))
                if sup.verdict is not Verdict.COMPLETABLE:
                    continue
            chosen = (comp, mp, image)
            break
        if chosen is None:
            return None
        comp, mp, image = chosen
        # Placement maps sheet -> card; the mapping found maps card -> sheet, so invert.
        placement = placement_for(image, {mp.img[c]: c for c in comp})
        pieces.append(Piece(image, placement))
        remaining -= comp
        free_sq -= image
    return pieces


def _encloses(sheet: Sheet, image: frozenset[Cell]) -> bool:
    """True when the region surrounds other squares (a hole): those could only be cut out
    through the region itself, so it could never come free as exactly these squares."""
    rows, cols = sheet.rows, sheet.cols
    if len(image) < 8:  # the smallest ring around a square has 8 squares
        return False
    for part in components(sheet.cells() - image):
        if not any(r in (0, rows - 1) or c in (0, cols - 1) for r, c in part):
            return True
    return False


# --------------------------------------------------------------------------------------------
# Step 3: cut plan


EdgeKey = tuple[tuple[int, int], tuple[int, int]]


@dataclass
class PlanState:
    """The cut planner's view: the sheet state, the pieces still attached (section ->
    placement), the edges still to cut and the edges never to cut (inside a piece), as
    :meth:`Cut.keys` vertex pairs."""

    state: SheetState
    pending: dict[frozenset[Cell], Placement]
    req: set[EdgeKey]
    forbidden: frozenset[EdgeKey]
    target_cells: frozenset[Cell]
    cards: dict[frozenset[Cell], int] = field(default_factory=dict)
    boards: dict[int, CardState] = field(default_factory=dict)
    """The face-up cards as they stand, by the card index of :attr:`Piece.card`: a scrap the
    cuts free must have no legal place on them (or it would have to be placed)."""
    images: dict[frozenset[Cell], frozenset[Cell]] = field(default_factory=dict)
    """Each pending section's card spaces."""


def plan_state(sheet: Sheet, state: SheetState, pieces: Sequence[Piece],
               boards: dict[int, CardState] | None = None) -> PlanState:
    """A :class:`PlanState` for freeing ``pieces`` from ``state``; ``boards`` the face-up
    cards as they stand (by piece card index), for the forced-placement rule."""
    sections = [p.section for p in pieces]
    forbidden: set[EdgeKey] = set()
    for s in sections:
        forbidden |= {(e.a, e.b) for e in interior_edges(s)}
    done = state.cut_keys
    req = {(e.a, e.b) for e in required_edges(sheet, sections)} - done
    targets = frozenset(c for s in sections for c in s)
    images = {p.section: frozenset(p.placement.mapping().values()) for p in pieces}
    return PlanState(state, {p.section: p.placement for p in pieces}, req,
                     frozenset(forbidden), targets, {p.section: p.card for p in pieces},
                     dict(boards or {}), images)


@dataclass
class _RoundTry:
    state: SheetState
    cuts: list[Cut] = field(default_factory=list)
    keeps: list[Cell | None] = field(default_factory=list)
    freed: list[frozenset[Cell]] = field(default_factory=list)
    gain: int = 0
    waste: int = 0
    approach: int = 0


def _distances(req: set[EdgeKey], rows: int, cols: int) -> dict[tuple[int, int], int]:
    return _distances_of(frozenset(req), rows, cols)


@lru_cache(maxsize=4096)
def _distances_of(req: frozenset[EdgeKey], rows: int, cols: int) -> dict[tuple[int, int], int]:
    """Manhattan distance from every lattice vertex to the nearest end of an uncut required
    edge (used to steer lead-in cuts towards pieces that do not touch the border): the
    two-pass L1 distance transform, linear in the number of vertices."""
    big = rows + cols + 2
    d = [[big] * (cols + 1) for _ in range(rows + 1)]
    for k in req:
        for r, c in k:
            d[r][c] = 0
    for r in range(rows + 1):
        for c in range(cols + 1):
            if r and d[r - 1][c] + 1 < d[r][c]:
                d[r][c] = d[r - 1][c] + 1
            if c and d[r][c - 1] + 1 < d[r][c]:
                d[r][c] = d[r][c - 1] + 1
    for r in range(rows, -1, -1):
        for c in range(cols, -1, -1):
            if r < rows and d[r + 1][c] + 1 < d[r][c]:
                d[r][c] = d[r + 1][c] + 1
            if c < cols and d[r][c + 1] + 1 < d[r][c]:
                d[r][c] = d[r][c + 1] + 1
    return {(r, c): d[r][c] for r in range(rows + 1) for c in range(cols + 1)}


def try_face(ps: PlanState, face: Sequence[int], meter: Meter,
             forced: bool = False, strict: bool = True,
             same_round: bool = False) -> _RoundTry | None:
    """Greedy cuts for one face: most required edges, fewest wasted, never through a piece,
    never freeing a part that mixes a piece with other squares, nor a scrap that has a legal
    place on a face-up card (it would have to be placed there). ``forced`` (a rolled face in
    a simulation) falls back to any legal cut when nothing else is acceptable; the caller
    then places what the rules force and re-plans. ``strict=False`` allows scraps with a
    legal place (the caller places them as the rules force and re-plans). ``same_round``:
    the cuts continue the current round (an Extra Cut), so its cuts count for the same-round
    rule."""
    rt = _RoundTry(ps.state if same_round else ps.state.new_round())
    req = set(ps.req)
    pending = set(ps.pending)
    taken: dict[int, set[Cell]] = {}
    sheet = ps.state.sheet
    dist: dict[tuple[int, int], int] | None = None
    for length in sorted(face, reverse=True):
        if not meter.tick():
            return None
        scored: list[tuple[float, Cut]] = []
        for cut in legal_cuts(rt.state, length):
            keys = cut.keys()
            if any(k in ps.forbidden for k in keys):
                continue
            g = sum(1 for k in keys if k in req)
            s = 10.0 * g - 3.0 * (length - g)
            if g == 0 and req:
                if dist is None:
                    dist = _distances(req, sheet.rows, sheet.cols)
                s -= 2.0 * dist[cut.end]
            scored.append((s, cut))
        scored.sort(key=lambda t: -t[0])
        done = False
        for _, cut in scored[:40]:
            outcome = _apply_checked(ps, rt.state, cut, pending)
            if outcome is None:
                continue
            res_state, keep, freed = outcome
            keys = cut.keys()
            g = sum(1 for k in keys if k in req)
            rt.gain += g
            rt.waste += length - g
            if g:
                req -= set(keys)
                dist = None
            rt.state = res_state
            rt.cuts.append(cut)
            rt.keeps.append(keep)
            rt.freed.extend(freed)
            for part in freed:
                if part in pending:
                    taken.setdefault(ps.cards.get(part, 0), set()).update(ps.images[part])
            pending -= set(freed)
            done = True
            break
        if not done:
            if not forced:
                return None
            # A rolled face must be cut in full: any legal cut, the plan is rebuilt after.
            legal = legal_cuts(rt.state, length)
            if not legal:
                return None
            res, keep = cut_outcomes(rt.state, legal[0], trusted=True)[0]
            rt.state = res.state
            rt.cuts.append(legal[0])
            rt.keeps.append(keep)
            rt.freed.extend(res.freed)
            rt.waste += length
            req -= set(legal[0].keys())
    if strict and any(scrap_has_place(ps, part, taken) for part in rt.freed
                      if part not in ps.pending):
        # BUILD comes after all of the round's cuts: the planned sections go on the cards
        # first, and a scrap that still has a legal place then would have to be placed.
        return None
    if req:
        if dist is None:
            dist = _distances(req, sheet.rows, sheet.cols)
        ends = rt.state.start_points()
        rt.approach = min((dist.get(v, 99) for v in ends), default=0)
    return rt


def scrap_has_place(ps: PlanState, part: frozenset[Cell], taken: dict[int, set[Cell]]) -> bool:
    """Whether a freed scrap (no planned section) has a legal place on a face-up card once
    the round's planned sections are placed (``taken`` card spaces per card): then the rules
    force it onto the card, so a strict plan must not free it."""
    for i, cs in ps.boards.items():
        free = free_spaces(cs) - taken.get(i, set())
        if fits(cs.card, frozenset(free), ps.state.sheet, part) is not None:
            return True
    return False


def _apply_checked(ps: PlanState, state: SheetState, cut: Cut, pending: set[frozenset[Cell]],
                   ) -> tuple[SheetState, Cell | None, list[frozenset[Cell]]] | None:
    """Apply ``cut`` if the parts it frees are whole planned pieces or piece-free scraps,
    keeping every still-attached piece on the body;
    None otherwise. On a tie for the largest part every choice is tried and the one freeing
    most pieces wins (the choice is recorded as the keep square).

    It also keeps enough spare squares attached, or the last piece would end up *being* the
    sheet (the largest part stays) and could never be freed: the largest connected patch of
    attached squares outside the pieces still to free must be at least as large as the
    smallest of them (which could then come free last). Without this rule plans for whole
    hands ended with the last piece being the remaining sheet (bench: 0 of 20 hands)."""
    target_cells = ps.target_cells
    best: tuple[int, SheetState, Cell | None, list[frozenset[Cell]]] | None = None
    for res, keep in cut_outcomes(state, cut, trusted=True):
        ok = True
        got = 0
        for part in res.freed:
            if part in pending:
                got += 1
            elif part & target_cells:
                ok = False
                break
        if not ok:
            continue
        still = [p for p in pending if p not in res.freed]
        if any(not p <= res.state.body for p in still):
            continue
        if still:
            need = min(len(p) for p in still)
            spare = res.state.body.difference(*still)
            # The component search only runs when spare squares are scarce (fewer than 4x the
            # need); with more, a patch of the needed size survives in practice, and if it
            # did not the plan would fail later (a plan is always replayed, never trusted).
            # This halved the planner's time on the default deck.
            if len(spare) < need or (len(spare) < 4 * need and max(
                    (len(c) for c in components_cut(spare, res.state.cut_keys)), default=0) < need):
                continue
        if best is None or got > best[0]:
            best = (got, res.state, keep, list(res.freed))
    if best is None:
        return None
    return best[1], best[2], best[3]


def round_plan(ps: PlanState, face: Sequence[int], rt: _RoundTry,
               ids: Sequence[str]) -> RoundPlan:
    """The written round for ``rt``: planned sections placed on their cards (``ids`` by
    piece card index), scraps crumpled; the planned sections leave ``ps.pending``."""
    placed: list[Placed] = []
    crumpled: list[frozenset[Cell]] = []
    for part in rt.freed:
        if part in ps.pending:
            placed.append(Placed(ids[ps.cards.get(part, 0)], ps.pending.pop(part)))
        else:
            crumpled.append(part)
    return RoundPlan(tuple(face), tuple(rt.cuts), tuple(rt.keeps), tuple(placed),
                     tuple(crumpled))


def choose_round(ps: PlanState, faces: Sequence[tuple[int, ...]], meter: Meter,
                 strict: bool = True) -> tuple[float, _RoundTry, tuple[int, ...]] | None:
    """The best face and its greedy cuts (scored on required edges cut, waste, planned
    sections freed and how close the cut ends come to the rest), or None."""
    best: tuple[float, _RoundTry, tuple[int, ...]] | None = None
    for face in faces:
        rt = try_face(ps, face, meter, strict=strict)
        if rt is None:
            continue
        got = sum(1 for f in rt.freed if f in ps.pending)
        score = 10.0 * rt.gain - 3.0 * rt.waste + 25.0 * got - 4.0 * rt.approach
        if best is None or score > best[0]:
            best = (score, rt, face)
    return best


def plan_cuts(sheet: Sheet, die: Die, pieces: Sequence[Piece], meter: Meter,
              card: Card, rng: random.Random | None = None,
              max_rounds: int = 40) -> list[RoundPlan] | None:
    """Rounds of cuts (faces chosen freely) that complete ``card`` (the only face-up card)
    with ``pieces``; None if the greedy search gets stuck.

    Each round first looks for cuts that free only planned sections and scraps with no legal
    place on the card. When none exist (and ``rng`` is given) it allows scraps that fit: the
    rules force them onto the card (:func:`rules.forced_builds` picks the place), and the
    sections for the spaces still open are chosen again from the sheet that is left."""
    board = CardState(card)
    ps = plan_state(sheet, SheetState.fresh(sheet), pieces, {0: board})
    rounds: list[RoundPlan] = []
    faces = list(dict.fromkeys(die.faces))
    stall = 0
    while not board.complete:
        if len(rounds) >= max_rounds or not meter.tick():
            return None
        best = choose_round(ps, faces, meter) if ps.pending else None
        if best is None and rng is not None:
            best = choose_round(ps, faces, meter, strict=False) if ps.pending else None
        if best is None:
            return None
        _, rt, face = best
        if rt.gain == 0:
            stall += 1
            if stall > 4:
                return None
        else:
            stall = 0
        planned = {part: (0, ps.pending[part]) for part in rt.freed if part in ps.pending}
        builds = forced_builds([board], sheet, rt.freed, planned)
        placed: list[Placed] = []
        crumpled: list[frozenset[Cell]] = []
        for b in builds:
            if b.placement is None:
                crumpled.append(b.section)
                continue
            board = place(board, sheet, b.placement)
            placed.append(Placed(card.id, b.placement))
        rounds.append(RoundPlan(tuple(face), tuple(rt.cuts), tuple(rt.keeps), tuple(placed),
                                tuple(crumpled)))
        forced = any(b.placement is not None and b.section not in planned for b in builds)
        lost = any(b.section in planned and b.placement is None for b in builds)
        if board.complete:
            break
        if forced or lost:
            assert rng is not None
            again = big_pieces(sheet, card, rng, meter, free=rt.state.body,
                               cells=free_spaces(board))
            if again is None:
                return None
            ps = plan_state(sheet, rt.state, again, {0: board})
            continue
        for part in planned:
            del ps.pending[part]
        for cut in rt.cuts:
            ps.req -= set(cut.keys())
        ps.state = rt.state
        ps.boards[0] = board
    return rounds


# --------------------------------------------------------------------------------------------
# The verdict


@dataclass(frozen=True)
class CardVerdict:
    """A completability answer: verdict, replayed certificate or reason, search effort."""

    card: str
    verdict: Verdict
    certificate: Certificate | None = None
    reason: str = ""
    nodes: int = 0
    pieces: tuple[Piece, ...] = ()


def completability(sheet: Sheet, die: Die, card: Card, budget: Budget,
                   seed: int = 0, attempts: int = 8) -> CardVerdict:
    """Answer whether ``card`` can be completed from a fresh ``sheet`` with ``die``."""
    from ...core.rng import make_rng

    meter = budget.start()
    sup = supply(sheet, card, budget=budget)
    if sup.verdict is Verdict.IMPOSSIBLE:
        return CardVerdict(card.id, Verdict.IMPOSSIBLE, reason=sup.reason,
                           nodes=meter.nodes)
    if sup.verdict is Verdict.UNKNOWN:
        return CardVerdict(card.id, Verdict.UNKNOWN, reason=sup.reason, nodes=meter.nodes)
    rng = make_rng(seed, "parks-plan", card.id)
    last = "no cut plan found"
    for attempt in range(attempts):
        pieces = None
        if attempt < attempts - 1:
            pieces = big_pieces(sheet, card, rng, meter,
                                jitter=0.0 if attempt == 0 else 6.0 * attempt)
        if pieces is None:
            if meter.exhausted:
                break
            # The greedy got stuck, or the last attempt: the supply solution's walkway
            # groups and single squares (many small sections, but each easy to free).
            pieces = _singles(sheet, card, sup)
        rounds = plan_cuts(sheet, die, pieces, meter, card, rng)
        if rounds is None:
            last = (f"the cut planner found no way to free {len(pieces)} planned section(s) "
                    "with this die")
            if meter.exhausted:
                break
            continue
        cert = Certificate(card.id, tuple(rounds))
        problem = replay(sheet, die, card, cert)
        if problem:
            # Never report a certificate the engine rejects; this is a planner bug.
            last = f"a planned certificate failed replay: {problem}"
            continue
        return CardVerdict(card.id, Verdict.COMPLETABLE, cert, nodes=meter.nodes,
                           pieces=tuple(pieces))
    why = "search budget exhausted" if meter.exhausted else last
    return CardVerdict(card.id, Verdict.UNKNOWN, reason=f"{why}; the sheet does hold matching "
                       "squares for every space, so it may still be completable",
                       nodes=meter.nodes)


@lru_cache(maxsize=4096)
def cached_completability(sheet: Sheet, die: Die, card: Card, budget: Budget,
                          seed: int = 0) -> CardVerdict:
    """Completability is deterministic in its inputs, so the generator's check of a planted
    card and the deck check share one answer (halves ``build`` time)."""
    return completability(sheet, die, card, budget, seed)


def _singles(sheet: Sheet, card: Card, sup: Supply) -> list[Piece]:
    """Pieces from a supply solution: walkway groups as whole pieces, other spaces alone."""
    assign = dict(sup.assignment)
    pieces: list[Piece] = []
    done: set[Cell] = set()
    for g in walkway_groups(card):
        section = frozenset(assign[c] for c in g)
        pieces.append(Piece(section, placement_for(section, {assign[c]: c for c in g})))
        done |= g
    for c in sorted(card.cells - done):
        pieces.append(Piece(frozenset([assign[c]]),
                            placement_for(frozenset([assign[c]]), {assign[c]: c})))
    return pieces
