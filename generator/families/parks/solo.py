"""The solo game, played: setup, the round loop with the pile discard, the end, the points.

Rules (the seed's solo mode; DESIGN.md "Rules decisions: Parks"):

- setup (*decision*: the seed does not fix the counts): ``SOLO_GRANDS`` grand park cards face
  up from the start, and ``SOLO_PARKS`` park cards: the first face up, the rest the draw pile;
- every round, before the roll, the top card of the pile is discarded;
- the round is played as in the race (every cut of the rolled face, BUILD with forced
  placement, CHECK, Extra Cuts at once);
- the game ends when a rolled face cannot be cut in full (the cuts that can be made are
  made and their sections built, then the game ends), or when no card is left face up and
  the pile is empty;
- points: :func:`rules.solo_score` (+3 a completed park card, +5 a completed grand park card,
  +1 a token held, +1 per square of the largest placed section, -1 a crumpled section, -1 an
  incomplete face-up card).

A solo move log is a certificate of the same form (:class:`SoloLog`: the deal and the rounds,
faces as rolled). :func:`replay_solo` plays it through the engine and refuses a log that
breaks a rule or stops before the game is over; :func:`play_solo` is the bot that plays it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...core.budget import Meter
from ...core.grid import Cell, interior_edges
from .cert import CertificateError, Placed, RoundPlan, _list, _obj, _rounds, _str
from .model import Card, Die, Sheet
from .planner import Piece, big_pieces, plan_state, try_face
from .replay import engine_builds, play_plan_round
from .rules import (
    PlayerState,
    RuleError,
    SheetState,
    apply_cut,
    build,
    cut_outcomes,
    forced_builds,
    free_spaces,
    legal_cuts,
    solo_discard,
    solo_score,
)

SOLO_GRANDS = 1
"""Grand park cards face up from the start of a solo game (*decision*; the seed leaves it to
the box's contents)."""

SOLO_PARKS = 5
"""Park cards in a solo deal: the first face up, the rest the pile (the seed's five a player)."""

SOLO_MAX_ROUNDS = 40
"""A bound on the bot's game: the pile loses a card a round, so a game ends well before."""


@dataclass(frozen=True)
class SoloLog:
    """A solo game's moves: ``deal`` (the grand park cards, then the park cards: the first
    face up, the rest the pile, top first), ``grands`` how many of the deal are grand park
    cards, and the rounds with the faces as rolled (the last may be cut only in part, when the
    face cannot be cut in full)."""

    deal: tuple[str, ...]
    grands: int
    rounds: tuple[RoundPlan, ...]

    def to_json(self) -> dict[str, Any]:
        return {"solo": True, "deal": list(self.deal), "grands": self.grands,
                "rounds": [r.to_json() for r in self.rounds]}

    @classmethod
    def from_json(cls, data: Any) -> SoloLog:
        d = _obj(data, "move log", {"solo", "deal", "grands", "rounds"},
                 {"solo", "deal", "grands", "rounds"})
        if d["solo"] is not True:
            raise CertificateError("solo: expected true (a solo move log)")
        deal = tuple(_str(x, f"deal[{i}]") for i, x in enumerate(_list(d["deal"], "deal")))
        grands = d["grands"]
        if isinstance(grands, bool) or not isinstance(grands, int) or not 0 <= grands <= len(deal):
            raise CertificateError(f"grands: expected a whole number 0..{len(deal)}")
        return cls(deal, grands, _rounds(d["rounds"]))


def solo_start(sheet: Sheet, deal: Sequence[Card], grands: int) -> PlayerState:
    """The solo setup: the grand park cards and the first park card face up, the rest the
    pile."""
    up = list(deal[:grands]) + list(deal[grands:grands + 1])
    return PlayerState.start(sheet, up, deal[grands + 1:])


def game_over(player: PlayerState) -> bool:
    """No card left face up and the pile empty (the other end, a face that cannot be cut,
    is decided by the roll)."""
    return not player.face_up and not player.pile


def _cannot_cut(state: SheetState, lengths: Sequence[int]) -> bool:
    return bool(lengths) and all(not legal_cuts(state, n) for n in set(lengths))


def replay_solo(sheet: Sheet, die: Die, deal: Sequence[Card], log: SoloLog
                ) -> tuple[PlayerState | None, str]:
    """Play ``log`` through the engine; the final player and ``""``, or None and the round and
    rule broken. A log must be a whole game: it ends when a face could not be cut in full
    (its last round names fewer cuts than the face, and none of the lengths left can be cut)
    or when no card is left face up and the pile is empty."""
    ids = tuple(c.id for c in deal)
    if log.deal != ids:
        return None, f"the log is for the deal {list(log.deal)}, not {list(ids)}"
    player = solo_start(sheet, deal, log.grands)
    for i, rp in enumerate(log.rounds):
        where = f"round {i + 1}"
        if game_over(player):
            return None, f"{where}: the game was already over (no card face up, pile empty)"
        player = solo_discard(player)
        try:
            if len(rp.cuts) < len(rp.face):
                if i != len(log.rounds) - 1:
                    return None, (f"{where}: face {list(rp.face)} cut only in part, but the "
                                  "game goes on; a face that cannot be cut ends the game")
                player = _partial_round(player, die, rp)
                return player, ""
            player = play_plan_round(player, die, rp)
        except RuleError as err:
            return None, f"{where}: {err}"
    if not game_over(player):
        return None, (f"after {len(log.rounds)} rounds the game is not over (cards face up or "
                      "in the pile, and no face that could not be cut): a move log is a whole "
                      "game")
    return player, ""


def _partial_round(player: PlayerState, die: Die, rp: RoundPlan) -> PlayerState:
    """The last round of a game: the face's cuts that can be made, then proof that none of
    the lengths left can be cut; the freed sections are built as usual."""
    if tuple(rp.face) not in die.faces:
        raise RuleError(f"face {list(rp.face)} is not a face of the die")
    if rp.extra:
        raise RuleError("a round that ends the game earns no Extra Cut")
    left = list(rp.face)
    state = player.sheet.new_round()
    freed: list[frozenset[Cell]] = []
    for k, cut in enumerate(rp.cuts):
        if cut.length not in left:
            raise RuleError(f"cut {cut} has a length the face {list(rp.face)} has no more of")
        left.remove(cut.length)
        res = apply_cut(state, cut, rp.keeps[k])
        state = res.state
        freed.extend(res.freed)
    if not _cannot_cut(state, left):
        can = next(n for n in left if legal_cuts(state, n))
        raise RuleError(f"the log stops with face {list(rp.face)} cut only in part, but a cut "
                        f"of length {can} can still be made (every cut of the roll must be "
                        "made while one can)")
    player = replace(player, sheet=state, rounds=player.rounds + 1, extra_cuts=0)
    return build(player, engine_builds(player, rp.placed, rp.crumpled), freed)


@dataclass(frozen=True)
class SoloGame:
    """A played solo game: its move log, the points table and why it ended."""

    log: SoloLog
    points: dict[str, int]
    ended: str


def play_solo(sheet: Sheet, die: Die, deal: Sequence[Card], grands: int, rng: random.Random,
              meter: Meter) -> SoloGame:
    """The solo bot (the greedy planner of the difficulty figure, on every face-up card):
    each round it keeps sections planned for the face-up cards (:func:`planner.big_pieces`,
    largest card first), cuts the rolled face greedily towards them, places what comes free
    (planned sections as planned, anything else where the rules force it) and re-plans when
    a cut spoilt the plan. Every round goes through the engine."""
    player = solo_start(sheet, deal, grands)
    rounds: list[RoundPlan] = []
    pieces: list[Piece] | None = None
    ended = "the pile and the face-up cards ran out"
    index = {c.id: i for i, c in enumerate(deal)}
    while not game_over(player):
        if len(rounds) >= SOLO_MAX_ROUNDS or meter.exhausted:
            ended = "the bot's bound on rounds was reached"
            break
        player = solo_discard(player)
        if pieces is None:
            pieces = _plan(sheet, player, index, rng, meter)
        face = rng.choice(die.faces)
        boards = {index[cs.card.id]: cs for cs in player.face_up}
        ps = plan_state(sheet, player.sheet, pieces, boards)
        rt = try_face(ps, face, meter, forced=True)
        if rt is None:
            rp, player = _last_round(player, sheet, face)
            rounds.append(rp)
            pieces = None
            if len(rp.cuts) == len(face):
                continue  # cut in full after all (in another order): the game goes on
            ended = f"face {list(face)} could not be cut in full"
            break
        pos = {index[cs.card.id]: k for k, cs in enumerate(player.face_up)}
        planned = {p.section: (pos[p.card], p.placement) for p in pieces
                   if p.section in rt.freed and p.card in pos}
        builds = forced_builds(player.face_up, sheet, rt.freed, planned)
        rp = RoundPlan(tuple(face), tuple(rt.cuts), tuple(rt.keeps),
                       tuple(Placed(player.face_up[b.card].card.id, b.placement)
                             for b in builds if b.placement is not None and b.card is not None),
                       tuple(b.section for b in builds if b.placement is None))
        before = len(player.completed)
        player = play_plan_round(player, die, rp)
        rounds.append(rp)
        forced = any(b.placement is not None and b.section not in planned for b in builds)
        remaining = [p for p in pieces if p.section not in rt.freed]
        state = player.sheet
        broken = forced or len(player.completed) > before or any(
            not p.section <= state.body or interior_edges(p.section) & state.cut
            for p in remaining)
        pieces = None if broken or not remaining else remaining
    log = SoloLog(tuple(c.id for c in deal), grands, tuple(rounds))
    return SoloGame(log, solo_score(player), ended)


def _plan(sheet: Sheet, player: PlayerState, index: dict[str, int], rng: random.Random,
          meter: Meter) -> list[Piece]:
    """Sections for the face-up cards' open spaces on disjoint squares, smallest card first
    (a small card completes soonest: +3 and a new card)."""
    free = player.sheet.body
    out: list[Piece] = []
    for cs in sorted(player.face_up, key=lambda c: (len(free_spaces(c)), c.card.id)):
        got = big_pieces(sheet, cs.card, rng, meter, free=free, cells=free_spaces(cs))
        if got is None:
            continue
        for p in got:
            out.append(Piece(p.section, p.placement, index[cs.card.id]))
            free = free - p.section
    return out


def _last_round(player: PlayerState, sheet: Sheet, face: Sequence[int]
                ) -> tuple[RoundPlan, PlayerState]:
    """The round that ends the game: the cuts of ``face`` that can be made (longest first,
    the first legal one each time), their sections built, then nothing more can be cut."""
    state = player.sheet.new_round()
    left = sorted(face, reverse=True)
    cuts = []
    keeps: list[Cell | None] = []
    freed: list[frozenset[Cell]] = []
    progress = True
    while progress and left:
        progress = False
        for n in list(left):
            legal = legal_cuts(state, n)
            if legal:
                res, keep = cut_outcomes(state, legal[0], trusted=True)[0]
                state = res.state
                cuts.append(legal[0])
                keeps.append(keep)
                freed.extend(res.freed)
                left.remove(n)
                progress = True
                break
    player = replace(player, sheet=state, rounds=player.rounds + 1, extra_cuts=0)
    builds = forced_builds(player.face_up, sheet, freed)
    rp = RoundPlan(tuple(face), tuple(cuts), tuple(keeps),
                   tuple(Placed(player.face_up[b.card].card.id, b.placement)
                         for b in builds if b.placement is not None and b.card is not None),
                   tuple(b.section for b in builds if b.placement is None))
    return rp, build(player, builds, freed)


def solo_deal(cards: Sequence[Card], rng: random.Random) -> list[Card] | None:
    """A random solo deal from the deck: ``SOLO_GRANDS`` grand park cards then ``SOLO_PARKS``
    park cards; None when the deck has too few."""
    grands = [c for c in cards if c.grand]
    parks = [c for c in cards if not c.grand]
    if len(grands) < SOLO_GRANDS or len(parks) < SOLO_PARKS:
        return None
    return rng.sample(grands, SOLO_GRANDS) + rng.sample(parks, SOLO_PARKS)
