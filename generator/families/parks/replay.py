"""Replaying certificates and move logs through the rules engine.

A proof is believed only after this module has played every one of its moves through
:mod:`.rules` from a fresh sheet: cuts legal and of the face's lengths, every tie named,
every freed section placed legally or crumpled only when it had no legal place, Extra Cuts
only when a completed card awarded them, and the cards complete at the end.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cert import Certificate, HandCertificate, Placed, RoundPlan
from .model import Card, Die, Sheet
from .rules import Build, PlayerState, RuleError, build, extra_cut, play_cuts


def engine_builds(player: PlayerState, placed: Sequence[Placed],
                  crumpled: Sequence[frozenset[tuple[int, int]]]) -> list[Build]:
    """The engine's builds for ``placed`` (card ids turned into face-up positions) then
    ``crumpled``; RuleError when a placement names a card that is not face up."""
    where = {cs.card.id: k for k, cs in enumerate(player.face_up)}
    out: list[Build] = []
    for p in placed:
        if p.card not in where:
            raise RuleError(f"a section goes on {p.card}, which is not face up (still in the "
                            "pile, already complete, or not dealt)")
        out.append(Build(p.section, where[p.card], p.placement))
    out.extend(Build(s) for s in crumpled)
    return out


def play_plan_round(player: PlayerState, die: Die, rp: RoundPlan) -> PlayerState:
    """One written round through the engine: the cuts, BUILD and CHECK, then each Extra Cut
    with its own BUILD and CHECK (so an Extra Cut may earn the next one)."""
    player, freed = play_cuts(player, die, rp.face, rp.cuts, rp.keeps)
    player = build(player, engine_builds(player, rp.placed, rp.crumpled), freed)
    for j, ex in enumerate(rp.extra):
        try:
            player = extra_cut(player, rp.face, ex.cut,
                               engine_builds(player, ex.placed, ex.crumpled), ex.keep)
        except RuleError as err:
            raise RuleError(f"extra cut {j + 1}: {err}") from None
    return player


def replay_rounds(player: PlayerState, die: Die, rounds: Sequence[RoundPlan]
                  ) -> tuple[PlayerState, str]:
    """Play ``rounds`` from ``player``; the player reached and ``""``, or the player before
    the failing round and what went wrong (round and rule)."""
    for i, rp in enumerate(rounds):
        try:
            player = play_plan_round(player, die, rp)
        except RuleError as err:
            return player, f"round {i + 1}: {err}"
    return player, ""


def replay(sheet: Sheet, die: Die, card: Card, cert: Certificate) -> str:
    """Replay ``cert`` through the rules engine; ``""`` when it completes ``card`` legally,
    else what went wrong (round and rule)."""
    if cert.card != card.id:
        return f"the certificate is for {cert.card}, not {card.id}"
    player, problem = replay_rounds(PlayerState.start(sheet, [card]), die, cert.rounds)
    if problem:
        return problem
    if card not in player.completed:
        return f"after {len(cert.rounds)} rounds the card is not complete"
    return ""


def replay_hand(sheet: Sheet, die: Die, cards: Sequence[Card], cert: HandCertificate) -> str:
    """Replay ``cert`` with ``cards`` dealt in order (two face up, the rest the pile; the
    engine turns the next pile card face up when one completes); ``""`` when every card
    completes legally, else the round and the rule broken."""
    ids = tuple(c.id for c in cards)
    if cert.deal != ids:
        return f"the certificate is for the deal {list(cert.deal)}, not {list(ids)}"
    player, problem = replay_rounds(PlayerState.start(sheet, cards[:2], cards[2:]), die,
                                    cert.rounds)
    if problem:
        return problem
    missing = [c.id for c in cards if c not in player.completed]
    if missing:
        return (f"after {len(cert.rounds)} rounds {', '.join(missing)} "
                f"{'is' if len(missing) == 1 else 'are'} not complete")
    return ""
