"""Simulated play: difficulty of a card under random rolls, and hand coverage of the deck.

Difficulty: a planner bot plays one card from a fresh sheet, rolling the die each round. It
keeps a plan (sections to free, from :func:`solve.big_pieces`), cuts greedily towards it with
the rolled face (every cut of the face must be made, so a bad roll may force a cut that
spoils the plan; then it re-plans from what is left of the sheet), places freed planned
sections through the rules engine and crumples the rest. The figure is the share of games
that complete the card within R rounds, and the median rounds of those that do.

Hand coverage: the share of random hands (2 face-up + 3 in the pile, i.e. 5 distinct park
cards) whose spaces one sheet can supply together: disjoint matching squares for every space
of all five cards, walkways in one piece (the exact supply test of ``solve`` over the union).
It is a necessary condition for completing the hand, so it is an upper bound on the share of
hands a player could complete.
"""

from __future__ import annotations

import contextlib
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...core.budget import Budget, Meter
from ...core.exactcover import CoverProblem, solve
from ...core.grid import Cell, interior_edges
from ...core.verdict import Verdict
from .model import Card, Demand, Die, Sheet
from .rules import (
    Build,
    CardState,
    PlayerState,
    RuleError,
    SheetState,
    build,
    place,
    play_cuts,
)
from .solve import (
    Piece,
    RoundPlan,
    big_pieces,
    isometries,
    plan_cuts,
    plan_state,
    try_face,
    walkway_groups,
)


@dataclass(frozen=True)
class Difficulty:
    games: int
    completed: int
    within: int
    rounds: int
    median_rounds: float | None

    @property
    def share(self) -> float:
        return self.within / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "completed_within_rounds": self.within,
                "rounds": self.rounds, "share": round(self.share, 3),
                "median_rounds": self.median_rounds}

    def words(self) -> str:
        if not self.games:
            return "difficulty not simulated"
        med = (f", median {self.median_rounds:g} round{'' if self.median_rounds == 1 else 's'}"
               if self.median_rounds else "")
        return f"{100 * self.share:.0f}% of {self.games} games within {self.rounds} rounds{med}"


def play_game(sheet: Sheet, die: Die, card: Card, rng: random.Random, max_rounds: int,
              meter: Meter, first_plan: Sequence[Piece] | None = None) -> int | None:
    """Rounds the bot needs to complete ``card`` (None: not within ``max_rounds``)."""
    state = SheetState.fresh(sheet)
    cs = CardState(card)
    pieces: list[Piece] | None = list(first_plan) if first_plan else None
    for rnd in range(1, max_rounds + 1):
        if pieces is None:
            left = frozenset(card.cells - cs.covered_cells())
            pieces = big_pieces(sheet, card, rng, meter, free=state.body, cells=left)
            if pieces is None:
                return None
        face = rng.choice(die.faces)
        ps = plan_state(sheet, state, pieces)
        rt = try_face(ps, face, meter, forced=True)
        if rt is None:
            return None  # the roll cannot be cut at all: the game ends
        state = rt.state
        placed = {p.section: p.placement for p in pieces}
        for part in rt.freed:
            if part in placed:
                # Never expected to fail (plans are legal); if it did, the section is crumpled.
                with contextlib.suppress(RuleError):
                    cs = place(cs, sheet, placed.pop(part))
        if cs.complete:
            return rnd
        remaining = [Piece(s, pl) for s, pl in placed.items()]
        broken = any(not p.section <= state.body or interior_edges(p.section) & state.cut
                     for p in remaining)
        pieces = None if broken or not remaining else remaining
    return None


def difficulty(sheet: Sheet, die: Die, card: Card, seed: int, games: int, max_rounds: int,
               budget: Budget, first_plan: Sequence[Piece] | None = None) -> Difficulty:
    """Play ``games`` seeded games of one card; see the module docstring."""
    from ...core.rng import make_rng

    results: list[int] = []
    done = 0
    for g in range(games):
        rng = make_rng(seed, "parks-difficulty", card.id, g)
        meter = budget.start()
        r = play_game(sheet, die, card, rng, max_rounds, meter, first_plan)
        if r is not None:
            done += 1
            results.append(r)
    med = float(statistics.median(results)) if results else None
    return Difficulty(games, done, len(results), max_rounds, med)


@lru_cache(maxsize=1024)
def _card_options(sheet: Sheet, card: Card) -> tuple[tuple[tuple[Cell, ...], tuple[Cell, ...]],
                                                      ...]:
    """The supply options of one card: (card spaces, sheet squares) pairs; walkway groups
    as whole isometric placements, other spaces one matching square each."""
    dm = card.demand_map()
    out: list[tuple[tuple[Cell, ...], tuple[Cell, ...]]] = []
    grouped: set[Cell] = set()
    for g in walkway_groups(card):
        grouped |= g
        cells = tuple(sorted(g))
        for _, _, m in isometries(g, sheet):
            if all(dm.get(c, Demand()).accepts(sheet.at(s)) for c, s in m.items()):
                out.append((cells, tuple(m[c] for c in cells)))
    squares = sorted(sheet.cells())
    for c in sorted(card.cells - grouped):
        d = dm.get(c, Demand())
        for s in squares:
            if d.accepts(sheet.at(s)):
                out.append(((c,), (s,)))
    return tuple(out)


def hand_supplied(sheet: Sheet, cards: Sequence[Card], budget: Budget) -> Verdict:
    """Can one sheet supply every space of ``cards`` at once (disjoint squares, demands met,
    walkways in one piece)?"""
    all_sq = sorted(sheet.cells())
    primary: list[Any] = [("c", i, c) for i, card in enumerate(cards) for c in sorted(card.cells)]
    if len(primary) > len(all_sq):
        return Verdict.IMPOSSIBLE
    options: list[list[Any]] = []
    for i, card in enumerate(cards):
        for cells, squares in _card_options(sheet, card):
            options.append([("c", i, c) for c in cells] + [("s", s) for s in squares])
    res = solve(CoverProblem(primary=primary, options=options,
                             secondary=[("s", s) for s in all_sq]), mode="first", budget=budget)
    return res.verdict


def hand_plan(sheet: Sheet, die: Die, cards: Sequence[Card], rng: random.Random,
              budget: Budget, attempts: int = 3) -> bool:
    """Is there a cut plan, found and replayed, that completes all ``cards`` from one fresh
    sheet? Sections for each card are chosen greedily on what the earlier cards left (largest
    card first; later attempts shuffle the tie-breaks), one plan frees them all, and the plan
    is replayed through the rules engine with every card face up (a relaxation: in play two
    are face up and the rest come from the pile, but the sheet, the cuts and the placements
    are the same)."""
    meter = budget.start()
    order = sorted(range(len(cards)), key=lambda i: (-cards[i].size, i))
    for attempt in range(attempts):
        free = sheet.cells()
        pieces: list[Piece] = []
        for i in order:
            got = big_pieces(sheet, cards[i], rng, meter, free=free,
                             jitter=4.0 * attempt)
            if got is None:
                break
            for p in got:
                pieces.append(Piece(p.section, p.placement, i))
                free = free - p.section
        else:
            rounds = plan_cuts(sheet, die, pieces, meter, max_rounds=60)
            if rounds is not None and _replays(sheet, die, cards, rounds):
                return True
        if meter.exhausted:
            return False
    return False


def _replays(sheet: Sheet, die: Die, cards: Sequence[Card], rounds: Sequence[RoundPlan]
             ) -> bool:
    player = PlayerState.start(sheet, cards)
    try:
        for rp in rounds:
            player, freed = play_cuts(player, die, rp.face, rp.cuts, rp.keeps)
            # Completed cards leave the face-up row, so a plan's card number is mapped to
            # where that card lies now.
            where = {cs.card.id: k for k, cs in enumerate(player.face_up)}
            builds = [b if b.card is None else
                      Build(b.section, where.get(cards[b.card].id, -1), b.placement)
                      for b in rp.builds]
            player = build(player, builds, freed)
    except RuleError:
        return False
    return len(player.completed) == len(cards)


@dataclass(frozen=True)
class HandCoverage:
    hands: int
    supplied: int
    unknown: int
    planned: int = 0
    planned_of: int = 0

    def to_json(self) -> dict[str, Any]:
        share = self.supplied / self.hands if self.hands else None
        out: dict[str, Any] = {"hands": self.hands, "supplied": self.supplied,
                               "unknown": self.unknown,
                               "share": None if share is None else round(share, 3)}
        if self.planned_of:
            out["planned"] = self.planned
            out["planned_of"] = self.planned_of
            out["planned_share"] = round(self.planned / self.planned_of, 3)
        return out


def hand_coverage(sheet: Sheet, cards: Sequence[Card], seed: int, hands: int,
                  budget: Budget, die: Die | None = None, plans: int = 0) -> HandCoverage:
    """Sample ``hands`` hands of 5 distinct park cards and test each with
    :func:`hand_supplied`; the first ``plans`` of them (with ``die``) also with
    :func:`hand_plan`."""
    from ...core.rng import make_rng

    pool = list(cards)
    if len(pool) < 5 or hands == 0:
        return HandCoverage(0, 0, 0)
    ok = unknown = planned = tried = 0
    for h in range(hands):
        rng = make_rng(seed, "parks-hands", h)
        hand = rng.sample(pool, 5)
        v = hand_supplied(sheet, hand, budget)
        ok += v is Verdict.COMPLETABLE
        unknown += v is Verdict.UNKNOWN
        if die is not None and h < plans:
            tried += 1
            if v is Verdict.COMPLETABLE:
                planned += hand_plan(sheet, die, hand, make_rng(seed, "parks-hand-plan", h),
                                     Budget(nodes=100_000))
    return HandCoverage(hands, ok, unknown, planned, tried)
