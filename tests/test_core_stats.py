"""Intervals against published values, their properties against brute force, and the adaptive
sampler's stopping rule and determinism."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.core.stats import (
    Mean,
    Precision,
    Rate,
    Span,
    batch_seed,
    mean_interval,
    rate,
    sample_until,
    span,
    t_quantile,
    wilson,
)


def test_wilson_matches_published_values() -> None:
    # Newcombe (1998), Statist. Med. 17:857, table I: 81/263 -> 0.2553..0.3662 and the
    # classic "7 of 10" -> 0.3968..0.8922; 0 of 10 -> 0..0.2775.
    lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    lo, hi = wilson(7, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.3968, 0.8922)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert wilson(10, 10)[1] == 1.0


def test_rate_text_and_json() -> None:
    r = rate(7, 10)
    assert r.text() == "70% (40%..89%, 10 games)"
    assert r.value == 0.7
    assert r.to_json() == {"successes": 7, "trials": 10, "value": 0.7, "low": 0.3968,
                           "high": 0.8922}
    assert rate(0, 0).text() == "no games"
    assert rate(1, 1).text(what="hands") == "100% (21%..100%, 1 hand)"


def test_unknowns_widen_a_rate_into_a_range() -> None:
    r = rate(3, 8, unknown=5)
    assert r.value == 3 / 8 and r.value_high == 1.0
    assert r.low == wilson(3, 8)[0] and r.high == 1.0
    assert r.text().startswith("38%..100% (")
    assert r.text().endswith("8 games, 5 unknown)")
    assert span(3, 5, 8).text() == "38%..100%"
    assert Span(0.5, 0.5).text() == "50%"
    assert Span(3.0, 7.0, "pts").text() == "3.00..7.00 pts"
    with pytest.raises(ValueError):
        rate(5, 8, unknown=4)


def test_t_quantiles_match_tables() -> None:
    # Two-sided 95% critical values of Student's t (any statistics table).
    for df, crit in [(1, 12.7062), (2, 4.3027), (9, 2.2622), (29, 2.0452), (120, 1.9799)]:
        assert round(t_quantile(0.975, df), 4) == crit
    assert t_quantile(0.5, 5) == 0.0
    assert t_quantile(0.025, 9) == pytest.approx(-2.2622, abs=1e-4)


def test_mean_interval_known_values() -> None:
    m = mean_interval([1, 2, 3, 4, 5])
    # mean 3, sd sqrt(2.5), t(0.975, 4) = 2.7764: 3 +/- 1.9632
    assert m.mean == 3.0 and m.n == 5
    assert (round(m.low, 4), round(m.high, 4)) == (1.0368, 4.9632)
    assert m.text("pts") == "3.00 pts (1.04..4.96, 5 games)"
    one = mean_interval([3.5])
    assert not one.bounded and one.text("pts") == "3.50 pts (1 game, no interval)"
    assert one.to_json()["low"] is None
    assert mean_interval([]).text() == "no games"


@given(st.integers(0, 400), st.integers(0, 400))
def test_wilson_contains_the_rate_and_stays_in_bounds(a: int, b: int) -> None:
    k, n = min(a, b), max(a, b)
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= hi <= 1.0
    if n:
        assert lo <= k / n <= hi
        # symmetric: k of n mirrors n-k of n
        lo2, hi2 = wilson(n - k, n)
        assert math.isclose(lo, 1 - hi2, abs_tol=1e-12)
        assert math.isclose(hi, 1 - lo2, abs_tol=1e-12)


@given(st.integers(1, 200))
def test_wilson_narrows_with_more_games(n: int) -> None:
    # Same proportion, four times the games: a narrower interval.
    assert rate(n, 2 * n).half_width > rate(4 * n, 8 * n).half_width


def test_wilson_covers_about_95_percent() -> None:
    # Brute force: exact binomial coverage of the interval for n = 50, p = 0.3.
    n, p = 50, 0.3
    cover = sum(math.comb(n, k) * p**k * (1 - p) ** (n - k)
                for k in range(n + 1) if wilson(k, n)[0] <= p <= wilson(k, n)[1])
    assert 0.93 < cover < 0.97


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=60))
def test_mean_interval_contains_the_mean(xs: list[float]) -> None:
    m = mean_interval(xs)
    assert m.low <= m.mean + 1e-6 and m.mean - 1e-6 <= m.high
    assert math.isclose(m.mean, sum(xs) / len(xs), rel_tol=1e-9, abs_tol=1e-6)


def _coin(p: float) -> Callable[[int, int], list[bool]]:
    def play(seed: int, games: int) -> list[bool]:
        rng = random.Random(seed)
        return [rng.random() < p for _ in range(games)]
    return play


def _measure(outcomes: Sequence[bool]) -> list[Rate]:
    return [rate(sum(outcomes), len(outcomes))]


def test_sampler_stops_at_the_precision() -> None:
    s = sample_until(_coin(0.5), _measure, Precision(rate=0.05), seed=1, stream=("card", 1))
    assert s.stopped == "precision"
    iv = s.intervals[0]
    assert isinstance(iv, Rate) and iv.half_width <= 0.05
    # p = 0.5 needs about (1.96 / 0.1)^2 = 385 games; batches of 20
    assert 360 <= s.games <= 420 and s.games % 20 == 0
    # one batch fewer would not have been narrow enough
    fewer = s.outcomes[: s.games - 20]
    assert rate(sum(fewer), len(fewer)).half_width > 0.05


def test_sampler_says_when_the_cap_stopped_it() -> None:
    s = sample_until(_coin(0.5), _measure, Precision(rate=0.01, max_games=150),
                     seed=1, stream=("card", 1))
    assert s.stopped == "cap" and s.games == 150
    assert "cap reached" in s.text()


def test_sampler_batches_follow_the_seed_streams() -> None:
    s = sample_until(_coin(0.3), _measure, Precision(rate=0.1), seed=7, stream=("x",))
    expected: list[bool] = []
    for b in range(s.batches):
        rng = random.Random(batch_seed(7, ("x",), b))
        expected += [rng.random() < 0.3 for _ in range(20)]
    assert list(s.outcomes) == expected


@given(st.integers(1, 6), st.integers(0, 1000))
def test_sampler_result_does_not_depend_on_lookahead(ahead: int, seed: int) -> None:
    def pool_map(fn: object, items: Sequence[object]) -> list[object]:
        return [fn(i) for i in reversed(items)][::-1]  # type: ignore[operator]

    base = sample_until(_coin(0.2), _measure, Precision(rate=0.08), seed=seed, stream=("c",))
    other = sample_until(_coin(0.2), _measure, Precision(rate=0.08), seed=seed, stream=("c",),
                         mapper=pool_map, lookahead=ahead)
    assert other == base


def test_mean_precision_is_relative() -> None:
    def play(seed: int, games: int) -> list[float]:
        rng = random.Random(seed)
        return [rng.gauss(40.0, 8.0) for _ in range(games)]

    def measure(xs: Sequence[float]) -> list[Mean]:
        return [mean_interval(xs)]

    s = sample_until(play, measure, Precision(mean=0.05), seed=3, stream=("m",))
    m = s.intervals[0]
    assert s.stopped == "precision" and isinstance(m, Mean)
    assert m.half_width <= 0.05 * abs(m.mean)
    assert 40 <= s.games <= 120  # (1.96 * 8 / 2)^2 = 62 games


def test_fixed_and_zero_game_precisions() -> None:
    s = sample_until(_coin(0.5), _measure, Precision.fixed(30), seed=1, stream=("f",))
    assert s.games == 30
    none = sample_until(_coin(0.5), _measure, Precision.fixed(0), seed=1, stream=("f",))
    assert none.games == 0 and none.stopped == "cap"
    with pytest.raises(ValueError):
        Precision(rate=0.0)
