"""Search budgets: a cap on nodes and/or wall-clock seconds for every search.

Why: a completability check must never hang. Every search in the core takes a ``Budget`` and
ticks a ``Meter``; when the meter runs out the search stops and answers ``UNKNOWN``, never a
wrong ``IMPOSSIBLE``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

# Reading the clock costs ~50 ns; ticking costs ~30 ns. Reading it every 1,024 ticks keeps the
# time check under 0.1 % of a tick's cost while overshooting a seconds budget by at most a few
# microseconds of search work.
_CLOCK_EVERY = 1024


@dataclass(frozen=True)
class Budget:
    """How much search is allowed: ``nodes`` (search steps) and/or ``seconds`` (wall clock).

    ``None`` for both means unlimited, which only tests and benches should use.
    """

    nodes: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.nodes is not None and self.nodes < 0:
            raise ValueError(f"Budget.nodes must be >= 0, got {self.nodes}")
        if self.seconds is not None and self.seconds < 0:
            raise ValueError(f"Budget.seconds must be >= 0, got {self.seconds}")

    def start(self) -> Meter:
        """Start measuring a search against this budget."""
        return Meter(self)

    def __str__(self) -> str:
        parts = []
        if self.nodes is not None:
            parts.append(f"{self.nodes} nodes")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " / ".join(parts) if parts else "unlimited"


UNLIMITED = Budget()


class Meter:
    """A running budget: ``tick()`` once per search node; False means stop now.

    Once exhausted it stays exhausted (``exhausted`` is True), so a search that unwinds can
    tell "finished" from "ran out".
    """

    __slots__ = ("budget", "nodes", "exhausted", "_t0", "_deadline", "_max_nodes", "_next_clock")

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.nodes = 0
        self.exhausted = False
        self._t0 = time.perf_counter()
        self._deadline = None if budget.seconds is None else self._t0 + budget.seconds
        self._max_nodes = budget.nodes
        self._next_clock = _CLOCK_EVERY

    def tick(self, n: int = 1) -> bool:
        """Count ``n`` nodes; return False once the node or time budget is exhausted."""
        if self.exhausted:
            return False
        self.nodes += n
        if self._max_nodes is not None and self.nodes > self._max_nodes:
            self.exhausted = True
            return False
        if self._deadline is not None and self.nodes >= self._next_clock:
            self._next_clock = self.nodes + _CLOCK_EVERY
            if time.perf_counter() > self._deadline:
                self.exhausted = True
                return False
        return True

    def allowance(self) -> int:
        """How many nodes a hot loop may count locally before it must call :meth:`tick`
        with them (never more than the nodes left; at most 1,024 when time is limited)."""
        if self.exhausted:
            return 0
        a = _CLOCK_EVERY if self._deadline is not None else 1 << 62
        if self._max_nodes is not None:
            a = min(a, self._max_nodes - self.nodes)
        return max(a, 0)

    def add(self, n: int) -> None:
        """Record ``n`` nodes already allowed by :meth:`allowance` (no budget check)."""
        self.nodes += n

    def check_time(self) -> bool:
        """Read the clock now (for slow loops that tick rarely); False once out of time."""
        if self.exhausted:
            return False
        if self._deadline is not None and time.perf_counter() > self._deadline:
            self.exhausted = True
            return False
        return True

    @property
    def elapsed(self) -> float:
        """Seconds since the meter started."""
        return time.perf_counter() - self._t0

    def __repr__(self) -> str:
        return f"<Meter {self.nodes} nodes, {self.elapsed:.6f} s of {self.budget}>"
