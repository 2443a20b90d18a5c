"""Seeded two-player games with pluggable bots (a greedy and a planning player), and the
balance figures they give, each with its 95% interval.

A bot is anything with ``choose(game, state) -> Action`` for the player to move. Each game
``i`` of a run lays the ring out from its own stream ``make_rng(seed, "quilts-game", i)``, so a
run's figures depend only on the deck and the seed.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from ...core.rng import make_rng
from ...core.stats import (
    Interval,
    Mapper,
    Mean,
    Precision,
    Rate,
    Sample,
    mean_interval,
    rate,
    sample_until,
)
from .model import Piece, Rules, ValueModel
from .rules import (
    Action,
    Buy,
    Game,
    GameState,
    IllegalMove,
    Pass,
    PlacePatch,
    mask_cells,
    options,
)


class Bot(Protocol):
    def choose(self, game: Game, state: GameState) -> Action:
        """The move of the player to move (``game.to_move(state)``)."""


def _contact(filled: int, border: int, edges: int) -> int:
    return edges + (filled & border).bit_count()


class GreedyBot:
    """Buys the piece with the best value-model gain for the game's moment, placed where it
    touches the most covered squares and board edges; passes when no piece beats passing.

    Gain of a piece for a player on space ``p``: ``area * size + icons * (income spaces still
    ahead of p) - cost - time * (spaces it really uses, up to the end)``; passing gains 0 under
    the model (one button per space of time).
    """

    def __init__(self, values: ValueModel) -> None:
        self.values = values

    def __repr__(self) -> str:
        return f"GreedyBot({self.values!r})"

    def choose(self, game: Game, state: GameState) -> Action:
        me = game.to_move(state)
        player = state.players[me]
        rules = game.rules
        filled = player.board.filled
        if state.pending:
            return self._patch(rules, filled)
        ahead = sum(1 for s in rules.track.income if s > player.position)
        room = rules.track.length - player.position
        ranked: list[tuple[float, int]] = []
        for k, index in enumerate(game.choices(state)):
            piece = game.pieces[index]
            if piece.cost > player.buttons:
                continue
            gain = (self.values.area * piece.size + piece.income * ahead - piece.cost
                    - self.values.time * min(piece.time, room))
            if gain > 0:
                ranked.append((-gain, k))
        ranked.sort()
        for _, k in ranked:
            piece = game.pieces[game.choices(state)[k]]
            best = None
            best_score = -1
            for opt in options(piece.shape, rules.rows, rules.cols, rules.blocked):
                if opt.mask & filled:
                    continue
                score = _contact(filled, opt.border, opt.edges)
                if score > best_score:
                    best, best_score = opt, score
            if best is not None:
                return Buy(k, best.transform, best.row, best.col)
        return Pass()

    @staticmethod
    def _patch(rules: Rules, filled: int) -> PlacePatch:
        blocked = rules.blocked
        free = ((1 << (rules.rows * rules.cols)) - 1) & ~filled & ~blocked
        best: tuple[int, int] | None = None
        best_score = -1
        for r, c in mask_cells(free, rules.cols):
            score = 0
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                outside = not (0 <= nr < rules.rows and 0 <= nc < rules.cols)
                if outside or (filled | blocked) >> (nr * rules.cols + nc) & 1:
                    score += 1
            if score > best_score:
                best, best_score = (r, c), score
        if best is None:  # pragma: no cover - the engine never asks with a full board
            raise IllegalMove("no empty square for the patch")
        return PlacePatch(*best)


PLAN_PLACEMENTS = 8
"""Placements (best contact first) the planner compares for dead squares: enough to find a
tidy one, few enough that the flood fills stay cheap."""

DEAD_WEIGHT = 1.0
"""Buttons a dead square costs the planner: an empty square in a pocket smaller than every
piece left will end the game empty (-empty_penalty) unless a 1x1 patch reaches it, so about
half the penalty."""

DENIAL_WEIGHT = 1.0
"""Share of the opponent's best next gain the planner subtracts when its move hands the
opponent the next turn. Measured over 60 head-to-head games: 1.0 beat 0.5 and 0 on points."""


def _gain(values: ValueModel, piece: Piece, position: int, rules: Rules) -> float:
    ahead = sum(1 for s in rules.track.income if s > position)
    room = rules.track.length - position
    return (values.area * piece.size + piece.income * ahead - piece.cost
            - values.time * min(piece.time, room))


def dead_squares(filled: int, rules: Rules, smallest: int) -> int:
    """Empty board squares in pockets (4-connected empty regions) of fewer than ``smallest``
    squares: no piece left can go there."""
    free = ((1 << (rules.rows * rules.cols)) - 1) & ~filled & ~rules.blocked
    cols = rules.cols
    dead = 0
    while free:
        low = free & -free
        region = low
        frontier = low
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            i = bit.bit_length() - 1
            r, c = divmod(i, cols)
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nr < rules.rows and 0 <= nc < cols:
                    nb = 1 << (nr * cols + nc)
                    if free & nb and not region & nb:
                        region |= nb
                        frontier |= nb
        free &= ~region
        size = region.bit_count()
        if size < smallest:
            dead += size
    return dead


class PlannerBot(GreedyBot):
    """The planning player: greedy gains, plus two things greed does not see.

    1. **Denial (a look one move ahead).** A buy moves the marker and usually hands the
       opponent the next turn; the planner subtracts :data:`DENIAL_WEIGHT` of the best gain
       the opponent could then take from the three pieces it will see (passing is valued the
       same way), so it takes a piece the opponent wants when that costs it little.
    2. **Tidy quilts.** Of the :data:`PLAN_PLACEMENTS` placements with most contact, it takes
       the one leaving fewest dead squares (pockets smaller than every piece left), each
       costing :data:`DEAD_WEIGHT` buttons in the comparison of buys.
    """

    def __repr__(self) -> str:
        return f"PlannerBot({self.values!r})"

    def _opponent_best(self, game: Game, state: GameState, me: int,
                       ring: tuple[int, ...]) -> float:
        opp = state.players[1 - me]
        best = 0.0
        for index in ring[:3]:
            piece = game.pieces[index]
            if piece.cost <= opp.buttons:
                best = max(best, _gain(self.values, piece, opp.position, game.rules))
        return best

    @staticmethod
    def _board_value(filled: int, rules: Rules, smallest: int) -> float:
        """What the planner sees in a board beyond the value model: each dead square costs
        :data:`DEAD_WEIGHT`. (Crediting progress towards the bonus square was tried: over
        120 head-to-head games it won no more often.)"""
        return -DEAD_WEIGHT * dead_squares(filled, rules, smallest)

    def choose(self, game: Game, state: GameState) -> Action:
        me = game.to_move(state)
        player = state.players[me]
        rules = game.rules
        filled = player.board.filled
        if state.pending:
            return self._patch(rules, filled)
        other = state.players[1 - me].position
        ring = state.ring
        now = self._board_value(filled, rules, min((game.pieces[i].size for i in ring),
                                                   default=1))
        best: tuple[float, Action] = (
            -DENIAL_WEIGHT * self._opponent_best(game, state, me, ring), Pass())
        for k, index in enumerate(game.choices(state)):
            piece = game.pieces[index]
            if piece.cost > player.buttons:
                continue
            gain = _gain(self.values, piece, player.position, rules)
            if gain <= 0:
                continue
            rest = ring[k + 1:] + ring[:k]
            smallest = min((game.pieces[i].size for i in rest), default=1)
            opts = [o for o in options(piece.shape, rules.rows, rules.cols, rules.blocked)
                    if not o.mask & filled]
            if not opts:
                continue
            opts.sort(key=lambda o: -_contact(filled, o.border, o.edges))
            scored = [(self._board_value(filled | o.mask, rules, smallest), -n, o)
                      for n, o in enumerate(opts[:PLAN_PLACEMENTS])]
            board_value, _, place = max(scored, key=lambda t: (t[0], t[1]))
            value = gain + board_value - now
            if player.position + piece.time > other:
                value -= DENIAL_WEIGHT * self._opponent_best(game, state, me, rest)
            if value > best[0]:
                best = (value, Buy(k, place.transform, place.row, place.col))
        return best[1]


BOTS: dict[str, Callable[[ValueModel], Bot]] = {"greedy": GreedyBot, "planner": PlannerBot}
"""The players the balance figures report: the casual (greedy) and the planning player."""


class RandomBot:
    """A uniformly random legal move (seeded): for property tests and as a weak baseline."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game, state: GameState) -> Action:
        actions = game.legal_actions(state)
        return actions[self.rng.randrange(len(actions))]


@dataclass(frozen=True)
class GameResult:
    scores: tuple[int, int]
    winner: int
    bonus_owner: int | None
    turns: int
    state: GameState


def play_game(game: Game, circle: Sequence[int], bots: Sequence[Bot], first: int = 0,
              max_moves: int = 100_000) -> GameResult:
    """Play one game to the end. ``max_moves`` only guards against a broken bot."""
    state = game.start(circle, first)
    moves = 0
    while not game.is_over(state):
        me = game.to_move(state)
        state = game.apply(state, bots[me].choose(game, state))
        moves += 1
        if moves > max_moves:  # pragma: no cover - every move advances time or uses up a piece
            raise RuntimeError("game did not end")
    scores = (game.score(state, 0), game.score(state, 1))
    return GameResult(scores, game.winner(state), state.bonus_owner, state.turn, state)


@dataclass(frozen=True)
class SimFigures:
    """Balance figures of ``games`` seeded games (seat 0 always starts)."""

    games: int
    first_player_wins: int
    score_mean: float
    score_stdev: float
    first_score_mean: float
    second_score_mean: float
    bonus_games: int
    mean_turns: float

    @property
    def first_player_win_rate(self) -> float:
        return self.first_player_wins / self.games if self.games else 0.0

    @property
    def bonus_share(self) -> float:
        return self.bonus_games / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "first_player_win_rate": round(self.first_player_win_rate, 4),
            "score_mean": round(self.score_mean, 3),
            "score_stdev": round(self.score_stdev, 3),
            "first_score_mean": round(self.first_score_mean, 3),
            "second_score_mean": round(self.second_score_mean, 3),
            "bonus_share": round(self.bonus_share, 4),
            "mean_turns": round(self.mean_turns, 2),
        }


BotFactory = Callable[[int, int], Bot]
"""(game number, seat) -> bot."""


def simulate(pieces: Sequence[Piece], rules: Rules, values: ValueModel, games: int, seed: int,
             bots: BotFactory | None = None) -> SimFigures:
    """Play ``games`` seeded games (greedy bots unless ``bots`` is given)."""
    game = Game(pieces, rules)
    make: BotFactory = bots or (lambda _i, _seat: GreedyBot(values))
    scores: list[int] = []
    first: list[int] = []
    second: list[int] = []
    wins = bonus = turns = 0
    for i in range(games):
        circle = list(range(len(pieces)))
        make_rng(seed, "quilts-game", i).shuffle(circle)
        result = play_game(game, circle, (make(i, 0), make(i, 1)))
        scores.extend(result.scores)
        first.append(result.scores[0])
        second.append(result.scores[1])
        wins += result.winner == 0
        bonus += result.bonus_owner is not None
        turns += result.turns
    return SimFigures(
        games=games,
        first_player_wins=wins,
        score_mean=statistics.fmean(scores) if scores else 0.0,
        score_stdev=statistics.pstdev(scores) if scores else 0.0,
        first_score_mean=statistics.fmean(first) if first else 0.0,
        second_score_mean=statistics.fmean(second) if second else 0.0,
        bonus_games=bonus,
        mean_turns=turns / games if games else 0.0,
    )


# ---------------------------------------------------------------------------------------------
# Sampled figures with 95% intervals (generator/core/stats.py)

PAIRINGS: dict[str, tuple[str, str]] = {
    "greedy": ("greedy", "greedy"),
    "planner": ("planner", "planner"),
    "head-to-head": ("planner", "greedy"),
}
"""Who plays whom: casual players (greedy self-play), planning players (planner self-play),
and the planner against the greedy player (seats swap every game, so neither gains the
first player's edge)."""


@dataclass(frozen=True)
class Outcome:
    """What one sampled game tells the figures (small: batches cross process pools)."""

    scores: tuple[int, int]
    winner: int
    bonus: bool
    turns: int
    first_bot: str
    """The bot in seat 0 (the first player)."""


def play_batch(pieces: Sequence[Piece], rules: Rules, values: ValueModel, pairing: str,
               batch_seed: int, games: int) -> list[Outcome]:
    """One seeded batch: game ``j`` lays the ring out from its own stream of the batch seed;
    in the head-to-head the planner takes seat ``j % 2``."""
    game = Game(pieces, rules)
    a, b = PAIRINGS[pairing]
    out = []
    for j in range(games):
        circle = list(range(len(pieces)))
        make_rng(batch_seed, "quilts-game", j).shuffle(circle)
        seats = (a, b) if j % 2 == 0 else (b, a)
        result = play_game(game, circle, (BOTS[seats[0]](values), BOTS[seats[1]](values)))
        out.append(Outcome(result.scores, result.winner, result.bonus_owner is not None,
                           result.turns, seats[0]))
    return out


@dataclass(frozen=True)
class Balance:
    """Self-play figures of one pairing, each with its 95% interval."""

    first_wins: Rate
    bonus: Rate
    score: Mean
    turns: Mean

    def to_json(self) -> dict[str, Any]:
        return {"first_player_wins": self.first_wins.to_json(), "bonus_taken": self.bonus.to_json(),
                "score": self.score.to_json(), "turns": self.turns.to_json()}


def balance(outcomes: Sequence[Outcome]) -> Balance:
    return Balance(
        rate(sum(1 for o in outcomes if o.winner == 0), len(outcomes)),
        rate(sum(1 for o in outcomes if o.bonus), len(outcomes)),
        mean_interval([s for o in outcomes for s in o.scores]),
        mean_interval([o.turns for o in outcomes]),
    )


@dataclass(frozen=True)
class HeadToHead:
    """The planner against the greedy player: its win rate and its points over the other's."""

    wins: Rate
    margin: Mean

    def to_json(self) -> dict[str, Any]:
        return {"planner_wins": self.wins.to_json(), "margin": self.margin.to_json()}


def head_to_head(outcomes: Sequence[Outcome]) -> HeadToHead:
    def seat(o: Outcome) -> int:
        return 0 if o.first_bot == "planner" else 1
    return HeadToHead(
        rate(sum(1 for o in outcomes if o.winner == seat(o)), len(outcomes)),
        mean_interval([o.scores[seat(o)] - o.scores[1 - seat(o)] for o in outcomes]),
    )


def _measure(pairing: str, outcomes: Sequence[Outcome]) -> list[Interval]:
    """The intervals that must be narrow enough: every rate (and the mean score)."""
    if pairing == "head-to-head":
        h = head_to_head(outcomes)
        return [h.wins]
    b = balance(outcomes)
    return [b.first_wins, b.bonus, b.score]


def sample_pairing(pieces: Sequence[Piece], rules: Rules, values: ValueModel, pairing: str,
                   precision: Precision, seed: int, mapper: Mapper[Any, Any] | None = None,
                   lookahead: int = 1) -> Sample[Outcome]:
    """Games of one pairing in seeded batches until its intervals are narrow enough or the
    cap is reached. Every pairing gets the same batch seeds (the same rings)."""
    return sample_until(partial(play_batch, tuple(pieces), rules, values, pairing),
                        partial(_measure, pairing), precision, seed=seed,
                        stream=("quilts-sim",), mapper=mapper, lookahead=lookahead)
