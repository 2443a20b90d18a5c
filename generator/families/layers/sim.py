"""Seeded simulated games with a greedy bot: how often each objective is taken, score spread.

Setup of game ``g`` of a deck: the cards of its player count are shuffled with
``make_rng(seed, "layers-game", g)`` and dealt round-robin into ``piles`` face-up piles; the
objectives in play are drawn from the same stream; player ``i`` starts with colour ``i``'s
starting card.

The bot looks one turn ahead: it builds the best placing turn for each colour and value in its
hand (placing card by card where the stars gain most, skipping only when that places a card it
could not place otherwise), values each take by how many of the taken cards it could place, and
plays the better of the two, counting the tokens of objectives a turn would complete.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ...core.rng import make_rng
from .model import Card, LayersSet, Pos
from .objectives import objective_met
from .rules import (
    Game,
    IllegalMove,
    Landscape,
    ObjectiveSlot,
    Pass,
    Place,
    Player,
    Rules,
    Take,
    fits_frame,
    placement_problem,
    score_player,
    standings,
)

MAX_TURNS = 1000
"""A safety net: no game of a valid deck comes near it (a take always empties a pile top)."""


def new_game(gen: LayersSet, rules: Rules, players: int, piles: int, objectives: int,
             seed: int, index: int) -> Game:
    rng = make_rng(seed, "layers-game", index)
    cards = list(gen.cards_for(players))
    rng.shuffle(cards)
    dealt: list[list[Card]] = [[] for _ in range(min(piles, len(cards)))]
    for i, c in enumerate(cards):
        dealt[i % len(dealt)].append(c)
    chosen = rng.sample(list(gen.objectives), min(objectives, len(gen.objectives)))
    return Game(
        rules=rules,
        players=tuple(Player(Landscape.starting(gen.starts[i].card)) for i in range(players)),
        piles=tuple(tuple(p) for p in dealt if p),
        objectives=tuple(ObjectiveSlot(o, o.tokens) for o in chosen),
    )


@lru_cache(maxsize=4096)
def _cells_for(positions: tuple[Pos, ...]) -> tuple[Pos, ...]:
    """Stacks and the empty cells next to them that keep the landscape in a 3x3."""
    occ = set(positions)
    out = list(positions)
    for (r, c) in positions:
        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if n not in occ and n not in out and fits_frame(list(positions) + [n]):
                out.append(n)
    return tuple(out)


def _candidate_cells(land: Landscape) -> tuple[Pos, ...]:
    return _cells_for(land.positions)


def _placeable(rules: Rules, land: Landscape, card: Card) -> bool:
    """Whether ``card`` goes on the landscape now without a skip (same answer as asking
    placement_problem of every candidate cell, measured 5x faster)."""
    if card.value == rules.min_value:
        return len(_candidate_cells(land)) > len(land.stacks)
    for p, cards in land.stacks:
        top = cards[-1]
        if top.colour == card.colour and top.value == card.value - 1 and p != land.scissors_at:
            return True
    return False


@dataclass
class Bot:
    """The greedy bot (stateless between turns)."""

    rules: Rules
    max_value: int

    def choose(self, game: Game) -> Take | Place | Pass:
        me = game.current
        player = game.players[me]
        final = game.final_turns_left is not None
        best_place, place_value = self._best_place(game, me, player)
        best_take, take_value = self._best_take(game, player)
        if best_take is None:
            return best_place if best_place is not None else Pass()
        if best_place is not None and (place_value >= take_value or final
                                       or len(player.hand) >= self.rules.hand_limit - 1):
            return best_place
        return best_take

    # -- placing
    def _best_place(self, game: Game, me: int, player: Player) -> tuple[Place | None, float]:
        keys: list[tuple[str, object]] = []
        for c in player.hand:
            if ("colour", c.colour) not in keys:
                keys.append(("colour", c.colour))
            if ("value", c.value) not in keys:
                keys.append(("value", c.value))
        best: Place | None = None
        best_v = 0.0
        for key in keys:
            move, v = self._build_place(game, me, player, key)
            if move is not None and v > best_v:
                best, best_v = move, v
        return best, best_v

    def _build_place(self, game: Game, me: int, player: Player,
                     key: tuple[str, object]) -> tuple[Place | None, float]:
        land = player.land
        hand = list(player.hand)
        holds = player.has_scissors
        skip_used = False
        discard: Card | None = None
        placed: list[tuple[Card, Pos]] = []
        scissors_on: int | None = None
        value = 0.0
        while True:
            pick: tuple[float, Card, Pos, bool] | None = None
            for card in hand:
                if (key[0] == "colour" and card.colour != key[1]) or (
                        key[0] == "value" and card.value != key[1]):
                    continue
                spare = holds or len(hand) > 1
                can_skip = not skip_used and spare
                for pos in _candidate_cells(land):
                    err, uses = placement_problem(self.rules, land, card, pos, can_skip)
                    if err is not None:
                        continue
                    old = land.stack(pos)
                    gain = card.stars - (old[-1].stars if old else 0) + 1.0
                    if not old:
                        gain -= 0.2  # a new stack spends a spot of the 3x3
                    if uses and not holds:
                        gain -= 0.5  # the discarded card could have been placed later
                    if pick is None or gain > pick[0]:
                        pick = (gain, card, pos, uses)
            if pick is None:
                break
            gain, card, pos, uses = pick
            hand.remove(card)
            if uses:
                skip_used = True
                if not holds:
                    # Pay with the least useful other card.
                    pay = min(hand, key=lambda h: (self._useful(land, h), h))
                    hand.remove(pay)
                    discard = pay
            land = land.with_card(pos, card)
            placed.append((card, pos))
            value += gain
            if card.scissors and not holds and card.value >= self.max_value - 1:
                scissors_on = len(placed) - 1
                land = land.with_scissors(pos)
                holds = True
                value += self.rules.scissors_bonus
        if not placed:
            return None, 0.0
        tops = land.tops()
        for slot in game.objectives:
            if slot.tokens and slot.objective.id not in player.claimed and objective_met(
                    slot.objective, tops, self.rules.values):
                value += slot.tokens[0]
        return Place(tuple(placed), discard, scissors_on), value

    # -- taking
    def _useful(self, land: Landscape, card: Card) -> float:
        if _placeable(self.rules, land, card):
            return 1.0
        for p, cards in land.stacks:
            top = cards[-1]
            if top.colour == card.colour and card.value > top.value and p != land.scissors_at:
                return 0.6 if card.value - top.value <= 3 else 0.3
        return 0.4 if card.value <= self.rules.min_value + 1 else 0.1

    def _best_take(self, game: Game, player: Player) -> tuple[Take | None, float]:
        tops = [p[-1] for p in game.piles if p]
        if not tops:
            return None, 0.0
        best: Take | None = None
        best_v = -1e9
        options: list[tuple[str | None, int | None]] = []
        for t in tops:
            if (t.colour, None) not in options:
                options.append((t.colour, None))
            if (None, t.value) not in options:
                options.append((None, t.value))
        for colour, value in options:
            got = [t for t in tops if t.colour == colour or t.value == value]
            hand = list(player.hand) + got
            excess = len(hand) - self.rules.hand_limit
            overflow: tuple[Card, ...] = ()
            if excess > 0:
                ranked = sorted(hand, key=lambda h: (self._useful(player.land, h), h))
                overflow = tuple(ranked[:excess])
            v = sum(self._useful(player.land, c) for c in got) - 1.5 * max(0, excess)
            v -= 0.35 * len(got)  # each card held costs a point unless it is placed
            if v > best_v:
                best, best_v = Take(colour, value, overflow), v
        return best, best_v


@dataclass
class GameResult:
    players: int
    scores: tuple[int, ...]
    turns: int
    objectives: tuple[str, ...]
    taken: tuple[str, ...]
    """Objectives in play that at least one player claimed."""
    first_turn: dict[str, int] = field(default_factory=dict)
    """For each objective taken: the game turn (all players' turns counted) it was first taken."""
    discards: tuple[int, ...] = ()
    """Cards in each player's discard at the end (the seed's tie-break)."""

    @property
    def tie(self) -> str:
        """"" (a clear top total), "tie-break" (equal top totals, decided by fewer cards in
        the discard) or "shared" (equal on both)."""
        if not self.scores or self.scores.count(max(self.scores)) < 2:
            return ""
        places = standings(self.scores, self.discards or (0,) * len(self.scores))
        return "shared" if places.count(1) > 1 else "tie-break"


def play(gen: LayersSet, rules: Rules, players: int, piles: int, objectives: int,
         seed: int, index: int) -> GameResult:
    game = new_game(gen, rules, players, piles, objectives, seed, index)
    bot = Bot(rules, gen.values[-1])
    first: dict[str, int] = {}
    while not game.over and game.turns < MAX_TURNS:
        move = bot.choose(game)
        try:
            game = game.step(move)
        except IllegalMove as e:  # the bot proposes only legal moves; say so loudly if not
            raise AssertionError(f"bot move {move} was illegal: {e}") from e
        for slot in game.objectives:
            if slot.objective.id not in first and len(slot.tokens) < len(slot.objective.tokens):
                first[slot.objective.id] = game.turns
    scores = tuple(score_player(rules, p).total for p in game.players)
    claimed = set().union(*(p.claimed for p in game.players))
    ids = tuple(s.objective.id for s in game.objectives)
    return GameResult(players, scores, game.turns, ids, tuple(i for i in ids if i in claimed),
                      first, tuple(len(p.discard) for p in game.players))


@dataclass
class SimSummary:
    games: int = 0
    in_play: dict[str, int] = field(default_factory=dict)
    taken: dict[str, int] = field(default_factory=dict)
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    by_players: dict[int, int] = field(default_factory=dict)
    first_turns: dict[str, list[int]] = field(default_factory=dict)
    ties: dict[str, int] = field(default_factory=lambda: {"tie-break": 0, "shared": 0})

    def turn_mean(self, oid: str) -> float | None:
        """Mean game turn at which the objective was first taken (None if never)."""
        ts = self.first_turns.get(oid)
        return round(statistics.fmean(ts), 1) if ts else None

    def add(self, r: GameResult) -> None:
        self.games += 1
        for o in r.objectives:
            self.in_play[o] = self.in_play.get(o, 0) + 1
        for o in r.taken:
            self.taken[o] = self.taken.get(o, 0) + 1
        for o, t in r.first_turn.items():
            self.first_turns.setdefault(o, []).append(t)
        self.scores.extend(r.scores)
        self.winners.append(max(r.scores))
        self.turns.append(r.turns)
        self.by_players[r.players] = self.by_players.get(r.players, 0) + 1
        if r.tie:
            self.ties[r.tie] += 1

    def share(self, oid: str) -> float | None:
        n = self.in_play.get(oid, 0)
        return None if n == 0 else self.taken.get(oid, 0) / n

    def figures(self) -> dict[str, Any]:
        if not self.games:
            return {"games": 0}
        return {
            "games": self.games,
            "games_by_players": {str(k): v for k, v in sorted(self.by_players.items())},
            "score_min": min(self.scores),
            "score_max": max(self.scores),
            "score_mean": round(statistics.fmean(self.scores), 2),
            "score_stdev": round(statistics.pstdev(self.scores), 2),
            "winner_mean": round(statistics.fmean(self.winners), 2),
            "turns_mean": round(statistics.fmean(self.turns), 1),
            "top_total_tied": dict(self.ties),
            "objective_taken_share": {
                k: round(self.taken.get(k, 0) / v, 3) for k, v in sorted(self.in_play.items())
            },
            "objective_taken_turn_mean": {
                k: self.turn_mean(k) for k in sorted(self.in_play) if k in self.first_turns
            },
        }


def play_batch(gen: LayersSet, rules: Rules, player_counts: tuple[int, ...], piles: int,
               objectives: int, seed: int, games: int) -> list[GameResult]:
    """``games`` seeded games from one batch seed, cycling through ``player_counts`` (what
    ``sample_until`` plays)."""
    return [play(gen, rules, player_counts[g % len(player_counts)], piles, objectives, seed, g)
            for g in range(games)]


def summarise(results: list[GameResult]) -> SimSummary:
    out = SimSummary()
    for r in results:
        out.add(r)
    return out


def simulate(gen: LayersSet, rules: Rules, games: int, player_counts: tuple[int, ...],
             piles: int, objectives: int, seed: int) -> SimSummary:
    """``games`` seeded games, cycling through ``player_counts``."""
    return summarise(play_batch(gen, rules, player_counts, piles, objectives, seed, games))
