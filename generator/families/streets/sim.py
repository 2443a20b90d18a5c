"""A seeded game loop with greedy bots: for difficulty and balance figures.

One game: deal one plan per level (seeded), shuffle the construction deck into three equal
stacks; each round flips the top card of every stack (its effect side up) and pairs the
effect with the number now on top of that stack. Every bot picks one combination; a bot that
can place none marks a refusal. After the round, bots claim every plan they meet (all
players who meet a plan in the same round score its first points). When a stack runs out
the whole deck is reshuffled into three new stacks. The game ends when a sheet has its
refusal track full, all dealt plans claimed, or every house built (or ``max_rounds``).

The bot is greedy with a one-move look-ahead heuristic: it avoids placements that make
empty houses unfillable (no distinct numbers left between their neighbours), prefers numbers
at the place their size suggests, and values each effect by the points it adds now, with a
bonus for fences that shape groups the dealt plans ask for. Bots never use the optional
reshuffle of the first achiever.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...core.rng import make_rng
from .model import Condition, ConstructionCard, Effect, PlanCard, SheetSpec, StreetsGame
from .rules import EMPTY, ROUND, Move, RuleError, Sheet, final_totals, standings

Combo = tuple[int, Effect]


@dataclass(frozen=True)
class GameResult:
    """One simulated game: the plans dealt, every final sheet, rounds played."""

    plans: tuple[str, ...]
    sheets: tuple[Sheet, ...]
    rounds: int
    first_met: tuple[tuple[str, int], ...] = ()
    """(plan id, round in which some player first met it), in the order they were met."""

    @property
    def ended(self) -> str:
        """Why the game ended: refusals, plans, full (a sheet built out) or rounds (cap)."""
        spec = self.sheets[0].spec if self.sheets else None
        if spec is not None and any(s.refusals >= len(spec.refusal_penalty)
                                    for s in self.sheets):
            return "refusals"
        if self.plans and any(len(s.claims) >= len(self.plans) for s in self.sheets):
            return "plans"
        if any(s.full() for s in self.sheets):
            return "full"
        return "rounds"

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(final_totals(self.sheets))

    @property
    def places(self) -> tuple[int, ...]:
        """Every player's place, totals first, then the seed's tie-break."""
        return tuple(standings(self.scores, self.sheets))

    @property
    def tie(self) -> str:
        """How the winner was found: "" (a clear top total), "tie-break" (equal top totals,
        decided by the groups), or "shared" (equal on both)."""
        scores = self.scores
        if not scores or scores.count(max(scores)) < 2:
            return ""
        return "shared" if self.places.count(1) > 1 else "tie-break"


def _stacks(n_cards: int, seed: int, game: int, shuffle: int) -> list[list[int]]:
    order = list(range(n_cards))
    make_rng(seed, "streets-sim", game, "deal", shuffle).shuffle(order)
    third = n_cards // 3
    return [order[k * third:(k + 1) * third] for k in range(3)]


def deal_plans(plans: Sequence[PlanCard], seed: int, game: int) -> tuple[PlanCard, ...]:
    """One plan of each level present (levels 1, 2, 3 in order), seeded per game."""
    rng = make_rng(seed, "streets-sim", game, "plans")
    out: list[PlanCard] = []
    for level in (1, 2, 3):
        pool = [p for p in plans if p.level == level]
        if pool:
            out.append(pool[rng.randrange(len(pool))])
    return tuple(out)


def rounds(cards: Sequence[ConstructionCard], seed: int, game: int) -> Iterator[list[Combo]]:
    """The endless sequence of rounds' three combinations of one game."""
    shuffle = 0
    while True:
        stacks = _stacks(len(cards), seed, game, shuffle)
        for pos in range(len(stacks[0]) - 1):
            yield [(cards[st[pos + 1]].number, cards[st[pos]].effect) for st in stacks]
        shuffle += 1


def play_game(game: StreetsGame, seed: int, index: int, players: int,
              max_rounds: int, planners: Sequence[int] = ()) -> GameResult:
    """Play one seeded game with ``players`` bots: greedy, except the seats listed in
    ``planners`` (planning bots)."""
    spec = game.sheet
    dealt = deal_plans(game.plans, seed, index)
    sheets = [Sheet.empty(spec) for _ in range(players)]
    approved: set[str] = set()
    first_met: list[tuple[str, int]] = []
    # Each bot has its own seeded taste (a small jitter on every candidate), so that bots
    # seeing the same combinations do not play identical sheets.
    rngs = [make_rng(seed, "streets-sim", index, "bot", i) for i in range(players)]
    played = 0
    for combos in rounds(game.cards, seed, index):
        if played >= max_rounds:
            break
        played += 1
        sheets = [planner_turn(sh, combos, dealt, game.cards, rngs[i]) if i in planners
                  else bot_turn(sh, combos, dealt, rngs[i]) for i, sh in enumerate(sheets)]
        newly: set[str] = set()
        for i, sh in enumerate(sheets):
            for plan in dealt:
                if sh.claimed(plan.id) or sh.plan_met(plan) is None:
                    continue
                sh = sh.claim(plan, first=plan.id not in approved)
                newly.add(plan.id)
            sheets[i] = sh
        for pid in sorted(newly - approved):
            first_met.append((pid, played))
        approved |= newly
        if any(sh.over(len(dealt)) for sh in sheets):
            break
    return GameResult(plans=tuple(p.id for p in dealt), sheets=tuple(sheets), rounds=played,
                      first_met=tuple(first_met))


# --- the greedy bot ------------------------------------------------------------------


def _capacity(run: int, lo: int, hi: int) -> int:
    return max(0, min(run, hi - lo - 1))


def _runs(row: tuple[int, ...], wmin: int, wmax: int) -> list[tuple[int, int, int, int]]:
    """Maximal runs of empty houses: (first, last, value below, value above)."""
    out: list[tuple[int, int, int, int]] = []
    lo = wmin - 1
    h = 0
    n = len(row)
    while h < n:
        if row[h] != EMPTY:
            lo = row[h] if row[h] != ROUND else wmin - 1
            h += 1
            continue
        a = h
        while h < n and row[h] == EMPTY:
            h += 1
        hi = row[h] if h < n and row[h] != ROUND else wmax + 1
        out.append((a, h - 1, lo, hi))
    return out


def _segment_value(spec: SheetSpec, sheet: Sheet, size: int, wanted: Sequence[int]) -> float:
    if size > spec.max_group:
        return 0.0
    value = float(spec.group_values[size - 1][sheet.price[size - 1]])
    if size in wanted:
        value += WANTED_SIZE_BONUS
    return value


def _best_fence(sheet: Sheet, wanted: Sequence[int]) -> tuple[float, tuple[int, int]]:
    spec = sheet.spec
    locked = sheet.locked
    best = (0.0, (-1, -1))
    for s, row in enumerate(sheet.houses):
        for a, z, _ in sheet.groups(s):
            if any(ls == s and la == a and lz == z for ls, la, lz in locked):
                continue
            whole = _segment_value(spec, sheet, z - a + 1, wanted)
            built = sum(1 for h in range(a, z + 1) if row[h] != EMPTY)
            for b in range(a + 1, z + 1):
                if sheet.joins and b in sheet.joins[s]:
                    continue        # joined rule: never between a duplicate and its house
                left = _segment_value(spec, sheet, b - a, wanted)
                right = _segment_value(spec, sheet, z - b + 1, wanted)
                # Weight by how built the segment already is: fences around built houses
                # pay off sooner (and are less likely to be wasted).
                share = built / (z - a + 1)
                gain = (left + right - whole) * (FENCE_BUILT_BASE + FENCE_BUILT_WEIGHT * share)
                if gain > best[0]:
                    best = (gain, (s, b))
    return best


def _best_price(sheet: Sheet) -> tuple[float, int]:
    spec = sheet.spec
    counts = [PRICE_BASE] * spec.max_group
    for s in range(len(sheet.houses)):
        for a, z, done in sheet.groups(s):
            size = z - a + 1
            if size <= spec.max_group:
                counts[size - 1] += PRICE_DONE if done else PRICE_OPEN
    best = (0.0, 0)
    for k in range(spec.max_group):
        col = spec.group_values[k]
        if sheet.price[k] < len(col) - 1:
            gain = (col[sheet.price[k] + 1] - col[sheet.price[k]]) * counts[k]
            if gain > best[0]:
                best = (gain, k + 1)
    return best


def _best_duplicate(sheet: Sheet) -> tuple[float, tuple[int, int]]:
    spec = sheet.spec
    if sheet.duplicates >= len(spec.duplicate_penalty):
        return (0.0, (-1, -1))
    cost = spec.duplicate_penalty[sheet.duplicates] - (
        spec.duplicate_penalty[sheet.duplicates - 1] if sheet.duplicates else 0)
    for s, row in enumerate(sheet.houses):
        for a, z, lo, hi in _runs(row, spec.written_min, spec.written_max):
            if _capacity(z - a + 1, lo, hi) < z - a + 1:
                # A house that no number can fill any more: a duplicate saves it.
                for h in (a, z):
                    if (h > 0 and row[h - 1] >= 0) or (h + 1 < len(row) and row[h + 1] >= 0):
                        return (DUPLICATE_SAVE - cost, (s, h))
    return (0.0, (-1, -1))


def _goal_streets(goals: Sequence[Condition], kind: str, every: set[int]) -> set[int]:
    """The streets a plan condition of ``kind`` points at (all of them for "any street")."""
    out: set[int] = set()
    for c in goals:
        if c.kind == kind:
            out |= every if c.street < 0 else {c.street}
    return out


# --- the greedy bot's weights (points on the scale of the sheet's own points) -------------

JITTER = 1.0
"""Each bot's seeded taste: up to this much is added to every candidate, so bots seeing the
same combinations do not play identical sheets (and ties do not always go the same way)."""
LOSS_WEIGHT = 3.0
"""Per empty house a placement makes unfillable (no distinct number left between its
neighbours): such a house costs a refusal or a duplicate later, a few points either way."""
DRIFT_WEIGHT = 2.0
"""Per unit of distance between the house's place along the street and the number's place
in the number range (0..1): numbers written where their size suggests keep the street open."""
END_BONUS = 2.5
"""For building a street end while a dealt plan asks for the ends of every street."""
FULL_STREET_BONUS = 1.0
"""For building on a street a dealt plan wants full."""
TRACK_NUDGE = 0.3
"""Added to a park, pool or worker box worth nothing now: later boxes pay more."""
WORKER_NUDGE = 0.2
"""The same nudge for a worker box (workers also widen the numbers that fit)."""
PLAN_TRACK_BONUS = 3.0
"""For a park or pool on a street a dealt plan asks for."""
WANTED_SIZE_BONUS = 4.0
"""For a fence that closes a group of a size a dealt plan asks for."""
FENCE_BUILT_BASE, FENCE_BUILT_WEIGHT = 0.4, 0.6
"""A fence's gain is weighted by base + weight x (built share of the split group): fences
around built houses pay off sooner and are less likely to be wasted."""
PRICE_DONE, PRICE_OPEN, PRICE_BASE = 1.0, 0.5, 0.3
"""A price rise counts the groups of its size: complete ones fully, open ones half, plus a
base for groups still to come."""
DUPLICATE_SAVE = 3.0
"""A duplicate that fills a house no number can fill any more saves about a refusal."""


@dataclass(frozen=True)
class _Goals:
    """What the dealt plans still open ask for (the greedy bot's only view of the plans)."""

    wanted: tuple[int, ...]
    ends: bool
    park_streets: frozenset[int]
    pool_streets: frozenset[int]
    full_streets: frozenset[int]


def _goals(sheet: Sheet, plans: Sequence[PlanCard]) -> _Goals:
    open_ = [p for p in plans if not sheet.claimed(p.id)]
    conds = [c for p in open_ for c in p.conditions if c.kind != "groups"]
    every = set(range(len(sheet.spec.streets)))
    return _Goals(
        wanted=tuple(s for p in open_ for s in p.group_sizes),
        ends=any(c.kind == "ends" for c in conds),
        park_streets=frozenset(_goal_streets(conds, "parks", every)),
        pool_streets=frozenset(_goal_streets(conds, "pools", every)),
        full_streets=frozenset(_goal_streets(conds, "street_full", every)))


def _step(track: Sequence[int], k: int, nudge: float, full: float = 0.0) -> float:
    """What the next box of a track adds (box ``k``, 0-based), plus ``nudge``; ``full`` when
    the track has no box left."""
    return track[k] - (track[k - 1] if k else 0) + nudge if k < len(track) else full


@dataclass
class _Targets:
    """The effect targets worked out once per turn (lazily: only for effects on offer)."""

    fence: tuple[float, tuple[int, int]] | None = None
    price: tuple[float, int] | None = None
    dup: tuple[float, tuple[int, int]] | None = None


def _combo_bonus(sheet: Sheet, effect: Effect, goals: _Goals, t: _Targets) -> float:
    """The value of an effect that does not depend on the house built."""
    spec = sheet.spec
    if effect is Effect.FENCE:
        t.fence = t.fence or _best_fence(sheet, goals.wanted)
        return t.fence[0]
    if effect is Effect.PRICE:
        t.price = t.price or _best_price(sheet)
        return t.price[0]
    if effect is Effect.DUPLICATE:
        t.dup = t.dup or _best_duplicate(sheet)
        return t.dup[0]
    if effect is Effect.WORKER and sheet.workers < len(spec.worker_points):
        return _step(spec.worker_points, sheet.workers, WORKER_NUDGE)
    return 0.0


def _house_extra(sheet: Sheet, effect: Effect, s: int, h: int, bonus: float,
                 goals: _Goals) -> float:
    """The effect's value for a house built at street ``s``, house ``h``."""
    spec = sheet.spec
    extra = bonus
    if effect is Effect.PARK:
        extra = _step(spec.streets[s].parks, sheet.parks[s], TRACK_NUDGE)
    elif effect is Effect.POOL:
        extra = (_step(spec.pool_points, sum(len(p) for p in sheet.pools), TRACK_NUDGE,
                       TRACK_NUDGE) if h in spec.streets[s].pools else 0.0)
    if extra > 0 and ((effect is Effect.PARK and s in goals.park_streets) or (
            effect is Effect.POOL and s in goals.pool_streets)):
        extra += PLAN_TRACK_BONUS
    return extra


def scored_moves(sheet: Sheet, combos: Sequence[Combo], plans: Sequence[PlanCard],
                 rng: random.Random | None = None, keep: int = 1
                 ) -> tuple[list[tuple[float, Move]], _Targets]:
    """The ``keep`` best placements by the greedy bot's value (best first, the earliest on
    ties), and the effect targets it worked out. ``rng`` adds the bot's jitter."""
    spec = sheet.spec
    goals = _goals(sheet, plans)
    runs = [_runs(row, spec.written_min, spec.written_max) for row in sheet.houses]
    span = max(1, spec.written_max - spec.written_min)
    targets = _Targets()
    best: list[tuple[float, Move]] = []
    floor = -math.inf
    for number, effect in combos:
        bonus = _combo_bonus(sheet, effect, goals, targets)
        for v in sheet.written_options(number, effect):
            shifted = v != number
            vpos = (v - spec.written_min) / span
            for s, street_runs in enumerate(runs):
                length = spec.streets[s].houses
                scale = 1.0 / max(1, length - 1)
                for a, z, lo, hi in street_runs:
                    if not lo < v < hi:
                        continue
                    old = _capacity(z - a + 1, lo, hi)
                    below, above = v - lo - 1, hi - v - 1   # numbers left on each side
                    for h in range(a, z + 1):
                        # _capacity inlined (this loop is the bot's hot spot, ~30 % of a game)
                        left, right = h - a, z - h
                        new = ((left if left < below else below) if below > 0 else 0) + (
                            (right if right < above else above) if above > 0 else 0)
                        value = (-LOSS_WEIGHT * (old - 1 - new)
                                 - DRIFT_WEIGHT * abs(h * scale - vpos))
                        if goals.ends and h in (0, length - 1):
                            value += END_BONUS
                        if s in goals.full_streets:
                            value += FULL_STREET_BONUS
                        extra = _house_extra(sheet, effect, s, h, bonus, goals)
                        use = extra > 0 or shifted
                        score = value + (extra if use else 0.0)
                        if rng is not None:
                            score += JITTER * rng.random()
                        if len(best) < keep or score > floor:
                            best.append((score, Move(number, effect, s, h, v, use=use)))
                            # stable: equal scores keep their order (the earliest wins)
                            best.sort(key=lambda c: -c[0])
                            del best[keep:]
                            floor = best[-1][0] if len(best) == keep else -math.inf
    return best, targets


def _finish(sheet: Sheet, move: Move, t: _Targets) -> Sheet:
    """Apply ``move`` with the effect targets the bot worked out; if the target clashes with
    the house just built, keep the house without the effect."""
    if move.use:
        if move.effect is Effect.FENCE and t.fence is not None:
            move = replace(move, target=t.fence[1])
        elif move.effect is Effect.PRICE and t.price is not None:
            move = replace(move, size=t.price[1])
        elif move.effect is Effect.DUPLICATE and t.dup is not None:
            move = replace(move, target=t.dup[1])
    try:
        return sheet.apply(move)
    except RuleError:
        return sheet.apply(replace(move, use=False, target=(-1, -1), size=0))


def _refuse(sheet: Sheet, combos: Sequence[Combo]) -> Sheet:
    if sheet.refusals >= len(sheet.spec.refusal_penalty):
        return sheet
    return sheet.apply(Move(combos[0][0], combos[0][1]))


def bot_turn(sheet: Sheet, combos: Sequence[Combo], plans: Sequence[PlanCard],
             rng: random.Random | None = None) -> Sheet:
    """The greedy bot's move for this round, applied (a refusal if nothing fits). ``rng``
    adds a jitter of up to ``JITTER`` points to every candidate."""
    best, targets = scored_moves(sheet, combos, plans, rng)
    if not best:
        return _refuse(sheet, combos)
    return _finish(sheet, best[0][1], targets)


# --- the planning bot -------------------------------------------------------------------

PLAN_CANDIDATES = 5
"""Moves the planner looks further at: the greedy value's best few (the rest rarely win)."""
PLAN_SAMPLES = 4
"""Possible next rounds drawn from the deck for each candidate: the lookahead over the draw."""
POINTS_WEIGHT = 1.0
"""Per point the move adds to the sheet's total now (completed groups, tracks, plans)."""
LOOKAHEAD_WEIGHT = 0.5
"""Weight of the mean best greedy value of the next round: how well the sheet takes the
combinations likely to come (half: the next round is only one of many)."""
PLAN_PROGRESS = 2.0
"""Per group size a dealt plan asks for that a complete free group now provides."""


def plan_progress(sheet: Sheet, plans: Sequence[PlanCard]) -> float:
    """How far the open plans are: per plan, the asked group sizes that complete free groups
    provide (each group used once), and every other condition met."""
    free = [g for g in sheet.complete_groups() if g not in sheet.locked]
    total = 0.0
    for p in plans:
        if sheet.claimed(p.id):
            continue
        sizes = [z - a + 1 for _, a, z in free]
        for size in p.group_sizes:
            if size in sizes:
                sizes.remove(size)
                total += 1.0
        total += sum(1.0 for c in p.conditions if c.kind != "groups" and sheet.meets(c))
    return total


def planner_turn(sheet: Sheet, combos: Sequence[Combo], plans: Sequence[PlanCard],
                 cards: Sequence[ConstructionCard], rng: random.Random) -> Sheet:
    """The planning bot: the greedy bot's ``PLAN_CANDIDATES`` best moves, each valued by the
    points it adds now, the progress it makes on the dealt plans, and the mean of the best
    greedy value over ``PLAN_SAMPLES`` next rounds drawn from the deck (the lookahead)."""
    best, targets = scored_moves(sheet, combos, plans, None, keep=PLAN_CANDIDATES)
    if not best:
        return _refuse(sheet, combos)
    nexts = [[(cards[rng.randrange(len(cards))].number, cards[rng.randrange(len(cards))].effect)
              for _ in range(3)] for _ in range(PLAN_SAMPLES)]
    now = sheet.total()
    progress = plan_progress(sheet, plans)
    choice: tuple[float, Sheet] | None = None
    for value, move in best:
        after = _finish(sheet, move, targets)
        ahead = 0.0
        for combos_next in nexts:
            top, _ = scored_moves(after, combos_next, plans)
            ahead += top[0][0] if top else -LOSS_WEIGHT * 2
        score = (value + POINTS_WEIGHT * (after.total() - now)
                 + PLAN_PROGRESS * (plan_progress(after, plans) - progress)
                 + LOOKAHEAD_WEIGHT * ahead / PLAN_SAMPLES + JITTER * rng.random())
        if choice is None or score > choice[0]:
            choice = (score, after)
    assert choice is not None
    return choice[1]


@dataclass(frozen=True)
class SimFigures:
    """Deck figures from N simulated games."""

    games: int
    plan_dealt: dict[str, int]
    plan_games_completed: dict[str, int]
    plan_sheets_completed: dict[str, int]
    plan_rounds: dict[str, tuple[int, ...]]
    """Per plan: the round in which it was first met, in every game that met it."""
    mean_refusals: float
    mean_rounds: float
    scores: tuple[int, ...]
    mean_built: float = 0.0
    """Mean share of the sheet's houses built by the end of a game."""
    ended: tuple[tuple[str, int], ...] = ()
    """How many games ended for each reason (refusals, plans, full, rounds)."""
    house_built: tuple[tuple[float, ...], ...] = ()
    """Per street, per house: the share of sheets that built it by the end."""
    ties: tuple[tuple[str, int], ...] = ()
    """Games whose top total was shared: decided by the tie-break, or still shared."""

    def to_json(self) -> dict[str, Any]:
        sc = sorted(self.scores)
        return {
            "games": self.games,
            "mean_refusals": round(self.mean_refusals, 3),
            "mean_rounds": round(self.mean_rounds, 2),
            "mean_built_share": round(self.mean_built, 3),
            "ended_by": dict(self.ended),
            "top_total_tied": dict(self.ties),
            "house_built_share": [[round(x, 2) for x in row] for row in self.house_built],
            "score_min": sc[0] if sc else 0,
            "score_median": statistics.median(sc) if sc else 0,
            "score_max": sc[-1] if sc else 0,
            "score_mean": round(statistics.fmean(sc), 2) if sc else 0,
            "score_stdev": round(statistics.pstdev(sc), 2) if sc else 0,
            "plans": {pid: {"dealt": self.plan_dealt[pid],
                            "games_completed": self.plan_games_completed[pid],
                            "share_of_games": _share(self.plan_games_completed[pid],
                                                     self.plan_dealt[pid]),
                            "sheets_completed": self.plan_sheets_completed[pid],
                            "mean_round": (round(statistics.fmean(self.plan_rounds[pid]), 1)
                                           if self.plan_rounds[pid] else None)}
                      for pid in sorted(self.plan_dealt)},
        }


def _share(a: int, b: int) -> float | None:
    return round(a / b, 3) if b else None


def play_batch(game: StreetsGame, players: int, max_rounds: int, seed: int,
               games: int, planners: Sequence[int] = ()) -> list[GameResult]:
    """``games`` seeded games from one batch seed (what ``sample_until`` plays)."""
    return [play_game(game, seed, i, players, max_rounds, planners) for i in range(games)]


def simulate(game: StreetsGame, seed: int, games: int, players: int,
             max_rounds: int) -> SimFigures:
    """Play ``games`` seeded games and gather the figures."""
    return summarise(game, play_batch(game, players, max_rounds, seed, games))


def summarise(game: StreetsGame, results: Sequence[GameResult]) -> SimFigures:
    """The figures of played games."""
    games = len(results)
    dealt = {p.id: 0 for p in game.plans}
    done_games = {p.id: 0 for p in game.plans}
    done_sheets = {p.id: 0 for p in game.plans}
    met_rounds: dict[str, list[int]] = {p.id: [] for p in game.plans}
    refusals: list[int] = []
    rounds_played: list[int] = []
    scores: list[int] = []
    built: list[float] = []
    ended = {"refusals": 0, "plans": 0, "full": 0, "rounds": 0}
    ties = {"tie-break": 0, "shared": 0}
    per_house = [[0] * st.houses for st in game.sheet.streets]
    for result in results:
        totals = result.scores
        rounds_played.append(result.rounds)
        ended[result.ended] += 1
        if result.tie:
            ties[result.tie] += 1
        for pid, when in result.first_met:
            met_rounds[pid].append(when)
        for pid in result.plans:
            dealt[pid] += 1
            n = sum(1 for sh in result.sheets if sh.claimed(pid))
            done_sheets[pid] += n
            done_games[pid] += 1 if n else 0
        for sh, total in zip(result.sheets, totals, strict=True):
            refusals.append(sh.refusals)
            built.append(sum(sh.built(i) for i in range(len(sh.houses)))
                         / game.sheet.total_houses)
            for i, row in enumerate(sh.houses):
                for h, v in enumerate(row):
                    per_house[i][h] += v != EMPTY
            scores.append(total)
    return SimFigures(
        games=games, plan_dealt=dealt, plan_games_completed=done_games,
        plan_sheets_completed=done_sheets,
        plan_rounds={pid: tuple(r) for pid, r in met_rounds.items()},
        mean_refusals=statistics.fmean(refusals) if refusals else 0.0,
        mean_rounds=statistics.fmean(rounds_played) if rounds_played else 0.0,
        scores=tuple(scores), mean_built=statistics.fmean(built) if built else 0.0,
        ended=tuple(ended.items()), ties=tuple(ties.items()),
        house_built=tuple(tuple(n / max(1, len(scores)) for n in row) for row in per_house))
