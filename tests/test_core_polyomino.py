"""Polyominoes: text round trip, symmetries, labelled orientations, placements, and the
known counts of free, one-sided and fixed polyominoes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.core import lattice
from generator.core.grid import rectangle
from generator.core.polyomino import (
    STEPS,
    TRANSFORMS,
    Polyomino,
    Symmetry,
    count_polyominoes,
    distinct_transforms,
    enumerate_polyominoes,
    labelled_orientations,
    transform_labelled,
)

FREE = [1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655]
ONE_SIDED = [1, 1, 2, 7, 18, 60, 196, 704]
FIXED = [1, 2, 6, 19, 63, 216, 760, 2725]


def test_text_form_round_trips() -> None:
    p = Polyomino.from_text("##.\n.##")
    assert str(p) == "##.\n.##"
    assert Polyomino.from_text(str(p)) == p
    assert repr(p) == "Polyomino.from_text('##.\\n.##')"
    assert eval(repr(p)) == p
    assert Polyomino.from_text("##./.##") == p  # one-line form for deck files


def test_cells_are_normalised_so_translates_are_equal() -> None:
    assert Polyomino.of([(5, 5), (5, 6)]) == Polyomino.of([(0, 0), (0, 1)])
    p = Polyomino.from_text(".#\n##")
    assert (p.size, p.height, p.width) == (3, 2, 2)


def test_bad_shapes_are_rejected() -> None:
    with pytest.raises(ValueError):
        Polyomino(frozenset())
    with pytest.raises(ValueError):
        Polyomino.from_text("#.#")  # not connected
    with pytest.raises(ValueError, match="unexpected"):
        Polyomino.from_text("#z")


def test_transforms_are_the_eight_symmetries_of_the_square() -> None:
    cell = (1, 2)
    images = {t(cell) for t in TRANSFORMS}
    assert len(images) == 8
    assert TRANSFORMS[1]((0, 1)) == (1, 0)  # right -> down: clockwise on the page
    # Rotations compose: four quarter turns are the identity.
    c = cell
    for _ in range(4):
        c = TRANSFORMS[1](c)
    assert c == cell


def test_orientation_counts_follow_the_shape_symmetry() -> None:
    assert len(Polyomino.from_text("##\n##").orientations()) == 1
    assert len(Polyomino.from_text("####").orientations()) == 2
    assert len(Polyomino.from_text("###\n#..").orientations()) == 8
    s = Polyomino.from_text(".##\n##.")
    assert len(s.orientations(Symmetry.FREE)) == 4
    assert len(s.orientations(Symmetry.ONE_SIDED)) == 2
    assert s.orientations(Symmetry.FIXED) == (s,)
    assert s.symmetry_order() == 2


def test_canonical_identifies_the_same_piece() -> None:
    s = Polyomino.from_text(".##\n##.")
    z = Polyomino.from_text("##.\n.##")
    assert s.canonical() == z.canonical()
    assert s.canonical(Symmetry.ONE_SIDED) != z.canonical(Symmetry.ONE_SIDED)


def test_labels_travel_with_their_cells() -> None:
    domino = {(0, 0): "water", (0, 1): "park"}
    turned = transform_labelled(domino, 1)  # quarter turn: horizontal -> vertical
    assert turned == {(0, 0): "water", (1, 0): "park"}
    # A bare domino has 2 orientations; labelled differently at its ends it has 4.
    assert len(labelled_orientations({(0, 0): "a", (0, 1): "a"})) == 2
    assert len(labelled_orientations(domino)) == 4
    assert len(labelled_orientations(domino, reflections=False)) == 4
    assert distinct_transforms({(0, 0): None}) == [0]


def test_placements_in_a_region() -> None:
    l3 = Polyomino.from_text("##\n#.")
    assert len(l3.placements(rectangle(2, 2))) == 4
    assert len(Polyomino.from_text("###").placements(rectangle(3, 3))) == 6
    assert len(l3.placements(rectangle(2, 2), Symmetry.FIXED)) == 1


@pytest.mark.parametrize("n", range(1, 11))
def test_free_polyomino_counts(n: int) -> None:
    assert len(enumerate_polyominoes(n)) == FREE[n - 1]


@pytest.mark.parametrize("n", range(1, 9))
def test_one_sided_and_fixed_counts(n: int) -> None:
    assert len(enumerate_polyominoes(n, Symmetry.ONE_SIDED)) == ONE_SIDED[n - 1]
    assert len(enumerate_polyominoes(n, Symmetry.FIXED)) == FIXED[n - 1]
    assert count_polyominoes(n, Symmetry.FIXED) == FIXED[n - 1]
    assert count_polyominoes(n, Symmetry.ONE_SIDED) == ONE_SIDED[n - 1]


@pytest.mark.parametrize("n", range(1, 8))
def test_enumeration_agrees_with_redelmeier(n: int) -> None:
    """Two independent methods: Redelmeier's fixed shapes, made canonical, give the free set."""
    fixed = lattice.enumerate_fixed_redelmeier(n, STEPS)
    assert len(fixed) == FIXED[n - 1] and len(set(fixed)) == len(fixed)
    free = {Polyomino.of(s).canonical() for s in fixed}
    assert free == set(enumerate_polyominoes(n))


def test_enumerated_shapes_are_canonical_and_distinct() -> None:
    shapes = enumerate_polyominoes(6)
    assert all(p.canonical() == p for p in shapes)
    assert len({p.key() for p in shapes}) == len(shapes)
    assert shapes == sorted(shapes, key=Polyomino.key)


shapes = st.integers(1, 7).flatmap(lambda n: st.sampled_from(enumerate_polyominoes(n)))


@given(shapes, st.integers(0, 7))
def test_canonical_is_invariant_under_every_symmetry(p: Polyomino, k: int) -> None:
    assert p.transform(k).canonical() == p.canonical()
    assert Polyomino.from_text(str(p.transform(k))) == p.transform(k)
