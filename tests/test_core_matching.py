"""core/matching: a complete matching is found exactly when one exists (brute force)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.matching import match_all


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 4), st.integers(0, 5), st.data())
def test_matches_exactly_when_brute_force_does(left: int, right: int, data: st.DataObject) -> None:
    edges = data.draw(st.sets(st.tuples(st.integers(0, max(left - 1, 0)),
                                        st.integers(0, max(right - 1, 0)))))
    fits = lambda i, j: (i, j) in edges  # noqa: E731
    owner, unmatched = match_all(left, right, fits)
    exists = any(all(fits(i, js[i]) for i in range(left))
                 for js in itertools.permutations(range(right), left))
    assert (unmatched is None) == exists
    if unmatched is None:
        assert sorted(owner.values()) == list(range(left))  # each left item once
        assert all(fits(i, j) for j, i in owner.items())
