"""Every scoring primitive on hand-made token maps, the points tables, and brute-force
oracles for groups and lines."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.hexgrid import Hex
from generator.families.habitats.model import Term, TermDef
from generator.families.habitats.scoring import AXES, OPPOSITE, raw_matches, score_term, step

O0 = Hex(0, 0)


def term(**kw: object) -> Term:
    return Term.from_def(TermDef.model_validate(kw))


def line(n: int, start: Hex = O0, direction: int = 0, spacing: int = 1) -> list[Hex]:
    return [step(start, direction, i * spacing) for i in range(n)]


def toks(hexes: list[Hex], sp: str = "owl") -> dict[Hex, str]:
    return dict.fromkeys(hexes, sp)


def measures(t: Term, tokens: dict[Hex, str], sp: str = "owl") -> list[int]:
    return sorted(m.measure for m in score_term(t, sp, tokens).matches)


def test_group_exact_sizes_count_table_and_past_the_end() -> None:
    pairs = term(kind="group", mode="count", sizes=[2], table=[3, 8, 15, 24])
    far = [step(O0, 0, 10 * k) for k in range(6)]
    tokens: dict[Hex, str] = {}
    for k, base in enumerate(far[:5]):
        tokens.update(toks(line(2, base)))
        assert score_term(pairs, "owl", tokens).points == [3, 8, 15, 24, 24][k]
    # a trio is not a pair: it scores nothing and does not count
    tokens.update(toks(line(3, far[5])))
    assert len(score_term(pairs, "owl", tokens).matches) == 5
    # other species do not join groups
    assert score_term(pairs, "owl", {O0: "owl", step(O0, 0): "hare"}).points == 0


def test_group_each_by_size_and_best_only() -> None:
    each = term(kind="group", mode="each", min=2, table=[3, 6, 10, 15])
    tokens = {**toks(line(2)), **toks(line(4, step(O0, 5, 5))), **toks(line(7, step(O0, 5, 10)))}
    assert measures(each, tokens) == [2, 4, 7]
    assert score_term(each, "owl", tokens).points == 3 + 10 + 15
    best = term(kind="group", mode="each", table=[1, 3, 5, 8], best=True)
    assert score_term(best, "owl", tokens).points == 8
    assert score_term(each, "owl", toks([O0])).points == 0  # a single token is below min 2


def test_line_segments_on_three_axes() -> None:
    t = term(kind="line", mode="each", table=[3, 6, 10, 15])  # min defaults to 2
    assert t.min == 2
    # a straight line of 4 is one segment of 4; its tokens make no other lines
    assert measures(t, toks(line(4))) == [4]
    # a triangle of 3 mutual neighbours: three segments of 2, one per axis
    tri = [O0, step(O0, 0), step(O0, 1)]
    assert measures(t, toks(tri)) == [2, 2, 2]
    # a gap breaks a line
    assert measures(t, toks([O0, step(O0, 0), step(O0, 0, 3), step(O0, 0, 4)])) == [2, 2]
    one = term(kind="line", mode="each", min=1, table=[1, 2])
    assert measures(one, toks([O0])) == [1]


def test_run_members_touch_at_most_two() -> None:
    run = term(kind="run", mode="each", table=[2, 4, 7, 11])
    assert measures(run, toks(line(3))) == [3]
    # a triangle: every member touches two others, so it is a run of 3
    assert measures(run, toks([O0, step(O0, 0), step(O0, 1)])) == [3]
    # a T-junction: the middle touches three -> not a run at all
    t_shape = [O0, step(O0, 0), step(O0, 3), step(O0, 1)]
    assert measures(run, toks(t_shape)) == []
    strict = term(kind="run", mode="each", touch=1, table=[1, 2])
    assert measures(strict, toks(line(2))) == [2]
    assert measures(strict, toks(line(3))) == []


def test_isolated_same_or_any() -> None:
    same = term(kind="isolated", mode="count", table=[2, 5, 8])
    anyt = term(kind="isolated", mode="count", apart="any", table=[2, 5, 8])
    tokens = {O0: "owl", step(O0, 0): "hare", step(O0, 0, 3): "owl", step(O0, 0, 4): "owl"}
    assert len(score_term(same, "owl", tokens).matches) == 1  # the origin one: a hare is next
    assert len(score_term(anyt, "owl", tokens).matches) == 0
    tokens[step(O0, 3, 4)] = "owl"
    assert score_term(anyt, "owl", tokens).points == 2


def test_sight_pairs_blocking_and_distance() -> None:
    same = term(kind="sight", mode="count", table=[3, 7, 12, 18])
    anyt = term(kind="sight", mode="count", apart="any", table=[3, 7, 12, 18])
    # three owls on a line, 2 apart: only neighbours along the line see each other
    row = toks(line(3, spacing=2))
    assert len(score_term(same, "owl", row).matches) == 2
    # adjacent owls are too close (distance 2 by default)
    assert score_term(same, "owl", toks(line(2))).points == 0
    # a hare between two owls blocks only when any species blocks
    pair = {O0: "owl", step(O0, 0): "hare", step(O0, 0, 2): "owl"}
    assert len(score_term(same, "owl", pair).matches) == 1
    assert len(score_term(anyt, "owl", pair).matches) == 0
    far = term(kind="sight", mode="count", distance=3, table=[4])
    assert score_term(far, "owl", toks(line(2, spacing=3))).points == 4
    assert score_term(far, "owl", toks(line(2, spacing=2))).points == 0
    # off-axis owls do not see each other
    assert score_term(same, "owl", {O0: "owl", Hex(2, 1): "owl"}).points == 0


def test_ring_counts_tokens_around_a_centre() -> None:
    other = term(kind="ring", mode="each", table=[1, 3, 6, 10, 14, 19])
    anyt = term(kind="ring", mode="each", around="any", table=[1, 3, 6, 10, 14, 19])
    nb = O0.neighbours()
    tokens = {O0: "owl", nb[0]: "hare", nb[1]: "newt", nb[2]: "owl"}
    assert measures(other, tokens) == [1, 2]  # nb[2] owl sees O0? no: other species only
    assert score_term(other, "owl", tokens).points == 3 + 1
    assert measures(anyt, tokens) == [2, 3]
    full = {O0: "owl", **dict.fromkeys(nb, "hare")}
    assert score_term(other, "owl", full).points == 19
    count = term(kind="ring", mode="count", min=3, table=[4, 9])
    assert score_term(count, "owl", full).points == 4


def test_variety_counts_distinct_other_species() -> None:
    v = term(kind="variety", mode="each", table=[1, 3, 6, 10])
    nb = O0.neighbours()
    tokens = {O0: "owl", nb[0]: "hare", nb[1]: "hare", nb[2]: "newt", nb[3]: "owl"}
    # O0 sees hare and newt (2); the owl at nb[3] sees only the newt at nb[2] (consecutive
    # neighbours of O0 touch each other); other owls never count
    assert measures(v, tokens) == [1, 2]
    assert score_term(v, "owl", tokens).points == 1 + 3
    tokens[nb[4]] = "badger"
    tokens[nb[5]] = "heron"
    # O0: hare, newt, badger, heron = 4 kinds (the last entry); nb[3]: newt, badger = 2
    assert measures(v, tokens) == [2, 4]
    assert score_term(v, "owl", tokens).points == 10 + 3


def test_table_labels_and_tiers() -> None:
    t = term(kind="group", mode="count", sizes=[2], table=[3, 8, 15, 24])
    assert t.table_labels() == ("1", "2", "3", "4+")
    assert t.tier_of_count(9) == 3 and t.points_for(9) == 24
    e = term(kind="line", mode="each", table=[3, 6, 10])
    assert e.table_labels() == ("2", "3", "4+")
    assert e.tier_of_measure(7) == 2 and e.tier_target(1) == 3


# -- oracles ---------------------------------------------------------------------------------

coords = st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=16, unique=True)


def _components(hexes: set[Hex]) -> list[set[Hex]]:
    """Oracle: flood fill by repeatedly merging any two sets with a touching pair."""
    comps = [{h} for h in hexes]
    merged = True
    while merged:
        merged = False
        for i in range(len(comps)):
            for j in range(i + 1, len(comps)):
                if any(a.distance(b) == 1 for a in comps[i] for b in comps[j]):
                    comps[i] |= comps.pop(j)
                    merged = True
                    break
            if merged:
                break
    return comps


@settings(max_examples=80, deadline=None)
@given(coords)
def test_group_sizes_match_oracle(cs: list[tuple[int, int]]) -> None:
    hexes = {Hex(q, r) for q, r in cs}
    g = term(kind="group", mode="each", table=[1])
    got = sorted(m.measure for m in raw_matches(g, "owl", toks(sorted(hexes))))
    assert got == sorted(len(c) for c in _components(hexes))


@settings(max_examples=80, deadline=None)
@given(coords)
def test_line_segments_match_oracle(cs: list[tuple[int, int]]) -> None:
    hexes = {Hex(q, r) for q, r in cs}
    t = term(kind="line", mode="each", table=[1])
    got = Counter(m.measure for m in raw_matches(t, "owl", toks(sorted(hexes)))
                  if m.measure >= 2)
    # oracle: every maximal run along each axis, found by scanning whole lines
    want: Counter[int] = Counter()
    for a in AXES:
        seen: set[Hex] = set()
        for h in hexes:
            if h in seen or step(h, OPPOSITE[a]) in hexes:
                continue
            n = 0
            cur = h
            while cur in hexes:
                seen.add(cur)
                n += 1
                cur = step(cur, a)
            if n >= 2:
                want[n] += 1
    assert got == want
    # each token lies on at most three segments (the lower bound the reach check uses)
    per = Counter(x for m in raw_matches(t, "owl", toks(sorted(hexes))) for x in m.hexes)
    assert all(v <= 3 for v in per.values())


@settings(max_examples=60, deadline=None)
@given(coords)
def test_sight_pairs_match_oracle(cs: list[tuple[int, int]]) -> None:
    hexes = sorted({Hex(q, r) for q, r in cs})
    t = term(kind="sight", mode="count", table=[1])
    got = {tuple(m.hexes) for m in raw_matches(t, "owl", toks(hexes))}
    want = set()
    for i, a in enumerate(hexes):
        for b in hexes[i + 1:]:
            for d in range(6):
                k = a.distance(b)
                if step(a, d, k) == b and k >= 2 and not any(
                        step(a, d, j) in hexes for j in range(1, k)):
                    want.add((a, b))
    assert got == want
