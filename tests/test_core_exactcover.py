"""Exact cover: agreement with a brute-force oracle and with miniexact, colours, multiplicities,
modes, budgets, and the text form."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence

import miniexact
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.budget import Budget
from generator.core.exactcover import CoverProblem, Paint, solve, verify_cover
from generator.core.grid import rectangle
from generator.core.polyomino import Polyomino
from generator.core.verdict import Verdict

# --------------------------------------------------------------------------------------------
# An oracle written from the definition, independent of the solver and of verify_cover.
# --------------------------------------------------------------------------------------------


def oracle_is_cover(
    problem: CoverProblem, chosen: Sequence[int], mult: dict[Hashable, int] | None = None
) -> bool:
    mult = mult or {}
    uses: dict[Hashable, list[Hashable | None]] = {}
    for k in chosen:
        for e in problem.options[k]:
            if isinstance(e, Paint):
                uses.setdefault(e.item, []).append(("colour", e.colour))
            else:
                uses.setdefault(e, []).append(None)
    for it in problem.primary:
        if len(uses.get(it, [])) != mult.get(it, 1):
            return False
    for it in problem.secondary:
        u = uses.get(it, [])
        if it in mult:
            if len(u) > mult[it]:
                return False
        elif None in u:
            if len(u) > 1:
                return False
        elif len(set(u)) > 1:
            return False
    return True


def oracle_solutions(
    problem: CoverProblem, mult: dict[Hashable, int] | None = None
) -> set[tuple[int, ...]]:
    n = len(problem.options)
    out = set()
    for r in range(n + 1):
        for chosen in itertools.combinations(range(n), r):
            if oracle_is_cover(problem, chosen, mult):
                out.add(chosen)
    return out


@st.composite
def problems(draw: st.DrawFn, max_options: int = 9, colours: bool = True) -> CoverProblem:
    n_prim = draw(st.integers(1, 4))
    n_sec = draw(st.integers(0, 3))
    prim = [f"p{i}" for i in range(n_prim)]
    sec = [f"s{i}" for i in range(n_sec)]
    options = []
    for _ in range(draw(st.integers(0, max_options))):
        ps = draw(st.lists(st.sampled_from(prim), min_size=1, max_size=n_prim, unique=True))
        ss = draw(st.lists(st.sampled_from(sec), max_size=n_sec, unique=True)) if sec else []
        opt: list[Hashable] = list(ps)
        for s in ss:
            if colours and draw(st.booleans()):
                opt.append(Paint(s, draw(st.sampled_from("RG"))))
            else:
                opt.append(s)
        options.append(opt)
    return CoverProblem(prim, options, sec)


@settings(max_examples=200, deadline=None)
@given(problems())
def test_solver_agrees_with_brute_force(problem: CoverProblem) -> None:
    expected = oracle_solutions(problem)
    everything = solve(problem, mode="all")
    assert set(everything.solutions) == expected
    assert everything.count == len(expected) and everything.complete
    counted = solve(problem, mode="count")
    assert counted.count == len(expected) and counted.solutions == ()
    first = solve(problem)
    if expected:
        assert first.verdict is Verdict.COMPLETABLE and first.first in expected
    else:
        assert first.verdict is Verdict.IMPOSSIBLE and first.reason
    for sol in everything.solutions:
        assert verify_cover(problem, sol)


@settings(max_examples=120, deadline=None)
@given(problems(), st.lists(st.integers(0, 12), max_size=5))
def test_verify_cover_matches_the_definition(problem: CoverProblem, pick: list[int]) -> None:
    chosen = sorted({k for k in pick if k < len(problem.options)})
    assert verify_cover(problem, chosen) == oracle_is_cover(problem, chosen)


@settings(max_examples=150, deadline=None)
@given(problems(colours=False), st.data())
def test_multiplicities_agree_with_brute_force(problem: CoverProblem, data: st.DataObject) -> None:
    items = list(problem.primary) + list(problem.secondary)
    mult = {it: data.draw(st.integers(1, 3)) for it in items if data.draw(st.booleans())}
    expected = oracle_solutions(problem, mult)
    res = solve(problem, mode="all", multiplicity=mult)
    assert set(res.solutions) == expected


@settings(max_examples=100, deadline=None)
@given(problems(), st.integers(1, 3))
def test_limit_caps_the_count(problem: CoverProblem, limit: int) -> None:
    n = len(oracle_solutions(problem))
    res = solve(problem, mode="count", limit=limit)
    assert res.count == min(n, limit)
    if n < limit:
        assert res.complete
    if n >= limit:
        assert res.verdict is Verdict.COMPLETABLE


# --------------------------------------------------------------------------------------------
# miniexact as a differential oracle on bigger instances
# --------------------------------------------------------------------------------------------


def miniexact_count(problem: CoverProblem) -> int:
    coloured = any(isinstance(e, Paint) for o in problem.options for e in o)
    s = miniexact.miniexacts_c() if coloured else miniexact.miniexacts_x()
    ids = {}
    for it in problem.primary:
        ids[it] = s.primary(str(it))
    for it in problem.secondary:
        ids[it] = s.secondary(str(it))
    colour_ids: dict[Hashable, int] = {}
    for o in problem.options:
        for e in o:
            if isinstance(e, Paint):
                if e.colour not in colour_ids:
                    colour_ids[e.colour] = s.color(str(e.colour))
                s.add(ids[e.item], colour_ids[e.colour])
            else:
                s.add(ids[e])
        s.add(0)
    n = 0
    while s.solve() == 10:
        n += 1
    return n


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_solver_agrees_with_miniexact(seed: int, coloured: bool) -> None:
    import random

    rng = random.Random(seed)
    prim = [f"p{i}" for i in range(rng.randint(4, 9))]
    sec = [f"s{i}" for i in range(rng.randint(0, 4))]
    options = []
    for _ in range(rng.randint(5, 30)):
        opt: list[Hashable] = rng.sample(prim, rng.randint(1, 3))
        for s in rng.sample(sec, rng.randint(0, len(sec))):
            opt.append(Paint(s, rng.choice("RGB")) if coloured and rng.random() < 0.6 else s)
        options.append(opt)
    problem = CoverProblem(prim, options, sec)
    assert solve(problem, mode="count").count == miniexact_count(problem)


# --------------------------------------------------------------------------------------------
# Known answers, budgets, errors, text form
# --------------------------------------------------------------------------------------------

PENTOMINOES = [
    ".##/##./.#.",
    "#####",
    "####/#...",
    "##../.###",
    "##/##/#.",
    "###/.#./.#.",
    "#.#/###",
    "#../#../###",
    "#../##./.##",
    ".#./###/.#.",
    "####/.#..",
    "##./.#./.##",
]


def pentomino_problem(h: int, w: int) -> CoverProblem:
    region = rectangle(h, w)
    options: list[list[Hashable]] = []
    for i, text in enumerate(PENTOMINOES):
        for cells in Polyomino.from_text(text).placements(region):
            options.append([f"P{i}", *sorted(cells)])
    items: list[Hashable] = [f"P{i}" for i in range(12)]
    return CoverProblem(items + sorted(region), options)


def test_pentominoes_in_3x20_have_8_tilings() -> None:
    problem = pentomino_problem(3, 20)
    res = solve(problem, mode="all")
    assert res.count == 8 and res.complete
    assert all(verify_cover(problem, s) for s in res.solutions)


def test_node_budget_gives_unknown_never_a_wrong_answer() -> None:
    problem = pentomino_problem(6, 10)
    res = solve(problem, mode="count", budget=Budget(nodes=2000))
    assert not res.complete
    assert res.nodes <= 2001
    assert res.verdict in (Verdict.UNKNOWN, Verdict.COMPLETABLE)
    assert res.verdict is Verdict.UNKNOWN or res.count >= 1


def test_a_count_stopped_by_its_budget_is_a_lower_bound() -> None:
    problem = pentomino_problem(6, 10)
    res = solve(problem, mode="count", budget=Budget(nodes=200_000))
    assert not res.complete and res.verdict is Verdict.COMPLETABLE  # some found, not all
    assert 1 <= res.count < 2339  # 2339 tilings of the 6x10 box


def test_unknown_when_the_budget_runs_out_before_any_solution() -> None:
    res = solve(pentomino_problem(3, 20), budget=Budget(nodes=5))
    assert res.verdict is Verdict.UNKNOWN and "budget" in res.reason


def test_impossible_names_an_item_nothing_covers() -> None:
    res = solve(CoverProblem(["a", "b"], [["a"]]))
    assert res.verdict is Verdict.IMPOSSIBLE and "'b'" in res.reason


def test_colours_let_options_share_a_secondary_item() -> None:
    problem = CoverProblem(
        ["a", "b"], [["a", Paint("x", "R")], ["b", Paint("x", "R")], ["b", Paint("x", "G")]], ["x"]
    )
    assert solve(problem, mode="all").solutions == ((0, 1),)


def test_bad_problems_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown item"):
        CoverProblem(["a"], [["b"]])
    with pytest.raises(ValueError, match="twice"):
        CoverProblem(["a", "a"], [])
    with pytest.raises(ValueError, match="secondary"):
        CoverProblem(["a", "b"], [["a", Paint("b", "R")]])
    with pytest.raises(ValueError):
        solve(CoverProblem(["a"], [["a"]]), mode="fastest")  # type: ignore[arg-type]


def test_text_form_round_trips() -> None:
    problem = CoverProblem(["a", "b"], [["a", Paint("x", "R")], ["b", "x"]], ["x"])
    text = problem.to_text()
    assert text == "a b | x\na x:R\nb x\n"
    assert CoverProblem.from_text(text) == problem
    assert eval(repr(problem)) == problem
    with pytest.raises(ValueError):
        CoverProblem([(0, 1)], [[(0, 1)]]).to_text()


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_capacity_bounds_never_lose_a_solution(data: st.DataObject) -> None:
    """With capacities (area and subset-sum bounds) the solutions are exactly those without."""
    cells = [f"c{i}" for i in range(data.draw(st.integers(1, 6)))]
    n_pieces = data.draw(st.integers(1, 4))
    sizes = [data.draw(st.integers(1, 3)) for _ in range(n_pieces)]
    required = [data.draw(st.booleans()) for _ in range(n_pieces)]
    options: list[list[Hashable]] = []
    for p, size in enumerate(sizes):
        for _ in range(data.draw(st.integers(0, 4))):
            if size <= len(cells):
                covered = data.draw(st.lists(st.sampled_from(cells), min_size=size,
                                             max_size=size, unique=True))  # fmt: skip
                options.append([f"p{p}", *covered])
    prim: list[Hashable] = [*cells, *(f"p{p}" for p in range(n_pieces) if required[p])]
    sec = [f"p{p}" for p in range(n_pieces) if not required[p]]
    problem = CoverProblem(prim, options, sec)
    cap = {f"p{p}": sizes[p] for p in range(n_pieces)}
    plain = set(solve(problem, mode="all").solutions)
    bounded = solve(problem, mode="all", capacity=cap)
    assert set(bounded.solutions) == plain == oracle_solutions(problem)
