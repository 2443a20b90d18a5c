"""Seeded two-player games with pluggable bots, and the balance figures they give.

A bot is anything with ``choose(game, state) -> Action`` for the player to move. Each game
``i`` of a run lays the ring out from its own stream ``make_rng(seed, "quilts-game", i)``, so a
run's figures depend only on the deck and the seed.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...core.rng import make_rng
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
