"""The rules engine: a player's hex map, legal moves, corridors and scoring; the display.

Rules (from the seed, with our decisions where it is silent; docs/families/habitats.md):

- A map starts with a starter group at three mutually adjacent hexes. A tile goes on an empty
  hex next to at least one placed tile, in any of its rotations.
- A wildlife token goes on a placed tile that shows its symbol and holds no token yet. A token
  placed on a keystone tile of its species earns a nature token.
- Corridors: two neighbouring tiles join a habitat's corridor when both touching edges show
  that habitat. A habitat scores ``corridor_points`` per tile of its largest corridor.
- Majorities (more than one player): two players: +2 for the larger corridor, +1 each on a
  tie; three or more: +3 largest, +1 second; two tied largest +2 each (no second), three or
  more tied largest +1 each; a tie for second earns nothing. Solo: +2 per habitat whose
  largest corridor has 7 or more tiles. All numbers come from the deck.
- Each unspent nature token scores ``nature_points``.
- The display holds ``display`` tile + token pairs. All tokens alike: they must be wiped (set
  aside, redrawn, then returned to the bag), repeatedly. All but one alike: the player may
  wipe those once per turn. A nature token lets the player wipe any tokens, or take any tile
  with any token.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ...core.answer import IllegalMove as IllegalMove
from ...core.hexgrid import Hex, hex_components
from .model import HabitatsSet, Ruleset, ScoringCard, StarterGroup, Tile
from .scoring import OPPOSITE, TermScore, score_term, step

# IllegalMove (a move the rules forbid; the message says why) is the core's one illegal-move
# error, imported above and re-exported for this family's modules.


ORIGIN = Hex(0, 0)
START_SPOTS: tuple[Hex, Hex, Hex] = (ORIGIN, step(ORIGIN, 0), step(ORIGIN, 1))
"""Where a starter group's three tiles go: the origin and two neighbours that also touch each
other (consecutive directions)."""


@dataclass(frozen=True)
class Placed:
    """A tile on a map, with its rotation and the resulting edge habitats."""

    tile: Tile
    at: Hex
    rotation: int
    edges: tuple[str, ...]


class PlayerMap:
    """One player's area: placed tiles, tokens and nature tokens. Mutable for speed (the
    bot tries thousands of moves); :meth:`copy` for branching."""

    __slots__ = ("tiles", "tokens", "nature", "spent")

    def __init__(self) -> None:
        self.tiles: dict[Hex, Placed] = {}
        self.tokens: dict[Hex, str] = {}
        self.nature = 0
        self.spent = 0

    @classmethod
    def start(cls, group: StarterGroup) -> PlayerMap:
        m = cls()
        for tile, at in zip(group.tiles, START_SPOTS, strict=True):
            m.tiles[at] = Placed(tile, at, 0, tile.edges(0))
        return m

    def copy(self) -> PlayerMap:
        m = PlayerMap()
        m.tiles = dict(self.tiles)
        m.tokens = dict(self.tokens)
        m.nature = self.nature
        m.spent = self.spent
        return m

    # -- tiles ---------------------------------------------------------------------------
    def frontier(self) -> list[Hex]:
        """Empty hexes next to the map, sorted: where a tile may go."""
        out = {n for h in self.tiles for n in h.neighbours() if n not in self.tiles}
        return sorted(out)

    def check_tile(self, at: Hex) -> str:
        """Why a tile cannot go at ``at`` (empty string: it can)."""
        if at in self.tiles:
            return f"hex {at} already holds tile {self.tiles[at].tile.id}"
        if self.tiles and not any(n in self.tiles for n in at.neighbours()):
            return f"hex {at} touches no placed tile"
        return ""

    def place_tile(self, tile: Tile, at: Hex, rotation: int = 0) -> Placed:
        why = self.check_tile(at)
        if why:
            raise IllegalMove(why)
        if any(p.tile.id == tile.id for p in self.tiles.values()):
            raise IllegalMove(f"tile {tile.id} is already on the map")
        p = Placed(tile, at, rotation % 6, tile.edges(rotation))
        self.tiles[at] = p
        return p

    # -- tokens --------------------------------------------------------------------------
    def token_spots(self, species: str) -> list[Hex]:
        """Placed tiles showing ``species`` with no token yet, sorted."""
        return sorted(h for h, p in self.tiles.items()
                      if species in p.tile.species and h not in self.tokens)

    def check_token(self, species: str, at: Hex) -> str:
        p = self.tiles.get(at)
        if p is None:
            return f"no tile at {at}"
        if at in self.tokens:
            return f"tile {p.tile.id} at {at} already holds a {self.tokens[at]} token"
        if species not in p.tile.species:
            return (f"tile {p.tile.id} at {at} shows {', '.join(p.tile.species)}, "
                    f"not {species}")
        return ""

    def place_token(self, species: str, at: Hex) -> bool:
        """Place a token; True when it earns a nature token (keystone of its species)."""
        why = self.check_token(species, at)
        if why:
            raise IllegalMove(why)
        self.tokens[at] = species
        if self.tiles[at].tile.keystone:
            self.nature += 1
            return True
        return False

    def spend_nature(self) -> None:
        if self.nature <= 0:
            raise IllegalMove("no nature token to spend")
        self.nature -= 1
        self.spent += 1

    def is_connected(self) -> bool:
        return not self.tiles or len(hex_components(self.tiles)) == 1


# --------------------------------------------------------------------------------------------
# Corridors
# --------------------------------------------------------------------------------------------

def corridors(tiles: Mapping[Hex, Placed], habitat: str,
              around: Mapping[Hex, tuple[Hex, ...]] | None = None) -> list[frozenset[Hex]]:
    """The corridors of one habitat: tiles joined through edges that both show it; sorted by
    size (largest first), then by smallest hex. ``around`` may give each tile's neighbours
    (in direction order) when several habitats are scored on one map."""
    members = {h for h, p in tiles.items() if habitat in p.edges}
    seen: set[Hex] = set()
    out: list[frozenset[Hex]] = []
    for start in sorted(members):
        if start in seen:
            continue
        comp = {start}
        seen.add(start)
        stack = [start]
        while stack:
            h = stack.pop()
            edges = tiles[h].edges
            nbrs = around[h] if around is not None else h.neighbours()
            for d in range(6):
                if edges[d] != habitat:
                    continue
                n = nbrs[d]
                if n in members and n not in seen and tiles[n].edges[OPPOSITE[d]] == habitat:
                    seen.add(n)
                    comp.add(n)
                    stack.append(n)
        out.append(frozenset(comp))
    out.sort(key=lambda c: (-len(c), min(c)))
    return out


def largest_corridors(tiles: Mapping[Hex, Placed], habitats: Iterable[str]) -> dict[str, int]:
    around = {h: h.neighbours() for h in tiles}
    return {h: (len(c[0]) if (c := corridors(tiles, h, around)) else 0) for h in habitats}


def majority_bonus(sizes: Sequence[int], rules: Ruleset) -> list[int]:
    """Each player's corridor bonus for one habitat, from everyone's largest corridor."""
    n = len(sizes)
    if n == 1:
        return [rules.solo_bonus if sizes[0] >= rules.solo_threshold else 0]
    out = [0] * n
    if not any(sizes):
        return out
    top = max(sizes)
    first = [i for i, s in enumerate(sizes) if s == top]
    if n == 2:
        win, tie = rules.majority_two
        for i in first:
            out[i] = win if len(first) == 1 else tie
        return out
    win, second, tie2, tie_more = rules.majority_more
    if len(first) == 1:
        out[first[0]] = win
        rest = [s for s in sizes if s < top and s > 0]
        if rest:
            runner = max(rest)
            seconds = [i for i, s in enumerate(sizes) if s == runner]
            if len(seconds) == 1:  # a tie for second earns nothing
                out[seconds[0]] = second
    else:
        for i in first:
            out[i] = tie2 if len(first) == 2 else tie_more
    return out


# --------------------------------------------------------------------------------------------
# Scoring a finished map
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CardScore:
    card: ScoringCard
    points: int
    terms: tuple[TermScore, ...]


@dataclass(frozen=True)
class MapScore:
    """A player's score: per card, per habitat (largest corridor and bonus), nature tokens."""

    cards: tuple[CardScore, ...]
    corridors: dict[str, int]
    corridor_points: dict[str, int]
    bonuses: dict[str, int]
    nature: int
    nature_points: int
    total: int = field(default=0)


def score_card(card: ScoringCard, tokens: Mapping[Hex, str]) -> CardScore:
    terms = tuple(score_term(t, card.species, tokens) for t in card.terms)
    return CardScore(card, sum(t.points for t in terms), terms)


def wildlife_points(cards: Sequence[ScoringCard], tokens: Mapping[Hex, str]) -> int:
    return sum(score_card(c, tokens).points for c in cards)


def score_maps(maps: Sequence[PlayerMap], cards: Sequence[ScoringCard],
               rules: Ruleset) -> list[MapScore]:
    """Score every player's map (majorities need them all; one map is a solo game)."""
    sizes = [largest_corridors(m.tiles, rules.habitats) for m in maps]
    bonus: list[dict[str, int]] = [{} for _ in maps]
    for h in rules.habitats:
        for i, b in enumerate(majority_bonus([s[h] for s in sizes], rules)):
            bonus[i][h] = b
    out = []
    for m, sz, bn in zip(maps, sizes, bonus, strict=True):
        cs = tuple(score_card(c, m.tokens) for c in cards)
        cp = {h: sz[h] * rules.corridor_points for h in rules.habitats}
        nat = m.nature * rules.nature_points
        total = sum(c.points for c in cs) + sum(cp.values()) + sum(bn.values()) + nat
        out.append(MapScore(cs, sz, cp, bn, m.nature, nat, total))
    return out


def ranking(scores: Sequence[MapScore]) -> list[tuple[int, int]]:
    """Places of a multi-player game as (place, player index), best first: most points,
    a tie going to the player with more unspent nature tokens (the seed's tie-break);
    players equal on both share the place."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i].total, -scores[i].nature, i))
    out: list[tuple[int, int]] = []
    for pos, i in enumerate(order):
        prev = out[-1] if out else None
        if prev is not None and (scores[prev[1]].total, scores[prev[1]].nature) == (
                scores[i].total, scores[i].nature):
            out.append((prev[0], i))
        else:
            out.append((pos + 1, i))
    return out


def one_card_per_species(cards: Sequence[ScoringCard], species: Sequence[str],
                         pick: int = 0) -> tuple[ScoringCard, ...]:
    """The game's scoring set: the ``pick``-th card (cycling) of each species."""
    out = []
    for sp in species:
        own = [c for c in cards if c.species == sp]
        if own:
            out.append(own[pick % len(own)])
    return tuple(out)


# --------------------------------------------------------------------------------------------
# The display, the bag, the tile supply
# --------------------------------------------------------------------------------------------

class Game:
    """The shared state of one game: tile supply, token bag, display, nature tokens, maps.

    Randomness comes from the ``rng`` passed in (a :func:`generator.core.rng.make_rng`
    stream), so a game is replayable from its seed.
    """

    def __init__(self, box: HabitatsSet, players: int, rng: random.Random,
                 cards: Sequence[ScoringCard]) -> None:
        rules = box.rules
        if not 1 <= players <= len(box.starters):
            raise ValueError(f"{players} players need {players} starter groups; the box has "
                             f"{len(box.starters)}")
        self.rules = rules
        self.rng = rng
        self.cards = tuple(cards)
        supply = list(box.tiles)
        rng.shuffle(supply)
        need = rules.turns * players + rules.display - 1
        self.supply: list[Tile] = supply[:need]
        self.bag: Counter[str] = Counter({s: rules.tokens_per_species for s in rules.species})
        self.nature_pool = rules.nature_tokens
        starters = list(box.starters)
        rng.shuffle(starters)
        self.maps = [PlayerMap.start(starters[i]) for i in range(players)]
        self.display: list[tuple[Tile, str | None]] = []
        self.turn = 0
        self.over = False
        self.refill()

    def draw_token(self) -> str | None:
        total = sum(self.bag.values())
        if total == 0:
            return None
        k = self.rng.randrange(total)
        for s in self.rules.species:
            if k < self.bag[s]:
                self.bag[s] -= 1
                return s
            k -= self.bag[s]
        raise AssertionError("unreachable")  # pragma: no cover

    def refill(self) -> None:
        """Fill the display up to ``display`` pairs; the game ends when a tile is missing."""
        while len(self.display) < self.rules.display:
            if not self.supply:
                self.over = True
                return
            self.display.append((self.supply.pop(), self.draw_token()))

    def _alike(self) -> tuple[str | None, int]:
        counts = Counter(s for _, s in self.display if s is not None)
        if not counts:
            return None, 0
        s, n = counts.most_common(1)[0]
        return s, n

    def wipe(self, indices: Iterable[int]) -> None:
        """Set aside the tokens at ``indices``, draw replacements, then return the set-aside
        tokens to the bag (so a wipe never redraws the same tokens)."""
        idx = sorted(set(indices))
        aside = [self.display[i][1] for i in idx]
        for i in idx:
            self.display[i] = (self.display[i][0], self.draw_token())
        for s in aside:
            if s is not None:
                self.bag[s] += 1

    def resolve_overpopulation(self) -> int:
        """Mandatory wipes while every display token is alike; returns how many happened.
        Bounded: when the bag cannot break the streak (too few other tokens) it stops."""
        n = 0
        while not self.over and n < 50:
            s, k = self._alike()
            if s is None or k < self.rules.display:
                break
            others = sum(v for sp, v in self.bag.items() if sp != s)
            if others == 0:
                break
            self.wipe(range(len(self.display)))
            n += 1
        return n

    def optional_wipe_indices(self) -> list[int]:
        """The display indices of the tokens a player may wipe for free (all but one alike)."""
        s, k = self._alike()
        if s is None or k != self.rules.display - 1:
            return []
        return [i for i, (_, t) in enumerate(self.display) if t == s]

    def take(self, player: int, tile_index: int, token_index: int) -> tuple[Tile, str | None]:
        """Take a pair from the display (different indices cost a nature token)."""
        m = self.maps[player]
        if tile_index != token_index:
            m.spend_nature()
        tile = self.display[tile_index][0]
        token = self.display[token_index][1]
        keep = [p for i, p in enumerate(self.display) if i not in (tile_index, token_index)]
        if tile_index != token_index:
            # the other halves of the two pairs stay, paired together
            keep.append((self.display[token_index][0], self.display[tile_index][1]))
        self.display = keep
        return tile, token

    def place_token(self, player: int, species: str, at: Hex) -> bool:
        """Place a token on a player's map; a keystone match takes a nature token from the
        pool (none is earned once the pool is empty)."""
        m = self.maps[player]
        if not m.place_token(species, at):
            return False
        if self.nature_pool > 0:
            self.nature_pool -= 1
            return True
        m.nature -= 1
        return False

    def return_token(self, species: str | None) -> None:
        if species is not None:
            self.bag[species] += 1

    def end_turn(self) -> None:
        self.turn += 1
        self.refill()
