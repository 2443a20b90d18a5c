"""Intervals for simulated figures, and a sampler that plays games until they are narrow enough.

Why: a rate from 10 games ("7 of 10") is anywhere from 40% to 89%; such numbers cannot rank
cards. Every simulated figure a report shows is a :class:`Rate` (a proportion with its 95%
Wilson interval) or a :class:`Mean` (a mean with its 95% t-interval), and the sample size is
chosen by :func:`sample_until`: it adds games in seeded batches until every interval is
narrower than the precision asked for (``[check] precision``) or a cap on games is reached, and
says which.

Determinism: batch ``b`` of the stream ``(seed, *stream)`` is always played from the seed
``stream_seed(seed, *stream, "batch", b)`` with the same number of games, whichever worker
plays it and however many batches run at once; the stopping rule looks at batches in order,
so the games kept (and every figure) are the same for any number of workers. Figures are
rounded in ``to_json`` so that last-bit differences of a platform's libm never reach a report.

Pure: no I/O, standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Generic, Literal, TypeAlias, TypeVar

from .rng import stream_seed

CONFIDENCE = 0.95
"""Two-sided confidence of every interval: the convention designers meet in papers and polls."""

DIGITS = 4
"""Decimal places of figures in JSON: 0.01 percentage points, far below any interval's width,
and coarse enough that no platform difference in the last float bit shows."""

DEFAULT_RATE_PRECISION = 0.05
"""Half-width asked of every rate: +/-5 percentage points tells a 30% card from a 45% one."""

DEFAULT_MEAN_PRECISION = 0.05
"""Half-width asked of every mean, relative to the mean: +/-5% of a 40-point mean is +/-2 pts,
about the difference one scoring decision makes. Means near zero rarely get there; the cap
stops them (and says so)."""

DEFAULT_MIN_GAMES = 20
"""Games before any stopping decision: below ~20 games the Wilson and t intervals are honest
but a lucky streak can make one look narrow enough by chance."""

DEFAULT_BATCH = 20
"""Games added per batch: small enough not to overshoot the precision by much, large enough
that handing a batch to a worker process costs little beside playing it."""

DEFAULT_MAX_GAMES = 2000
"""Cap on games per card: +/-5 points needs at most ~385 games for any rate, so the cap only
binds for means near zero or when a designer asks for +/-1 point."""


def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def _r(x: float) -> float:
    return round(x, DIGITS) + 0.0  # + 0.0: no "-0.0" in reports


def pct(x: float) -> str:
    """``0.7`` -> ``"70%"``; one decimal below 10% and above 90% where whole points mislead."""
    p = 100.0 * x
    if 0.0 < p < 10.0 or 90.0 < p < 100.0:
        text = f"{p:.1f}"
        return (text[:-2] if text.endswith(".0") else text) + "%"
    return f"{p:.0f}%"


# ---------------------------------------------------------------- proportions


def wilson(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``trials``; ``(0, 1)`` for no trials.

    Wilson rather than the textbook p +/- z*sqrt(p(1-p)/n): it stays inside [0, 1] and does
    not collapse to zero width at 0 of n or n of n (0 of 10 is 0%..28%, not 0%..0%).
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    z = _z(confidence)
    n = float(trials)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Rate:
    """A simulated proportion: ``successes`` of ``trials`` games, with its interval.

    ``unknown`` games are those whose outcome could not be decided (a search out of budget):
    the rate is then a range, from "every unknown failed" (``successes / trials``) to "every
    unknown succeeded" (``value_high``), and the interval runs from the Wilson low of the first
    to the Wilson high of the second, widened honestly rather than guessed.
    """

    successes: int
    trials: int
    low: float
    high: float
    unknown: int = 0

    @property
    def value(self) -> float:
        """The point estimate (the low end of the range when some games are unknown)."""
        return self.successes / self.trials if self.trials else 0.0

    @property
    def value_high(self) -> float:
        """The high end of the range: every unknown game counted as a success."""
        return (self.successes + self.unknown) / self.trials if self.trials else 0.0

    @property
    def half_width(self) -> float:
        """Half the interval's width: what ``[check] precision`` is compared with."""
        return (self.high - self.low) / 2.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "successes": self.successes, "trials": self.trials,
            "value": _r(self.value) if self.trials else None,
            "low": _r(self.low), "high": _r(self.high),
        }
        if self.unknown:
            out["unknown"] = self.unknown
            out["value_high"] = _r(self.value_high)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rate:
        """The rate :meth:`to_json` wrote (interval recomputed from the counts)."""
        return rate(int(data["successes"]), int(data["trials"]),
                    unknown=int(data.get("unknown", 0)))

    def text(self, what: str = "games") -> str:
        """``"70% (40%..89%, 10 games)"``; with unknowns ``"38%..100% (14%..100%, 8 games,
        5 unknown)"``; ``"no games"`` when there were none."""
        if self.trials == 0:
            return f"no {what}"
        n = f"{self.trials} {what if self.trials != 1 else what.rstrip('s')}"
        if self.unknown:
            return (f"{pct(self.value)}..{pct(self.value_high)} "
                    f"({pct(self.low)}..{pct(self.high)}, {n}, {self.unknown} unknown)")
        return f"{pct(self.value)} ({pct(self.low)}..{pct(self.high)}, {n})"


def rate(successes: int, trials: int, *, unknown: int = 0,
         confidence: float = CONFIDENCE) -> Rate:
    """``successes`` of ``trials`` with its Wilson interval; ``unknown`` of the other games
    may have been successes too (see :class:`Rate`)."""
    if unknown < 0 or successes + unknown > trials:
        raise ValueError(f"need successes + unknown <= trials, got {successes} + {unknown} "
                         f"of {trials}")
    low, _ = wilson(successes, trials, confidence)
    _, high = wilson(successes + unknown, trials, confidence)
    return Rate(successes, trials, low, high, unknown)


@dataclass(frozen=True)
class Span:
    """A range known only to lie between two bounds (no sampling in it), e.g. a hand coverage
    of "38%..100%" when 5 of 8 hands could not be decided. ``unit`` is ``"%"`` for fractions
    (printed as percentages) or a unit word for other quantities."""

    low: float
    high: float
    unit: str = "%"

    def __post_init__(self) -> None:
        if not self.low <= self.high:
            raise ValueError(f"Span needs low <= high, got {self.low}..{self.high}")

    @property
    def exact(self) -> bool:
        return self.low == self.high

    def to_json(self) -> dict[str, Any]:
        return {"low": _r(self.low), "high": _r(self.high), "unit": self.unit}

    def text(self) -> str:
        """``"38%..100%"``, or ``"50%"`` when both ends agree; ``"3..7 pts"`` for a unit."""
        if self.unit == "%":
            return pct(self.low) if self.exact else f"{pct(self.low)}..{pct(self.high)}"
        lo, hi = _num(self.low), _num(self.high)
        return f"{lo} {self.unit}" if self.exact else f"{lo}..{hi} {self.unit}"


def span(known: int, unknown: int, total: int) -> Span:
    """The fraction of ``total`` items that have a property, when ``known`` certainly have it
    and ``unknown`` more might: ``span(3, 5, 8)`` is 38%..100%."""
    if min(known, unknown, total) < 0 or known + unknown > total:
        raise ValueError(f"need known + unknown <= total, got {known} + {unknown} of {total}")
    if total == 0:
        return Span(0.0, 1.0)
    return Span(known / total, (known + unknown) / total)


# ---------------------------------------------------------------- means


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularised incomplete beta function (Lentz's method)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
          + a * math.log(x) + b * math.log1p(-x))
    front = math.exp(ln)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function with ``df`` degrees of freedom."""
    x = df / (df + t * t)
    tail = 0.5 * _betainc(df / 2.0, 0.5, x)
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (bisection on
    :func:`t_cdf`, to 1e-12; no scipy in the core)."""
    if not 0.0 < p < 1.0 or df <= 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0, got p={p}, df={df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2.0


@dataclass(frozen=True)
class Mean:
    """A simulated mean of ``n`` values with its interval (``low``/``high`` are ``-inf``/``inf``
    with fewer than two values: one game says nothing about the spread)."""

    mean: float
    low: float
    high: float
    n: int
    sd: float = 0.0

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0

    @property
    def bounded(self) -> bool:
        return math.isfinite(self.low) and math.isfinite(self.high)

    def relative_half_width(self) -> float:
        """Half-width over |mean| (what the relative precision is compared with); infinite
        for a zero mean with any spread, zero for a zero-width interval."""
        if self.half_width == 0.0:
            return 0.0
        if self.mean == 0.0 or not self.bounded:
            return math.inf
        return self.half_width / abs(self.mean)

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": _r(self.mean) if self.n else None,
            "low": _r(self.low) if self.bounded else None,
            "high": _r(self.high) if self.bounded else None,
            "n": self.n, "sd": _r(self.sd),
        }

    def text(self, unit: str = "", what: str = "games") -> str:
        """``"3.5 pts (2.1..4.9, 40 games)"``; ``"3.5 pts (1 game, no interval)"``."""
        if self.n == 0:
            return f"no {what}"
        u = f" {unit}" if unit else ""
        n = f"{self.n} {what if self.n != 1 else what.rstrip('s')}"
        if not self.bounded:
            return f"{_num(self.mean)}{u} ({n}, no interval)"
        return f"{_num(self.mean)}{u} ({_num(self.low)}..{_num(self.high)}, {n})"


def _num(x: float) -> str:
    """Three significant figures, at most two decimals: ``3.456`` -> ``3.46``, ``41.7``."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    decimals = max(0, min(2, 2 - int(math.floor(math.log10(abs(x))))))
    return f"{x:.{decimals}f}"


def mean_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Mean:
    """The mean of ``values`` with its Student t interval (exact for normal data and close for
    the sums of many small scores games produce; deterministic, unlike a bootstrap)."""
    n = len(values)
    if n == 0:
        return Mean(0.0, -math.inf, math.inf, 0)
    xs = [float(v) for v in values]
    if not all(math.isfinite(v) for v in xs):
        raise ValueError("mean_interval: values must be finite")
    m = math.fsum(xs) / n
    if n == 1:
        return Mean(m, -math.inf, math.inf, 1)
    var = math.fsum((v - m) ** 2 for v in xs) / (n - 1)
    sd = math.sqrt(var)
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * sd / math.sqrt(n)
    return Mean(m, m - half, m + half, n, sd)


Interval: TypeAlias = Rate | Mean


# ---------------------------------------------------------------- adaptive sampling


@dataclass(frozen=True)
class Precision:
    """How narrow the intervals must be, and how many games may be played to get there.

    ``rate``: half-width of every rate interval (0.05 = +/-5 percentage points); ``mean``:
    half-width of every mean interval relative to the mean (0.05 = +/-5%). Games are added
    ``batch`` at a time, at least ``min_games`` and at most ``max_games`` per stream.
    """

    rate: float = DEFAULT_RATE_PRECISION
    mean: float = DEFAULT_MEAN_PRECISION
    max_games: int = DEFAULT_MAX_GAMES
    min_games: int = DEFAULT_MIN_GAMES
    batch: int = DEFAULT_BATCH

    def __post_init__(self) -> None:
        if not 0.0 < self.rate <= 0.5:
            raise ValueError(f"Precision.rate must be in (0, 0.5], got {self.rate}")
        if not self.mean > 0.0:
            raise ValueError(f"Precision.mean must be > 0, got {self.mean}")
        if self.batch < 1 or self.min_games < 0 or self.max_games < 0:
            raise ValueError("Precision: batch >= 1, min_games >= 0 and max_games >= 0")

    @classmethod
    def fixed(cls, games: int) -> Precision:
        """Exactly ``games`` games (when a designer fixes the count instead of a precision)."""
        return cls(max_games=games, min_games=games, batch=max(1, min(games, DEFAULT_BATCH)))

    def met_by(self, interval: Interval) -> bool:
        """Whether one interval is narrow enough."""
        if isinstance(interval, Rate):
            return interval.trials > 0 and interval.half_width <= self.rate + 1e-12
        return interval.n > 1 and interval.relative_half_width() <= self.mean + 1e-12

    def to_json(self) -> dict[str, Any]:
        return {"rate": self.rate, "mean": self.mean, "max_games": self.max_games,
                "min_games": self.min_games, "batch": self.batch}

    def text(self) -> str:
        return (f"+/-{self.rate * 100:g} points for rates, +/-{self.mean * 100:g}% for means, "
                f"at most {self.max_games} games")


T = TypeVar("T")
A = TypeVar("A")
R = TypeVar("R")

Mapper: TypeAlias = Callable[[Callable[[A], R], Sequence[A]], list[R]]
"""``mapper(fn, items) -> [fn(item) for item in items]``, possibly on other processes
(generator/parallel.py provides pools). Results must come back in ``items`` order."""


def _serial_map(fn: Callable[[A], R], items: Sequence[A]) -> list[R]:
    return [fn(item) for item in items]


Stopped: TypeAlias = Literal["precision", "cap"]


@dataclass(frozen=True)
class Sample(Generic[T]):
    """What :func:`sample_until` played: every game's outcome in batch order, the intervals
    of the last look, and why it stopped (``precision`` met, or the games ``cap`` reached)."""

    outcomes: tuple[T, ...]
    intervals: tuple[Interval, ...]
    stopped: Stopped
    batches: int
    precision: Precision

    @property
    def games(self) -> int:
        return len(self.outcomes)

    def widest(self) -> Interval | None:
        """The interval furthest from its precision (the one that decided the sample size)."""
        def excess(iv: Interval) -> float:
            if isinstance(iv, Rate):
                return iv.half_width / self.precision.rate
            return iv.relative_half_width() / self.precision.mean
        return max(self.intervals, key=excess, default=None)

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "batches": self.batches, "stopped": self.stopped,
                "precision": self.precision.to_json()}

    def text(self) -> str:
        if self.stopped == "precision":
            return f"{self.games} games (precision reached)"
        return f"{self.games} games (cap reached before the precision)"


@dataclass(frozen=True)
class _Batch(Generic[T]):
    play: Callable[[int, int], Sequence[T]]
    seed: int
    games: int

    def __call__(self, _: object = None) -> Sequence[T]:
        return self.play(self.seed, self.games)


def _run_batch(job: _Batch[T]) -> Sequence[T]:
    return job()


def batch_seed(seed: int, stream: Sequence[str | int], index: int) -> int:
    """The seed batch ``index`` of ``stream`` is played from (the same on every worker)."""
    return stream_seed(seed, *stream, "batch", index)


def sample_until(
    play: Callable[[int, int], Sequence[T]],
    measure: Callable[[Sequence[T]], Sequence[Interval]],
    precision: Precision,
    *,
    seed: int,
    stream: Sequence[str | int],
    mapper: Mapper[Any, Any] | None = None,
    lookahead: int = 1,
) -> Sample[T]:
    """Play games in seeded batches until every interval is narrow enough or the cap is hit.

    ``play(batch_seed, games)`` plays ``games`` games from ``random.Random(batch_seed)`` and
    returns their outcomes (anything picklable); ``measure(outcomes)`` turns all outcomes so
    far into the intervals that must be narrow enough. Batch ``b`` always gets the seed
    :func:`batch_seed` ``(seed, stream, b)``. With a ``mapper`` (a process pool's ``map``),
    ``lookahead`` batches are played at once; batches past the stopping point are discarded,
    so the result is the same for every ``lookahead`` and every pool. ``play`` must then be
    picklable (a module-level function or a ``functools.partial`` of one).
    """
    if not precision.max_games:
        return Sample((), tuple(measure(())), "cap", 0, precision)
    run: Mapper[Any, Any] = mapper or _serial_map
    ahead = max(1, lookahead)
    outcomes: list[T] = []
    index = 0
    intervals: tuple[Interval, ...] = ()
    while True:
        jobs = []
        planned = len(outcomes)
        for b in range(index, index + ahead):
            size = min(precision.batch, precision.max_games - planned)
            if size <= 0:
                break
            jobs.append(_Batch(play, batch_seed(seed, stream, b), size))
            planned += size
        results = run(_run_batch, jobs)
        for result in results:
            batch = list(result)
            outcomes.extend(batch)
            index += 1
            if len(outcomes) < precision.min_games and len(outcomes) < precision.max_games:
                continue
            intervals = tuple(measure(outcomes))
            if all(precision.met_by(iv) for iv in intervals):
                return Sample(tuple(outcomes), intervals, "precision", index, precision)
            if len(outcomes) >= precision.max_games:
                return Sample(tuple(outcomes), intervals, "cap", index, precision)
        if not results:  # nothing left to play (cannot happen with max_games > 0)
            intervals = tuple(measure(outcomes))
            return Sample(tuple(outcomes), intervals, "cap", index, precision)
