"""Search budgets: a cap on search nodes for every search. Never on the clock.

Why: a completability check must never hang, and its verdict must not depend on how fast the
machine is. Every search in the core takes a ``Budget`` and ticks a ``Meter``; when the meter
runs out the search stops and answers ``UNKNOWN``, never a wrong ``IMPOSSIBLE``. Budgets count
nodes only, so the same deck gets the same verdicts on a loaded laptop and an idle server; a
wall-clock limit exists only for a whole command (``--time-limit``), which it stops with an
error that says so (see :mod:`generator.cli`). The core never reads the clock.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """How much search is allowed: ``nodes`` (search steps); ``None`` means unlimited, which
    only tests and benches should use."""

    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.nodes is not None and self.nodes < 0:
            raise ValueError(f"Budget.nodes must be >= 0, got {self.nodes}")

    def start(self) -> Meter:
        """Start measuring a search against this budget."""
        return Meter(self)

    def __str__(self) -> str:
        return "unlimited" if self.nodes is None else f"{self.nodes} nodes"


UNLIMITED = Budget()

_UNBOUNDED = 1 << 62
"""What :meth:`Meter.allowance` hands out under an unlimited budget (more than any search)."""


class Meter:
    """A running budget: ``tick()`` once per search node; False means stop now.

    Once exhausted it stays exhausted (``exhausted`` is True), so a search that unwinds can
    tell "finished" from "ran out".
    """

    __slots__ = ("budget", "nodes", "exhausted", "_max_nodes")

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.nodes = 0
        self.exhausted = False
        self._max_nodes = budget.nodes

    def tick(self, n: int = 1) -> bool:
        """Count ``n`` nodes; return False once the node budget is exhausted."""
        if self.exhausted:
            return False
        self.nodes += n
        if self._max_nodes is not None and self.nodes > self._max_nodes:
            self.exhausted = True
            return False
        return True

    def allowance(self) -> int:
        """How many nodes a hot loop may count locally before it must call :meth:`tick`
        with them (never more than the nodes left)."""
        if self.exhausted:
            return 0
        if self._max_nodes is None:
            return _UNBOUNDED
        return max(self._max_nodes - self.nodes, 0)

    def add(self, n: int) -> None:
        """Record ``n`` nodes already allowed by :meth:`allowance` (no budget check)."""
        self.nodes += n

    def __repr__(self) -> str:
        return f"<Meter {self.nodes} nodes of {self.budget}>"
