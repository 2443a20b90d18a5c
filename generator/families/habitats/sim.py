"""Seeded simulated games with a greedy bot: how many points each scoring card gives.

The bot plays a solo game. Each turn it values every display pair (and, holding a nature
token, every tile with every token, less the nature token's end value) as the best gain in
corridor points (largest corridor per habitat, solo bonus crossing included) from placing the
tile, plus the best gain in wildlife points from placing the token (on a tile already placed
or on the new tile), and takes the best; ties go to the earliest option, so a game is a pure
function of its seed. Simple by design: a reference player, not a strong one, so cards of one
species can be compared under the same play.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ...core.hexgrid import Hex
from ...core.rng import make_rng
from .model import HabitatsSet, Ruleset, ScoringCard, Tile
from .rules import Game, PlayerMap, corridors, score_maps
from .scoring import (
    OPPOSITE,
    keeps,
    looks_beyond_species,
    raw_matches,
    score_disjoint,
    score_matches,
    step,
)


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

    def play_turn(self, game: Game, player: int = 0) -> None:
        m = game.maps[player]
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
                gains_cache[ti] = corridor_gains(m, game.display[ti][0], rules, state, spots)
            return gains_cache[ti]

        options = [(i, i) for i in range(len(game.display))]
        if m.nature > 0:
            options += [(i, j) for i in range(len(game.display))
                        for j in range(len(game.display)) if i != j]
        best: tuple[float, int, int, Hex, int, Hex | None] | None = None
        for ti, ki in options:
            tile = game.display[ti][0]
            sp = game.display[ki][1]
            cost = 0 if ti == ki else rules.nature_points + 0.5
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
                value = cg + tg - cost
                if best is None or value > best[0]:
                    best = (value, ti, ki, at, rot, tok_at)
        assert best is not None
        _, ti, ki, at, rot, tok_at = best
        tile, sp = game.take(player, ti, ki)
        m.place_tile(tile, at, rot)
        if sp is not None and tok_at is not None:
            game.place_token(player, sp, tok_at)
        else:
            game.return_token(sp)
        game.end_turn()


def play_game(box: HabitatsSet, cards: Sequence[ScoringCard], seed: int,
              index: int) -> GameResult:
    """One seeded solo game of the greedy bot scored with ``cards``."""
    rng = make_rng(seed, "habitats-sim", index)
    game = Game(box, 1, rng, cards)
    bot = GreedyBot(cards, box.rules)
    while not game.over:
        game.resolve_overpopulation()
        bot.play_turn(game)
    score = score_maps(game.maps, cards, box.rules)[0]
    return GameResult(tuple(c.id for c in cards), tuple(c.points for c in score.cards),
                      score.total, len(game.maps[0].tokens))


@dataclass(frozen=True)
class CardStats:
    card: str
    games: int
    mean: float
    stdev: float
    low: int
    high: int


def simulate(box: HabitatsSet, n: int, seed: int) -> tuple[list[CardStats], list[GameResult]]:
    """``n`` games; game ``i`` uses the ``i``-th card (cycling) of every species, so each
    card is played in about ``n / cards-per-species`` games."""
    from .rules import one_card_per_species

    results = []
    for i in range(n):
        cards = one_card_per_species(box.cards, box.rules.species, i)
        results.append(play_game(box, cards, seed, i))
    per: dict[str, list[int]] = {c.id: [] for c in box.cards}
    for r in results:
        for cid, got in zip(r.cards, r.card_points, strict=True):
            per[cid].append(got)
    stats = []
    for cid, pts in per.items():
        if not pts:
            stats.append(CardStats(cid, 0, 0.0, 0.0, 0, 0))
            continue
        sd = statistics.pstdev(pts) if len(pts) > 1 else 0.0
        stats.append(CardStats(cid, len(pts), statistics.fmean(pts), sd, min(pts), max(pts)))
    return stats, results
