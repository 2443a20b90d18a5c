"""The deck fuzzer in the normal run: a few hundred seeded mutations of every default deck,
starter and test deck are loaded (the boundary: no traceback, exit 2 always at file:line),
and a handful of the small test decks are checked and built (a deck that passes check
builds). ``bench/fuzz.py`` runs thousands, with check and build on every case."""

from __future__ import annotations

from collections import Counter

from tests.fuzzdeck import BAD_KINDS, cases, run_case, seeds

LOAD_CASES = 300
"""Mutated decks loaded per run: a few seconds on an idle machine."""


def test_mutated_decks_load_or_fail_located() -> None:
    outcomes = [run_case(c, build=False, check=False, seconds_cap=60)
                for c in cases(20261202, LOAD_CASES)]
    kinds = Counter(o.kind for o in outcomes)
    bad = [f"{o.case.seed} [{o.case.mutation}]: {o.kind}: {o.message[-600:]}"
           for o in outcomes if o.kind in BAD_KINDS]
    assert not bad, "\n".join(bad[:5])
    # the fuzzer really mutates: most cases are refused, some still load
    assert kinds["invalid"] > LOAD_CASES // 3 and kinds["ok"] > 10, kinds


def test_small_mutated_decks_that_pass_check_build() -> None:
    small = [s for s in seeds() if s.name.startswith("tests/decks/") and "small" in s.name
             or s.name == "decks/cards.toml"]
    outcomes = [run_case(c, build=True, seconds_cap=120, simulations=0)
                for c in cases(7, 12, only=small)]
    bad = [f"{o.case.seed} [{o.case.mutation}]: {o.kind}: {o.message[-600:]}"
           for o in outcomes if o.kind in BAD_KINDS]
    assert not bad, "\n".join(bad[:5])
