"""Verdicts: what a completability search answers. Never a bare bool."""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    """The answer of a completability check.

    ``UNKNOWN`` means the search budget ran out: it is never silently treated as either of
    the other two.
    """

    COMPLETABLE = "completable"
    IMPOSSIBLE = "impossible"
    UNKNOWN = "unknown"

    def __repr__(self) -> str:
        return f"Verdict.{self.name}"
