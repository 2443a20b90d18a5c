"""Simulated play: difficulty of a card under random rolls, and hand coverage of the deck.

Difficulty: a planner bot plays one card from a fresh sheet, rolling the die each round. It
keeps a plan (sections to free, from :func:`solve.big_pieces`), cuts greedily towards it with
the rolled face (every cut of the face must be made, so a bad roll may force a cut that
spoils the plan; then it re-plans from what is left of the sheet), places freed planned
sections through the rules engine and crumples the rest. The figure is the share of games
that complete the card within R rounds, and the median rounds of those that do.

Hand coverage: the share of random dealt hands that one sheet can complete together. A hand
is 5 distinct park cards dealt in order: cards 1-2 face up, 3-5 the pile; when a face-up card
is completed the next pile card is turned face up, and a freed section can only go on a
face-up card (else it is crumpled). A hand counts as ``completable`` only when the planner
finds a complete plan (faces chosen, as in the per-card certificates) that completes all five
under that order and the plan replays through the rules engine from a fresh sheet; as
``impossible`` (not completable) only when a supply argument proves it (:func:`hand_obstacle`:
the five cards together need more squares of a feature or icon than the sheet has, even with
the tokens the hand can earn, or no exact supply exists); otherwise ``unknown`` (the greedy
planner gave up), which is counted as neither.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ...core.budget import Budget, Meter
from ...core.exactcover import CoverProblem, solve
from ...core.grid import Cell, interior_edges
from ...core.verdict import Verdict
from .cert import ExtraPlan, HandCertificate, Placed, RoundPlan
from .model import FEATURE_WORDS, Bonus, Card, Demand, Die, Feature, Icon, Sheet
from .planner import (
    Piece,
    PlanState,
    Supply,
    big_pieces,
    choose_round,
    isometries,
    plan_state,
    try_face,
    walkway_groups,
)
from .replay import engine_builds, play_plan_round, replay_hand
from .rules import (
    CardState,
    PlayerState,
    RuleError,
    SheetState,
    build,
    extra_cut,
    forced_builds,
    free_spaces,
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
    """Rounds the bot needs to complete ``card`` (None: not within ``max_rounds``). Every
    round goes through the engine: freed planned sections are placed as planned, any other
    freed section with a legal place is placed (the rules force it; the bot then re-plans)
    and the rest crumpled."""
    player = PlayerState.start(sheet, [card])
    pieces: list[Piece] | None = list(first_plan) if first_plan else None
    for rnd in range(1, max_rounds + 1):
        cs = player.face_up[0]
        if pieces is None:
            pieces = big_pieces(sheet, card, rng, meter, free=player.sheet.body,
                                cells=free_spaces(cs))
            if pieces is None:
                return None
        face = rng.choice(die.faces)
        ps = plan_state(sheet, player.sheet, pieces, {0: cs})
        rt = try_face(ps, face, meter, forced=True)
        if rt is None:
            return None  # the roll cannot be cut at all: the game ends
        planned = {p.section: (0, p.placement) for p in pieces}
        builds = forced_builds(player.face_up, sheet, rt.freed, planned)
        player = build(replace(player, sheet=rt.state, rounds=player.rounds + 1), builds,
                       rt.freed)
        if player.completed:
            return rnd
        forced = any(b.placement is not None and b.section not in planned for b in builds)
        remaining = [p for p in pieces if p.section not in rt.freed]
        state = player.sheet
        broken = forced or any(not p.section <= state.body or interior_edges(p.section)
                               & state.cut for p in remaining)
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


# --------------------------------------------------------------------------------------------
# Hands: five cards dealt in order, two face up and three in the pile


def hand_obstacle(sheet: Sheet, cards: Sequence[Card], budget: Budget) -> Supply:
    """Whether the hand is shown NOT completable from one sheet, and why.

    ``IMPOSSIBLE`` with a designer's reason is a proof; ``UNKNOWN`` means the supply search ran
    out; ``COMPLETABLE`` only means nothing rules the hand out (not that it can be done).

    Bonus tokens earned inside the hand may waive demands of cards completed later (a Gardener
    one feature demand, a Wildlife/Recycling token one icon demand), so every count allows as
    many waivers as the hand has cards with that bonus; the exact supply cover over all five
    cards (:func:`hand_supplied`, no waivers) is only a proof when the hand earns no tokens.
    """
    g = sum(1 for c in cards if c.bonus is Bonus.GARDENER)
    w = sum(1 for c in cards if c.bonus is Bonus.WILDLIFE_TOKEN)
    n = len(cards)
    spaces = sum(c.size for c in cards)
    squares = len(sheet.cells())
    if spaces > squares:
        return Supply(Verdict.IMPOSSIBLE,
                      f"the {n} cards have {spaces} spaces; the sheet has {squares} squares")
    demands = [d for c in cards for _, d in c.demands]

    def earn(k: int, token: str) -> str:
        return f", and the hand earns only {k} {token} token{'s' if k > 1 else ''}" if k else ""

    for feat in Feature:
        need = sum(1 for d in demands if d.feature is feat)
        have = sheet.count(feat)
        if need > have + g:
            return Supply(Verdict.IMPOSSIBLE,
                          f"the {n} cards together demand {need} {FEATURE_WORDS[feat]} "
                          f"squares; the sheet has {have}{earn(g, 'Gardener')}")
    for ic in Icon:
        need = sum(1 for d in demands if d.icon is ic)
        have = sheet.count(None, ic)
        if need > have + w:
            return Supply(Verdict.IMPOSSIBLE,
                          f"the {n} cards together demand {need} {ic.value} icons; the sheet "
                          f"has {have}{earn(w, 'Wildlife/Recycling')}")
    for feat in Feature:
        for ic in Icon:
            need = sum(1 for d in demands if d.feature is feat and d.icon is ic)
            have = sheet.count(feat, ic)
            if need > have + g + w:
                return Supply(Verdict.IMPOSSIBLE,
                              f"the {n} cards together demand {need} "
                              f"{Demand(feat, ic).words()} squares; the sheet has {have}"
                              + earn(g + w, "bonus"))
    if g or w:
        return Supply(Verdict.COMPLETABLE)
    v = hand_supplied(sheet, cards, budget)
    if v is Verdict.IMPOSSIBLE:
        return Supply(Verdict.IMPOSSIBLE,
                      f"no way to give all {spaces} spaces of the {n} cards their own matching "
                      "sheet squares with each walkway in one piece")
    if v is Verdict.UNKNOWN:
        return Supply(Verdict.UNKNOWN, "the supply search over the whole hand ran out of budget")
    return Supply(Verdict.COMPLETABLE)


def _hand_plan_state(sheet: Sheet, state: SheetState, pending: Sequence[Piece],
                     reserved: Sequence[Piece], boards: dict[int, CardState]) -> PlanState:
    """The cut planner's state freeing ``pending`` (sections of face-up cards) while the
    ``reserved`` sections (of cards still in the pile) stay attached and uncut: their inside
    edges are forbidden and any part that would free them is refused (they are targets that
    are not pending), since a section freed before its card is face up must be crumpled."""
    ps = plan_state(sheet, state, pending, boards)
    inside: set[tuple[Cell, Cell]] = set()
    for p in reserved:
        inside |= {(e.a, e.b) for e in interior_edges(p.section)}
    cells = frozenset(c for p in reserved for c in p.section)
    return PlanState(ps.state, ps.pending, ps.req, ps.forbidden | inside,
                     ps.target_cells | cells, ps.cards, ps.boards, ps.images)


def _allocate(sheet: Sheet, cards: Sequence[Card], order: Sequence[int],
              left: dict[int, frozenset[Cell]], free: frozenset[Cell], rng: random.Random,
              meter: Meter, jitter: float) -> list[Piece] | None:
    """Sections for the ``left`` spaces of every card (in ``order``), disjoint, from ``free``
    squares (:func:`solve.big_pieces` on what the earlier cards left); None if stuck."""
    pieces: list[Piece] = []
    for i in order:
        if not left.get(i):
            continue
        got = big_pieces(sheet, cards[i], rng, meter, free=free, cells=left[i], jitter=jitter)
        if got is None:
            return None
        for p in got:
            pieces.append(Piece(p.section, p.placement, i))
            free = free - p.section
    return pieces


STALL_ROUNDS = 4
"""Rounds in a row that cut no required edge before a played hand's attempt gives up."""


def _play_out(sheet: Sheet, die: Die, cards: Sequence[Card], pieces: Sequence[Piece],
              meter: Meter, rng: random.Random | None = None,
              max_rounds: int = 60) -> HandCertificate | str:
    """Play the hand through the engine's round loop with faces chosen freely: each round the
    greedy cut planner (:func:`solve.try_face`, every face tried, scored as in
    :func:`solve.plan_cuts`) frees sections of the face-up cards only, keeping the sections
    of pile cards attached; the engine makes the cuts, places the sections and turns pile
    cards face up. When only cuts that free a scrap with a legal place remain, the scrap is
    placed as the rules force and the sections of every open card are chosen again from the
    sheet that is left. A certificate, or why not."""
    player = PlayerState.start(sheet, cards[:2], cards[2:])
    index = {c.id: i for i, c in enumerate(cards)}
    todo: dict[frozenset[Cell], Piece] = {p.section: p for p in pieces}
    faces = list(dict.fromkeys(die.faces))
    rounds: list[RoundPlan] = []
    ids = tuple(c.id for c in cards)
    stall = 0
    while len(player.completed) < len(cards):
        if len(rounds) >= max_rounds:
            return f"no plan within {max_rounds} rounds"
        if not meter.tick():
            return "search budget exhausted"
        up = {index[cs.card.id] for cs in player.face_up}
        pending = [p for p in todo.values() if p.card in up]
        ps = _hand_plan_state(sheet, player.sheet, pending,
                              [p for p in todo.values() if p.card not in up],
                              {index[cs.card.id]: cs for cs in player.face_up})
        best = None
        if pending and stall <= STALL_ROUNDS:
            best = choose_round(ps, faces, meter)
            if best is None and rng is not None:
                best = choose_round(ps, faces, meter, strict=False)
        if best is None:
            return "search budget exhausted" if meter.exhausted else "the cut planner got stuck"
        _, rt, face = best
        stall = stall + 1 if rt.gain == 0 else 0
        pos = {index[cs.card.id]: k for k, cs in enumerate(player.face_up)}
        planned = {part: (pos[ps.cards[part]], ps.pending[part]) for part in rt.freed
                   if part in ps.pending}
        builds = forced_builds(player.face_up, sheet, rt.freed, planned)
        rp = RoundPlan(tuple(face), tuple(rt.cuts), tuple(rt.keeps),
                       tuple(Placed(player.face_up[b.card].card.id, b.placement) for b in builds
                             if b.placement is not None and b.card is not None),
                       tuple(b.section for b in builds if b.placement is None))
        forced = any(b.placement is not None and b.section not in planned for b in builds)
        for part in planned:
            del todo[part]
        # The engine makes the round: cuts, builds, completions, the next pile card face up.
        before = len(player.completed)
        try:
            player = play_plan_round(player, die, rp)
        except RuleError as err:
            return f"round {len(rounds) + 1}: the engine refused the plan: {err}"
        if len(player.completed) > before:
            stall = 0
        player, rp, todo = _extra_cuts(sheet, cards, player, rp, todo, meter)
        rounds.append(rp)
        if forced and len(player.completed) < len(cards):
            # A scrap the rules forced onto a card took spaces of planned sections: choose
            # the sections of every card still open again, from the sheet that is left.
            assert rng is not None
            left = {index[cs.card.id]: free_spaces(cs) for cs in player.face_up}
            left.update({index[c.id]: c.cells for c in player.pile})
            order = [index[cs.card.id] for cs in player.face_up] + [index[c.id]
                                                                    for c in player.pile]
            again = _allocate(sheet, cards, order, left, player.sheet.body, rng, meter, 0.0)
            if again is None:
                return "a scrap forced onto a card left no sections for the rest"
            todo = {p.section: p for p in again}
    return HandCertificate(ids, tuple(rounds))


def _extra_cuts(sheet: Sheet, cards: Sequence[Card], player: PlayerState, rp: RoundPlan,
                todo: dict[frozenset[Cell], Piece], meter: Meter
                ) -> tuple[PlayerState, RoundPlan, dict[frozenset[Cell], Piece]]:
    """Spend the Extra Cuts the round earned, one at a time while one helps: a single cut of
    a length of the round's face that cuts required edges or frees a planned section of a
    face-up card, never a scrap with a legal place (so no re-plan is needed). A card it
    completes may award the next one (a chain). Declining is allowed, so a cut that helps
    nothing is not made. Returns the player, the round with its Extra Cuts, the sections
    still to free."""
    index = {c.id: i for i, c in enumerate(cards)}
    while player.extra_cuts > 0 and len(player.completed) < len(cards):
        if not meter.tick():
            break
        up = {index[cs.card.id] for cs in player.face_up}
        pending = [p for p in todo.values() if p.card in up]
        if not pending:
            break
        ps = _hand_plan_state(sheet, player.sheet, pending,
                              [p for p in todo.values() if p.card not in up],
                              {index[cs.card.id]: cs for cs in player.face_up})
        best: tuple[float, Any] | None = None
        for length in sorted(set(rp.face)):
            rt = try_face(ps, (length,), meter, same_round=True)
            if rt is None:
                continue
            got = sum(1 for f in rt.freed if f in ps.pending)
            score = 10.0 * rt.gain - 3.0 * rt.waste + 25.0 * got - 4.0 * rt.approach
            if (rt.gain or got) and (best is None or score > best[0]):
                best = (score, rt)
        if best is None:
            break
        rt = best[1]
        pos = {index[cs.card.id]: k for k, cs in enumerate(player.face_up)}
        planned = {part: (pos[ps.cards[part]], ps.pending[part]) for part in rt.freed
                   if part in ps.pending}
        builds = forced_builds(player.face_up, sheet, rt.freed, planned)
        ex = ExtraPlan(rt.cuts[0], rt.keeps[0],
                       tuple(Placed(player.face_up[b.card].card.id, b.placement)
                             for b in builds if b.placement is not None and b.card is not None),
                       tuple(b.section for b in builds if b.placement is None))
        try:
            player = extra_cut(player, rp.face, ex.cut,
                               engine_builds(player, ex.placed, ex.crumpled), ex.keep)
        except RuleError:
            break  # never expected (the planner's cut is legal); the round stands without it
        todo = {s: p for s, p in todo.items() if s not in planned}
        rp = replace(rp, extra=rp.extra + (ex,))
    return player, rp, todo


@dataclass(frozen=True)
class HandResult:
    """The answer for one dealt hand: ``completable`` with a replayed certificate,
    ``impossible`` (shown not completable) with the reason, or ``unknown`` with why."""

    deal: tuple[str, ...]
    verdict: Verdict
    certificate: HandCertificate | None = None
    reason: str = ""
    nodes: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"deal": list(self.deal), "verdict": self.verdict.value}
        if self.certificate is not None:
            out["rounds"] = len(self.certificate.rounds)
            out["certificate"] = self.certificate.to_json()
        if self.reason:
            out["reason"] = self.reason
        return out


def hand_verdict(sheet: Sheet, die: Die, cards: Sequence[Card], rng: random.Random,
                 budget: Budget, supply_budget: Budget | None = None,
                 attempts: int = 8) -> HandResult:
    """Can one fresh sheet complete ``cards`` dealt in this order (the first two face up, the
    rest a pile turned up one at a time as cards complete; sections only go on face-up
    cards)? First :func:`hand_obstacle` (a proof of ``impossible``), then up to ``attempts``
    plans (sections for all cards chosen up front on disjoint squares, the cards taken in a
    different order each attempt; then :func:`_play_out`). A plan is only
    believed after :func:`replay_hand` replays it from a fresh sheet; when none is found the
    verdict is ``unknown``, never ``impossible`` (the planner is greedy)."""
    deal = tuple(c.id for c in cards)
    sup = hand_obstacle(sheet, cards, supply_budget or budget)
    if sup.verdict is not Verdict.COMPLETABLE:
        return HandResult(deal, sup.verdict, reason=sup.reason)
    if any(c.bonus in (Bonus.GARDENER, Bonus.WILDLIFE_TOKEN) for c in cards) and \
            hand_supplied(sheet, cards, supply_budget or budget) is Verdict.IMPOSSIBLE:
        # The planner places no waivers, so it cannot find this hand's plan (if any).
        return HandResult(deal, Verdict.UNKNOWN, reason=(
            "the sheet cannot supply every space without waiving demands with the tokens the "
            "hand's bonuses earn; the planner does not use tokens"))
    meter = budget.start()
    n = len(cards)
    # Which card's sections are chosen first decides which squares the others may use, and
    # different orders complete different hands: on 40 hands of the default deck, one try
    # each (jitter 0) completed 17 largest-first, 15 last-dealt-first, 13 smallest-first and
    # 11 in deal order, 32 in any of the four; 8 attempts (the four orders, then again with
    # jittered section choices) completed 36.
    orders = [sorted(range(n), key=lambda i: (-cards[i].size, i)), list(range(n))[::-1],
              sorted(range(n), key=lambda i: (cards[i].size, i)), list(range(n))]
    everything = {i: cards[i].cells for i in range(n)}
    last = f"no disjoint sections found for all {n} cards"
    for attempt in range(attempts):
        order = orders[attempt % len(orders)]
        jitter = 4.0 * (attempt // len(orders))
        pieces = _allocate(sheet, cards, order, everything, sheet.cells(), rng, meter, jitter)
        if pieces is not None:
            got = _play_out(sheet, die, cards, pieces, meter, rng)
            if isinstance(got, HandCertificate):
                problem = replay_hand(sheet, die, cards, got)
                if not problem:
                    return HandResult(deal, Verdict.COMPLETABLE, got, nodes=meter.nodes)
                # Never report a plan the engine rejects from a fresh sheet (a planner bug).
                got = f"a planned hand failed replay: {problem}"
            last = got
        if meter.exhausted:
            last = "search budget exhausted"
            break
    return HandResult(deal, Verdict.UNKNOWN, reason=f"{last}; the sheet does hold matching "
                      "squares for all the cards, so the hand may still be completable",
                      nodes=meter.nodes)


@dataclass(frozen=True)
class HandCoverage:
    """Hand figures: ``hands`` dealt; every one tested by :func:`hand_obstacle` (``ruled_out``
    shown not completable); the first ``played`` of them also planned (``completable`` /
    ``impossible`` / ``unknown`` add up to ``played``)."""

    hands: int
    played: int = 0
    completable: int = 0
    impossible: int = 0
    unknown: int = 0
    ruled_out: int = 0
    results: tuple[HandResult, ...] = ()
    """The played hands, in deal order."""
    reasons: tuple[str, ...] = ()
    """Distinct reasons of the hands ruled out (first few)."""

    @property
    def share(self) -> float | None:
        """Completable share of the played hands (unknown counted as neither)."""
        return self.completable / self.played if self.played else None

    def to_json(self) -> dict[str, Any]:
        share = self.share
        return {
            "hands": self.hands, "played": self.played, "completable": self.completable,
            "not_completable": self.impossible, "unknown": self.unknown,
            "share": None if share is None else round(share, 3),
            "share_if_unknown_completable": (round((self.completable + self.unknown)
                                                   / self.played, 3) if self.played else None),
            "ruled_out": self.ruled_out, "ruled_out_reasons": list(self.reasons),
        }

    def words(self) -> str:
        if not self.hands:
            return "no hands dealt (fewer than 5 park cards, or hands = 0)"
        out = (f"of {self.played} random hands of 5 park cards dealt in order (2 face up, 3 "
               f"in the pile) and played out, {self.completable} completable with a replayed plan")
        if self.played:
            out += f" ({100 * self.completable / self.played:.0f}%)"
        out += (f", {self.impossible} not completable, {self.unknown} unknown (planner gave "
                f"up); {self.ruled_out} of {self.hands} hands dealt ruled out by the sheet's "
                "supply")
        return out


def hand_coverage(sheet: Sheet, cards: Sequence[Card], seed: int, hands: int,
                  budget: Budget, die: Die | None = None, plans: int = 0,
                  plan_budget: Budget | None = None) -> HandCoverage:
    """Deal ``hands`` seeded hands of 5 distinct park cards (order matters: 2 face up, 3 in
    the pile); test each with :func:`hand_obstacle` (``budget`` for its supply search) and
    the first ``plans`` of them (with ``die``) with :func:`hand_verdict` (``plan_budget``
    nodes each). Deterministic in its inputs (node budgets only)."""
    from ...core.rng import make_rng

    pool = list(cards)
    if len(pool) < 5 or hands == 0:
        return HandCoverage(0)
    plans = min(plans, hands) if die is not None else 0
    results: list[HandResult] = []
    ruled = 0
    reasons: list[str] = []
    for h in range(hands):
        hand = make_rng(seed, "parks-hands", h).sample(pool, 5)
        if die is not None and h < plans:
            res = hand_verdict(sheet, die, hand, make_rng(seed, "parks-hand-plan", h),
                               plan_budget or Budget(nodes=20_000), budget)
            results.append(res)
            sup_v, why = res.verdict, res.reason
        else:
            sup = hand_obstacle(sheet, hand, budget)
            sup_v, why = sup.verdict, sup.reason
        if sup_v is Verdict.IMPOSSIBLE:
            ruled += 1
            if why not in reasons and len(reasons) < 5:
                reasons.append(why)
    count = {v: sum(1 for r in results if r.verdict is v) for v in Verdict}
    return HandCoverage(hands, len(results), count[Verdict.COMPLETABLE],
                        count[Verdict.IMPOSSIBLE], count[Verdict.UNKNOWN], ruled,
                        tuple(results), tuple(reasons))
