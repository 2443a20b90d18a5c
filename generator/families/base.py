"""The shape every family has: components to print, a check report, and the Family contract.

Every family lives in ``generator/families/<name>/`` with the same modules:

- ``model.py``    frozen dataclasses of its components and their rule attributes, and the
                  pydantic ``Params`` model of its deck table;
- ``generate.py`` deck parameters + seed -> components, deterministic;
- ``rules.py``    the game's legal moves and scoring for one player's area (pure);
- ``check.py``    validation and a verdict (with certificate) for every card;
- ``layout.py``   component -> :class:`generator.render.drawing.Drawing`;
- ``__init__.py`` the :class:`Family` subclass that joins them, registered in
                  :data:`generator.families.REGISTRY` (loaded lazily).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeAlias, TypeVar, cast

from pydantic import BaseModel, ConfigDict

from ..core.answer import Answer, IllegalMove
from ..core.budget import Budget
from ..core.stats import Precision
from ..core.verdict import Verdict
from ..deck import Deck
from ..errors import Problem, UsageError
from ..parallel import SERIAL, Pool
from ..render.component import Component, HexNest, Imposition, PolyNest
from ..tomldoc import TomlDoc

Status: TypeAlias = Literal["completable", "impossible", "unknown", "pass", "fail", "warn", "info"]
__all__ = [
    "FAILING", "REPLAY_FAILED", "Answer", "AnyFamily", "CheckEntry", "CheckOptions",
    "Component", "Family", "HexNest", "IllegalMove", "Imposition", "PolyNest", "Question",
    "Report", "ScoreFileModel", "ScoreLine", "ScoreResult", "Settings", "Status",
    "answer_entry",
]

FAILING: frozenset[str] = frozenset({"impossible", "unknown", "fail"})
"""Statuses that make ``check`` exit 1 and ``build`` refuse to print (without --keep-going)."""


@dataclass(frozen=True)
class CheckEntry:
    """One check's answer about one subject (a component id, or ``deck``).

    ``details`` is JSON-able; a completable card's certificate goes under ``certificate``.
    ``code`` is a stable code for anything not passing (``E-PARK-DEMAND-MISSING``).
    """

    subject: str
    check: str
    status: Status
    message: str
    code: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def failing(self) -> bool:
        return self.status in FAILING

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "subject": self.subject,
            "check": self.check,
            "status": self.status,
            "message": self.message,
        }
        if self.code:
            out["code"] = self.code
        if self.details:
            out["details"] = self.details
        return out


@dataclass(frozen=True)
class Report:
    """Every check of one deck, and the deck-wide figures (balance, simulated rates)."""

    deck: str
    family: str
    seed: int
    entries: tuple[CheckEntry, ...]
    figures: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(e.failing for e in self.entries)

    def for_subject(self, subject: str) -> tuple[CheckEntry, ...]:
        return tuple(e for e in self.entries if e.subject == subject)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.entries:
            out[e.status] = out.get(e.status, 0) + 1
        return dict(sorted(out.items()))

    def to_json(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "family": self.family,
            "seed": self.seed,
            "ok": self.ok,
            "counts": self.counts(),
            "entries": [e.to_json() for e in self.entries],
            "figures": self.figures,
        }


def search_budget(deck: Deck) -> Budget:
    """The node budget of one card's search, from ``[check] budget_nodes``: the one place it
    is read (checks get it as ``Settings.budget``; a generator that checks what it plants,
    as parks does, calls this)."""
    return Budget(nodes=deck.check.budget_nodes)


@dataclass(frozen=True)
class Settings:
    """The check settings of one run, resolved once from the deck's ``[check]`` table and the
    command line (``CheckOptions.settings``): what every family reads instead of combining
    deck keys and overrides itself."""

    budget: Budget
    """Search budget per card."""
    simulations: int
    """Games for figures a family samples at a fixed count (``[check] simulations``)."""
    sampling: Precision
    """Precision and games cap for :func:`generator.core.stats.sample_until`."""
    count_solutions: bool
    pool: Pool
    """Where per-card jobs and simulation batches run (``--jobs``/``--cluster``); results
    must not depend on it."""


@dataclass(frozen=True)
class CheckOptions:
    """Options of ``paperproof check`` / ``build`` that reach a family's checks."""

    count_solutions: bool = False
    simulations: int | None = None
    """Overrides ``[check] simulations`` when set; also fixes sampled figures at exactly
    that many games (``--simulations 0`` skips simulations)."""
    precision: float | None = None
    """Overrides ``[check] precision`` when set."""
    max_games: int | None = None
    """Overrides ``[check] max_games`` when set."""
    pool: Pool = field(default=SERIAL, compare=False)
    resolved: Settings | None = field(default=None, compare=False)
    """Set by the build pipeline: the settings resolved once for this deck."""

    def settings(self, deck: Deck) -> Settings:
        """The resolved settings for ``deck`` (computed here, the one place that combines
        the deck's ``[check]`` keys with the command line)."""
        if self.resolved is not None:
            return self.resolved
        c = deck.check
        sims = c.simulations if self.simulations is None else self.simulations
        if self.simulations is not None:
            fixed = Precision.fixed(self.simulations)
            sampling = replace(fixed, rate=self.precision or c.precision, mean=c.mean_precision)
        else:
            sampling = Precision(
                rate=c.precision if self.precision is None else self.precision,
                mean=c.mean_precision,
                max_games=c.max_games if self.max_games is None else self.max_games,
            )
        return Settings(
            budget=search_budget(deck),
            simulations=sims, sampling=sampling, count_solutions=self.count_solutions,
            pool=self.pool,
        )

    def resolve(self, deck: Deck) -> CheckOptions:
        """These options with :meth:`settings` computed once (what ``check_deck`` passes)."""
        s = self.settings(deck)
        return replace(self, simulations=s.simulations, resolved=s)


@dataclass(frozen=True)
class ScoreLine:
    label: str
    points: int
    detail: str = ""


@dataclass(frozen=True)
class ScoreResult:
    """The breakdown of a scored map / sheet / landscape (``paperproof score``)."""

    total: int
    lines: tuple[ScoreLine, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "lines": [{"label": s.label, "points": s.points, "detail": s.detail}
                      for s in self.lines],
        }


@dataclass(frozen=True)
class ImageRef:
    """An image a deck names: the deck key, the path as written (relative to the deck file),
    and, for a row read from another file (a CSV), that file and line."""

    key: tuple[str | int, ...]
    path: str
    file: str = ""
    line: int = 0



class ScoreFileModel(BaseModel):
    """Base of every family's score-file model: immutable, unknown keys rejected, and strict
    (a TOML ``true`` is not a count, ``"3"`` is not a number)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


P = TypeVar("P", bound=BaseModel)
"""A family's deck-table model (its ``Params``)."""
G = TypeVar("G")
"""What a family's ``generate`` makes (a frozen model object of every component)."""

REPLAY_FAILED: Status = "unknown"
"""The status of an answer whose certificate does not replay, in every family. Sound: a
certificate the rules engine rejects proves nothing, so the card is never ``completable``;
nor is it proof of ``impossible``. ``unknown`` is failing (the build refuses to print), and
the entry's code ends in ``-REPLAY`` so it is told apart from a budget that ran out."""


@dataclass(frozen=True)
class Question:
    """One completability question a family answers about one component: the report entry
    it becomes is (``subject``, ``check``); ``what`` names it in messages."""

    subject: str
    check: str
    what: str


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


_Item = TypeVar("_Item", bound=_Identified)


def subject_of(items: Iterable[_Item], question: Question) -> _Item:
    """The component among ``items`` that ``question`` asks about (its id is the subject);
    the questions a family lists name only its own components."""
    return next(item for item in items if item.id == question.subject)


def answer_entry(question: Question, answer: Answer,
                 replay: Callable[[Any], None], *, code: str, message: str = "",
                 details: dict[str, Any] | None = None,
                 impossible_code: str | None = None) -> CheckEntry:
    """The one place an :class:`Answer` becomes a report entry.

    A ``completable`` answer's certificate is replayed here by ``replay`` (the family's rules
    engine, raising :class:`IllegalMove`) on the exact JSON object that goes into the report;
    one that does not replay becomes :data:`REPLAY_FAILED` with code ``<code>-REPLAY``.
    ``code`` is the family's stem (``E-PARKS``): ``-IMPOSSIBLE`` / ``-UNKNOWN`` are appended
    (``impossible_code`` keeps an older stable code for impossible). ``message`` (default:
    the reason, or "certificate replayed") follows ``question.what`` when that is set;
    ``details`` are merged with nodes, reason and certificate."""

    def text(m: str) -> str:
        return f"{question.what}: {m}" if question.what else m

    out: dict[str, Any] = {"nodes": answer.nodes, **(details or {})}
    if answer.extra:
        out.update(answer.extra)
    if answer.verdict is Verdict.COMPLETABLE:
        try:
            replay(answer.certificate)
        except IllegalMove as exc:
            return CheckEntry(question.subject, question.check, REPLAY_FAILED,
                              text(f"the certificate found does not replay: {exc}"),
                              f"{code}-REPLAY", out)
        out["certificate"] = answer.certificate
        return CheckEntry(question.subject, question.check, "completable",
                          text(message or "certificate replayed"),
                          details=out)
    out["reason"] = answer.reason
    impossible = answer.verdict is Verdict.IMPOSSIBLE
    status: Status = "impossible" if impossible else "unknown"
    stable = (impossible_code or f"{code}-IMPOSSIBLE") if impossible else f"{code}-UNKNOWN"
    return CheckEntry(question.subject, question.check, status,
                      text(message or answer.reason), stable, out)


class Family(ABC, Generic[P, G]):  # noqa: UP046 - one style with the TypeVars above
    """A family of components: one contract, the same hooks with the same signatures in every
    family. ``P`` is its deck-table model (``Params``), ``G`` what ``generate`` makes.

    - ``validate(deck) -> problems`` (optional),
    - ``generate(deck) -> G``,
    - ``questions(deck, G) -> questions``; ``solve(deck, G, question, budget) -> Answer``;
      ``replay(deck, G, question, certificate)`` (raises :class:`IllegalMove`) — every
      completability question, answered and re-checkable one at a time,
    - ``check(deck, G, options) -> Report`` (every check; question entries come from
      :func:`answer_entry`, so a certificate that does not replay is treated alike),
    - ``layout(deck, G, report) -> components``,
    - ``ScoreFile`` (the pydantic model of a ``paperproof score`` file, or None) and
      ``score(deck, G, source, text) -> ScoreResult``.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    components: ClassVar[tuple[str, ...]]
    """What it prints, one phrase each (``paperproof families``)."""
    Params: ClassVar[type[BaseModel]]
    """The pydantic model of the family's deck table (``P``)."""
    ScoreFile: ClassVar[type[ScoreFileModel] | None] = None
    """The pydantic model of a filled score file (``paperproof score DECK FILE``): read by
    :meth:`read_score_file` with the deck loader's ``file:line: key`` errors."""

    def params(self, deck: Deck) -> P:
        """The deck's family table, typed."""
        return cast(P, deck.params)

    def resolve_files(self, table: dict[str, Any], base_dir: Path) -> dict[str, Any]:
        """Read files the family's table refers to (a CSV of card rows), relative to the deck
        file, before validation. The deck loader is the only caller: it is the I/O boundary.
        Raise :class:`generator.errors.DeckError` for an unreadable or bad file."""
        return table

    def image_paths(self, deck: Deck) -> list[ImageRef]:
        """Images the family's own table names: the loader reads and checks them
        (``generator/art.py``) and registers each under ``deck.image_ref(path)`` for the
        layout to draw."""
        return []

    def validate(self, deck: Deck) -> list[Problem]:
        """Semantic problems the schema cannot see (a walkway split in two, a shape that is
        not connected). Each problem's ``path`` starts at the deck root, e.g.
        ``("parks", "cards", 3, "walkways")``; the loader adds file and line."""
        return []

    @abstractmethod
    def generate(self, deck: Deck) -> G:
        """Deck parameters + seed -> the family's components (a frozen model object)."""

    def modules(self, part: str) -> ModuleType:
        """The family's module ``part`` (``check``, ``layout``), imported on first use: the
        hooks below delegate to the functions of the same name there, with the same
        arguments, so a family's ``__init__`` holds only what differs."""
        return importlib.import_module(f"{__package__}.{self.name}.{part}")

    def questions(self, deck: Deck, generated: G) -> tuple[Question, ...]:
        """Every completability question the family answers, in report order
        (``check.questions``; none when the family's check module defines none)."""
        found = getattr(self.modules("check"), "questions", None)
        return () if found is None else tuple(found(deck, generated))

    def solve(self, deck: Deck, generated: G, question: Question, budget: Budget) -> Answer:
        """Answer one of :meth:`questions` within ``budget`` nodes (``check.solve``)."""
        found = getattr(self.modules("check"), "solve", None)
        if found is None:
            raise UsageError(f"the {self.name} family asks no question {question.check!r}")
        return cast(Answer, found(deck, generated, question, budget))

    def replay(self, deck: Deck, generated: G, question: Question, certificate: Any) -> None:
        """Replay a certificate (its JSON form, as in the report) through the rules engine;
        raise :class:`IllegalMove` saying why when it does not hold
        (``check.replay_certificate``)."""
        found = getattr(self.modules("check"), "replay_certificate", None)
        if found is None:
            raise IllegalMove(f"the {self.name} family has no question {question.check!r}")
        found(deck, generated, question, certificate)

    def answer(self, deck: Deck, generated: G, question: Question, budget: Budget, *,
               code: str) -> CheckEntry:
        """:meth:`solve` then :func:`answer_entry` (which replays the certificate)."""
        found = self.solve(deck, generated, question, budget)
        return answer_entry(question, found,
                            lambda cert: self.replay(deck, generated, question, cert),
                            code=code)

    def check(self, deck: Deck, generated: G, options: CheckOptions) -> Report:
        """Every check of the family, on the generated components (``check.check``)."""
        return cast(Report, self.modules("check").check(deck, generated, options))

    def layout(self, deck: Deck, generated: G, report: Report) -> list[Component]:
        """The printable components, in print order, proof pages included
        (``layout.layout``)."""
        return cast(list[Component], self.modules("layout").layout(deck, generated, report))

    def read_score_file(self, source: Path, text: str) -> tuple[Any, TomlDoc]:
        """The score file validated against :attr:`ScoreFile` (every problem with file, line
        and key, as for decks), and its parsed document (for the family's own checks'
        lines). What every family's :meth:`score` starts with."""
        if self.ScoreFile is None:
            raise UsageError(f"the {self.name} family has no score command")
        from ..deckfile import load_score_file

        return load_score_file(self.ScoreFile, text, str(source))

    def score(self, deck: Deck, generated: G, source: Path, text: str) -> ScoreResult:
        """Score a filled map/sheet written in TOML (``paperproof score``)."""
        raise UsageError(f"the {self.name} family has no score command")


AnyFamily: TypeAlias = Family[Any, Any]
"""A family of any params and generated type (what the registry and the loader hold)."""
