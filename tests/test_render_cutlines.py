"""Shared cut lines: merged outlines cut every edge exactly once (brute-force oracle on unit
squares and polyominoes), and outlines that share nothing stay closed."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from render_samples import cells_outline, hex_outline

from generator.render.cutlines import merge_outlines, segments
from generator.render.drawing import Point


def _unit_edges(paths_segments: list[tuple[Point, Point]]) -> list[tuple[Point, Point]]:
    """Split axis-aligned integer segments into unit edges (undirected, sorted)."""
    out = []
    for (x0, y0), (x1, y1) in paths_segments:
        n = round(abs(x1 - x0) + abs(y1 - y0))
        assert n >= 1
        for k in range(n):
            a = (round(x0 + (x1 - x0) * k / n, 6), round(y0 + (y1 - y0) * k / n, 6))
            b = (round(x0 + (x1 - x0) * (k + 1) / n, 6), round(y0 + (y1 - y0) * (k + 1) / n, 6))
            out.append((min(a, b), max(a, b)))
    return out


def _square(r: int, c: int) -> tuple[Point, ...]:
    return ((float(c), float(r)), (c + 1.0, float(r)), (c + 1.0, r + 1.0), (float(c), r + 1.0))


@settings(max_examples=80, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=20))
def test_squares_every_edge_cut_once(cells: set[tuple[int, int]]) -> None:
    order = sorted(cells)
    merged = merge_outlines((f"{r},{c}", _square(r, c)) for r, c in order)
    got = _unit_edges(segments(merged))
    oracle = {e for r, c in order for e in _unit_edges(
        [(p, q) for p, q in zip(_square(r, c), _square(r, c)[1:] + _square(r, c)[:1],
                                strict=True)])}
    assert sorted(got) == sorted(oracle)  # every edge, and each exactly once
    assert len(merged) == len(order)  # one path per component
    # the first component always keeps its whole closed outline
    assert merged[0].closed


PIECES = [((0, 0), (0, 1), (0, 2)), ((0, 0), (1, 0)), ((0, 0), (0, 1), (1, 1)),
          ((0, 0), (1, 0), (1, 1), (1, 2)), ((0, 0),)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(range(len(PIECES))), st.integers(0, 4),
                          st.integers(0, 4)), min_size=1, max_size=8))
def test_polyominoes_with_unequal_shared_sides(placed: list[tuple[int, int, int]]) -> None:
    """Pieces whose long sides meet shorter sides of neighbours: still each edge once."""
    used: set[tuple[int, int]] = set()
    outlines = []
    for k, (p, r0, c0) in enumerate(placed):
        cells = [(r0 + r, c0 + c) for r, c in PIECES[p]]
        if used & set(cells):
            continue
        used |= set(cells)
        pts = cells_outline(tuple(cells), 1.0)
        outlines.append((f"p{k}", tuple((x + c0, y + r0) for x, y in pts)))
    merged = merge_outlines(outlines)
    got = _unit_edges(segments(merged))
    assert len(got) == len(set(got))  # no edge cut twice
    boundary: set[tuple[Point, Point]] = set()
    for _, outline in outlines:
        for a, b in zip(outline, outline[1:] + outline[:1], strict=True):
            boundary |= set(_unit_edges([(a, b)]))
    assert set(got) == boundary  # every edge of every outline cut
    assert len(merged) == len(outlines)


def test_honeycomb_shares_edges() -> None:
    f = 20.0
    pts = hex_outline(f, "pointy")
    long = f * 2 / math.sqrt(3)
    outlines = []
    for r in range(3):
        for c in range(3):
            dx = c * f + (f / 2 if r % 2 else 0.0)
            dy = r * 0.75 * long
            outlines.append((f"h{r}{c}", tuple((x + dx, y + dy) for x, y in pts)))
    merged = merge_outlines(outlines)
    segs = segments(merged)
    # 9 hexes, 6 edges each = 54; shared: 6 horizontal neighbours + 10 diagonal = 16
    assert len(segs) == 54 - 16
    for i, (a, b) in enumerate(segs):
        for e, g in segs[i + 1:]:
            assert not (_same(a, e) and _same(b, g)) and not (_same(a, g) and _same(b, e))


def _same(p: Point, q: Point) -> bool:
    return abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6


def test_separate_outlines_stay_closed() -> None:
    merged = merge_outlines([("a", _square(0, 0)), ("b", _square(0, 2))])
    assert all(m.closed for m in merged)
    assert [len(m.polylines[0]) for m in merged] == [4, 4]
