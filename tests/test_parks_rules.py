"""The parks rules engine: text forms, cuts, freed sections, placements, scoring; property
tests against brute-force oracles on small sheets."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.grid import Edge
from generator.families.parks.model import (
    DIRECTIONS,
    Bonus,
    Card,
    Cut,
    Demand,
    Die,
    Feature,
    Icon,
    Sheet,
    Square,
    Token,
)
from generator.families.parks.rules import (
    Build,
    CardState,
    Placement,
    PlayerState,
    RuleError,
    SheetState,
    apply_cut,
    build,
    cut_outcomes,
    cut_problem,
    fits,
    legal_cuts,
    place,
    placement_for,
    placement_problem,
    play_cuts,
    race_winner,
    solo_score,
)

SHEET = Sheet.from_text("GGWAP\nGGWAP\nAAPGG\nPWGGA\n\nicons:\n..w..\n.....\nr....\n...w.")
DIE = Die.from_text("1 | 2,2 | 3,3,3 | 1,2")


# --- text forms ---------------------------------------------------------------------------------

def test_sheet_text_round_trip_and_repr() -> None:
    assert Sheet.from_text(SHEET.to_text()) == SHEET
    assert eval(repr(SHEET)) == SHEET
    assert SHEET.rows == 4 and SHEET.cols == 5
    assert SHEET.at((0, 2)) == Square(Feature.WATER, Icon.WILDLIFE)
    assert SHEET.count(Feature.WATER) == 3
    assert SHEET.count(None, Icon.RECYCLING) == 1


def test_card_text_round_trip_and_repr() -> None:
    card = Card.from_rows("park-01", "Wet Walk", ["WW#", "#.G"], ["..w", "..."],
                          ["11.", "..."], Bonus.EXTRA_CUT)
    assert Card.from_text(card.to_text()) == card
    assert eval(repr(card)) == card
    assert card.size == 5
    assert card.demand((0, 0)) == Demand(Feature.WATER)
    assert card.demand((0, 2)) == Demand(None, Icon.WILDLIFE)
    assert card.walkways == (frozenset({(0, 0), (0, 1)}),)


def test_card_rejects_marks_outside_the_shape() -> None:
    with pytest.raises(ValueError, match="outside the shape"):
        Card.from_rows("c", "", ["#."], ["..w"])
    with pytest.raises(ValueError, match="unknown feature letter"):
        Card.from_rows("c", "", ["#X"])


def test_cut_and_die_text_round_trip() -> None:
    cut = Cut.parse("2,3 S 2")
    assert str(cut) == "2,3 S 2" and eval(repr(cut)) == cut
    assert cut.end == (4, 3)
    assert cut.edges() == (Edge((2, 3), (3, 3)), Edge((3, 3), (4, 3)))
    assert eval(repr(DIE)) == DIE
    with pytest.raises(ValueError, match="expected 'row,col DIR length'"):
        Cut.parse("2,3 X 2")


# --- cuts ---------------------------------------------------------------------------------------

def test_cut_must_start_on_the_boundary_or_an_endpoint() -> None:
    s = SheetState.fresh(SHEET)
    assert "neither on the sheet's outer boundary" in cut_problem(s, Cut((2, 2), "E", 1))
    assert cut_problem(s, Cut((0, 2), "S", 2)) == ""
    s2 = apply_cut(s, Cut((0, 2), "S", 2)).state
    # the end of the earlier cut (an interior vertex) is now a start point
    assert cut_problem(s2.new_round(), Cut((2, 2), "E", 1)) == ""


def test_cut_cannot_run_along_the_border_or_recut() -> None:
    s = SheetState.fresh(SHEET)
    assert "not inside the attached sheet" in cut_problem(s, Cut((0, 0), "E", 1))
    s2 = apply_cut(s, Cut((0, 2), "S", 2)).state.new_round()
    assert "already cut" in cut_problem(s2, Cut((2, 2), "N", 1))


def test_same_round_collinear_cuts_are_illegal_but_turns_and_later_rounds_are_fine() -> None:
    s = apply_cut(SheetState.fresh(SHEET), Cut((0, 2), "S", 1)).state
    assert "same round" in cut_problem(s, Cut((1, 2), "S", 1))
    assert cut_problem(s, Cut((1, 2), "E", 1)) == ""
    assert cut_problem(s.new_round(), Cut((1, 2), "S", 1)) == ""


def test_freeing_a_corner_section_largest_part_stays() -> None:
    s = SheetState.fresh(SHEET)
    r1 = apply_cut(s, Cut((0, 2), "S", 2))
    assert r1.freed == ()
    r2 = apply_cut(r1.state, Cut((2, 2), "W", 2))
    assert r2.freed == (frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}),)
    assert len(r2.state.body) == 16
    # cuts into a freed section are never allowed
    assert "not inside" in cut_problem(r2.state.new_round(), Cut((2, 1), "N", 1))


def test_tie_for_largest_is_the_players_choice() -> None:
    sheet = Sheet.from_text("GGGG\nWWWW")
    s = SheetState.fresh(sheet)
    # a tie is the player's choice, never a default: a move that does not name it is refused
    with pytest.raises(RuleError, match="tie for the largest"):
        apply_cut(s, Cut((0, 2), "S", 2))
    a = apply_cut(s, Cut((0, 2), "S", 2), keep=(1, 0))
    assert a.tie and a.state.body == frozenset({(0, 0), (0, 1), (1, 0), (1, 1)})
    outcomes = cut_outcomes(s, Cut((0, 2), "S", 2))
    assert sorted(k for _, k in outcomes if k) == [(0, 0), (0, 2)]
    b = apply_cut(s, Cut((0, 2), "S", 2), keep=(0, 3))
    assert b.state.body == frozenset({(0, 2), (0, 3), (1, 2), (1, 3)})
    assert b.freed == (frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}),)
    with pytest.raises(RuleError, match="not in the part that stays"):
        apply_cut(apply_cut(SheetState.fresh(SHEET), Cut((0, 1), "S", 1)).state,
                  Cut((1, 1), "W", 1), keep=(0, 0))


def test_play_cuts_checks_the_face() -> None:
    p = PlayerState.start(SHEET, [])
    with pytest.raises(RuleError, match="not a face"):
        play_cuts(p, DIE, [5], [Cut((0, 1), "S", 5)])
    with pytest.raises(RuleError, match="asks for cuts of lengths"):
        play_cuts(p, DIE, [2, 2], [Cut((0, 1), "S", 2)])


# --- placements ---------------------------------------------------------------------------------

WET = Card.from_rows("park-02", "Wet Walk", ["WW", "#."], walkways=["11", ".."],
                     bonus=Bonus.GARDENER)


def test_legal_placement_with_rotation() -> None:
    # the vertical water pair (0,2),(1,2) turned a quarter onto the card's top row
    sec = frozenset({(0, 2), (1, 2)})
    pl = placement_for(sec, {(0, 2): (0, 0), (1, 2): (0, 1)})
    cs = place(CardState(WET), SHEET, pl)
    assert cs.covered_cells() == frozenset({(0, 0), (0, 1)})
    assert not cs.complete


def test_placement_problems_name_the_rule() -> None:
    cs = CardState(WET)
    # a greenery square on a water demand
    pl = placement_for(frozenset({(0, 0)}), {(0, 0): (0, 0)})
    assert "demands water" in placement_problem(cs, SHEET, pl)
    # a walkway half covered
    pl2 = placement_for(frozenset({(0, 2)}), {(0, 2): (0, 0)})
    assert "walkway 1 must be covered by one section" in placement_problem(cs, SHEET, pl2)
    # outside the outline
    pl3 = Placement(frozenset({(0, 0)}), 0, (1, 1))
    assert "outside the park outline" in placement_problem(cs, SHEET, pl3)
    # overlap
    cs2 = place(cs, SHEET, placement_for(frozenset({(2, 0)}), {(2, 0): (1, 0)}))
    pl4 = placement_for(frozenset({(3, 0)}), {(3, 0): (1, 0)})
    assert "already covered" in placement_problem(cs2, SHEET, pl4)


def test_tokens_waive_demands_but_never_walkways() -> None:
    card = Card.from_rows("c", "", ["W"])
    pl = Placement(frozenset({(0, 0)}), 0, (0, 0), waive=(((0, 0), "feature"),))
    assert "Gardener" in placement_problem(CardState(card), SHEET, pl, ())
    assert placement_problem(CardState(card), SHEET, pl, (Token.GARDENER,)) == ""
    pl2 = placement_for(frozenset({(0, 2)}), {(0, 2): (0, 0)})
    half = Placement(pl2.section, pl2.transform, pl2.offset, waive=(((0, 0), "feature"),))
    assert "walkway" in placement_problem(CardState(WET), SHEET, half, (Token.GARDENER,))


def test_build_completes_card_gains_bonus_draws_next() -> None:
    card = Card.from_rows("c1", "", ["G"], bonus=Bonus.GARDENER)
    nxt = Card.from_rows("c2", "", ["#"])
    p = PlayerState.start(SHEET, [card], [nxt])
    p, freed = play_cuts(p, Die(((1,),)), [1], [Cut((1, 0), "E", 1)])
    assert freed == []
    p, freed = play_cuts(p, Die(((1,),)), [1], [Cut((0, 1), "S", 1)])
    assert freed == [frozenset({(0, 0)})]
    pl = placement_for(freed[0], {(0, 0): (0, 0)})
    p = build(p, [Build(freed[0], 0, pl)], freed)
    assert [c.id for c in p.completed] == ["c1"]
    assert p.tokens == (Token.GARDENER,)
    assert [cs.card.id for cs in p.face_up] == ["c2"]
    with pytest.raises(RuleError, match="neither placed nor crumpled"):
        build(p, [], [frozenset({(3, 4)})])


def test_solo_score_and_race_winner() -> None:
    a = PlayerState.start(SHEET, [])
    done = tuple(Card.from_rows(f"c{i}", "", ["#"]) for i in range(5))
    grand = Card.from_rows("g", "", ["##"], grand=True)
    p = PlayerState(a.sheet, (CardState(WET),), completed=done[:2] + (grand,),
                    tokens=(Token.GARDENER,), crumpled=(frozenset({(0, 0)}),), largest_placed=4)
    score = solo_score(p)
    assert score["total"] == 3 * 2 + 5 + 1 + 4 - 1 - 1
    fast = PlayerState(a.sheet, (), completed=done, crumpled=(frozenset({(0, 0)}),))
    tidy = PlayerState(a.sheet, (), completed=done)
    assert race_winner([fast, tidy]) == 1  # fewer crumpled sections wins the tie
    assert race_winner([a, a]) is None


# --- properties ---------------------------------------------------------------------------------

def _brute_legal(state: SheetState, length: int) -> set[Cut]:
    out = set()
    for r in range(state.sheet.rows + 1):
        for c in range(state.sheet.cols + 1):
            for d in DIRECTIONS:
                cut = Cut((r, c), d, length)
                if cut_problem(state, cut) == "":
                    out.add(cut)
    return out


@st.composite
def cut_games(draw: st.DrawFn) -> tuple[Sheet, list[list[int]]]:
    rows = draw(st.integers(2, 4))
    cols = draw(st.integers(2, 4))
    letters = draw(st.lists(st.sampled_from("PAWG"), min_size=rows * cols,
                            max_size=rows * cols))
    sheet = Sheet.from_rows(["".join(letters[r * cols:(r + 1) * cols]) for r in range(rows)])
    rounds = draw(st.lists(st.lists(st.integers(1, 3), min_size=1, max_size=3), max_size=6))
    return sheet, rounds


@settings(max_examples=60, deadline=None)
@given(cut_games(), st.randoms(use_true_random=False))
def test_random_legal_cuts_keep_the_invariants(game: tuple[Sheet, list[list[int]]],
                                               rnd: object) -> None:
    import random
    assert isinstance(rnd, random.Random)
    sheet, rounds = game
    state = SheetState.fresh(sheet)
    freed_all: list[frozenset[tuple[int, int]]] = []
    every_edge: list[Edge] = []
    for face in rounds:
        state = state.new_round()
        for n in face:
            legal = legal_cuts(state, n)
            # the fast enumeration agrees with the rule checker on every vertex/direction
            assert set(legal) == _brute_legal(state, n)
            if not legal:
                break
            cut = rnd.choice(legal)
            for e in cut.edges():
                a, b = e.cells()
                assert a in sheet and b in sheet  # never leaves the grid or runs its border
            every_edge.extend(cut.edges())
            res, _ = rnd.choice(cut_outcomes(state, cut))
            state = res.state
            freed_all.extend(res.freed)
            # freed sections plus the body partition the sheet's squares
            parts = [state.body, *freed_all]
            assert sum(len(p) for p in parts) == len(sheet.cells())
            assert frozenset().union(*parts) == sheet.cells()
            assert all(len(f) <= len(state.body) for f in res.freed)
    assert len(every_edge) == len(set(every_edge))  # no edge is ever cut twice


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4), st.integers(0, 7),
                          st.integers(-2, 2), st.integers(-2, 2)), max_size=8))
def test_placements_never_cover_a_space_twice(tries: list[tuple[int, int, int, int, int]]
                                              ) -> None:
    card = Card.from_rows("c", "", ["###", "###", "##."])
    cs = CardState(card)
    for r, c, k, dr, dc in tries:
        sec = frozenset({(r, c), (r, min(c + 1, 4))})
        pl = Placement(sec, k, (dr, dc))
        if placement_problem(cs, SHEET, pl) == "":
            cs = place(cs, SHEET, pl)
        else:
            with pytest.raises(RuleError):
                place(cs, SHEET, pl)
    cells = [cell for cell, _ in cs.covered]
    assert len(cells) == len(set(cells))
    assert set(cells) <= card.cells


def test_extra_cut_chains_and_solo_discard() -> None:
    from generator.families.parks.rules import extra_cut, play_round, solo_discard

    first = Card.from_rows("c1", "", ["G"], bonus=Bonus.EXTRA_CUT)
    second = Card.from_rows("c2", "", ["P"])
    third = Card.from_rows("c3", "", ["#"])
    p = PlayerState.start(SHEET, [first], [second, third])
    die = Die(((1,), (1, 1)))
    p = play_round(p, die, [1, 1], [Cut((1, 0), "E", 1), Cut((4, 1), "N", 1)], [])
    p, freed = play_cuts(p, die, [1], [Cut((0, 1), "S", 1)])
    p = build(p, [Build(freed[0], 0, placement_for(freed[0], {(0, 0): (0, 0)}))], freed)
    assert p.extra_cuts == 1 and [cs.card.id for cs in p.face_up] == ["c2"]
    with pytest.raises(RuleError, match="round's face"):
        extra_cut(p, [1], Cut((3, 0), "E", 2), [])
    # the extra cut frees the pavilion square (3,0), which completes c2 at once
    sec = frozenset({(3, 0)})
    p = extra_cut(p, [1], Cut((3, 0), "E", 1),
                  [Build(sec, 0, placement_for(sec, {(3, 0): (0, 0)}))])
    assert [c.id for c in p.completed] == ["c1", "c2"] and p.extra_cuts == 0
    with pytest.raises(RuleError, match="no Extra Cut"):
        extra_cut(p, [1], Cut((2, 1), "E", 1), [])
    assert solo_discard(p).pile == ()


def test_a_section_with_a_legal_place_must_be_placed() -> None:
    # DESIGN.md: a freed section is crumpled only when it has no legal place on a face-up card
    card = Card.from_rows("c1", "", ["##", "#."])
    p = PlayerState.start(SHEET, [card])
    p, freed = play_cuts(p, Die(((1, 1),)), [1, 1], [Cut((1, 0), "E", 1), Cut((0, 1), "S", 1)])
    assert freed == [frozenset({(0, 0)})]
    with pytest.raises(RuleError, match="must be placed"):
        build(p, [Build(freed[0])], freed)
    placed = build(p, [Build(freed[0], 0, placement_for(freed[0], {(0, 0): (1, 0)}))], freed)
    assert placed.crumpled == () and len(placed.face_up[0].covered) == 1
    # a section that only fits by spending a token may be crumpled (tokens are optional)
    water = Card.from_rows("c2", "", ["W"])
    q = replace(PlayerState.start(SHEET, [water]), tokens=(Token.GARDENER,))
    q, freed = play_cuts(q, Die(((1, 1),)), [1, 1], [Cut((1, 0), "E", 1), Cut((0, 1), "S", 1)])
    assert SHEET.at((0, 0)).feature is not Feature.WATER
    assert build(q, [Build(freed[0])], freed).crumpled == (freed[0],)
    # and once the card is full the next section has no place and is crumpled
    assert fits(card, frozenset(), SHEET, freed[0]) is None


def _brute_fits(card: Card, sheet: Sheet, section: frozenset[tuple[int, int]]) -> bool:
    # every placement puts the section's first square on some card space
    from generator.core.polyomino import TRANSFORMS

    first = min(section)
    for k, t in enumerate(TRANSFORMS):
        r0, c0 = t(first)
        for r, c in card.cells:
            if placement_problem(CardState(card), sheet,
                                 Placement(section, k, (r - r0, c - c0))) == "":
                return True
    return False


@settings(max_examples=40, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=4),
       st.lists(st.sampled_from(["#", "G", "W", "P", "A"]), min_size=6, max_size=6),
       st.booleans())
def test_fits_agrees_with_brute_force(section: set[tuple[int, int]], marks: list[str],
                                      walk: bool) -> None:
    from generator.core.grid import components

    sec = frozenset(section)
    if len(components(sec)) != 1:
        return
    shape = ["".join(marks[:3]), "".join(marks[3:])]
    card = Card.from_rows("c", "", shape, walkways=["11.", "..."] if walk else [])
    got = fits(card, card.cells, SHEET, sec)
    assert (got is not None) == _brute_fits(card, SHEET, sec)
    if got is not None:
        assert placement_problem(CardState(card), SHEET, got) == ""
