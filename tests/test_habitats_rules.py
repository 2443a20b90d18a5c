"""Rules engine of the habitats family: map, legal moves, corridors, bonuses, display."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.hexgrid import Hex
from generator.families.habitats.generate import generate
from generator.families.habitats.model import HabitatsParams, Ruleset, StarterGroup, Tile
from generator.families.habitats.rules import (
    START_SPOTS,
    Game,
    IllegalMove,
    Placed,
    PlayerMap,
    corridors,
    majority_bonus,
    score_maps,
)
from generator.families.habitats.scoring import AXES, OPPOSITE, STEPS, step

RULES = Ruleset(habitats=("fen", "heath", "tarn"), species=("badger", "heron", "owl"))


def _starter() -> StarterGroup:
    return StarterGroup("starter-1", (
        Tile("s-a", ("fen",), ("badger",), "starter-1"),
        Tile("s-b", ("heath", "tarn"), ("heron", "owl"), "starter-1"),
        Tile("s-c", ("tarn", "fen"), ("owl", "badger"), "starter-1"),
    ))


def test_directions_are_opposite_pairs_and_three_axes() -> None:
    o = Hex(0, 0)
    assert len(STEPS) == 6 and len(AXES) == 3
    for d in range(6):
        assert step(step(o, d), OPPOSITE[d]) == o
        assert step(o, d) in o.neighbours()
        # consecutive directions are neighbours of each other: a two-habitat tile's three
        # edges 0-2 form one half of the hexagon
        assert step(o, (d + 1) % 6) in step(o, d).neighbours()


def test_start_spots_touch_each_other() -> None:
    a, b, c = START_SPOTS
    assert b in a.neighbours() and c in a.neighbours() and c in b.neighbours()


def test_tile_edges_rotate_by_sixths() -> None:
    t = Tile("t", ("fen", "tarn"), ("owl",))
    assert t.edges(0) == ("fen", "fen", "fen", "tarn", "tarn", "tarn")
    assert t.edges(1) == ("tarn", "fen", "fen", "fen", "tarn", "tarn")
    assert t.edges(6) == t.edges(0)
    assert Tile("k", ("fen",), ("owl",)).rotations() == (0,)
    assert Tile("k", ("fen",), ("owl",)).keystone
    assert not t.keystone


def test_tile_placement_must_touch_the_map_and_not_overlap() -> None:
    m = PlayerMap.start(_starter())
    assert len(m.tiles) == 3
    t = Tile("t1", ("fen",), ("heron",))
    far = Hex(5, 5)
    assert "touches no placed tile" in m.check_tile(far)
    with pytest.raises(IllegalMove, match="touches no placed tile"):
        m.place_tile(t, far)
    with pytest.raises(IllegalMove, match="already holds tile s-a"):
        m.place_tile(t, START_SPOTS[0])
    spot = m.frontier()[0]
    m.place_tile(t, spot, 0)
    with pytest.raises(IllegalMove, match="already on the map"):
        m.place_tile(t, m.frontier()[0])
    # the frontier is exactly the empty hexes next to the map
    fr = set(m.frontier())
    assert all(h not in m.tiles and any(n in m.tiles for n in h.neighbours()) for h in fr)


def test_token_rules_and_nature_token_on_keystone() -> None:
    m = PlayerMap.start(_starter())
    a, b, _ = START_SPOTS
    assert "not heron" in m.check_token("heron", a)
    assert m.place_token("badger", a) is True  # s-a is a keystone of badger
    assert m.nature == 1
    assert "already holds" in m.check_token("badger", a)
    assert m.place_token("owl", b) is False
    assert m.token_spots("owl") == [START_SPOTS[2]]
    with pytest.raises(IllegalMove, match="no tile"):
        m.place_token("owl", Hex(9, 9))
    m.spend_nature()
    with pytest.raises(IllegalMove, match="no nature token"):
        m.spend_nature()


def _line_map(habitat_tiles: list[tuple[str, ...]], rotations: list[int]) -> dict[Hex, Placed]:
    out = {}
    for i, (habs, rot) in enumerate(zip(habitat_tiles, rotations, strict=True)):
        h = step(Hex(0, 0), 0, i)
        t = Tile(f"t{i}", habs, ("owl",))
        out[h] = Placed(t, h, rot, t.edges(rot))
    return out


def test_corridors_need_matching_edges() -> None:
    # three tiles in a row along direction 0: edge 0 of one tile touches edge OPPOSITE[0]
    tiles = _line_map([("fen",), ("fen",), ("fen",)], [0, 0, 0])
    assert [len(c) for c in corridors(tiles, "fen")] == [3]
    # a two-habitat middle tile turned so that its fen half faces away from the left tile
    two = Tile("m", ("fen", "tarn"), ("owl",))
    mid = step(Hex(0, 0), 0, 1)
    for rot in range(6):
        e = two.edges(rot)
        t2 = dict(tiles)
        t2[mid] = Placed(two, mid, rot, e)
        joins_left = e[OPPOSITE[0]] == "fen"
        joins_right = e[0] == "fen"
        sizes = sorted((len(c) for c in corridors(t2, "fen")), reverse=True)
        expected = sorted([1 + joins_left + joins_right]
                          + [1] * (2 - joins_left - joins_right), reverse=True)
        assert sizes == expected, rot


def _oracle_largest(tiles: dict[Hex, Placed], habitat: str) -> int:
    """Brute force: union-find over every pair of tiles."""
    parent = {h: h for h in tiles if habitat in tiles[h].edges}

    def find(x: Hex) -> Hex:
        while parent[x] != x:
            x = parent[x]
        return x

    for a in parent:
        for b in parent:
            for d in range(6):
                if (step(a, d) == b and tiles[a].edges[d] == habitat
                        and tiles[b].edges[OPPOSITE[d]] == habitat):
                    parent[find(a)] = find(b)
    sizes = Counter(find(x) for x in parent)
    return max(sizes.values(), default=0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2), st.sampled_from(
    [("fen",), ("tarn",), ("fen", "tarn"), ("tarn", "fen")]), st.integers(0, 5)),
    max_size=14))
def test_corridors_match_brute_force(spec: list[tuple[int, int, tuple[str, ...], int]]) -> None:
    tiles: dict[Hex, Placed] = {}
    for i, (q, r, habs, rot) in enumerate(spec):
        t = Tile(f"t{i}", habs, ("owl",))
        tiles[Hex(q, r)] = Placed(t, Hex(q, r), rot, t.edges(rot))
    for hab in ("fen", "tarn"):
        comps = corridors(tiles, hab)
        got = len(comps[0]) if comps else 0
        assert got == _oracle_largest(tiles, hab)
        # corridors partition the tiles showing the habitat
        members = [h for c in comps for h in c]
        assert len(members) == len(set(members))
        assert set(members) == {h for h, p in tiles.items() if hab in p.edges}


def test_majority_bonuses_by_player_count() -> None:
    r = RULES
    assert majority_bonus([7], r) == [2]
    assert majority_bonus([6], r) == [0]
    assert majority_bonus([5, 3], r) == [2, 0]
    assert majority_bonus([4, 4], r) == [1, 1]
    assert majority_bonus([6, 4, 2], r) == [3, 1, 0]
    assert majority_bonus([6, 6, 2], r) == [2, 2, 0]
    assert majority_bonus([5, 5, 5, 1], r) == [1, 1, 1, 0]
    assert majority_bonus([6, 3, 3, 1], r) == [3, 0, 0, 0]  # a tie for second earns nothing
    assert majority_bonus([0, 0, 0], r) == [0, 0, 0]


def test_score_maps_adds_cards_corridors_bonus_and_nature() -> None:
    m = PlayerMap.start(_starter())
    m.nature = 3
    [s] = score_maps([m], [], RULES)
    assert s.corridors["fen"] >= 1 and s.nature_points == 3
    assert s.total == sum(s.corridor_points.values()) + sum(s.bonuses.values()) + 3


def test_display_wipes_and_nature_token_takes() -> None:
    box = generate(HabitatsParams(), 3)
    game = Game(box, 2, random.Random(1), box.cards[:5])
    assert len(game.display) == 4
    assert len(game.supply) == 20 * 2 + 4 - 1 - 4
    bag_before = sum(game.bag.values())
    # force overpopulation: four alike must be wiped until they are not
    game.display = [(t, "badger") for t, _ in game.display]
    game.bag["badger"] -= 4
    n = game.resolve_overpopulation()
    assert n >= 1
    assert len({s for _, s in game.display}) > 1
    assert sum(game.bag.values()) + 4 == bag_before
    # three alike: those three may be wiped
    game.display = [(t, s) for (t, _), s in zip(game.display, ["owl", "owl", "owl", "hare"],
                                                  strict=True)]
    assert game.optional_wipe_indices() == [0, 1, 2]
    # a nature token lets a player take tile 0 with token 1
    with pytest.raises(IllegalMove):
        game.take(0, 0, 1)
    game.maps[0].nature = 1
    tile0, tok1 = game.display[0][0], game.display[1][1]
    assert game.take(0, 0, 1) == (tile0, tok1)
    assert game.maps[0].nature == 0 and len(game.display) == 3
    game.end_turn()
    assert len(game.display) == 4


def test_game_ends_after_turns_times_players() -> None:
    box = generate(HabitatsParams(), 4)
    game = Game(box, 3, random.Random(2), box.cards[:5])
    turns = 0
    while not game.over:
        p = turns % 3
        tile, tok = game.take(p, 0, 0)
        game.maps[p].place_tile(tile, game.maps[p].frontier()[0], 0)
        game.return_token(tok)
        game.end_turn()
        turns += 1
    assert turns == 20 * 3
    assert all(len(m.tiles) == 23 for m in game.maps)
    assert all(m.is_connected() for m in game.maps)


def test_nature_pool_runs_out() -> None:
    box = generate(HabitatsParams(nature_tokens=1), 5)
    game = Game(box, 1, random.Random(3), box.cards[:5])
    m = game.maps[0]
    keys = [t for t in box.tiles if t.keystone][:2]
    for t in keys:
        m.place_tile(t, m.frontier()[0], 0)
    at = [h for h, p in m.tiles.items() if p.tile in keys]
    assert game.place_token(0, keys[0].species[0], at[0]) is True
    assert game.place_token(0, keys[1].species[0], at[1]) is False  # the pool is empty
    assert m.nature == 1 and game.nature_pool == 0
