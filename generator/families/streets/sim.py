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
              max_rounds: int) -> GameResult:
    """Play one seeded game with ``players`` greedy bots."""
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
        sheets = [bot_turn(sh, combos, dealt, rngs[i]) for i, sh in enumerate(sheets)]
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
        value += 4.0
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
                gain = (left + right - whole) * (0.4 + 0.6 * built / (z - a + 1))
                if gain > best[0]:
                    best = (gain, (s, b))
    return best


def _best_price(sheet: Sheet) -> tuple[float, int]:
    spec = sheet.spec
    counts = [0.3] * spec.max_group
    for s in range(len(sheet.houses)):
        for a, z, done in sheet.groups(s):
            size = z - a + 1
            if size <= spec.max_group:
                counts[size - 1] += 1.0 if done else 0.5
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
                        return (3.0 - cost, (s, h))
    return (0.0, (-1, -1))


def _goal_streets(goals: Sequence[Condition], kind: str, every: set[int]) -> set[int]:
    """The streets a plan condition of ``kind`` points at (all of them for "any street")."""
    out: set[int] = set()
    for c in goals:
        if c.kind == kind:
            out |= every if c.street < 0 else {c.street}
    return out


def bot_turn(sheet: Sheet, combos: Sequence[Combo], plans: Sequence[PlanCard],
             rng: random.Random | None = None) -> Sheet:
    """The greedy bot's move for this round, applied (a refusal if nothing fits). ``rng``
    adds a jitter of up to 1 point to every candidate (ties and near-ties vary by bot)."""
    spec = sheet.spec
    wanted = [s for p in plans if not sheet.claimed(p.id) for s in p.group_sizes]
    # Other plan conditions still open steer the bot too: house ends, parks and pools on a
    # named street, full streets.
    goals = [c for p in plans if not sheet.claimed(p.id) for c in p.conditions
             if c.kind != "groups"]
    want_ends = any(c.kind == "ends" for c in goals)
    every = set(range(len(spec.streets)))
    park_streets = _goal_streets(goals, "parks", every)
    pool_streets = _goal_streets(goals, "pools", every)
    full_streets = _goal_streets(goals, "street_full", every)
    runs = [_runs(row, spec.written_min, spec.written_max) for row in sheet.houses]
    span = max(1, spec.written_max - spec.written_min)
    fence = price = dup = None
    best: tuple[float, Move] | None = None
    for number, effect in combos:
        bonus = 0.0
        if effect is Effect.FENCE:
            fence = fence or _best_fence(sheet, wanted)
            bonus = fence[0]
        elif effect is Effect.PRICE:
            price = price or _best_price(sheet)
            bonus = price[0]
        elif effect is Effect.DUPLICATE:
            dup = dup or _best_duplicate(sheet)
            bonus = dup[0]
        elif effect is Effect.WORKER and sheet.workers < len(spec.worker_points):
            k = sheet.workers
            bonus = spec.worker_points[k] - (spec.worker_points[k - 1] if k else 0) + 0.2
        for v in sheet.written_options(number, effect):
            shifted = v != number
            for s, street_runs in enumerate(runs):
                length = spec.streets[s].houses
                for a, z, lo, hi in street_runs:
                    if not lo < v < hi:
                        continue
                    old = _capacity(z - a + 1, lo, hi)
                    below, above = v - lo - 1, hi - v - 1   # numbers left on each side
                    vpos = (v - spec.written_min) / span
                    scale = 1.0 / max(1, length - 1)
                    for h in range(a, z + 1):
                        # _capacity inlined (this loop is the bot's hot spot, ~30 % of a game)
                        left, right = h - a, z - h
                        new = ((left if left < below else below) if below > 0 else 0) + (
                            (right if right < above else above) if above > 0 else 0)
                        loss = old - 1 - new
                        drift = abs(h * scale - vpos)
                        value = -3.0 * loss - 2.0 * drift
                        if want_ends and h in (0, length - 1):
                            value += 2.5
                        if s in full_streets:
                            value += 1.0
                        extra = bonus
                        if effect is Effect.PARK:
                            k = sheet.parks[s]
                            track = spec.streets[s].parks
                            extra = (track[k] - (track[k - 1] if k else 0) + 0.3
                                     if k < len(track) else 0.0)
                        elif effect is Effect.POOL:
                            if h in spec.streets[s].pools:
                                n = sum(len(p) for p in sheet.pools)
                                pts = spec.pool_points
                                extra = (pts[n] - (pts[n - 1] if n else 0) + 0.3
                                         if n < len(pts) else 0.3)
                            else:
                                extra = 0.0
                        if extra > 0 and ((effect is Effect.PARK and s in park_streets) or (
                                effect is Effect.POOL and s in pool_streets)):
                            extra += 3.0
                        use = extra > 0 or shifted
                        score = value + (extra if use else 0.0)
                        if rng is not None:
                            score += rng.random()
                        if best is None or score > best[0]:
                            best = (score, Move(number, effect, s, h, v, use=use))
    if best is None:
        if sheet.refusals >= len(spec.refusal_penalty):
            return sheet
        return sheet.apply(Move(combos[0][0], combos[0][1]))
    move = best[1]
    if move.use:
        if move.effect is Effect.FENCE and fence is not None:
            move = replace(move, target=fence[1])
        elif move.effect is Effect.PRICE and price is not None:
            move = replace(move, size=price[1])
        elif move.effect is Effect.DUPLICATE and dup is not None:
            move = replace(move, target=dup[1])
    try:
        return sheet.apply(move)
    except RuleError:
        # The chosen effect target clashed with the house just built: keep the house.
        return sheet.apply(replace(move, use=False, target=(-1, -1), size=0))


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
               games: int) -> list[GameResult]:
    """``games`` seeded games from one batch seed (what ``sample_until`` plays)."""
    return [play_game(game, seed, i, players, max_rounds) for i in range(games)]


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
