"""The rule patterns of issue 14 for habitats, each on a hand-worked example written out here:
lines that partition the tokens (`once`), groups that may touch (`once`), variety counting
the card's own species (`own_species`), pairs in sight used once (`once`), score files with
too many players and the seed's tie-break; plus brute-force oracles for the optimisers."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.budget import Budget
from generator.core.hexgrid import Hex
from generator.core.packing import max_disjoint, max_weight_packing
from generator.core.verdict import Verdict
from generator.deck import deck_model
from generator.deckfile import load_deck
from generator.errors import DeckError
from generator.families.habitats import HabitatsFamily
from generator.families.habitats.model import HabitatsParams, Term, TermDef
from generator.families.habitats.reach import check_term
from generator.families.habitats.scoring import (
    AXES,
    connected_subsets,
    raw_matches,
    score_term,
    step,
)

ROOT = Path(__file__).resolve().parent.parent
FAM = HabitatsFamily()
ORIGIN = Hex(0, 0)


def term(**kw: object) -> Term:
    return Term.from_def(TermDef.model_validate(kw))


def row(n: int, start: Hex = ORIGIN, direction: int = 0, spacing: int = 1) -> list[Hex]:
    return [step(start, direction, i * spacing) for i in range(n)]


def owls(hexes: list[Hex]) -> dict[Hex, str]:
    return dict.fromkeys(hexes, "owl")


def pts(t: Term, tokens: dict[Hex, str]) -> int:
    return score_term(t, "owl", tokens).points


# --------------------------------------------------------------------------------------------
# line, once: every token in one line
# --------------------------------------------------------------------------------------------

def test_line_once_splits_a_segment_longer_than_the_table() -> None:
    # Five owls in a row; table [2, 5]: a line of 2 scores 2, of 3 or more 5 (past the end).
    # shared (default): the row is one segment of 5 -> 5 points.
    # once: the best partition into lines is 2 + 3 -> 2 + 5 = 7 (2 + 2 + 1 gives 4, 5 gives 5).
    five = owls(row(5))
    assert pts(term(kind="line", table=[2, 5]), five) == 5
    once = term(kind="line", table=[2, 5], once=True)
    got = score_term(once, "owl", five)
    assert got.points == 7
    assert sorted(m.measure for m in got.matches) == [2, 3]
    assert len({h for m in got.matches for h in m.hexes}) == 5  # every token once


def test_line_once_a_shared_corner_counts_in_one_line_only() -> None:
    # A "V": corner C with a ray of two owls along direction 0 and a ray of two along
    # direction 2 (120 degrees apart, so the rays do not touch each other):
    #     C X1 X2  and  C Y1 Y2.   Table [2, 5, 9] for lines of 2 / 3 / 4+.
    # shared: both 3-lines count, C in both: 5 + 5 = 10.
    # once: C joins one ray: {C, X1, X2} = 5 plus {Y1, Y2} = 2 -> 7.
    v = owls([ORIGIN, *row(2, step(ORIGIN, 0)), *row(2, step(ORIGIN, 2), 2)])
    assert pts(term(kind="line", table=[2, 5, 9]), v) == 10
    assert pts(term(kind="line", table=[2, 5, 9], once=True), v) == 7
    # count mode [3, 7, 12]: lines of 2+ that share no token: {C, X1, X2} and {Y1, Y2} -> 7
    assert pts(term(kind="line", mode="count", table=[3, 7, 12], once=True), v) == 7


def test_line_once_max_is_the_longest_line() -> None:
    # Seven owls in a row, lines at most 3 long, table [2, 5] (a line of 2 scores 2, of 3
    # scores 5): 3 + 3 + 1 -> 5 + 5 + 0 = 10 beats 3 + 2 + 2 -> 5 + 2 + 2 = 9.
    seven = owls(row(7))
    t = term(kind="line", table=[2, 5], max=3, once=True)
    assert pts(t, seven) == 10
    # shared mode keeps its meaning of max: the 7-segment is too long and scores nothing
    assert pts(term(kind="line", table=[2, 5], max=3), seven) == 0


# --------------------------------------------------------------------------------------------
# group, once: groups may touch, each token in the group that scores more
# --------------------------------------------------------------------------------------------

def test_group_once_touching_groups_split_for_most_points() -> None:
    # Groups of exactly 2 score 4, of exactly 3 score 9 (sizes = [2, 3], table [4, 9]).
    elk = term(kind="group", sizes=[2, 3], table=[4, 9], once=True)
    bear = term(kind="group", sizes=[2, 3], table=[4, 9])
    # A row of 5: the default (groups may not touch) sees one group of 5: nothing.
    # once: 2 + 3 -> 4 + 9 = 13.
    assert pts(bear, owls(row(5))) == 0
    assert pts(elk, owls(row(5))) == 13
    # A row of 4: two pairs give 8, a trio and a leftover token give 9 -> 9.
    assert pts(elk, owls(row(4))) == 9
    # A row of 6: two trios, 18 (three pairs give 12).
    assert pts(elk, owls(row(6))) == 18
    # count mode, trios [5, 12, 20]: a row of 7 holds two disjoint trios -> 12
    trios = term(kind="group", mode="count", sizes=[3], table=[5, 12, 20], once=True)
    assert pts(trios, owls(row(7))) == 12


def test_group_once_compact_blob() -> None:
    # The 7-hex flower (a centre and its six neighbours), sizes [3] each 6 points:
    # the ring of six splits into two trios, the centre is left over: 12. The default sees
    # one group of 7: nothing.
    flower = owls([ORIGIN, *ORIGIN.neighbours()])
    t = term(kind="group", sizes=[3], table=[6], once=True)
    assert pts(t, flower) == 12
    assert pts(term(kind="group", sizes=[3], table=[6]), flower) == 0


# --------------------------------------------------------------------------------------------
# variety with the own species
# --------------------------------------------------------------------------------------------

def test_variety_own_species_counts_as_one_more() -> None:
    # An owl with a hare, a newt and another owl around it. Default: 2 other species.
    # own_species: hare, newt and owl -> 3. The second owl sees only the first owl: 0 / 1.
    tokens = {ORIGIN: "owl", step(ORIGIN, 0): "hare", step(ORIGIN, 2): "newt",
              step(ORIGIN, 4): "owl"}
    plain = term(kind="variety", table=[1, 2, 3, 4])
    own = term(kind="variety", table=[1, 2, 3, 4], own_species=True)
    assert sorted(m.measure for m in raw_matches(plain, "owl", tokens)) == [0, 2]
    assert sorted(m.measure for m in raw_matches(own, "owl", tokens)) == [1, 3]
    # table[measure - 1]: plain 2 -> 2 points; own 3 -> 3 and 1 -> 1: 4 points
    assert pts(plain, tokens) == 2 and pts(own, tokens) == 4


# --------------------------------------------------------------------------------------------
# sight, once: each token in one pair (maximum matching)
# --------------------------------------------------------------------------------------------

def test_sight_once_each_token_in_one_pair() -> None:
    # Four owls on a line, two apart: A . B . C . D. Each sees its neighbours on the line:
    # pairs A-B, B-C, C-D (a nearer owl blocks the farther). Count table [3, 7, 12].
    # shared: 3 pairs -> 12. once: A-B and C-D -> 2 pairs -> 7.
    four = owls(row(4, spacing=2))
    assert pts(term(kind="sight", mode="count", table=[3, 7, 12]), four) == 12
    once = term(kind="sight", mode="count", table=[3, 7, 12], once=True)
    got = score_term(once, "owl", four)
    assert got.points == 7 and len(got.matches) == 2
    # three in a line: B is in one pair only -> 1 pair -> 3
    assert pts(once, owls(row(3, spacing=2))) == 3


# --------------------------------------------------------------------------------------------
# checks understand the options
# --------------------------------------------------------------------------------------------

def make_deck(**habitats: Any) -> Any:
    model = deck_model("habitats", HabitatsParams)
    return model.model_validate({"family": "habitats", "name": "t", "seed": 3,
                                 "check": {"simulations": 0}, "habitats": habitats})


def test_checks_of_once_terms() -> None:
    # 12 turns and 12 tokens: pairs in sight used once need 2 tokens a pair, so 7 pairs
    # (14 tokens) are impossible -- the shared rule reaches 7 pairs with 8 tokens in a row.
    deck = make_deck(turns=12, tokens_per_species=12, cards=[
        {"species": "owl", "title": "a", "terms": [
            {"kind": "sight", "mode": "count", "distance": 1, "once": True,
             "table": [1, 2, 3, 4, 5, 6, 7]}]},
        {"species": "owl", "title": "b", "terms": [
            {"kind": "group", "mode": "each", "sizes": [2, 3], "once": True,
             "table": [4, 9]}]},
        {"species": "owl", "title": "c", "terms": [
            {"kind": "variety", "mode": "each", "own_species": True,
             "table": [1, 2, 3, 4, 5, 6]}]},
        {"species": "owl", "title": "d", "terms": [
            {"kind": "line", "mode": "count", "once": True, "table": [1, 2, 3, 4, 5, 6, 7]}]},
    ])
    box = FAM.generate(deck)
    b = Budget(200_000)
    sight = check_term(box.cards[0], 0, box, b)
    assert [a.verdict for a in sight[:3]] == [Verdict.COMPLETABLE] * 3
    assert sight[6].verdict is Verdict.IMPOSSIBLE
    assert "needs at least 14 owl tokens" in sight[6].message
    group = check_term(box.cards[1], 0, box, b)
    assert [a.verdict for a in group] == [Verdict.COMPLETABLE] * 2
    # variety with the own species: five species, so a measure of 5 is the most (tier 5);
    # without own_species the most is 4
    var = check_term(box.cards[2], 0, box, b)
    assert [a.verdict for a in var] == [Verdict.COMPLETABLE] * 5 + [Verdict.IMPOSSIBLE]
    assert "at most 5" in var[5].message
    # lines used once: 7 disjoint lines of 2 need 14 tokens > 12
    lines = check_term(box.cards[3], 0, box, b)
    assert lines[6].verdict is Verdict.IMPOSSIBLE and "14 owl tokens" in lines[6].message
    assert lines[0].verdict is Verdict.COMPLETABLE


def test_once_is_rejected_where_it_means_nothing() -> None:
    deck = make_deck(cards=[{"species": "owl", "title": "a", "terms": [
        {"kind": "ring", "mode": "each", "once": True, "table": [1]},
        {"kind": "group", "mode": "each", "once": True, "best": True, "table": [1]},
        {"kind": "line", "mode": "each", "own_species": True, "table": [1]}]}])
    codes = [(p.code, p.path[-1]) for p in FAM.validate(deck)]
    assert ("E-HABITATS-TERM-PARAM", "once") in codes
    assert codes.count(("E-HABITATS-TERM-PARAM", "once")) == 2
    assert ("E-HABITATS-TERM-PARAM", "own_species") in codes


def test_card_text_says_each_token_counts_once() -> None:
    t = term(kind="group", sizes=[2, 3], table=[4, 9], once=True)
    text = t.describe("elk")
    assert "counts in one group only" in text and "Groups may touch" in text
    assert "its own counts" in term(kind="variety", table=[1], own_species=True).describe("x")


# --------------------------------------------------------------------------------------------
# score files: players and the tie-break
# --------------------------------------------------------------------------------------------

SMALL = ROOT / "tests/decks/habitats-small.toml"


def _score(text: str) -> Any:
    loaded = load_deck(SMALL)
    return FAM.score(loaded.deck, FAM.generate(loaded.deck), Path("m.toml"), text)


def _player(name: str, n: int, nature: int) -> str:
    return f'[[players]]\nname = "{name}"\nnature = {nature}\n' + "".join(
        f'[[players.tiles]]\nhabitats = ["crag"]\nspecies = ["kite"]\nq = {q}\nr = 0\n'
        for q in range(n))


def test_score_file_rejects_more_players_than_the_deck_allows() -> None:
    # habitats-small allows 2 players
    with pytest.raises(DeckError) as exc:
        _score(_player("a", 2, 0) + _player("b", 2, 0) + _player("c", 2, 0))
    msgs = [p.format() for p in exc.value.problems]
    assert any("E-HABITATS-MAP-PLAYERS" in m and "3 players" in m and "at most 2" in m
               for m in msgs)


def test_tie_break_most_nature_tokens() -> None:
    # ann: a 3-tile crag corridor (3) + the larger-corridor bonus of two players (2) + 1
    # nature token = 6. bo: a 2-tile corridor (2) + 4 nature tokens = 6. Tied on points,
    # bo ranks first with more nature tokens (4 against 1).
    res = _score(_player("ann", 3, 1) + _player("bo", 2, 4))
    lines = {ln.label: ln for ln in res.lines}
    assert lines["ann: total"].points == 6 and lines["bo: total"].points == 6
    assert lines["place 1: bo"].points == 6 and "most nature tokens" in lines["place 1: bo"].detail
    assert lines["place 2: ann"].points == 6
    # equal points and equal nature tokens share the place
    res = _score(_player("ann", 2, 1) + _player("bo", 2, 1))
    labels = [ln.label for ln in res.lines if ln.label.startswith("place")]
    assert labels == ["place 1: ann", "place 1: bo"]


# --------------------------------------------------------------------------------------------
# oracles
# --------------------------------------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 255), st.integers(0, 9)), max_size=9))
def test_packing_matches_brute_force(cands: list[tuple[int, int]]) -> None:
    masks = [m for m, _ in cands]
    weights = [w for _, w in cands]
    best = 0
    for r in range(len(cands) + 1):
        for pick in itertools.combinations(range(len(cands)), r):
            union = 0
            ok = True
            for i in pick:
                if union & masks[i]:
                    ok = False
                    break
                union |= masks[i]
            if ok:
                best = max(best, sum(weights[i] for i in pick))
    got = max_weight_packing(masks, weights)
    assert got.weight == best
    assert sum(weights[i] for i in got.chosen) == best
    seen = 0
    for i in got.chosen:
        assert not seen & masks[i]
        seen |= masks[i]
    assert max_disjoint(masks).weight == max_weight_packing(masks, [1] * len(masks)).weight


def _partitions(items: list[Hex]) -> Iterator[list[list[Hex]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1:]]


def _connected(block: list[Hex]) -> bool:
    todo, seen = [block[0]], {block[0]}
    while todo:
        h = todo.pop()
        for n in h.neighbours():
            if n in block and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(block)


def _straight(block: list[Hex]) -> bool:
    if len(block) == 1:
        return True
    s = set(block)
    start = min(block)
    return any(all(step(start, a, i) in s for i in range(len(block)))
               or all(step(start, a + 3, i) in s for i in range(len(block))) for a in AXES)


def _oracle(t: Term, hexes: list[Hex]) -> int:
    """The best partition of the tokens into blocks, each block scoring when it is a valid
    match (a straight line / a connected group) whose size passes the filters."""
    ok = _straight if t.kind == "line" else _connected
    best = 0
    for part in _partitions(hexes):
        sizes = [len(b) for b in part if ok(b) and (
            len(b) >= t.min and (t.max is None or len(b) <= t.max)
            and (not t.sizes or len(b) in t.sizes))]
        if t.mode == "count":
            got = t.points_for(t.tier_of_count(len(sizes))) if sizes else 0
        else:
            got = sum(t.points_for(t.tier_of_measure(n)) for n in sizes)
        best = max(best, got)
    return best


small_maps = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=1,
                      max_size=7, unique=True)
rising = st.lists(st.integers(1, 6), min_size=1, max_size=4).map(
    lambda xs: list(itertools.accumulate(xs)))


@settings(max_examples=60, deadline=None)
@given(small_maps, rising, st.sampled_from(["line", "group"]), st.sampled_from(["each", "count"]),
       st.integers(1, 3), st.one_of(st.none(), st.integers(2, 4)),
       st.sampled_from([(), (2,), (2, 3), (3,)]))
def test_once_scoring_matches_best_partition(cs: list[tuple[int, int]], table: list[int],
                                             kind: str, mode: str, lo: int, hi: int | None,
                                             sizes: tuple[int, ...]) -> None:
    kw: dict[str, object] = {"kind": kind, "mode": mode, "table": table, "min": lo,
                             "once": True}
    if hi is not None and hi >= lo:
        kw["max"] = hi
    if kind == "group" and sizes:
        kw["sizes"] = list(sizes)
        kw.pop("min")
    t = term(**kw)
    hexes = sorted(Hex(q, r) for q, r in cs)
    assert pts(t, owls(hexes)) == _oracle(t, hexes)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=8,
                unique=True))
def test_sight_once_is_a_maximum_matching(cs: list[tuple[int, int]]) -> None:
    hexes = sorted(Hex(q, r) for q, r in cs)
    tokens = owls(hexes)
    pairs = raw_matches(term(kind="sight", mode="count", table=[1]), "owl", tokens)
    best = 0
    for r in range(len(pairs) + 1):
        for pick in itertools.combinations(pairs, r):
            used = [h for p in pick for h in p.hexes]
            if len(used) == len(set(used)):
                best = max(best, r)
    once = term(kind="sight", mode="count", table=list(range(1, 13)), once=True)
    assert len(score_term(once, "owl", tokens).matches) == best


@settings(max_examples=40, deadline=None)
@given(small_maps, st.integers(1, 5))
def test_connected_subsets_match_brute_force(cs: list[tuple[int, int]], n: int) -> None:
    hexes = sorted(Hex(q, r) for q, r in cs)
    got = sorted(tuple(sorted(s)) for s in connected_subsets(frozenset(hexes), (n,)))
    want = sorted(c for c in itertools.combinations(hexes, n) if _connected(list(c)))
    assert got == want
