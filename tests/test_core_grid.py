"""Square grid geometry: edges, neighbours, components under cuts, outlines."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.core.grid import (
    Edge,
    boundary_edges,
    cell_edges,
    components,
    components_cut,
    edge_between,
    interior_edges,
    is_connected,
    neighbours,
    outline,
    rectangle,
)


def test_edge_text_form_round_trips_and_sorts_its_ends() -> None:
    e = Edge((1, 1), (0, 1))
    assert e.a == (0, 1) and e.b == (1, 1)
    assert str(e) == "0,1-1,1"
    assert Edge.parse(str(e)) == e
    assert eval(repr(e)) == e  # repr pastes back as code


def test_edge_must_join_adjacent_vertices() -> None:
    with pytest.raises(ValueError):
        Edge((0, 0), (1, 1))
    with pytest.raises(ValueError):
        Edge.parse("0,0")


def test_edge_between_cells_separates_exactly_those_cells() -> None:
    for a in [(2, 3)]:
        for b in neighbours(a):
            e = edge_between(a, b)
            assert set(e.cells()) == {a, b}
            assert e in cell_edges(a) and e in cell_edges(b)
    with pytest.raises(ValueError):
        edge_between((0, 0), (1, 1))


def test_cutting_a_rectangle_in_two() -> None:
    cells = rectangle(2, 4)
    # A vertical cut between columns 1 and 2, both rows.
    cut = {edge_between((0, 1), (0, 2)), edge_between((1, 1), (1, 2))}
    parts = components(cells, cut)
    assert parts == [rectangle(2, 2), rectangle(2, 2, 0, 2)]
    assert is_connected(cells) and not is_connected(cells, cut)


def test_boundary_and_interior_edges_of_a_domino() -> None:
    dom = {(0, 0), (0, 1)}
    assert len(boundary_edges(dom)) == 6
    assert interior_edges(dom) == {edge_between((0, 0), (0, 1))}


def test_outline_of_a_ring_has_an_outer_loop_and_a_hole() -> None:
    ring = rectangle(3, 3) - {(1, 1)}
    loops = outline(ring)
    assert loops == [[(0, 0), (0, 3), (3, 3), (3, 0)], [(1, 1), (2, 1), (2, 2), (1, 2)]]


def test_outline_keeps_corner_touching_cells_apart() -> None:
    loops = outline({(0, 0), (1, 1)})
    assert len(loops) == 2 and all(len(lp) == 4 for lp in loops)


cell_sets = st.frozensets(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=14)


@given(cell_sets)
def test_outline_perimeter_equals_the_boundary_edge_count(
    cells: frozenset[tuple[int, int]],
) -> None:
    total = 0
    for loop in outline(cells):
        for i in range(len(loop)):
            (r1, c1), (r2, c2) = loop[i - 1], loop[i]
            assert r1 == r2 or c1 == c2  # axis-parallel corners only
            total += abs(r1 - r2) + abs(c1 - c2)
    assert total == len(boundary_edges(cells))


@given(cell_sets)
def test_components_partition_the_cells(cells: frozenset[tuple[int, int]]) -> None:
    parts = components(cells)
    assert frozenset().union(*parts) == cells
    assert sum(len(p) for p in parts) == len(cells)
    for p in parts:
        assert is_connected(p)
    # No edge joins two different parts.
    owner = {c: i for i, p in enumerate(parts) for c in p}
    for c in cells:
        for nb in neighbours(c):
            if nb in owner:
                assert owner[nb] == owner[c]


@given(cell_sets, st.data())
def test_components_cut_with_vertex_pairs_agrees_with_edge_cuts(
    cells: frozenset[tuple[int, int]], data: st.DataObject
) -> None:
    # The fast path (cut edges as (a, b) vertex pairs) against the Edge form and against a
    # flood fill that builds every Edge.
    inner = sorted(interior_edges(cells))
    cut = data.draw(st.sets(st.sampled_from(inner)) if inner else st.just(set()))
    parts = components_cut(cells, {(e.a, e.b) for e in cut})
    assert parts == components(cells, cut)
    owner = {c: i for i, p in enumerate(parts) for c in p}
    for c in cells:
        for nb in neighbours(c):
            if nb in owner and edge_between(c, nb) not in cut:
                assert owner[nb] == owner[c]
    assert [min(p) for p in parts] == sorted(min(p) for p in parts)
    assert sum(len(p) for p in parts) == len(cells)
    for p in parts:  # each part is connected without crossing a cut edge
        assert len(components_cut(p, {(e.a, e.b) for e in cut})) == 1


def test_components_cut_splits_a_rectangle_along_a_cut_line() -> None:
    # A 2x3 rectangle cut down the vertical line at column 1: parts of 2 and 4 squares.
    line = {((0, 1), (1, 1)), ((1, 1), (2, 1))}
    parts = components_cut(rectangle(2, 3), line)
    assert parts == [frozenset({(0, 0), (1, 0)}), frozenset(rectangle(2, 2, 0, 1))]
    assert components_cut(rectangle(2, 3), set()) == [rectangle(2, 3)]
