"""The layers rules engine: landscapes, stacking legality, take/place turns, the skip, the
hand limit, the scissors token, objectives at the end of a turn, the end trigger, scoring.

Everything is immutable: a move returns a new state, so searches and the simulator never undo.
Rules decisions where the seed is silent are listed in ``docs/families/layers.md``; the main
ones: the centre is ``piles`` face-up piles and a take takes the *top* card of every pile that
shows the announced colour/value; the skip jumps exactly one value (a top of 3 takes a 5) and
works for a new stack too (it may start at the lowest value + 1); one skip per turn; the hand
limit discards the excess (chosen by the player) to the discard pile; every objective met at the
end of a turn pays its highest remaining token.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from ...core.answer import IllegalMove as IllegalMove
from .model import Card, Objective, Pos
from .objectives import objective_met

FRAME = 3
"""The landscape is at most FRAME x FRAME stacks."""


# IllegalMove (a move the rules forbid; the message says why) is the core's one illegal-move
# error, imported above and re-exported for this family's modules.


@dataclass(frozen=True)
class Rules:
    """The numbers of the rules that vary by deck."""

    values: tuple[int, ...] = (1, 2, 3, 4, 5)
    hand_limit: int = 9
    end_piles: int = 2
    scissors_bonus: int = 2

    @property
    def min_value(self) -> int:
        return self.values[0]


# --------------------------------------------------------------------------------------------
# One player's landscape


@dataclass(frozen=True)
class Landscape:
    """Stacks by position (bottom card first), and where the scissors token sits, if here.

    Text form (``str``/``parse``): one stack per line, ``row,col: fern 1 > fern 2``, and a
    line ``scissors: row,col`` when the token is on this landscape.
    """

    stacks: tuple[tuple[Pos, tuple[Card, ...]], ...] = ()
    scissors_at: Pos | None = None

    @classmethod
    def starting(cls, card: Card, pos: Pos = (0, 0)) -> Landscape:
        return cls(((pos, (card,)),))

    @cached_property
    def _index(self) -> dict[Pos, tuple[Card, ...]]:
        # Cached (the landscape is immutable): the bot asks ~40 legality questions per state.
        return dict(self.stacks)

    def as_dict(self) -> dict[Pos, tuple[Card, ...]]:
        return dict(self._index)

    def stack(self, pos: Pos) -> tuple[Card, ...]:
        return self._index.get(pos, ())

    def tops(self) -> dict[Pos, Card]:
        return {p: cards[-1] for p, cards in self.stacks}

    @cached_property
    def positions(self) -> tuple[Pos, ...]:
        return tuple(p for p, _ in self.stacks)

    def card_count(self) -> int:
        return sum(len(c) for _, c in self.stacks)

    def with_card(self, pos: Pos, card: Card) -> Landscape:
        d = self.as_dict()
        d[pos] = d.get(pos, ()) + (card,)
        return replace(self, stacks=tuple(sorted(d.items())))

    def with_scissors(self, pos: Pos | None) -> Landscape:
        return replace(self, scissors_at=pos)

    def __str__(self) -> str:
        lines = [
            f"{r},{c}: " + " > ".join(card.text for card in cards)
            for (r, c), cards in self.stacks
        ]
        if self.scissors_at is not None:
            lines.append(f"scissors: {self.scissors_at[0]},{self.scissors_at[1]}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Landscape.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str, stars: Mapping[int, int] | None = None) -> Landscape:
        """Read the text form back; ``stars`` gives each value's stars (default 0)."""
        from .model import parse_card_text

        stacks: dict[Pos, tuple[Card, ...]] = {}
        scissors: Pos | None = None
        for raw in text.splitlines():
            line = raw.strip()
            if not line:
                continue
            head, _, rest = line.partition(":")
            if head.strip() == "scissors":
                scissors = _parse_pos(rest)
                continue
            pos = _parse_pos(head)
            cards = []
            for t in rest.split(">"):
                colour, value, sc = parse_card_text(t)
                cards.append(Card(colour, value, sc, (stars or {}).get(value, 0)))
            stacks[pos] = tuple(cards)
        return cls(tuple(sorted(stacks.items())), scissors)


def _parse_pos(text: str) -> Pos:
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"{text.strip()!r} is not a position; write 'row,col'")
    return (int(parts[0]), int(parts[1]))


def fits_frame(positions: Iterable[Pos]) -> bool:
    r0 = c0 = 1 << 30
    r1 = c1 = -(1 << 30)
    for r, c in positions:
        r0, r1 = min(r0, r), max(r1, r)
        c0, c1 = min(c0, c), max(c1, c)
    return r1 - r0 < FRAME and c1 - c0 < FRAME


def placement_problem(
    rules: Rules, land: Landscape, card: Card, pos: Pos, can_skip: bool
) -> tuple[str | None, bool]:
    """Why ``card`` may not go on ``pos`` (None if it may), and whether it uses the skip.

    A stack holds one colour with values rising by exactly one, or by two with the skip; a
    new stack starts at the lowest value (or the next with the skip), orthogonally next to a
    stack, and the landscape must still fit a 3x3.
    """
    cards = land.stack(pos)
    if cards:
        top = cards[-1]
        if land.scissors_at == pos:
            return "the scissors token blocks this stack", False
        if top.colour != card.colour:
            return f"a {card.colour} card cannot go on a {top.colour} stack", False
        step = card.value - top.value
        base = f"on a {top.value}"
    else:
        if land.stacks:
            r, c = pos
            occ = land._index
            if not any(n in occ for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))):
                return "a new stack must be orthogonally next to a stack", False
            if not fits_frame(list(land.positions) + [pos]):
                return "the landscape would no longer fit a 3x3", False
        step = card.value - (rules.min_value - 1)
        base = "to start a stack"
    if step == 1:
        return None, False
    if step == 2:
        if can_skip:
            return None, True
        return f"a {card.value} {base} skips a value: it needs the skip", False
    if step <= 0:
        return f"values must rise: a {card.value} cannot go {base}", False
    return f"a {card.value} {base} skips {step - 1} values; the skip jumps only one", False


# --------------------------------------------------------------------------------------------
# Moves


@dataclass(frozen=True)
class Take:
    """Take the top card of every pile showing ``colour`` (or ``value``). ``overflow`` are the
    cards discarded to get back to the hand limit."""

    colour: str | None = None
    value: int | None = None
    overflow: tuple[Card, ...] = ()

    def __str__(self) -> str:
        what = self.colour if self.colour is not None else str(self.value)
        extra = (" discard " + ", ".join(c.text for c in self.overflow)) if self.overflow else ""
        return f"take {what}{extra}"


@dataclass(frozen=True)
class Place:
    """Place cards of one colour or one value, in order. ``skip_discard`` pays for the skip
    (not needed while holding the scissors token); ``scissors_on`` is the index of the placed
    scissors card that takes the scissors token."""

    cards: tuple[tuple[Card, Pos], ...]
    skip_discard: Card | None = None
    scissors_on: int | None = None

    def __str__(self) -> str:
        parts = [f"{c.text}@{p[0]},{p[1]}" for c, p in self.cards]
        out = "place " + ", ".join(parts)
        if self.skip_discard is not None:
            out += f" skip {self.skip_discard.text}"
        if self.scissors_on is not None:
            out += f" scissors {self.scissors_on}"
        return out


@dataclass(frozen=True)
class Pass:
    """Only when no pile has a card left and nothing is placed."""

    def __str__(self) -> str:
        return "pass"


Move = Take | Place | Pass


def parse_move(text: str, stars: Mapping[int, int] | None = None) -> Move:
    """Read a move's text form back: ``take fern``, ``take 3 discard fern 2, tide 1``,
    ``place fern 2@0,0, fern 3@0,1 skip clay 5 scissors 0``, ``pass``. ``stars`` gives each
    value's stars (default 0; stars are not part of a card's identity)."""
    from .model import parse_card_text

    def card(t: str) -> Card:
        colour, value, sc = parse_card_text(t)
        return Card(colour, value, sc, (stars or {}).get(value, 0))

    words = text.strip()
    if words == "pass":
        return Pass()
    if words.startswith("take "):
        what, _, rest = words[5:].partition(" discard ")
        what = what.strip()
        overflow = tuple(card(t) for t in rest.split(",")) if rest else ()
        if what.lstrip("-").isdigit():
            return Take(value=int(what), overflow=overflow)
        return Take(colour=what, overflow=overflow)
    if words.startswith("place "):
        body = words[6:]
        scissors_on: int | None = None
        if " scissors " in body and body.rsplit(" scissors ", 1)[1].strip().isdigit():
            body, _, k = body.rpartition(" scissors ")
            scissors_on = int(k)
        body, _, skip = body.partition(" skip ")
        items = [i.strip() for i in re.split(r",\s*(?=[a-z])", body)]
        cards = []
        for item in items:
            t, _, at = item.partition("@")
            cards.append((card(t), _parse_pos(at)))
        return Place(tuple(cards), card(skip) if skip else None, scissors_on)
    raise ValueError(f"{text!r} is not a move; write 'take <colour|value>', "
                     "'place <card>@<row>,<col>, ...' or 'pass'")


# --------------------------------------------------------------------------------------------
# Players and the game


@dataclass(frozen=True)
class Player:
    land: Landscape
    hand: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    tokens: tuple[int, ...] = ()
    claimed: frozenset[str] = frozenset()

    @property
    def has_scissors(self) -> bool:
        return self.land.scissors_at is not None


def _remove(cards: tuple[Card, ...], gone: Iterable[Card]) -> tuple[Card, ...]:
    """Remove each card of ``gone`` once from ``cards``; IllegalMove if one is missing."""
    left = list(cards)
    for g in gone:
        for i, c in enumerate(left):
            if c == g:
                del left[i]
                break
        else:
            raise IllegalMove(f"{g.text} is not in the hand")
    return tuple(left)


def apply_place(
    rules: Rules, players: tuple[Player, ...], me: int, move: Place
) -> tuple[Player, ...]:
    """Play a place turn for player ``me``; the scissors token may come from another player."""
    if not move.cards:
        raise IllegalMove("a place turn places at least one card")
    cards = [c for c, _ in move.cards]
    if len({c.colour for c in cards}) > 1 and len({c.value for c in cards}) > 1:
        raise IllegalMove("the placed cards must share one colour or one value")
    player = players[me]
    hand = _remove(player.hand, cards)
    if move.skip_discard is not None:
        hand = _remove(hand, [move.skip_discard])
    land = player.land
    holds = player.has_scissors
    skipped = False
    paid = False
    others = list(players)
    for k, (card, pos) in enumerate(move.cards):
        can_skip = not skipped and (holds or move.skip_discard is not None)
        err, uses = placement_problem(rules, land, card, pos, can_skip)
        if err is not None:
            raise IllegalMove(f"{card.text} at {pos[0]},{pos[1]}: {err}")
        if uses:
            skipped = True
            paid = not holds
        land = land.with_card(pos, card)
        if move.scissors_on == k:
            if not card.scissors:
                raise IllegalMove(f"{card.text} has no scissors logo: it cannot take the token")
            for j, other in enumerate(others):
                if j != me and other.has_scissors:
                    others[j] = replace(other, land=other.land.with_scissors(None))
            land = land.with_scissors(pos)
            holds = True
    if move.scissors_on is not None and not 0 <= move.scissors_on < len(move.cards):
        raise IllegalMove("scissors_on names no placed card")
    discard = player.discard
    if move.skip_discard is not None:
        if not skipped:
            raise IllegalMove("a card was discarded for a skip but no value was skipped")
        if not paid:
            raise IllegalMove("the skip is free with the scissors token: discard nothing")
        discard = discard + (move.skip_discard,)
    others[me] = replace(player, land=land, hand=hand, discard=discard)
    return tuple(others)


def take_cards(
    piles: tuple[tuple[Card, ...], ...], colour: str | None, value: int | None
) -> tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...]]:
    """The cards a take picks up (top of each matching pile) and the piles left (empty ones
    removed)."""
    if (colour is None) == (value is None):
        raise IllegalMove("a take names a colour or a value")
    got: list[Card] = []
    left: list[tuple[Card, ...]] = []
    for pile in piles:
        top = pile[-1]
        if (colour is not None and top.colour == colour) or (value is not None and
                                                              top.value == value):
            got.append(top)
            if len(pile) > 1:
                left.append(pile[:-1])
        else:
            left.append(pile)
    if not got:
        what = colour if colour is not None else str(value)
        raise IllegalMove(f"no pile shows {what}")
    return tuple(got), tuple(left)


@dataclass(frozen=True)
class ObjectiveSlot:
    objective: Objective
    tokens: tuple[int, ...]
    """Tokens left, highest first."""


@dataclass(frozen=True)
class Game:
    rules: Rules
    players: tuple[Player, ...]
    piles: tuple[tuple[Card, ...], ...]
    objectives: tuple[ObjectiveSlot, ...]
    current: int = 0
    turns: int = 0
    final_turns_left: int | None = None
    log: tuple[str, ...] = field(default=(), compare=False)

    @property
    def over(self) -> bool:
        return self.final_turns_left == 0

    def step(self, move: Move) -> Game:
        """Play ``move`` for the current player, then the end-of-turn steps."""
        if self.over:
            raise IllegalMove("the game is over")
        me = self.current
        players = self.players
        piles = self.piles
        if isinstance(move, Take):
            got, piles = take_cards(piles, move.colour, move.value)
            p = players[me]
            hand = p.hand + got
            excess = len(hand) - self.rules.hand_limit
            if len(move.overflow) != max(0, excess):
                raise IllegalMove(
                    f"the hand holds {len(hand)} cards: discard exactly {max(0, excess)}"
                )
            hand = _remove(hand, move.overflow)
            p = replace(p, hand=hand, discard=p.discard + move.overflow)
            players = players[:me] + (p,) + players[me + 1:]
        elif isinstance(move, Place):
            players = apply_place(self.rules, players, me, move)
        else:
            if any(piles):
                raise IllegalMove("pass only when no pile is left to take from")
        players, slots = claim_objectives(self.rules, players, me, self.objectives)
        final = self.final_turns_left
        if final is None:
            if len(piles) <= self.rules.end_piles:
                final = len(players)  # everyone, the trigger player included, plays once more
        else:
            final -= 1
        return replace(
            self, players=players, piles=piles, objectives=slots,
            current=(me + 1) % len(players), turns=self.turns + 1, final_turns_left=final,
            log=self.log + (f"p{me}: {move}",),
        )


def claim_objectives(
    rules: Rules, players: tuple[Player, ...], me: int, slots: tuple[ObjectiveSlot, ...]
) -> tuple[tuple[Player, ...], tuple[ObjectiveSlot, ...]]:
    """End of turn: every objective the player meets and has not claimed pays its highest
    remaining token."""
    p = players[me]
    tops = p.land.tops()
    new_slots = list(slots)
    for i, slot in enumerate(slots):
        oid = slot.objective.id
        if oid in p.claimed or not slot.tokens:
            continue
        if objective_met(slot.objective, tops, rules.values):
            p = replace(p, tokens=p.tokens + (slot.tokens[0],), claimed=p.claimed | {oid})
            new_slots[i] = replace(slot, tokens=slot.tokens[1:])
    return players[:me] + (p,) + players[me + 1:], tuple(new_slots)


# --------------------------------------------------------------------------------------------
# Scoring


@dataclass(frozen=True)
class Score:
    stars: int
    tokens: int
    scissors: int
    hand: int
    discard: int

    @property
    def total(self) -> int:
        return self.stars + self.tokens + self.scissors - self.hand - self.discard


def score_player(rules: Rules, player: Player) -> Score:
    """Stars on top cards + objective tokens + the scissors bonus - cards in hand and discard."""
    return Score(
        stars=sum(t.stars for t in player.land.tops().values()),
        tokens=sum(player.tokens),
        scissors=rules.scissors_bonus if player.has_scissors else 0,
        hand=len(player.hand),
        discard=len(player.discard),
    )


def card_counter(cards: Iterable[Card]) -> Counter[tuple[str, int, bool]]:
    return Counter(c.kind for c in cards)


def standings(totals: Sequence[int], discards: Sequence[int]) -> list[int]:
    """Every player's place (1 = winner): the higher total first; on equal totals the seed's
    tie-break, fewer cards in the discard; players equal on both share the place."""
    keys = [(t, -d) for t, d in zip(totals, discards, strict=True)]
    return [1 + sum(1 for other in keys if other > k) for k in keys]
