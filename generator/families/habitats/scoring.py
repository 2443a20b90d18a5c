"""The scoring primitives: matches of a term in a player's tokens, and their points.

A player's tokens are a mapping ``Hex -> species``. Each primitive finds *matches* of the
card's species (a :class:`Match`: the hexes involved and a measure), the term's filters keep
the matches whose measure lies in ``min..max`` (and, for groups, in ``sizes``), and the
points table turns them into points (see :mod:`generator.families.habitats.model`).

Pure: hex geometry comes from :mod:`generator.core.hexgrid`; no I/O.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from ...core.hexgrid import Hex, hex_components
from ...core.packing import max_disjoint, max_weight_packing
from .model import Term


def _directions() -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """The six unit steps (dq, dr) in core's direction order, and each one's opposite index."""
    origin = Hex(0, 0)
    steps = tuple((n.q - origin.q, n.r - origin.r) for n in origin.neighbours())
    opp = tuple(steps.index((-dq, -dr)) for dq, dr in steps)
    return steps, opp


STEPS, OPPOSITE = _directions()
AXES: tuple[int, ...] = tuple(i for i in range(6) if i < OPPOSITE[i])
"""One direction index per straight axis (three), so a line is walked once."""


@functools.lru_cache(maxsize=65536)
def around(h: Hex) -> tuple[Hex, ...]:
    """``h.neighbours()``, memoised: scoring asks for the same few dozen hexes' neighbours
    thousands of times per simulated game (measured: 40 % of a game's time before caching)."""
    return h.neighbours()


def step(h: Hex, direction: int, k: int = 1) -> Hex:
    """``h`` moved ``k`` hexes in ``direction`` (an index into core's DIRECTIONS)."""
    if k == 1:
        return around(h)[direction]
    dq, dr = STEPS[direction]
    return Hex(h.q + k * dq, h.r + k * dr)


@dataclass(frozen=True)
class Match:
    """One thing a term scores: the hexes involved (sorted) and its measure."""

    hexes: tuple[Hex, ...]
    measure: int


@dataclass(frozen=True)
class TermScore:
    """A term's matches and points. ``tiers`` are the table indices the matches reach
    (each mode: one per match; count mode: the one the number of matches reaches)."""

    points: int
    matches: tuple[Match, ...]
    tiers: frozenset[int]


def _mine(tokens: Mapping[Hex, str], species: str) -> set[Hex]:
    return {h for h, s in tokens.items() if s == species}


def raw_matches(term: Term, species: str, tokens: Mapping[Hex, str]) -> list[Match]:
    """The primitive's matches before the min/max/sizes filters."""
    mine = _mine(tokens, species)
    out: list[Match] = []
    kind = term.kind
    if kind in ("group", "run"):
        for comp in hex_components(mine):
            if kind == "run" and any(
                sum(1 for n in around(h) if n in mine) > term.touch for h in comp
            ):
                continue
            out.append(Match(tuple(sorted(comp)), len(comp)))
    elif kind == "line":
        for h in sorted(mine):
            for a in AXES:
                if step(h, OPPOSITE[a]) in mine:
                    continue  # not the start of its segment on this axis
                seg = [h]
                nxt = step(h, a)
                while nxt in mine:
                    seg.append(nxt)
                    nxt = step(nxt, a)
                if len(seg) >= 2:
                    out.append(Match(tuple(seg), len(seg)))
        # a token on no segment of two is a line of one (only a term with min 1 keeps it)
        on_line = {x for m in out for x in m.hexes}
        out.extend(Match((h,), 1) for h in sorted(mine - on_line))
    elif kind == "isolated":
        block = mine if term.apart == "same" else set(tokens)
        out.extend(Match((h,), 1) for h in sorted(mine)
                   if not any(n in block for n in around(h)))
    elif kind == "sight":
        # no straight line leaves the tokens' bounding hexagon and comes back
        qs = [h.q for h in tokens]
        rs = [h.r for h in tokens]
        ss = [-h.q - h.r for h in tokens]
        reach = max(max(qs) - min(qs), max(rs) - min(rs), max(ss) - min(ss)) if tokens else 0
        for h in sorted(mine):
            for a in range(6):
                for k in range(1, reach + 1):
                    cur = step(h, a, k)
                    s = tokens.get(cur)
                    if s is None:
                        continue
                    if s == species:
                        if k >= term.distance and h < cur:
                            out.append(Match((h, cur), 1))
                        break
                    if term.apart == "any":
                        break
    elif kind == "ring":
        for h in sorted(mine):
            ring = [n for n in around(h)
                    if n in tokens and (term.around == "any" or tokens[n] != species)]
            out.append(Match(tuple([h, *sorted(ring)]), len(ring)))
    elif kind == "variety":
        for h in sorted(mine):
            near = [n for n in around(h) if n in tokens
                    and (term.own_species or tokens[n] != species)]
            kinds = {tokens[n] for n in near}
            out.append(Match(tuple([h, *sorted(near)]), len(kinds)))
    else:  # pragma: no cover - the deck model only allows the kinds above
        raise ValueError(f"unknown scoring primitive {kind!r}")
    return out


def keeps(term: Term, measure: int) -> bool:
    """Whether a match of this measure passes the term's filters."""
    if measure < term.min or (term.max is not None and measure > term.max):
        return False
    return not (term.kind == "group" and term.sizes and measure not in term.sizes)


def score_term(term: Term, species: str, tokens: Mapping[Hex, str]) -> TermScore:
    """Matches, points and reached tiers of one term (``once``: the best disjoint choice)."""
    if term.disjoint:
        return score_disjoint(term, species, tokens)
    return score_matches(term, raw_matches(term, species, tokens))


# --------------------------------------------------------------------------------------------
# once: each token in at most one match, the choice that scores most
# --------------------------------------------------------------------------------------------

def useful_measures(term: Term) -> tuple[int, ...]:
    """The match measures an optimal disjoint choice needs to consider.

    count mode: only the least measure that passes the filters -- every kept group (line)
    holds a connected group (a segment) of that size, so shrinking a match never lowers the
    number of matches and frees tokens. each mode: the kept measures up to the first one that
    scores the table's last entry -- a larger match scores no more than a sub-match of that
    size, which frees the rest.
    """
    if term.kind == "sight":
        return (1,)
    if term.sizes:
        top = max(term.sizes)
    else:
        top = term.min + len(term.table) - 1
        if term.max is not None:
            top = min(top, term.max)
    kept = tuple(m for m in range(term.min, top + 1) if keeps(term, m))
    return kept[:1] if term.mode == "count" else kept


def _segments(mine: set[Hex], lengths: tuple[int, ...]) -> list[tuple[Hex, ...]]:
    """Every straight run of ``lengths`` tokens in ``mine`` along the three axes (a single
    token once, not once per axis)."""
    out: list[tuple[Hex, ...]] = []
    if 1 in lengths:
        out.extend((h,) for h in sorted(mine))
    longer = [n for n in lengths if n > 1]
    if not longer:
        return out
    for h in sorted(mine):
        for a in AXES:
            seg = [h]
            nxt = step(h, a)
            while nxt in mine and len(seg) < longer[-1]:
                seg.append(nxt)
                nxt = step(nxt, a)
            out.extend(tuple(seg[:n]) for n in longer if n <= len(seg))
    return out


def connected_subsets(hexes: frozenset[Hex], sizes: tuple[int, ...]) -> list[tuple[Hex, ...]]:
    """Every connected subset of ``hexes`` whose size is in ``sizes``, each exactly once
    (Wernicke's ESU enumeration: a subset is grown only from its smallest hex, through
    exclusive neighbours)."""
    order = sorted(hexes)
    index = {h: i for i, h in enumerate(order)}
    adj = [0] * len(order)
    for i, h in enumerate(order):
        for n in around(h):
            j = index.get(n)
            if j is not None:
                adj[i] |= 1 << j
    want = set(sizes)
    top = max(sizes)
    found: list[int] = []

    def extend(sub: int, size: int, ext: int, nbhd: int, root: int) -> None:
        if size in want:
            found.append(sub)
        if size == top:
            return
        while ext:
            low = ext & -ext
            ext ^= low
            w = low.bit_length() - 1
            # w's neighbours that are neither in nor next to the subset, above the root
            excl = adj[w] & ~(sub | nbhd) & ~((1 << (root + 1)) - 1)
            extend(sub | low, size + 1, ext | excl, nbhd | adj[w], root)

    for v in range(len(order)):
        above = adj[v] & ~((1 << (v + 1)) - 1)
        extend(1 << v, 1, above, adj[v] | (1 << v), v)
    return [tuple(order[i] for i in range(len(order)) if m >> i & 1) for m in found]


def _candidates(term: Term, species: str, tokens: Mapping[Hex, str]) -> list[Match]:
    """Every match an optimal disjoint choice may use (see :func:`useful_measures`)."""
    lengths = useful_measures(term)
    if not lengths:
        return []
    if term.kind == "sight":
        return raw_matches(term, species, tokens)
    mine = _mine(tokens, species)
    if term.kind == "line":
        return [Match(seg, len(seg)) for seg in _segments(mine, lengths)]
    out: list[Match] = []
    for comp in hex_components(mine):
        out.extend(Match(sub, len(sub)) for sub in connected_subsets(comp, lengths))
    return out


@functools.lru_cache(maxsize=32768)
def _best_disjoint(term: Term, species: str,
                   tokens: frozenset[tuple[Hex, str]]) -> tuple[Match, ...]:
    cands = _candidates(term, species, dict(tokens))
    index = {h: i for i, h in enumerate(sorted({h for m in cands for h in m.hexes}))}
    masks = [sum(1 << index[h] for h in m.hexes) for m in cands]
    if term.mode == "count":
        picked = max_disjoint(masks)
    else:
        weights = [term.points_for(term.tier_of_measure(m.measure)) for m in cands]
        picked = max_weight_packing(masks, weights)
    return tuple(cands[i] for i in picked.chosen)


def _normalised(term: Term, species: str,
                tokens: Mapping[Hex, str]) -> tuple[frozenset[tuple[Hex, str]], Hex]:
    """The tokens that can matter, moved so their smallest hex is the origin (so the cache
    is shared by every position of the same pattern), and the shift back."""
    keep = tokens if term.kind == "sight" and term.apart == "any" else {
        h: s for h, s in tokens.items() if s == species}
    if not keep:
        return frozenset(), Hex(0, 0)
    base = min(keep)
    return frozenset((h - base, s) for h, s in keep.items()), base


def score_disjoint(term: Term, species: str, tokens: Mapping[Hex, str]) -> TermScore:
    """``once``: the disjoint matches scoring most. count mode: ``n`` disjoint matches can
    be any number up to the most there are, so the points are the best table entry up to
    it (the tables are normally rising, so that is the most)."""
    key, base = _normalised(term, species, tokens)
    best = _best_disjoint(term, species, key)
    matches = tuple(Match(tuple(h + base for h in m.hexes), m.measure) for m in best)
    if not matches:
        return TermScore(0, (), frozenset())
    if term.mode == "count":
        n = max(range(1, len(matches) + 1),
                key=lambda k: (term.points_for(term.tier_of_count(k)), -k))
        tier = term.tier_of_count(n)
        return TermScore(term.points_for(tier), matches[:n], frozenset({tier}))
    tiers = [term.tier_of_measure(m.measure) for m in matches]
    return TermScore(sum(term.points_for(t) for t in tiers), matches, frozenset(tiers))


def score_matches(term: Term, raw: list[Match]) -> TermScore:
    """Points and tiers of a term from its unfiltered matches."""
    matches = tuple(m for m in raw if keeps(term, m.measure))
    if not matches:
        return TermScore(0, (), frozenset())
    if term.mode == "count":
        tier = term.tier_of_count(len(matches))
        return TermScore(term.points_for(tier), matches, frozenset({tier}))
    tiers = [term.tier_of_measure(m.measure) for m in matches]
    pts = [term.points_for(t) for t in tiers]
    points = max(pts) if term.best else sum(pts)
    return TermScore(points, matches, frozenset(tiers))


def looks_beyond_species(term: Term) -> bool:
    """Whether other species' tokens can change this term's score."""
    return term.kind in ("ring", "variety") or (
        term.kind in ("isolated", "sight") and term.apart == "any"
    )
