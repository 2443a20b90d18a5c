"""Tiling: known counts, the cheap necessary conditions with their reasons, labels and
demands, merged identical pieces, symmetry counting, budgets, and a brute-force oracle."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.budget import Budget
from generator.core.grid import Cell, rectangle
from generator.core.polyomino import Polyomino, transform_labelled
from generator.core.tiling import (
    Piece,
    Placement,
    board_symmetries,
    count_tilings_up_to_symmetry,
    tile,
    verify_tiling,
)
from generator.core.verdict import Verdict

PENTOMINOES = [
    ".##/##./.#.", "#####", "####/#...", "##../.###", "##/##/#.", "###/.#./.#.",
    "#.#/###", "#../#../###", "#../##./.##", ".#./###/.#.", "####/.#..", "##./.#./.##",
]  # fmt: skip


def pentominoes(required: bool = True) -> list[Piece]:
    return [Piece(Polyomino.from_text(t), name=f"P{i}", required=required) for i, t in
            enumerate(PENTOMINOES)]  # fmt: skip


def test_pentominoes_3x20_count_8_raw_and_2_up_to_symmetry() -> None:
    region = rectangle(3, 20)
    res = tile(region, pentominoes(), mode="all")
    assert res.count == 8 and res.complete and res.verdict is Verdict.COMPLETABLE
    assert all(verify_tiling(region, pentominoes(), s) for s in res.solutions)
    assert len({frozenset(frozenset(p.cells) for p in s) for s in res.solutions}) == 8
    sym = count_tilings_up_to_symmetry(region, pentominoes())
    assert sym.count == 2 and sym.complete


def test_pentominoes_6x10_first_tiling_is_a_real_tiling() -> None:
    region = rectangle(6, 10)
    res = tile(region, pentominoes())
    assert res.verdict is Verdict.COMPLETABLE
    assert verify_tiling(region, pentominoes(), res.placements)
    assert len(res.placements) == 12


def test_8x8_with_a_central_hole_has_65_tilings_up_to_symmetry() -> None:
    region = rectangle(8, 8) - rectangle(2, 2, 3, 3)
    assert len(board_symmetries(region)) == 8
    res = count_tilings_up_to_symmetry(region, pentominoes())
    assert res.count == 65 and res.complete


def test_small_rectangles_known_counts() -> None:
    # Dominoes in a 2x4 rectangle: 5 tilings (identical pieces are interchangeable).
    dominoes = [Piece(Polyomino.from_text("##")) for _ in range(4)]
    assert tile(rectangle(2, 4), dominoes, mode="count").count == 5
    # ... and 4 up to the rectangle's symmetries (the two with one end square are mirrors).
    assert count_tilings_up_to_symmetry(rectangle(2, 4), dominoes).count == 4
    # Dominoes in 4x4: 36 tilings.
    dominoes8 = [Piece(Polyomino.from_text("##")) for _ in range(8)]
    assert tile(rectangle(4, 4), dominoes8, mode="count").count == 36


def test_the_placement_replays_through_its_transform_and_offset() -> None:
    piece = Piece({(0, 0): "W", (0, 1): "G", (1, 0): "W"}, name="corner")
    res = tile(rectangle(2, 2) - {(0, 0)}, [piece])
    (p,) = res.placements
    moved = transform_labelled(piece.labels, p.transform)
    assert {(r + p.offset[0], c + p.offset[1]): v for (r, c), v in moved.items()} == p.cells
    assert p.to_json()["cells"] == [[0, 1], [1, 0], [1, 1]]


# --------------------------------------------------------------------------------------------
# Necessary conditions: impossible, with a reason a designer understands, before any search
# --------------------------------------------------------------------------------------------


def test_area_short_by_one_is_refuted_without_search() -> None:
    pieces = [Piece(Polyomino.from_text("####")) for _ in range(20)]
    res = tile(rectangle(9, 9), pieces)
    assert res.verdict is Verdict.IMPOSSIBLE and res.nodes == 0
    assert "80" in res.reason and "81" in res.reason


def test_subset_sum_over_optional_pieces() -> None:
    # 3x3 = 9 cells from pieces of 2 and 4 cells: every total is even.
    pieces = [Piece(Polyomino.from_text("##"))] * 3 + [Piece(Polyomino.from_text("##/##"))] * 2
    res = tile(rectangle(3, 3), pieces)
    assert res.verdict is Verdict.IMPOSSIBLE and "no subset" in res.reason and res.nodes == 0


def test_required_piece_that_fits_nowhere() -> None:
    pieces = [Piece(Polyomino.from_text("#####"), name="long", required=True)] + [
        Piece(Polyomino.from_text("#"))
    ] * 20
    res = tile(rectangle(4, 4), pieces)
    assert res.verdict is Verdict.IMPOSSIBLE and "'long'" in res.reason and "nowhere" in res.reason


def test_cell_that_no_piece_can_cover() -> None:
    region = frozenset({(0, 0), (0, 1), (0, 2), (1, 0)})  # an L: (1, 0) hangs below
    pieces = [Piece(Polyomino.from_text("###"), name="bar"), Piece(Polyomino.from_text("##/##"))]
    res = tile(region, pieces)
    assert res.verdict is Verdict.IMPOSSIBLE and res.nodes == 0
    assert "no piece can cover cell (1, 0)" in res.reason


def test_demanded_label_in_short_supply() -> None:
    pieces = [Piece.from_text("WW"), Piece.from_text("GG"), Piece.from_text("GG")]
    demands = {(0, 0): "W", (0, 2): "W", (1, 0): "W"}
    res = tile(rectangle(2, 3), pieces, demands=demands)
    assert res.verdict is Verdict.IMPOSSIBLE
    assert "'W'" in res.reason and "3 cells" in res.reason


def test_checkerboard_parity_mutilated_board() -> None:
    region = rectangle(8, 8) - {(0, 0), (7, 7)}
    dominoes = [Piece(Polyomino.from_text("##"), required=True) for _ in range(31)]
    res = tile(region, dominoes)
    assert res.verdict is Verdict.IMPOSSIBLE and "checkerboard" in res.reason
    assert res.nodes == 0


def test_demands_filter_placements_and_labels_rotate() -> None:
    pieces = [Piece.from_text("WG", name="a"), Piece.from_text("WG", name="b")]
    demands = {(0, 0): "G", (1, 0): "W", (0, 1): "W", (1, 1): "G"}
    res = tile(rectangle(2, 2), pieces, demands=demands, mode="all")
    assert res.verdict is Verdict.COMPLETABLE and res.count == 2  # both rows or both columns
    for p in res.placements:
        for cell, lab in p.cells.items():
            assert demands[cell] == lab
    # With only rotations allowed the same works (the pieces are turned, not flipped).
    assert tile(rectangle(2, 2), pieces, demands=demands, reflections=False).placements


def test_custom_matcher_for_sets_of_features() -> None:
    pieces = [Piece({(0, 0): frozenset({"water", "fish"}), (0, 1): frozenset({"grass"})})]

    def has(demand: Hashable, label: Hashable) -> bool:
        return isinstance(label, frozenset) and demand in label

    ok = tile(rectangle(1, 2), pieces, demands={(0, 1): "fish"}, matches=has)
    assert ok.verdict is Verdict.COMPLETABLE
    assert ok.placements[0].cells[(0, 1)] == frozenset({"water", "fish"})


def test_accepts_vetoes_placements() -> None:
    pieces = [Piece(Polyomino.from_text("##"))] * 2
    res = tile(rectangle(2, 2), pieces, accepts=lambda i, cells: min(cells)[0] == max(cells)[0],
               mode="count")  # fmt: skip
    assert res.count == 2  # only horizontal dominoes; copies are told apart by the callback


def test_budget_gives_unknown_on_a_hard_count() -> None:
    res = tile(rectangle(6, 10), pentominoes(), mode="count", budget=Budget(nodes=500))
    assert not res.complete and res.nodes <= 501
    res = tile(rectangle(6, 10), pentominoes(), budget=Budget(nodes=3))
    assert res.verdict is Verdict.UNKNOWN and "budget" in res.reason


def test_piece_text_form_round_trips() -> None:
    p = Piece.from_text("WG/.W", name="x", required=True)
    assert str(p) == "WG\n.W"
    assert Piece.from_text(str(p), name="x", required=True) == p
    assert eval(repr(p)) == p
    assert p.area == 3 and p.shape == Polyomino.from_text("##/.#")
    with pytest.raises(ValueError):
        Piece([])


# --------------------------------------------------------------------------------------------
# A brute-force oracle on small random instances
# --------------------------------------------------------------------------------------------

LabelledCells = frozenset[tuple[Cell, Hashable]]


def oracle_placements(
    piece: Piece, region: frozenset[Cell], demands: Mapping[Cell, Hashable], reflections: bool
) -> set[LabelledCells]:
    out = set()
    lab = piece.labels
    for k in range(8 if reflections else 4):
        img = transform_labelled(lab, k)
        for dr in range(-4, 8):
            for dc in range(-4, 8):
                placed = {(r + dr, c + dc): v for (r, c), v in img.items()}
                if all(c in region for c in placed) and all(
                    placed[c] == d for c, d in demands.items() if c in placed
                ):
                    out.add(frozenset(placed.items()))
    return out


def oracle_count(
    region: frozenset[Cell],
    pieces: list[Piece],
    demands: Mapping[Cell, Hashable],
    reflections: bool,
) -> tuple[int, int]:
    """(assignments of pieces to placements, distinct arrangements), by plain backtracking
    over the pieces in order: each is left out (if optional) or put on a free spot."""
    options = [oracle_placements(p, region, demands, reflections) for p in pieces]
    raw = 0
    arrangements: set[frozenset[LabelledCells]] = set()
    used: list[LabelledCells] = []

    def go(i: int, covered: frozenset[Cell]) -> None:
        nonlocal raw
        if i == len(pieces):
            if covered == region:
                raw += 1
                arrangements.add(frozenset(used))
            return
        if not pieces[i].required:
            go(i + 1, covered)
        for pl in options[i]:
            cells = frozenset(c for c, _ in pl)
            if not cells & covered:
                used.append(pl)
                go(i + 1, covered | cells)
                used.pop()

    go(0, frozenset())
    return raw, len(arrangements)


SHAPES = ["#", "##", "###", "##/#.", "#./##"]


@st.composite
def instances(draw: st.DrawFn) -> tuple[frozenset[Cell], list[Piece], dict[Cell, str], bool]:
    h, w = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    region = frozenset(draw(st.sets(st.sampled_from(sorted(rectangle(h, w))), min_size=1)))
    pieces = []
    for _ in range(draw(st.integers(1, 5))):
        shape = Polyomino.from_text(draw(st.sampled_from(SHAPES)))
        labels = {c: draw(st.sampled_from("AB")) for c in shape.cells}
        pieces.append(Piece(labels, required=draw(st.booleans())))
        if draw(st.integers(0, 3)) == 0:
            pieces.append(pieces[-1])  # an identical copy
    demands = {c: draw(st.sampled_from("AB")) for c in region if draw(st.integers(0, 3)) == 0}
    return region, pieces, demands, draw(st.booleans())


@settings(max_examples=250, deadline=None)
@given(instances())
def test_tiling_agrees_with_brute_force(
    inst: tuple[frozenset[Cell], list[Piece], dict[Cell, str], bool],
) -> None:
    region, pieces, demands, refl = inst
    raw, distinct = oracle_count(region, pieces, demands, refl)
    merged = tile(region, pieces, demands=demands, reflections=refl, mode="all")
    assert merged.count == distinct and merged.complete
    assert (merged.verdict is Verdict.COMPLETABLE) == (raw > 0)
    if raw == 0:
        assert merged.reason
    for sol in merged.solutions:
        assert verify_tiling(region, pieces, sol, demands=demands, reflections=refl)
    # With a callback the copies are told apart: the count is the raw assignment count.
    separate = tile(region, pieces, demands=demands, reflections=refl, mode="count",
                    accepts=lambda i, cells: True)  # fmt: skip
    assert separate.count == raw


@settings(max_examples=100, deadline=None)
@given(instances(), st.integers(1, 30))
def test_budgets_never_give_a_wrong_verdict(
    inst: tuple[frozenset[Cell], list[Piece], dict[Cell, str], bool], nodes: int
) -> None:
    region, pieces, demands, refl = inst
    raw, _ = oracle_count(region, pieces, demands, refl)
    res = tile(region, pieces, demands=demands, reflections=refl, budget=Budget(nodes=nodes))
    assert res.nodes <= nodes + 1
    if res.verdict is Verdict.IMPOSSIBLE:
        assert raw == 0
    elif res.verdict is Verdict.COMPLETABLE:
        assert verify_tiling(region, pieces, res.placements, demands=demands, reflections=refl)


def test_verify_tiling_rejects_bad_certificates() -> None:
    region = rectangle(1, 2)
    pieces = [Piece(Polyomino.from_text("##"), required=True)]
    good = Placement(0, 0, (0, 0), {(0, 0): None, (0, 1): None})
    assert verify_tiling(region, pieces, [good])
    assert not verify_tiling(region, pieces, [])
    assert not verify_tiling(region, pieces, [good, good])
    assert not verify_tiling(
        region, pieces, [Placement(0, 0, (0, 1), {(0, 1): None, (0, 2): None})]
    )


def _orbit_count(region: frozenset[Cell], sols: list[tuple[Placement, ...]], refl: bool) -> int:
    """Classes of tilings under the region's symmetries, by brute force on the pictures."""
    from generator.core.polyomino import MATRICES

    syms = board_symmetries(region, refl)
    seen: set[frozenset[frozenset[tuple[Cell, Hashable]]]] = set()
    classes = 0
    for sol in sols:
        picture = frozenset(frozenset(p.cells.items()) for p in sol)
        if picture in seen:
            continue
        classes += 1
        for k, (sr, sc) in syms:
            a, b, c, d = MATRICES[k]
            seen.add(
                frozenset(
                    frozenset(((a * r + b * q + sr, c * r + d * q + sc), v) for (r, q), v in pl)
                    for pl in picture
                )
            )
    return classes


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([(2, 2), (2, 3), (3, 3), (2, 4), (3, 4)]),
    st.lists(st.sampled_from(SHAPES), min_size=1, max_size=6),
    st.lists(st.booleans(), min_size=6, max_size=6),
    st.booleans(),
)
def test_symmetry_count_agrees_with_brute_force(
    size: tuple[int, int], shapes: list[str], req: list[bool], refl: bool
) -> None:
    region = rectangle(*size)
    pieces = [
        Piece(Polyomino.from_text(s), required=r)
        for s, r in zip(shapes, req[: len(shapes)], strict=True)
    ]
    everything = tile(region, pieces, reflections=refl, mode="all")
    expected = _orbit_count(region, list(everything.solutions), refl)
    res = count_tilings_up_to_symmetry(region, pieces, reflections=refl)
    assert res.count == expected and res.complete


def test_rotated_labelled_copies_are_one_piece() -> None:
    # A domino labelled AB turned half a turn is BA: the two are one piece (merged), laid
    # as AB or as BA; AB and AC are two pieces. Checked against the brute-force oracle.
    ab, ba, ac, aa = (Piece.from_text(t) for t in ("AB", "BA", "AC", "AA"))
    region = rectangle(1, 2)
    for pieces, want in (([ab, ba], 2), ([ab, ac], 4), ([aa], 1), ([aa, aa], 1)):
        res = tile(region, pieces, mode="count")
        assert res.count == want == oracle_count(region, pieces, {}, True)[1]
    # An L tromino and its labelled copy turned a quarter: merged, so one used at a time.
    ell = Piece.from_text("AB/C.")
    turned = Piece(transform_labelled(ell.labels, 1))
    region = rectangle(2, 3)
    res = tile(region, [ell, turned], mode="count")
    assert res.count == oracle_count(region, [ell, turned], {}, True)[1] > 0
    assert tile(region, [ell, turned], mode="count", accepts=lambda i, c: True).count == (
        oracle_count(region, [ell, turned], {}, True)[0]
    )
