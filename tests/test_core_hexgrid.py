"""Hex grids: axial coordinates, rings, lines, the 12 symmetries, pixels, polyhexes."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.core import lattice
from generator.core.hexgrid import (
    DIRECTIONS,
    HEX_SYMMETRIES,
    Hex,
    Polyhex,
    corners,
    count_polyhexes,
    enumerate_polyhexes,
    hex_components,
    hex_transform,
    labelled_orientations_hex,
    line,
    ray,
    ring,
    spiral,
    to_pixel,
)
from generator.core.polyomino import Symmetry

hexes = st.builds(Hex, st.integers(-6, 6), st.integers(-6, 6))


def test_hex_text_form_and_repr_round_trip() -> None:
    h = Hex(1, -2)
    assert str(h) == "1,-2" and Hex.parse("1,-2") == h
    assert eval(repr(h)) == h
    assert h.s == 1
    with pytest.raises(ValueError):
        Hex.parse("1;2")


def test_neighbours_are_at_distance_one() -> None:
    h = Hex(2, -1)
    assert len(set(h.neighbours())) == 6
    assert all(h.distance(n) == 1 for n in h.neighbours())


def test_rings_and_spirals_have_the_known_sizes() -> None:
    c = Hex(0, 0)
    assert ring(c, 0) == [c]
    for r in range(1, 5):
        rg = ring(c, r)
        assert len(rg) == 6 * r and len(set(rg)) == 6 * r
        assert all(c.distance(h) == r for h in rg)
    assert len(spiral(c, 3)) == 37


def test_lines_and_rays() -> None:
    a, b = Hex(0, 0), Hex(4, -2)
    ln = line(a, b)
    assert ln[0] == a and ln[-1] == b and len(ln) == a.distance(b) + 1
    assert all(ln[i].distance(ln[i + 1]) == 1 for i in range(len(ln) - 1))
    assert ray(a, 0, 3) == [Hex(1, 0), Hex(2, 0), Hex(3, 0)]


def test_twelve_distinct_symmetries() -> None:
    assert len(set(HEX_SYMMETRIES)) == 12
    h = Hex(3, -1)  # on no mirror line: 12 different images
    assert len({hex_transform(h, k) for k in range(12)}) == 12
    assert len({hex_transform(Hex(2, -1), k) for k in range(12)}) == 6  # on a mirror line
    for i, d in enumerate(DIRECTIONS):
        assert d.rotate(1) == DIRECTIONS[(i + 1) % 6]
    assert h.reflect().reflect() == h


@given(hexes, hexes, st.integers(0, 11))
def test_symmetries_preserve_distance(a: Hex, b: Hex, k: int) -> None:
    assert hex_transform(a, k).distance(hex_transform(b, k)) == a.distance(b)


def test_pixels_pointy_and_flat() -> None:
    x, y = to_pixel(Hex(1, 0), 10.0, "pointy")
    assert math.isclose(x, 10 * math.sqrt(3)) and y == 0
    x, y = to_pixel(Hex(0, 1), 10.0, "flat")
    assert x == 0 and math.isclose(y, 10 * math.sqrt(3))
    cs = corners(Hex(0, 0), 1.0)
    assert len(cs) == 6 and all(math.isclose(math.hypot(cx, cy), 1.0) for cx, cy in cs)
    # Neighbouring hexes share two corners.
    shared = {(round(x, 6), round(y, 6)) for x, y in cs} & {
        (round(x, 6), round(y, 6)) for x, y in corners(Hex(1, 0), 1.0)
    }
    assert len(shared) == 2
    with pytest.raises(ValueError):
        to_pixel(Hex(0, 0), 1.0, "sideways")  # type: ignore[arg-type]


def test_polyhex_text_form_round_trips() -> None:
    p = Polyhex.from_text("0,0;1,0;0,1")
    assert str(p) == "0,0;0,1;1,0"
    assert Polyhex.from_text(str(p)) == p and eval(repr(p)) == p
    assert p.art() == "o o\n o"
    with pytest.raises(ValueError):
        Polyhex.from_text("0,0;2,0")  # not connected


@pytest.mark.parametrize(
    ("symmetry", "counts"),
    [
        (Symmetry.FREE, [1, 1, 3, 7, 22, 82, 333]),
        (Symmetry.ONE_SIDED, [1, 1, 3, 10, 33, 147, 620]),
        (Symmetry.FIXED, [1, 3, 11, 44, 186, 814, 3652]),
    ],
)
def test_polyhex_counts(symmetry: Symmetry, counts: list[int]) -> None:
    assert [count_polyhexes(n, symmetry) for n in range(1, 8)] == counts
    assert [len(enumerate_polyhexes(n, symmetry)) for n in range(1, 7)] == counts[:6]


def test_polyhexes_agree_with_redelmeier() -> None:
    steps = [(d.q, d.r) for d in DIRECTIONS]
    fixed = lattice.enumerate_fixed_redelmeier(5, steps)
    assert len(fixed) == 186
    free = {Polyhex.of(Hex(q, r) for q, r in s).canonical() for s in fixed}
    assert free == set(enumerate_polyhexes(5))


def test_polyhex_orientations_and_placements() -> None:
    bar = Polyhex.from_text("0,0;1,0;2,0")
    assert len(bar.orientations()) == 3
    assert len(bar.orientations(Symmetry.FIXED)) == 1
    region = frozenset(spiral(Hex(0, 0), 1))
    assert len(bar.placements(region)) == 3  # the three diameters of a 7-hex flower
    tri = Polyhex.from_text("0,0;1,0;0,1")
    assert len(tri.placements(region)) == 6


def test_labelled_hex_orientations_keep_labels() -> None:
    tile = {Hex(0, 0): "forest", Hex(1, 0): "river"}
    assert len(labelled_orientations_hex(tile)) == 6
    assert len(labelled_orientations_hex({Hex(0, 0): "a", Hex(1, 0): "a"})) == 3


def test_hex_components() -> None:
    groups = hex_components([Hex(0, 0), Hex(1, 0), Hex(5, 5)])
    assert groups == [frozenset({Hex(0, 0), Hex(1, 0)}), frozenset({Hex(5, 5)})]
