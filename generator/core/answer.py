"""The one answer type of every completability question, and the one illegal-move error.

Every family asks questions of its components ("can park card 3 be completed from a fresh
sheet?", "can the 9x9 board be filled?") and answers each with an :class:`Answer`: a
:class:`~generator.core.verdict.Verdict`, a certificate (the JSON form of every choice made)
or a reason, and the search nodes spent. A certificate is believed only after the family's
rules engine replays it; a move the rules forbid raises :class:`IllegalMove`, whose message
says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .verdict import Verdict


class IllegalMove(ValueError):
    """A move the rules do not allow (or a certificate that does not hold); the message says
    why. Every family's rules engine raises this one class."""


@dataclass(frozen=True)
class Answer:
    """A completability answer: ``completable`` with a ``certificate`` (JSON-able: what the
    report carries and anyone can replay), ``impossible`` with a ``reason`` a designer can
    act on, or ``unknown`` (the budget ran out; ``reason`` says so). ``nodes``: search nodes
    spent, the deterministic measure of effort. ``extra``: JSON-able facts the family wants
    in the report entry beside the certificate."""

    verdict: Verdict
    certificate: Any = None
    reason: str = ""
    nodes: int = 0
    extra: Any = None

    def __post_init__(self) -> None:
        if self.verdict is Verdict.COMPLETABLE and self.certificate is None:
            raise ValueError("a completable answer carries its certificate")
        if self.verdict is not Verdict.COMPLETABLE and self.certificate is not None:
            raise ValueError(f"an {self.verdict.value} answer carries no certificate")
        if self.verdict is Verdict.IMPOSSIBLE and not self.reason:
            raise ValueError("an impossible answer says why")
