"""Typed errors. Library code raises these; only :mod:`generator.cli` prints and exits.

Each error class carries the process exit code the CLI uses for it (click's convention):
2 for bad input (deck files, arguments), 1 for a deck that fails its checks, 3 for a
failure while writing output, 4 for a command stopped by ``--time-limit``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One problem found in a deck: a stable code, where it is, what is wrong, what is valid.

    ``path`` is the key path inside the deck file (``("parks", "cards", 3, "rows")``);
    ``file`` and ``line`` are filled in by the deck loader, which knows the source text.
    """

    code: str
    path: tuple[str | int, ...]
    message: str
    hint: str = ""
    file: str = ""
    line: int = 0

    @property
    def key(self) -> str:
        """The key path as written in messages: ``parks.cards[3].rows``."""
        out = ""
        for part in self.path:
            if isinstance(part, int):
                out += f"[{part}]"
            else:
                out += ("." if out else "") + part
        return out or "(deck)"

    def format(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else (self.file or "<deck>")
        text = f"{where}: {self.key}: {self.message}"
        if self.hint:
            text += f"; {self.hint}"
        return f"{text} [{self.code}]"


class PaperProofError(Exception):
    """Base class of every error PaperProof raises on purpose."""

    exit_code = 1


class TimeLimitError(PaperProofError):
    """A whole command ran past ``--time-limit`` and was stopped. The clock never decides a
    verdict (budgets count search nodes); it may only stop a command, and says so."""

    exit_code = 4


class DeckError(PaperProofError):
    """A deck file is invalid. Carries every problem found, not only the first."""

    exit_code = 2

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(p.format() for p in problems))


class UsageError(PaperProofError):
    """A command-line argument is invalid (a bad ``--only`` range, an unknown family)."""

    exit_code = 2


class LayoutError(PaperProofError):
    """A component cannot be drawn as specified (text that does not fit at the minimum size)."""

    exit_code = 2


class GenerationError(PaperProofError):
    """A generator could not produce a valid component within its bounded number of tries."""

    exit_code = 2


class OutputError(PaperProofError):
    """Writing the output failed; the previous output is left intact."""

    exit_code = 3
