"""Where per-card checks and simulation batches run: in this process, a process pool, or a
Dask cluster, behind one small interface (:class:`Pool`) that every family calls through.

Why one module: ``--jobs N`` and ``--cluster`` must give byte-identical reports for any N,
so the rules that make that true live here once: ``map`` returns results in input order,
work items carry their own seeds (``generator.core.stats.batch_seed``; never a per-worker
stream), and a pool that is pickled into a worker arrives there as a serial pool, so nested
work (a card's batches inside a per-card job) runs inline instead of forking again.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from .errors import UsageError

A = TypeVar("A")
R = TypeVar("R")


def default_jobs() -> int:
    """All cores this process may use (``--jobs`` default)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class Pool:
    """Runs ``fn`` over items, results in item order. The base class runs them inline."""

    workers: int = 1
    """How many items run at once: how far a sampler may play ahead (``lookahead``)."""

    def map(self, fn: Callable[[A], R], items: Sequence[A]) -> list[R]:
        return [fn(item) for item in items]

    def close(self) -> None:
        """Release the workers (idempotent)."""

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __reduce__(self) -> tuple[Any, ...]:
        # A pool shipped to a worker (inside a task's arguments) becomes a serial pool there.
        return (Pool, ())

    def describe(self) -> str:
        return "serial"


SERIAL = Pool()
"""Run everything inline (``--jobs 1`` and the default for direct calls and tests)."""


class ProcessPool(Pool):
    """A local process pool of ``workers`` processes, started on first use."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise UsageError(f"--jobs must be at least 1, got {workers}")
        self.workers = workers
        self._executor: Executor | None = None

    def _get(self) -> Executor:
        if self._executor is None:
            methods = multiprocessing.get_all_start_methods()
            # fork: workers inherit the loaded deck and imported families (start-up ~ms);
            # elsewhere the platform default.
            ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
            self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
        return self._executor

    def map(self, fn: Callable[[A], R], items: Sequence[A]) -> list[R]:
        if len(items) <= 1:
            return [fn(item) for item in items]
        return list(self._get().map(fn, items, chunksize=1))

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def describe(self) -> str:
        return f"{self.workers} processes"


CONNECT_SECONDS = 10.0
"""How long ``--cluster`` waits for the scheduler before giving up: a clock limit on connecting
only (it stops the command with an error), never on the work itself."""


class ClusterPool(Pool):
    """Work on a Dask cluster (``--cluster tcp://HOST:PORT``, or an in-process client).

    Needs the optional extra ``pip install 'paperproof[cluster]'``. Workers must run the same
    PaperProof version; results are gathered in item order, so the report is the local one.
    """

    def __init__(self, address: Any, *, timeout: float = CONNECT_SECONDS) -> None:
        try:
            from dask.distributed import Client as _Client
        except ImportError:
            raise UsageError(
                "--cluster needs dask.distributed: pip install 'paperproof[cluster]'"
            ) from None
        client_type: Any = _Client
        self._own = not isinstance(address, client_type)
        try:
            self.client: Any = (client_type(address, timeout=timeout) if self._own
                                else address)
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"--cluster {address}: cannot connect: {exc}") from None
        info = self.client.scheduler_info()
        threads = sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values())
        self.workers = max(1, threads)

    def map(self, fn: Callable[[A], R], items: Sequence[A]) -> list[R]:
        if not items:
            return []
        futures = self.client.map(fn, list(items), pure=False)
        return list(self.client.gather(futures))

    def close(self) -> None:
        if self._own:
            self.client.close()
            self._own = False

    def describe(self) -> str:
        return f"cluster {self.client.scheduler.address} ({self.workers} threads)"


def make_pool(jobs: int | None = None, cluster: str | None = None) -> Pool:
    """The pool ``--jobs`` / ``--cluster`` ask for: a cluster if given, else ``jobs`` local
    processes (default all cores); one job is the serial pool."""
    if cluster:
        return ClusterPool(cluster)
    n = default_jobs() if jobs is None else jobs
    if n < 1:
        raise UsageError(f"--jobs must be at least 1, got {n}")
    return SERIAL if n == 1 else ProcessPool(n)
