"""Which tiers of a scoring term a player can reach, with a replayed certificate map.

For every tier of a term's points table the answer is one of:

- ``impossible`` with a reason, from a structural fact (an isolated token always measures 1;
  a ring has at most 6 tokens around its centre; a group of exactly 3 never measures 4) or a
  lower bound on the tokens the tier needs against what can be placed (the species' tokens,
  the game's turns, the tiles showing the symbol);
- ``completable`` with a certificate: a construction of the tier's matches (spaced so they do
  not touch), realised on real tiles of the box from a starter group, connected by filler
  tiles, placed in a legal order (one tile and at most one token per turn) and **replayed
  through the rules engine**, whose score must reach the tier;
- ``unknown`` when the construction does not fit the game's turns but no bound proves the
  tier impossible (or the budget ran out).

The certificate assumes a favourable draw (the tiles and tokens it uses come up); that is
what "reachable" means here. How likely a tier is under random draws is the simulation's job.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ...core.budget import Budget, Meter
from ...core.hexgrid import Hex, hex_components
from ...core.matching import match_all
from ...core.verdict import Verdict
from .model import HabitatsSet, ScoringCard, Term, Tile
from .rules import START_SPOTS, IllegalMove, PlayerMap, score_card
from .scoring import keeps, score_term, step


@dataclass(frozen=True)
class TierAnswer:
    """The verdict on one tier of one term, with a certificate or a reason."""

    term: int
    tier: int
    verdict: Verdict
    message: str
    certificate: dict[str, Any] | None = None


# --------------------------------------------------------------------------------------------
# Geometry helpers
# --------------------------------------------------------------------------------------------

def bfs_order(limit: int) -> Iterator[Hex]:
    """Hexes around the origin in breadth-first order (every prefix is connected)."""
    start = Hex(0, 0)
    seen = {start}
    queue = deque([start])
    n = 0
    while queue and n < limit:
        h = queue.popleft()
        yield h
        n += 1
        for nb in h.neighbours():
            if nb not in seen:
                seen.add(nb)
                queue.append(nb)


def blob(size: int) -> list[Hex]:
    """A compact connected set of ``size`` hexes."""
    return list(bfs_order(size))


def straight(size: int, spacing: int = 1) -> list[Hex]:
    """``size`` hexes on one straight line, ``spacing`` apart."""
    return [step(Hex(0, 0), 0, i * spacing) for i in range(size)]


def shift(hexes: Mapping[Hex, str], by: Hex) -> dict[Hex, str]:
    return {Hex(h.q + by.q, h.r + by.r): s for h, s in hexes.items()}


# --------------------------------------------------------------------------------------------
# What a tier asks for
# --------------------------------------------------------------------------------------------

def _others(species: str, box: HabitatsSet) -> list[str]:
    """Other species, those on most tiles first (they are easiest to place)."""
    counts = {s: sum(1 for t in box.tiles if s in t.species) for s in box.rules.species}
    return sorted((s for s in box.rules.species if s != species), key=lambda s: (-counts[s], s))


def max_measure(term: Term, box: HabitatsSet) -> int | None:
    """The largest measure a match of this primitive can have (None: no limit)."""
    if term.kind in ("isolated", "sight"):
        return 1
    if term.kind == "ring":
        return 6
    if term.kind == "variety":
        return min(6, len(box.rules.species) - (0 if term.own_species else 1))
    if term.kind == "run" and term.touch < 2:
        return 2
    return None


def measures_for(term: Term, tier: int, box: HabitatsSet) -> tuple[list[int], str]:
    """each mode: the measures (in a window up to 30) that score ``tier`` and pass the
    filters; with a reason when there are none."""
    last = tier == len(term.table) - 1
    lo = term.min + tier
    hi = 30 if last else lo
    cap = max_measure(term, box)
    out = [m for m in range(lo, hi + 1) if keeps(term, m) and (cap is None or m <= cap)]
    if out:
        return out, ""
    unit = {"group": "a group's size", "line": "a line's length", "run": "a run's size",
            "ring": "the tokens around a centre",
            "variety": "the count of other species next to a token",
            "isolated": "an isolated token", "sight": "a pair in sight"}[term.kind]
    want = f"{lo}+" if last else str(lo)
    if cap is not None and lo > cap:
        why = f"{unit} is at most {cap}" if term.kind not in ("isolated", "sight") else \
            f"{unit} always measures 1"
    elif term.sizes:
        why = f"only groups of exactly {', '.join(map(str, term.sizes))} score"
    elif term.max is not None:
        why = f"matches above {term.max} do not score"
    else:  # pragma: no cover - keeps() has no other filter
        why = "no measure passes the filters"
    return [], f"needs a measure of {want} but {why}"


def least_measure(term: Term, box: HabitatsSet) -> int | None:
    cap = max_measure(term, box)
    for m in range(term.min, 31):
        if cap is not None and m > cap:
            return None
        if keeps(term, m):
            return m
    return None


def token_bounds(term: Term, mode_target: int, measure: int) -> tuple[int, int]:
    """Lower bounds (own-species tokens, all tokens) for ``mode_target`` matches of
    ``measure`` (count mode) or one match of ``measure`` (each mode: mode_target 1)."""
    k, m = mode_target, measure
    kind = term.kind
    if term.disjoint:
        # once: the matches share no token
        own = 2 * k if kind == "sight" else k * m
        return own, own
    if kind in ("group", "run"):
        own = k * m  # distinct groups never share a token
        return own, own
    if kind == "line":
        # a token lies on at most three maximal segments (one per axis)
        own = max(m, math.ceil(k * m / 3))
        return own, own
    if kind == "isolated":
        return k, k
    if kind == "sight":
        # a token sees at most one partner per direction: pairs <= 6t / 2
        own = max(2, math.ceil(k / 3))
        return own, own
    if kind == "ring":
        if term.around == "any":
            # every match has its own centre; the tokens around may be centres too
            return k, max(k, m + 1)
        # a token around counts for at most six centres
        return k, k + max(m, math.ceil(k * m / 6))
    if kind == "variety":
        # own_species: one of the m species may be the card's own (a centre's neighbour)
        other = m - 1 if term.own_species else m
        return k, k + max(other, math.ceil(k * other / 6))
    raise ValueError(kind)  # pragma: no cover


@dataclass(frozen=True)
class Limits:
    """What one player can place in a game."""

    turns: int
    own_tokens: int
    own_tiles: int

    def why_own(self, species: str, need: int, tokens: int) -> str:
        return (f"needs at least {need} {species} tokens; at most "
                f"{min(self.turns, self.own_tokens, self.own_tiles)} can be placed "
                f"({tokens} {species} tokens, {self.turns} turns, {self.own_tiles} tiles show "
                f"{species})")


def limits(box: HabitatsSet, species: str) -> Limits:
    """Upper bounds on one player's tokens of ``species``: one token per turn, the box's
    tokens, and the tiles that can show it (every box tile, plus the player's starter group
    with the most such tiles)."""
    own_tiles = sum(1 for t in box.tiles if species in t.species) + max(
        (sum(1 for t in g.tiles if species in t.species) for g in box.starters), default=0)
    return Limits(box.rules.turns, box.rules.tokens_per_species, own_tiles)


# --------------------------------------------------------------------------------------------
# Constructions
# --------------------------------------------------------------------------------------------

def unit(term: Term, species: str, measure: int, box: HabitatsSet) -> dict[Hex, str]:
    """One match of ``measure``, as tokens around the origin."""
    kind = term.kind
    o = Hex(0, 0)
    if kind == "group":
        return dict.fromkeys(blob(measure), species)
    if kind in ("run", "line"):
        return dict.fromkeys(straight(measure), species)
    if kind == "isolated":
        return {o: species}
    if kind == "sight":
        return {o: species, step(o, 0, term.distance): species}
    others = _others(species, box)
    ring_spots = o.neighbours()
    if kind == "ring":
        out = {o: species}
        for i in range(measure):
            out[ring_spots[i]] = others[i % len(others)]
        return out
    if kind == "variety":
        out = {o: species}
        if measure <= len(others):
            for i in range(measure):
                out[ring_spots[i]] = others[i]
            return out
        # own_species and every other species around: the own neighbour goes where the
        # others touch it least (spots 2-4 are not next to spot 0)
        out[ring_spots[0]] = species
        for i, spot in enumerate((2, 3, 4, 1, 5)[:measure - 1]):
            out[ring_spots[spot]] = others[i]
        return out
    raise ValueError(kind)  # pragma: no cover


def pack(units: list[dict[Hex, str]], meter: Meter) -> dict[Hex, str] | None:
    """Place the units so that no two hexes of different units touch (distance >= 2),
    as close to the origin as that allows."""
    placed: dict[Hex, str] = {}
    for u in units:
        for off in bfs_order(4000):
            if not meter.tick():
                return None
            cand = shift(u, off)
            if all(not (h in placed or any(n in placed for n in h.neighbours()))
                   for h in cand):
                placed.update(cand)
                break
        else:
            return None
    return placed


def constructions(term: Term, species: str, tier: int, box: HabitatsSet,
                  meter: Meter) -> Iterator[dict[Hex, str]]:
    """Candidate token layouts (local frame) meant to reach ``tier``, most economical first
    for the usual case; each is verified by replay, so a candidate may miss."""
    if term.mode == "each":
        ms, _ = measures_for(term, tier, box)
        plan = pack([unit(term, species, ms[0], box)], meter)
        if plan is not None:
            yield plan
        return
    k = term.tier_target(tier)
    m = least_measure(term, box)
    if m is None:
        return
    if term.kind == "sight":
        # k pairs: k + 1 tokens on a line, `distance` apart; only neighbours see each other
        # (once: each token in one pair, so 2k tokens)
        n = 2 * k if term.disjoint else k + 1
        yield dict.fromkeys(straight(n, term.distance), species)
        return
    plan = pack([unit(term, species, m, box) for _ in range(k)], meter)
    if plan is not None:
        yield plan
    # a compact blob of the species, grown until the number of matches is right: shares
    # tokens between matches (rings around neighbours, many lines through one blob)
    last = tier == len(term.table) - 1
    for n in range(1, min(box.rules.turns, box.rules.tokens_per_species) + 1):
        if not meter.tick():
            return
        toks = dict.fromkeys(blob(n), species)
        got = len(score_term(term, species, toks).matches)
        if got == k or (last and got > k):
            yield toks
            return


# --------------------------------------------------------------------------------------------
# Realising a construction on real tiles, and replaying it
# --------------------------------------------------------------------------------------------

def _match_tiles(needs: list[tuple[Hex, str]], tiles: tuple[Tile, ...]) -> dict[Hex, Tile] | None:
    """A tile showing the right symbol for every token hex (bipartite matching, Kuhn's
    augmenting paths; at most 20 hexes x 100 tiles)."""
    owner, unmatched = match_all(len(needs), len(tiles),
                                 lambda i, j: needs[i][1] in tiles[j].species)
    if unmatched is not None:
        return None
    return {needs[i][0]: tiles[j] for j, i in owner.items()}


def realise(tokens: Mapping[Hex, str], box: HabitatsSet, meter: Meter) -> tuple[
        dict[str, Any] | None, str]:
    """A certificate game (starter group, turns) that builds ``tokens``; or a reason."""
    group = box.starters[0]
    start = set(START_SPOTS)
    off = next(o for o in bfs_order(10_000)
               if not any(Hex(h.q + o.q, h.r + o.r) in start for h in tokens))
    toks = shift(tokens, off)
    hexes = set(toks) | start
    # connect every part to the starter through filler tiles (shortest paths, greedily)
    while True:
        comps = hex_components(hexes)
        if len(comps) == 1:
            break
        main = next(c for c in comps if START_SPOTS[0] in c)
        rest = set().union(*(c for c in comps if c is not main))
        prev: dict[Hex, Hex | None] = {h: None for h in main}
        queue = deque(sorted(main))
        found: Hex | None = None
        while queue and found is None:
            if not meter.tick():
                return None, "budget exhausted while connecting the construction"
            h = queue.popleft()
            for n in h.neighbours():
                if n in prev:
                    continue
                prev[n] = h
                if n in rest:
                    found = n
                    break
                queue.append(n)
        if found is None:  # pragma: no cover - the plane is connected
            return None, "could not connect the construction"
        cur = prev[found]
        while cur is not None and cur not in main:
            hexes.add(cur)
            cur = prev[cur]
    new = sorted(hexes - start)
    turns = box.rules.turns
    if len(new) > turns:
        return None, (f"the construction needs {len(new)} tiles besides the starter group; "
                      f"{turns} turns place {turns}")
    per: dict[str, int] = {}
    for s in toks.values():
        per[s] = per.get(s, 0) + 1
    for s, count in per.items():
        if count > box.rules.tokens_per_species:
            return None, (f"the construction needs {count} {s} tokens; the box has "
                          f"{box.rules.tokens_per_species}")
    needs = sorted(toks.items())
    assigned = _match_tiles(needs, box.tiles)
    if assigned is None:
        return None, "not enough tiles show the symbols the construction needs"
    used = {t.id for t in assigned.values()}
    spare = [t for t in sorted(box.tiles, key=lambda t: (len(t.species), t.id))
             if t.id not in used]
    fill = [h for h in new if h not in assigned]
    if len(spare) < len(fill):
        return None, "the box has too few tiles for the construction"
    for h, t in zip(fill, spare, strict=False):
        assigned[h] = t
    # build order: breadth first from the starter group, so each tile touches the map
    order: list[Hex] = []
    seen = set(start)
    queue = deque(sorted(start))
    while queue:
        h = queue.popleft()
        for n in h.neighbours():
            if n in hexes and n not in seen:
                seen.add(n)
                order.append(n)
                queue.append(n)
    steps = [{"tile": assigned[h].id, "at": str(h), "rotation": 0,
              "token": toks.get(h), "token_at": str(h) if h in toks else None}
             for h in order]
    return {"starter": group.id, "turns": steps}, ""


def replay(certificate: Mapping[str, Any], box: HabitatsSet) -> PlayerMap:
    """Play a certificate through the rules engine; :class:`IllegalMove` if any move is
    illegal or the game's limits are broken."""
    group = next((g for g in box.starters if g.id == certificate["starter"]), None)
    if group is None:
        raise IllegalMove(f"unknown starter group {certificate['starter']!r}")
    turns = certificate["turns"]
    if len(turns) > box.rules.turns:
        raise IllegalMove(f"{len(turns)} turns; the game has {box.rules.turns}")
    m = PlayerMap.start(group)
    used: dict[str, int] = {}
    for n, t in enumerate(turns, start=1):
        tile = box.tile(t["tile"])
        if tile is None or tile.starter:
            raise IllegalMove(f"turn {n}: {t['tile']!r} is not a box tile")
        m.place_tile(tile, Hex.parse(t["at"]), int(t["rotation"]))
        if t.get("token"):
            sp = t["token"]
            used[sp] = used.get(sp, 0) + 1
            if used[sp] > box.rules.tokens_per_species:
                raise IllegalMove(f"turn {n}: more {sp} tokens than the box has")
            m.place_token(sp, Hex.parse(t["token_at"]))
    return m


def check_term(card: ScoringCard, ti: int, box: HabitatsSet, budget: Budget) -> list[TierAnswer]:
    """Every tier of term ``ti`` of ``card``."""
    term = card.terms[ti]
    sp = card.species
    lim = limits(box, sp)
    out: list[TierAnswer] = []
    for tier in range(len(term.table)):
        meter = budget.start()
        pts = term.table[tier]
        label = term.table_labels()[tier]
        what = (f"a match measuring {label}" if term.mode == "each"
                else f"{label} match{'es' if label != '1' else ''}")
        head = f"tier {tier + 1} ({pts} pts, {what})"
        # structural reasons
        if term.mode == "each":
            ms, why = measures_for(term, tier, box)
            if not ms:
                out.append(TierAnswer(ti, tier, Verdict.IMPOSSIBLE, f"{head}: {why}"))
                continue
            own, total = token_bounds(term, 1, ms[0])
        else:
            m = least_measure(term, box)
            if m is None:
                out.append(TierAnswer(ti, tier, Verdict.IMPOSSIBLE,
                                      f"{head}: no match can pass the term's filters"))
                continue
            own, total = token_bounds(term, term.tier_target(tier), m)
        cap_own = min(lim.turns, lim.own_tokens, lim.own_tiles)
        if own > cap_own:
            out.append(TierAnswer(ti, tier, Verdict.IMPOSSIBLE,
                                  f"{head}: {lim.why_own(sp, own, lim.own_tokens)}"))
            continue
        if total > lim.turns:
            out.append(TierAnswer(ti, tier, Verdict.IMPOSSIBLE,
                                  f"{head}: needs at least {total} tokens in all; "
                                  f"{lim.turns} turns place at most {lim.turns}"))
            continue
        found: tuple[dict[str, Any], int, int] | None = None
        why = f"no construction found within the budget ({budget})"
        for plan in constructions(term, sp, tier, box, meter):
            cert, why = realise(plan, box, meter)
            if cert is None:
                continue
            try:
                played = replay(cert, box)
            except IllegalMove as exc:  # pragma: no cover - a bug in the construction
                why = f"the certificate failed replay: {exc}"
                continue
            sc = score_card(card, played.tokens)
            ts = sc.terms[ti]
            if tier in ts.tiers:
                found = (cert, ts.points, sc.points)
                break
            why = f"the construction scored tiers {sorted(t + 1 for t in ts.tiers)} on replay"
        if found is None:
            out.append(TierAnswer(ti, tier, Verdict.UNKNOWN,
                                  f"{head}: {why}; the lower bound of {own} {sp} tokens "
                                  "does not rule it out"))
            continue
        cert, term_pts, card_pts = found
        n_tok = sum(1 for t in cert["turns"] if t["token"])
        cert = {**cert, "card": card.id, "term": ti, "tier": tier, "points": term_pts,
                "card_points": card_pts, "tokens": n_tok}
        out.append(TierAnswer(ti, tier, Verdict.COMPLETABLE,
                              f"{head}: reached in {len(cert['turns'])} turns with {n_tok} "
                              f"tokens ({term_pts} pts on replay)", cert))
    return out
