"""Seeded simulated games with two players, a greedy one and a planning one: how many points
each scoring card gives a casual and a planning player.

The greedy bot plays a solo game. Each turn it values every display pair (and, holding a
nature token, every tile with every token, less the nature token's end value) as the best
gain in corridor points (largest corridor per habitat, solo bonus crossing included) from
placing the tile, plus the best gain in wildlife points from placing the token (on a tile
already placed or on the new tile), and takes the best; ties go to the earliest option, so a
game is a pure function of its seed. The planner (:class:`PlannerBot`) looks one turn ahead
over the pairs left on the display. Figures are means with 95% intervals, sampled to the
deck's precision (:mod:`generator.core.stats`).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ...core.hexgrid import Hex
from ...core.rng import make_rng
from ...core.stats import Interval, Mapper, Mean, Precision, Sample, mean_interval, sample_until
from .model import HabitatsSet, Ruleset, ScoringCard, Tile
from .rules import Game, PlayerMap, corridors, one_card_per_species, score_maps
from .scoring import (
    OPPOSITE,
    keeps,
    looks_beyond_species,
    raw_matches,
    score_disjoint,
    score_matches,
    step,
)

NATURE_RESERVE = 0.5
"""What spending a nature token costs beyond its end value: keeping one leaves a free choice
for later, worth about half a point on the default deck."""


@dataclass(frozen=True)
class Move:
    """One option of a turn: its value, the display indices of the tile and the token, where
    the tile goes and how it is turned, and where the token goes (None: returned)."""

    value: float
    tile: int
    token: int
    at: Hex
    rotation: int
    token_at: Hex | None


@dataclass(frozen=True)
class GameResult:
    """One simulated game: the cards used and the points each gave, and the total."""

    cards: tuple[str, ...]
    card_points: tuple[int, ...]
    total: int
    tokens: int


def _corridor_state(m: PlayerMap, rules: Ruleset) -> dict[str, tuple[dict[Hex, int], list[int]]]:
    """Per habitat: hex -> corridor index, and each corridor's size."""
    out = {}
    for h in rules.habitats:
        comps = corridors(m.tiles, h)
        index = {x: i for i, c in enumerate(comps) for x in c}
        out[h] = (index, [len(c) for c in comps])
    return out


def _habitat_value(size: int, rules: Ruleset) -> int:
    v = size * rules.corridor_points
    if size >= rules.solo_threshold:
        v += rules.solo_bonus
    return v


def corridor_gains(m: PlayerMap, tile: Tile, rules: Ruleset,
                   state: dict[str, tuple[dict[Hex, int], list[int]]],
                   spots: Sequence[Hex]) -> dict[Hex, tuple[int, int]]:
    """For each spot: the best (gain, rotation) of placing ``tile`` there."""
    best_now = {h: (max(sizes) if sizes else 0) for h, (_, sizes) in state.items()}
    rots = [(rot, tile.edges(rot)) for rot in tile.rotations()]
    out: dict[Hex, tuple[int, int]] = {}
    for at in spots:
        around = [m.tiles.get(n) for n in (step(at, d) for d in range(6))]
        best = (-1, 0)
        for rot, edges in rots:
            gain = 0
            for hab in set(edges):
                index, sizes = state[hab]
                joined: set[int] = set()
                for d in range(6):
                    p = around[d]
                    if p is not None and edges[d] == hab and p.edges[OPPOSITE[d]] == hab:
                        joined.add(index[p.at])
                size = 1 + sum(sizes[i] for i in joined)
                if size > best_now[hab]:
                    gain += _habitat_value(size, rules) - _habitat_value(best_now[hab], rules)
            if gain > best[0]:
                best = (gain, rot)
        out[at] = best
    return out


class GreedyBot:
    """The reference player (see the module docstring)."""

    def __init__(self, cards: Sequence[ScoringCard], rules: Ruleset) -> None:
        self.cards = tuple(cards)
        self.rules = rules
        self.by_species = {c.species: c for c in cards}
        self.wide = tuple(c for c in cards if any(looks_beyond_species(t) for t in c.terms))

    def _relevant(self, species: str) -> tuple[ScoringCard, ...]:
        own = self.by_species.get(species)
        rel = tuple(c for c in self.wide if c is not own)
        return ((own,) if own else ()) + rel

    def potential(self, card: ScoringCard, tokens: dict[Hex, str]) -> float:
        """The card's points plus partial credit for matches still below the term's least
        measure (a pair on the way to a trio): what one-step greed cannot see."""
        total = 0.0
        for t in card.terms:
            raw = raw_matches(t, card.species, tokens)
            total += (score_disjoint(t, card.species, tokens) if t.disjoint
                      else score_matches(t, raw)).points
            if t.mode == "each" and t.best:
                continue
            for mt in raw:
                if mt.measure < t.min and not keeps(t, mt.measure):
                    total += 0.5 * t.table[0] * mt.measure / t.min
        return total

    def token_gain(self, tokens: dict[Hex, str], species: str, at: Hex,
                   base: dict[str, float]) -> float:
        cards = self._relevant(species)
        tokens[at] = species
        after = sum(self.potential(c, tokens) for c in cards)
        del tokens[at]
        return after - sum(base[c.species] for c in cards)

    def rank(self, m: PlayerMap, display: Sequence[tuple[Tile, str | None]],
             nature: bool) -> list[Move]:
        """Every (tile pair, spot) option valued as the module docstring says, best first
        (ties: the earliest option). ``nature``: whether a nature token may buy any tile with
        any token."""
        rules = self.rules
        state = _corridor_state(m, rules)
        spots = m.frontier()
        tokens = dict(m.tokens)
        base = {c.species: self.potential(c, tokens) for c in self.cards}
        tok_cache: dict[str, tuple[float, Hex | None, dict[Hex, float]]] = {}

        def token_info(sp: str) -> tuple[float, Hex | None, dict[Hex, float]]:
            if sp not in tok_cache:
                best_exist: tuple[float, Hex | None] = (0.0, None)
                for at in m.token_spots(sp):
                    g = self.token_gain(tokens, sp, at, base)
                    if g > best_exist[0]:
                        best_exist = (g, at)
                on_new = {at: self.token_gain(tokens, sp, at, base) for at in spots}
                tok_cache[sp] = (best_exist[0], best_exist[1], on_new)
            return tok_cache[sp]

        gains_cache: dict[int, dict[Hex, tuple[int, int]]] = {}

        def gains(ti: int) -> dict[Hex, tuple[int, int]]:
            if ti not in gains_cache:
                gains_cache[ti] = corridor_gains(m, display[ti][0], rules, state, spots)
            return gains_cache[ti]

        options = [(i, i) for i in range(len(display))]
        if nature:
            options += [(i, j) for i in range(len(display))
                        for j in range(len(display)) if i != j]
        out: list[Move] = []
        for ti, ki in options:
            tile = display[ti][0]
            sp = display[ki][1]
            cost = 0 if ti == ki else rules.nature_points + NATURE_RESERVE
            g = gains(ti)
            for at in spots:
                cg, rot = g[at]
                tok_at: Hex | None = None
                tg = 0.0
                if sp is not None:
                    ex_gain, ex_at, on_new = token_info(sp)
                    tg, tok_at = ex_gain, ex_at
                    if sp in tile.species and on_new[at] > tg:
                        tg, tok_at = on_new[at], at
                out.append(Move(cg + tg - cost, ti, ki, at, rot, tok_at))
        # stable: equal values keep the option order, so the first best is the earliest
        out.sort(key=lambda mv: -mv.value)
        return out

    def pick(self, m: PlayerMap, display: Sequence[tuple[Tile, str | None]],
             moves: list[Move]) -> Move:
        """The greedy choice: the best-valued move."""
        return moves[0]

    def play_turn(self, game: Game, player: int = 0) -> None:
        m = game.maps[player]
        moves = self.rank(m, game.display, m.nature > 0)
        mv = self.pick(m, game.display, moves)
        tile, sp = game.take(player, mv.tile, mv.token)
        m.place_tile(tile, mv.at, mv.rotation)
        if sp is not None and mv.token_at is not None:
            game.place_token(player, sp, mv.token_at)
        else:
            game.return_token(sp)
        game.end_turn()


PLAN_CANDIDATES = 4
"""Moves the planner looks ahead from (the greedy ranking's best): measured on the default
deck, more candidates add time faster than points (bench/habitats.py)."""

PLAN_WEIGHT = 0.8
"""Weight of the best follow-up move: the pairs left on the display are still there next turn
in a solo game, but a wipe or a better new pair may change the plan, so the follow-up counts a
little less than a sure gain."""


class PlannerBot(GreedyBot):
    """The planning player: a one-turn lookahead over the display.

    Of the greedy ranking's best :data:`PLAN_CANDIDATES` moves, it plays each on a copy of
    the map and values it as its own gain plus :data:`PLAN_WEIGHT` times the best move it
    leaves for next turn among the pairs still on the display (those stay in a solo game).
    So it sets up matches the cards reward (a tile now that makes next turn's token score)
    and keeps its tokens' spots open, where greed takes the biggest gain at once.
    """

    def pick(self, m: PlayerMap, display: Sequence[tuple[Tile, str | None]],
             moves: list[Move]) -> Move:
        best: tuple[float, Move] | None = None
        for mv in moves[:PLAN_CANDIDATES]:
            after = m.copy()
            tile, sp = display[mv.tile][0], display[mv.token][1]
            after.place_tile(tile, mv.at, mv.rotation)
            if sp is not None and mv.token_at is not None:
                after.tokens[mv.token_at] = sp
            left = [p for i, p in enumerate(display) if i not in (mv.tile, mv.token)]
            if mv.tile != mv.token:
                left.append((display[mv.token][0], display[mv.tile][1]))
            follow = self.rank(after, left, False)
            value = mv.value + PLAN_WEIGHT * (follow[0].value if follow else 0.0)
            if best is None or value > best[0]:
                best = (value, mv)
        assert best is not None
        return best[1]


BOTS: dict[str, type[GreedyBot]] = {"greedy": GreedyBot, "planner": PlannerBot}
"""The players the simulation reports: the casual (greedy) and the planning player."""


def play_game(box: HabitatsSet, cards: Sequence[ScoringCard], seed: int,
              index: int, bot_name: str = "greedy") -> GameResult:
    """One seeded solo game of the named bot (:data:`BOTS`) scored with ``cards``."""
    return _play(box, cards, make_rng(seed, "habitats-sim", index), bot_name)


def _play(box: HabitatsSet, cards: Sequence[ScoringCard], rng: random.Random,
          bot_name: str) -> GameResult:
    game = Game(box, 1, rng, cards)
    bot = BOTS[bot_name](cards, box.rules)
    while not game.over:
        game.resolve_overpopulation()
        bot.play_turn(game)
    score = score_maps(game.maps, cards, box.rules)[0]
    return GameResult(tuple(c.id for c in cards), tuple(c.points for c in score.cards),
                      score.total, len(game.maps[0].tokens))


def play_batch(box: HabitatsSet, bot_name: str, batch_seed: int, games: int) -> list[GameResult]:
    """One seeded batch (see :func:`generator.core.stats.sample_until`): game ``j`` uses the
    ``j``-th card (cycling) of every species and its own stream of the batch seed. Both bots
    get the same batch seeds, so game ``k`` of one is game ``k`` of the other: same tiles,
    same draws, same cards (paired, which is what makes the margin between them exact)."""
    out = []
    for j in range(games):
        cards = one_card_per_species(box.cards, box.rules.species, j)
        out.append(_play(box, cards, make_rng(batch_seed, "habitats-game", j), bot_name))
    return out


@dataclass(frozen=True)
class CardStats:
    """A card's points over the games that played it: the mean with its 95% interval."""

    card: str
    points: Mean
    low: int
    high: int

    @property
    def games(self) -> int:
        return self.points.n

    @property
    def mean(self) -> float:
        return self.points.mean


def card_stats(box: HabitatsSet, results: Sequence[GameResult]) -> list[CardStats]:
    per: dict[str, list[int]] = {c.id: [] for c in box.cards}
    for r in results:
        for cid, got in zip(r.cards, r.card_points, strict=True):
            per[cid].append(got)
    return [CardStats(cid, mean_interval(pts), min(pts, default=0), max(pts, default=0))
            for cid, pts in per.items()]


def measure(box: HabitatsSet, results: Sequence[GameResult]) -> list[Interval]:
    """What must be narrow enough: every card's mean points and the mean total."""
    out: list[Interval] = [s.points for s in card_stats(box, results)]
    out.append(mean_interval([r.total for r in results]))
    return out


def sample_bot(box: HabitatsSet, bot_name: str, precision: Precision, seed: int,
               mapper: Mapper[Any, Any] | None = None, lookahead: int = 1
               ) -> Sample[GameResult]:
    """Games of one bot in seeded batches until every card's mean (and the total's) is as
    narrow as ``precision`` asks, or its games cap is reached."""
    return sample_until(partial(play_batch, box, bot_name), partial(measure, box), precision,
                        seed=seed, stream=("habitats-sim",), mapper=mapper,
                        lookahead=lookahead)


def margin(a: Sequence[GameResult], b: Sequence[GameResult]) -> Mean:
    """Mean points ``b`` scores over ``a`` in the games both played (paired: same seeds)."""
    n = min(len(a), len(b))
    return mean_interval([b[k].total - a[k].total for k in range(n)])


def simulate(box: HabitatsSet, n: int, seed: int, bot_name: str = "greedy"
             ) -> tuple[list[CardStats], list[GameResult]]:
    """Exactly ``n`` games of one bot (batches as in :func:`sample_bot`)."""
    sample = sample_bot(box, bot_name, Precision.fixed(n), seed)
    return card_stats(box, sample.outcomes), list(sample.outcomes)
