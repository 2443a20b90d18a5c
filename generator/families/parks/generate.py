"""Deck parameters + seed -> the park sheet, park cards, grand park cards, die and tokens.

Deterministic: every random choice comes from ``core.rng.make_rng(seed, <stream>, ...)``, one
stream per sheet and per card slot, so changing the number of cards never changes the cards
that were already there.

Cards are *planted*: a card's outline is split into 1-3 parts (2-4 for grand cards), each part
laid somewhere on the sheet in a random orientation, and the card's demands are read off the
squares underneath. That gives every card a reason to be completable, but a generated card is
only kept once the real check (``planner.completability``) says ``completable`` with a replayed
certificate; otherwise the slot retries, up to ``max_tries``, then raises GenerationError.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...core.grid import Cell, components, neighbours
from ...core.polyomino import TRANSFORMS
from ...core.rng import make_rng
from ...core.verdict import Verdict
from ...deck import Deck
from ...errors import GenerationError
from ..base import search_budget
from .model import (
    Bonus,
    Card,
    Demand,
    Die,
    Feature,
    Icon,
    ParksParams,
    ParksSet,
    Sheet,
    Square,
    Token,
    card_box,
)
from .planner import cached_completability

# Original name parts for generated parks (no published game's names).
_FIRST = ("Alder", "Birch", "Cedar", "Clover", "Dune", "Elm", "Fern", "Finch", "Hazel",
          "Heron", "Juniper", "Kestrel", "Larch", "Linden", "Maple", "Meadow", "Moss", "Oak",
          "Orchard", "Otter", "Pebble", "Poplar", "Quarry", "Reed", "Rowan", "Sorrel",
          "Spruce", "Thistle", "Willow", "Wren")
_SECOND = ("Bend", "Commons", "Corner", "Crescent", "Green", "Grove", "Hollow", "Lawn",
           "Mews", "Park", "Patch", "Plaza", "Reach", "Row", "Square", "Terrace", "Walk",
           "Yard")
_GRAND = ("Gardens", "Grounds", "Estate", "Reserve", "Domain", "Common", "Parkland",
          "Arboretum")


def _weighted(rng: random.Random, weights: Mapping[Any, float]) -> str:
    items = [(str(k), w) for k, w in weights.items() if w > 0]
    total = sum(w for _, w in items)
    x = rng.uniform(0, total)
    for k, w in items:
        x -= w
        if x <= 0:
            return k
    return items[-1][0]


def generate_sheet(p: ParksParams, seed: int) -> Sheet:
    """The park sheet: hand-drawn rows when given, else patches of features with icons."""
    if p.sheet:
        return Sheet.from_rows(p.sheet, p.sheet_icons)
    rng = make_rng(seed, "parks-sheet")
    mix = {k: v for k, v in p.feature_mix.items()} or {f.value: 1.0 for f in Feature}
    grid: dict[Cell, Feature] = {}
    for r in range(p.rows):
        for c in range(p.cols):
            placed = [grid[n] for n in ((r - 1, c), (r, c - 1)) if n in grid]
            if placed and rng.random() < p.clustering:
                grid[(r, c)] = rng.choice(placed)
            else:
                grid[(r, c)] = Feature(_weighted(rng, mix))
    cells = sorted(grid)
    n_icons = round(p.icon_share * len(cells))
    icon_cells = rng.sample(cells, n_icons)
    icons = {c: (Icon.WILDLIFE if i % 2 == 0 else Icon.RECYCLING)
             for i, c in enumerate(icon_cells)}
    return Sheet(tuple(tuple(Square(grid[(r, c)], icons.get((r, c))) for c in range(p.cols))
                       for r in range(p.rows)))


def random_shape(rng: random.Random, size: int, rows: int, cols: int) -> frozenset[Cell]:
    """A random connected outline of ``size`` squares inside a ``rows`` x ``cols`` box."""
    size = min(size, rows * cols)
    start = (rng.randrange(rows), rng.randrange(cols))
    shape = {start}
    while len(shape) < size:
        frontier = sorted({n for c in shape for n in neighbours(c)
                           if 0 <= n[0] < rows and 0 <= n[1] < cols and n not in shape})
        shape.add(rng.choice(frontier))
    r0 = min(r for r, _ in shape)
    c0 = min(c for _, c in shape)
    return frozenset((r - r0, c - c0) for r, c in shape)


def split_shape(rng: random.Random, shape: frozenset[Cell], parts: int) -> list[frozenset[Cell]]:
    """Split ``shape`` into ``parts`` connected parts by growing them from random seeds."""
    cells = sorted(shape)
    seeds = rng.sample(cells, min(parts, len(cells)))
    owner: dict[Cell, int] = {s: i for i, s in enumerate(seeds)}
    while len(owner) < len(cells):
        frontier = sorted((n, owner[c]) for c in owner for n in neighbours(c)
                          if n in shape and n not in owner)
        n, i = rng.choice(frontier)
        owner[n] = i
    return [frozenset(c for c in cells if owner[c] == i) for i in range(len(seeds))]


def plant(rng: random.Random, sheet: Sheet, parts: list[frozenset[Cell]]
          ) -> dict[Cell, Cell] | None:
    """Lay each part on the sheet (random orientation and place, no overlap): card space ->
    sheet square; None if some part found no room."""
    used: set[Cell] = set()
    out: dict[Cell, Cell] = {}
    for part in parts:
        for _ in range(40):
            t = TRANSFORMS[rng.randrange(8)]
            img = {c: t(c) for c in part}
            rs = [p[0] for p in img.values()]
            cs = [p[1] for p in img.values()]
            if max(rs) - min(rs) >= sheet.rows or max(cs) - min(cs) >= sheet.cols:
                continue
            dr = rng.randrange(-min(rs), sheet.rows - max(rs))
            dc = rng.randrange(-min(cs), sheet.cols - max(cs))
            m = {c: (p[0] + dr, p[1] + dc) for c, p in img.items()}
            if used.isdisjoint(m.values()):
                used |= set(m.values())
                out.update(m)
                break
        else:
            return None
    return out


def plant_card(rng: random.Random, sheet: Sheet, p: ParksParams, card_id: str, name: str,
               grand: bool, box: tuple[int, int]) -> Card | None:
    """One candidate card (not yet checked)."""
    lo, hi = p.grand_cells if grand else p.card_cells
    size = rng.randint(lo, max(lo, hi))
    shape = random_shape(rng, size, box[0], box[1])
    n_parts = rng.choice((2, 3, 3, 4) if grand else (1, 2, 2, 3))
    parts = split_shape(rng, shape, min(n_parts, len(shape)))
    under = plant(rng, sheet, parts)
    if under is None:
        return None
    cells = sorted(shape)
    demands: dict[Cell, Demand] = {}
    for c in rng.sample(cells, round(p.demand_share * len(cells))):
        demands[c] = Demand(sheet.at(under[c]).feature)
    with_icon = [c for c in cells if sheet.at(under[c]).icon is not None]
    lo_i, hi_i = p.icon_demands
    n_icons = min(len(with_icon), rng.randint(lo_i, max(lo_i, hi_i)))
    for c in rng.sample(with_icon, n_icons):
        old = demands.get(c, Demand())
        demands[c] = Demand(old.feature, sheet.at(under[c]).icon)
    walkways: tuple[frozenset[Cell], ...] = ()
    if rng.random() < p.walkway_share:
        big = max(parts, key=len)
        if len(big) >= 2:
            start = rng.choice(sorted(big))
            walk = {start}
            want = rng.randint(2, min(4, len(big)))
            while len(walk) < want:
                fr = sorted({n for c in walk for n in neighbours(c) if n in big and n not in walk})
                if not fr:
                    break
                walk.add(rng.choice(fr))
            if len(walk) >= 2 and len(components(walk)) == 1:
                walkways = (frozenset(walk),)
    bonus = Bonus(_weighted(rng, p.bonus_mix)) if not grand else Bonus.NONE
    return Card(card_id, name, shape, tuple(sorted(demands.items())), walkways, bonus, grand)


def _name(rng: random.Random, grand: bool, taken: set[str]) -> str:
    for _ in range(50):
        name = (f"{rng.choice(_FIRST)} {rng.choice(_GRAND)}" if grand
                else f"{rng.choice(_FIRST)} {rng.choice(_SECOND)}")
        if name not in taken:
            taken.add(name)
            return name
    return f"Park {len(taken) + 1}"


def generate(deck: Deck) -> ParksSet:
    """The whole parks set for ``deck``."""
    p: ParksParams = deck.params
    sheet = generate_sheet(p, deck.seed)
    die = Die(tuple(tuple(f) for f in p.die))
    box = card_box(deck.print.card.width, deck.print.card.height, p.square)
    cards: list[Card] = []
    taken: set[str] = set()
    for grand, count, prefix in ((False, p.cards, "park"), (True, p.grand_cards, "grand")):
        gbox = p.grand_box if grand else box
        for i in range(count):
            card_id = f"{prefix}-{i + 1:02d}"
            rng = make_rng(deck.seed, "parks-card", prefix, i)
            name = _name(rng, grand, taken)
            last = "no candidate could be laid on the sheet"
            for attempt in range(p.max_tries):
                cand = plant_card(rng, sheet, p, card_id, name, grand, gbox)
                if cand is None:
                    continue
                v = cached_completability(sheet, die, cand, search_budget(deck), deck.seed)
                if v.verdict is Verdict.COMPLETABLE:
                    cards.append(cand)
                    break
                last = f"attempt {attempt + 1}: {v.verdict.value} ({v.reason})"
            else:
                raise GenerationError(
                    f"parks: could not generate {card_id} as a completable card in "
                    f"{p.max_tries} tries (last: {last}); try another seed, more max_tries, "
                    "a die with a face of [1], or fewer demands (demand_share)")
    n_park = sum(1 for c in cards if not c.grand)
    n_grand = sum(1 for c in cards if c.grand)
    for spec in p.card:
        if spec.grand:
            n_grand += 1
            card_id = f"grand-{n_grand:02d}"
        else:
            n_park += 1
            card_id = f"park-{n_park:02d}"
        drawn = Card.from_rows(card_id, spec.name or card_id, spec.shape, spec.icons,
                               spec.walkways, Bonus(spec.bonus), spec.grand)
        rows, cols = p.grand_box if spec.grand else card_box(
            deck.print.card.width, deck.print.card.height, p.square)
        # Validation accepted it as drawn or turned a quarter; keep the way it fits.
        cards.append(drawn.fitted(rows, cols) or drawn)
    tokens = ((Token.GARDENER, p.gardener_tokens), (Token.WILDLIFE, p.wildlife_tokens))
    return ParksSet(sheet, tuple(cards), die, tokens)
