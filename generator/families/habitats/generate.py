"""Deck parameters + seed -> tiles, starter groups and scoring cards (deterministic).

Balance is built in, not hoped for: habitat pairs and species sets are dealt round-robin
(every pair / set appears a number of times that differs by at most one), and each tile's
species set is chosen greedily to even out how often each habitat shows each species; the
seed only breaks ties, so two seeds give equally balanced boxes.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from ...core.apportion import apportion
from ...core.rng import make_rng
from .model import (
    BUILTIN_CARDS,
    CardDef,
    HabitatsParams,
    HabitatsSet,
    Ruleset,
    ScoringCard,
    StarterGroup,
    Term,
    Tile,
    slug,
)

PALETTE: tuple[str, ...] = (
    "#6fa8a0",  # blue-green
    "#c9a227",  # ochre
    "#4f7f3a",  # deep green
    "#9b8f84",  # warm grey
    "#4a78b5",  # blue
    "#b5654a",  # rust
    "#8a6fb0",  # violet
    "#d48fb0",  # pink
)
"""Default habitat fills; chosen to differ in lightness too, so greyscale prints separate
them (the patterns carry the rest)."""


def ruleset(p: HabitatsParams) -> Ruleset:
    return Ruleset(
        habitats=tuple(p.habitats), species=tuple(p.species), turns=p.turns,
        display=p.display, max_players=p.max_players,
        tokens_per_species=p.tokens_per_species, nature_tokens=p.nature_tokens,
        corridor_points=p.corridor_points, solo_threshold=p.solo_threshold,
        solo_bonus=p.solo_bonus, majority_two=p.majority_two,
        majority_more=p.majority_more, nature_points=p.nature_points,
    )


def shares_to_counts(total: int, shares: tuple[float, ...]) -> list[int]:
    """Largest-remainder rounding of ``shares`` (any scale) to integers summing to ``total``."""
    return apportion(total, shares)


def _dealt(items: list[tuple[str, ...]], n: int, rng: random.Random) -> list[tuple[str, ...]]:
    """``n`` items dealt round-robin from ``items``, each full round in a shuffled order."""
    out: list[tuple[str, ...]] = []
    while len(out) < n:
        block = list(items)
        rng.shuffle(block)
        out.extend(block[: n - len(out)])
    return out


def make_tiles(p: HabitatsParams, seed: int) -> tuple[Tile, ...]:
    """The box's habitat tiles: keystones first, then two-habitat tiles."""
    rng = make_rng(seed, "habitats-tiles")
    habitats, species = list(p.habitats), list(p.species)
    total = p.tile_count
    n_key = min(total, p.keystones_per_habitat * len(habitats))
    specs: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    # Keystones: habitat i, j-th keystone shows species (i + j) mod S, so with as many
    # keystones per habitat as species every habitat shows every species once.
    offset = rng.randrange(len(species))
    for j in range(n_key):
        hi, k = j % len(habitats), j // len(habitats)
        specs.append(((habitats[hi],), (species[(hi + k + offset) % len(species)],)))
    n_two = total - n_key
    pairs = [tuple(c) for c in itertools.combinations(habitats, 2)]
    hab_pairs = _dealt(pairs, n_two, rng)
    per_k = shares_to_counts(n_two, p.symbol_mix)
    sets: list[tuple[str, ...]] = []
    for k, count in zip((1, 2, 3), per_k, strict=True):
        combos = [tuple(c) for c in itertools.combinations(species, min(k, len(species)))]
        sets.extend(_dealt(combos, count, rng))
    # Greedy pairing: each habitat pair takes the remaining species set that keeps the
    # habitat x species co-occurrence counts flattest (sum of squares); ties by rng order.
    co: Counter[tuple[str, str]] = Counter(
        (h[0], s[0]) for h, s in specs
    )
    remaining = sets[:]
    rng.shuffle(remaining)
    for hp in hab_pairs:
        def cost(sp: tuple[str, ...], hp: tuple[str, ...] = hp) -> float:
            # mean co-occurrence of the pairings this tile would add
            return sum(co[(h, s)] for h in hp for s in sp) / (len(hp) * len(sp))

        best = min(range(len(remaining)), key=lambda i: (cost(remaining[i]), i))
        sp = remaining.pop(best)
        for h in hp:
            for s in sp:
                co[(h, s)] += 1
        # Which habitat lies on edges 0-2 is a free choice; the seed makes it.
        first, second = hp
        if rng.random() < 0.5:
            first, second = second, first
        specs.append(((first, second), sp))
    width = max(2, len(str(len(specs))))
    return tuple(Tile(id=f"tile-{i + 1:0{width}d}", habitats=h, species=s)
                 for i, (h, s) in enumerate(specs))


def make_starters(p: HabitatsParams) -> tuple[StarterGroup, ...]:
    """Starter groups: a keystone-like tile and two two-habitat tiles that together show
    every habitat (up to five) and spread the species."""
    habitats, species = list(p.habitats), list(p.species)
    nh, ns = len(habitats), len(species)
    groups = []
    for g in range(p.starter_groups):
        gid = f"starter-{g + 1}"
        a = Tile(f"{gid}a", (habitats[g % nh],), (species[g % ns],), starter=gid)
        others = [species[(g + k) % ns] for k in range(1, ns)]
        half = (len(others) + 1) // 2
        sp_b = tuple(others[:half][:3]) or (species[g % ns],)
        sp_c = tuple(others[half:][:3]) or (species[(g + 1) % ns],)
        b = Tile(f"{gid}b", (habitats[(g + 1) % nh], habitats[(g + 2) % nh]), sp_b,
                 starter=gid)
        c = Tile(f"{gid}c", (habitats[(g + 3) % nh], habitats[(g + 4) % nh]), sp_c,
                 starter=gid)
        if c.habitats[0] == c.habitats[1]:
            c = Tile(c.id, (c.habitats[0],), c.species, starter=gid)
        groups.append(StarterGroup(gid, (a, b, c)))
    return tuple(groups)


def card_defs(p: HabitatsParams) -> tuple[CardDef, ...]:
    """The deck's cards, or the built-in four per species."""
    if p.cards:
        return tuple(p.cards)
    out = []
    others = len(p.species) - 1
    for i, sp in enumerate(p.species):
        for title, terms in BUILTIN_CARDS[i % len(BUILTIN_CARDS)]:
            fitted = []
            for t in terms:
                if t.kind == "variety" and t.min + (len(t.table) - 1 if t.mode == "each"
                                                    else 0) > others:
                    # the built-in tables assume five species; with fewer, a token cannot
                    # see as many other species, so the table is cut to what can happen
                    lo = min(t.min, others)
                    n = len(t.table) if t.mode == "count" else max(1, others - lo + 1)
                    t = t.model_copy(update={"min": lo, "table": t.table[:n]})
                fitted.append(t)
            out.append(CardDef(species=sp, title=title, terms=tuple(fitted)))
    return tuple(out)


def make_cards(p: HabitatsParams) -> tuple[ScoringCard, ...]:
    seen: Counter[str] = Counter()
    out: list[ScoringCard] = []
    for d in card_defs(p):
        si = p.species.index(d.species) if d.species in p.species else 0
        letter = "abcdefghijklmnopqrstuvwxyz"[seen[d.species] % 26]
        seen[d.species] += 1
        cid = f"card-{slug(d.species, str(si + 1))}-{letter}"
        if any(c.id == cid for c in out):  # two names with the same slug ("a b", "a-b")
            cid = f"card-{si + 1}-{letter}"
        out.append(ScoringCard(id=cid, species=d.species, letter=letter.upper(),
                               title=d.title, terms=tuple(Term.from_def(t) for t in d.terms),
                               text=d.text))
    return tuple(out)


def generate(p: HabitatsParams, seed: int) -> HabitatsSet:
    colours = tuple(p.habitat_colours) + PALETTE[len(p.habitat_colours):]
    return HabitatsSet(rules=ruleset(p), tiles=make_tiles(p, seed), starters=make_starters(p),
                       cards=make_cards(p), colours=colours[: len(p.habitats)])
