"""Achievability of an objective: a landscape built from the deck's cards under the stacking
rules, or a reason why none exists.

The search works on the final landscape, in a fixed 3x3 frame:

1. choose a starting colour and the starting card's cell, then a placement of every shape part;
2. give each shape cell a top card (colour, value, scissors), pruning on the conditions as cells
   fill and on the card supply (``plan_stacks``: every stack needs a chain of its colour from
   the bottom to its top, rising by one, or by two with a skip paid by one discarded card);
3. add tops on free cells for the count parts, then the fewest filler stacks that connect the
   landscape (each new stack must touch one already there);
4. turn the landscape into turns (one card per turn, breadth first from the starting card) and
   **replay them through the rules engine** before believing it.

The supply is the card set of the smallest player count (copies never shrink with more players,
so what is achievable there is achievable in every game size). The search is exhaustive, so a
finished search without a landscape is a proof of impossibility; a spent budget is ``unknown``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ...core.budget import Budget, Meter
from ...core.grid import is_connected
from ...core.verdict import Verdict
from .model import Card, CountPart, LayersSet, Objective, Part, Pos, ShapePart, parse_card_text
from .objectives import condition_holds, describe_part, objective_met
from .rules import FRAME, IllegalMove, Landscape, Place, Player, Rules, apply_place

Kind = tuple[str, int, bool]
FRAME_CELLS: tuple[Pos, ...] = tuple((r, c) for r in range(FRAME) for c in range(FRAME))


@dataclass(frozen=True)
class Achievement:
    """The answer for one objective: verdict, certificate (JSON) or reason, nodes searched."""

    verdict: Verdict
    reason: str = ""
    certificate: dict[str, Any] | None = None
    nodes: int = 0


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class Plan:
    """Stacks (bottom card first) for a set of tops, the skips they need, the cards left."""

    stacks: dict[Pos, tuple[Card, ...]]
    skips: int
    left: Counter[Kind]


def rules_of(gen: LayersSet) -> Rules:
    return Rules(values=gen.values)


def supply_of(gen: LayersSet, players: int | None = None) -> Counter[Kind]:
    n = players if players is not None else min(gen.player_counts())
    return Counter(c.kind for c in gen.cards_for(n))


def plan_stacks(
    gen: LayersSet, tops: dict[Pos, Card], start: Card, sp: Pos, supply: Counter[Kind],
    flexible: bool = False,
) -> Plan | None:
    """Chains of cards under every top, or None when the supply cannot build them.

    Per colour and value ``w`` from low to high, a stack passing ``w`` must use a ``w`` if it
    skipped ``w - 1``; every other stack uses a ``w`` while any is left (a used card costs the
    same as the discard a skip would cost, and keeps the next value free to skip), stacks whose
    top is not ``w + 1`` first. This greedy is optimal: a ``w`` card serves nothing but level
    ``w`` of its colour.

    ``flexible``: the scissors logo of a top does not matter (no part counts logos), so a top
    may be either card of its colour and value.
    """
    left = supply.copy()
    tops = dict(tops)
    for pos, top in tops.items():
        if top.start:
            continue
        if left[top.kind] <= 0:
            other = (top.colour, top.value, not top.scissors)
            if not flexible or left[other] <= 0:
                return None
            tops[pos] = gen.make_card(*other)
        left[tops[pos].kind] -= 1
    lo, hi = gen.values[0], gen.values[-1]
    chains: dict[Pos, list[Card]] = {}
    base: dict[Pos, int] = {}
    last: dict[Pos, int] = {}
    for pos in tops:
        if pos == sp:
            chains[pos] = [start]
            base[pos] = start.value
        else:
            chains[pos] = []
            base[pos] = lo - 1
        last[pos] = base[pos]
    by_colour: dict[str, list[Pos]] = {}
    for pos, top in tops.items():
        by_colour.setdefault(top.colour, []).append(pos)
    for colour, group in by_colour.items():
        for w in range(lo, hi + 1):
            act = [p for p in group if base[p] < w < tops[p].value]
            if not act:
                continue
            forced = [p for p in act if last[p] == w - 2]
            rest = sorted((p for p in act if last[p] != w - 2),
                          key=lambda p: tops[p].value == w + 1)
            plain, cut = (colour, w, False), (colour, w, True)
            avail = left[plain] + left[cut]
            if len(forced) > avail:
                return None
            for p in (forced + rest)[:avail]:
                kind = plain if left[plain] > 0 else cut
                left[kind] -= 1
                chains[p].append(gen.make_card(*kind))
                last[p] = w
    skips = 0
    stacks: dict[Pos, tuple[Card, ...]] = {}
    for pos, top in tops.items():
        chain = chains[pos] if top.start else chains[pos] + [top]
        prev = base[pos] if pos != sp else start.value
        for card in chain:
            if card.start:
                continue
            if card.value - prev == 2:
                skips += 1
            elif card.value - prev != 1:
                return None
            prev = card.value
        stacks[pos] = tuple(chain)
    if sum(left.values()) < skips:
        return None
    return Plan(stacks, skips, left)


def _frame_placements(part: ShapePart) -> list[tuple[Pos, ...]]:
    out: list[tuple[Pos, ...]] = []
    for v in part.variants:
        h = max(r for r, _ in v) + 1
        w = max(c for _, c in v) + 1
        for dr in range(FRAME - h + 1):
            for dc in range(FRAME - w + 1):
                cells = tuple((r + dr, c + dc) for r, c in v)
                if cells not in out:
                    out.append(cells)
    return out


def precheck(gen: LayersSet, obj: Objective, supply: Counter[Kind],
             starts: tuple[Card, ...] = ()) -> str:
    """A reason in words when a part can never hold whatever the cards do, else ''.

    One player's starting card is a top too, so it counts once towards a value or a colour."""
    vals = gen.values
    lo, hi = vals[0], vals[-1]
    ncol = len(gen.colours)
    span = f"values {lo}-{hi}" if lo != hi else f"only value {lo}"
    for part in obj.parts:
        what = describe_part(part)
        if isinstance(part, ShapePart):
            n = part.size
            noun = f"a {part.name}" if part.name != "cells" else "the shape"
            if not _frame_placements(part):
                return f"{what}: the shape does not fit a 3x3 landscape"
            if part.condition == "different-colours" and n > ncol:
                return f"{what}: needs {n} different colours; the deck has {ncol}"
            if part.condition == "different-values" and n > len(vals):
                return f"{what}: needs {n} different values; the deck has {len(vals)} ({span})"
            if part.condition == "values":
                for v in part.values:
                    if v not in vals:
                        return f"{what}: value {v} is not a card value ({span})"
            if part.condition == "same-colour" and part.colour is not None:
                have = sum(k for (c, _, _), k in supply.items() if c == part.colour)
                have += int(any(s.colour == part.colour for s in starts))
                if have < n:
                    return f"{what}: needs {n} {part.colour} tops; the deck has {have} " \
                           f"{part.colour} cards, starting card included"
            if part.condition == "sum" and part.total is not None:
                t = part.total
                if part.compare in ("eq", "ge") and t > n * hi:
                    return (f"{what}: {noun} of {n} tops sums at most {n * hi} (values stop at "
                            f"{hi}); it asks {'at least ' if part.compare == 'ge' else ''}{t}")
                if part.compare in ("eq", "le") and t < n * lo:
                    return (f"{what}: {noun} of {n} tops sums at least {n * lo} (values start "
                            f"at {lo}); it asks {'at most ' if part.compare == 'le' else ''}{t}")
        else:
            cells = FRAME * FRAME
            if part.kind == "all-values":
                if len(vals) > cells:
                    return f"{what}: {len(vals)} values but a landscape shows at most {cells} tops"
                continue
            if part.at_least > cells:
                return f"{what}: a landscape shows at most {cells} tops"
            if part.kind == "value":
                if part.value not in vals:
                    return f"{what}: value {part.value} is not a card value ({span})"
                have = sum(k for (_, v, _), k in supply.items() if v == part.value)
                own = int(any(s.value == part.value for s in starts))
                if have + own < part.at_least:
                    extra = " and a starting card" if own else ""
                    return f"{what}: the deck has only {have} cards of value {part.value}{extra}"
            elif part.kind == "colour":
                have = sum(k for (c, _, _), k in supply.items() if c == part.colour)
                own = int(any(s.colour == part.colour for s in starts))
                if have + own < part.at_least:
                    extra = " and a starting card" if own else ""
                    return f"{what}: the deck has only {have} {part.colour} cards{extra}"
            else:
                have = sum(k for (_, _, s), k in supply.items() if s)
                if have < part.at_least:
                    return f"{what}: the deck has only {have} cards with the scissors logo"
    return ""


class _Search:
    def __init__(self, gen: LayersSet, obj: Objective, supply: Counter[Kind],
                 starts: tuple[Card, ...], meter: Meter) -> None:
        self.gen = gen
        self.obj = obj
        self.supply = supply
        self.starts = starts
        self.meter = meter
        self.shapes = [p for p in obj.parts if isinstance(p, ShapePart)]
        self.counts = [p for p in obj.parts if isinstance(p, CountPart)]
        needs_scissors = any(p.kind == "scissors" for p in self.counts)
        self.flexible = not needs_scissors
        kinds = sorted(k for k, n in supply.items() if n > 0)
        if not needs_scissors:
            # Scissors do not matter: one top per (colour, value), plain when there is one.
            best: dict[tuple[str, int], Kind] = {}
            for k in kinds:
                if (k[0], k[1]) not in best or not k[2]:
                    best[(k[0], k[1])] = k
            kinds = sorted(best.values())
        self.kinds = [gen.make_card(*k) for k in kinds]

    def _plan(self, tops: dict[Pos, Card], start: Card, sp: Pos) -> Plan | None:
        return plan_stacks(self.gen, tops, start, sp, self.supply, self.flexible)

    def tick(self) -> None:
        if not self.meter.tick():
            raise _OutOfBudget

    def run(self) -> tuple[Card, Pos, Plan] | None:
        placements = [_frame_placements(p) for p in self.shapes]
        for start in self.starts:
            for sp in FRAME_CELLS:
                for combo in itertools.product(*placements):
                    self.tick()
                    found = self._shapes(start, sp, combo)
                    if found is not None:
                        return start, sp, found
        return None

    # -- stage 2: the shape cells
    def _domain(self, pos: Pos, start: Card, sp: Pos, high_first: bool) -> list[Card]:
        if pos == sp:
            dom = [start] + [k for k in self.kinds
                             if k.colour == start.colour and k.value > start.value]
        else:
            dom = list(self.kinds)
        dom.sort(key=lambda k: (-k.value if high_first else k.value))
        return dom

    def _shapes(self, start: Card, sp: Pos, combo: tuple[tuple[Pos, ...], ...]) -> Plan | None:
        cells: list[Pos] = []
        for placed in combo:
            for p in placed:
                if p not in cells:
                    cells.append(p)
        parts_at: dict[Pos, list[tuple[ShapePart, tuple[Pos, ...]]]] = {p: [] for p in cells}
        for part, placed in zip(self.shapes, combo, strict=True):
            for p in placed:
                parts_at[p].append((part, placed))
        high = {p for part, placed in zip(self.shapes, combo, strict=True)
                if part.condition == "sum" and part.compare == "ge" for p in placed}
        domains = {p: self._domain(p, start, sp, p in high) for p in cells}
        assign: dict[Pos, Card] = {}

        def rec(i: int) -> Plan | None:
            self.tick()
            if i == len(cells):
                return self._counts(start, sp, assign)
            pos = cells[i]
            for card in domains[pos]:
                assign[pos] = card
                if all(_partial_ok(part, placed, assign, self.gen.values)
                       for part, placed in parts_at[pos]):
                    tops = dict(assign)
                    tops.setdefault(sp, start)
                    if self._plan(tops, start, sp) is not None:
                        got = rec(i + 1)
                        if got is not None:
                            return got
                del assign[pos]
            return None

        return rec(0)

    # -- stage 3: count parts, then connection
    def _counts(self, start: Card, sp: Pos, fixed: dict[Pos, Card]) -> Plan | None:
        tops = dict(fixed)
        tops.setdefault(sp, start)
        free = [p for p in FRAME_CELLS if p not in fixed]
        vals = self.gen.values

        def deficits(t: dict[Pos, Card]) -> list[int]:
            out = []
            for part in self.counts:
                ts = list(t.values())
                if part.kind == "value":
                    have = sum(1 for x in ts if x.value == part.value)
                elif part.kind == "colour":
                    have = sum(1 for x in ts if x.colour == part.colour)
                elif part.kind == "scissors":
                    have = sum(1 for x in ts if x.scissors)
                else:
                    shown = {x.value for x in ts}
                    out.append(sum(1 for v in vals if v not in shown))
                    continue
                out.append(max(0, part.at_least - have))
            return out

        def useful(card: Card, t: dict[Pos, Card]) -> bool:
            for part, d in zip(self.counts, deficits(t), strict=True):
                if d == 0:
                    continue
                if part.kind == "value" and card.value == part.value:
                    return True
                if part.kind == "colour" and card.colour == part.colour:
                    return True
                if part.kind == "scissors" and card.scissors:
                    return True
                if part.kind == "all-values" and all(x.value != card.value for x in t.values()):
                    return True
            return False

        def rec(i: int) -> Plan | None:
            self.tick()
            ds = deficits(tops)
            if not any(ds):
                return self._connect(start, sp, tops)
            if max(ds) > len(free) - i:
                return None
            pos = free[i]
            if pos == sp:
                dom = [k for k in self.kinds if k.colour == start.colour and k.value > start.value]
            else:
                dom = self.kinds
            before = tops.get(pos)
            for card in dom:
                if not useful(card, tops):
                    continue
                tops[pos] = card
                if self._plan(tops, start, sp) is not None:
                    got = rec(i + 1)
                    if got is not None:
                        return got
            if before is None:
                tops.pop(pos, None)
            else:
                tops[pos] = before
            return rec(i + 1)

        return rec(0)

    def _connect(self, start: Card, sp: Pos, tops: dict[Pos, Card]) -> Plan | None:
        """Add the fewest cheap filler stacks that make the landscape connected."""
        occupied = set(tops)
        empty = [p for p in FRAME_CELLS if p not in occupied]
        lo = self.gen.values[0]
        fillers = sorted((k for k in self.kinds if k.value <= lo + 1),
                         key=lambda k: (k.value, k.scissors, k.colour))
        for size in range(len(empty) + 1):
            for extra in itertools.combinations(empty, size):
                self.tick()
                if not is_connected(occupied | set(extra)):
                    continue
                got = self._fill(start, sp, dict(tops), list(extra), fillers)
                if got is not None:
                    return got
        return None

    def _fill(self, start: Card, sp: Pos, tops: dict[Pos, Card], extra: list[Pos],
              fillers: list[Card]) -> Plan | None:
        if not extra:
            return self._plan(tops, start, sp)
        pos = extra[0]
        for card in fillers:
            self.tick()
            tops[pos] = card
            if self._plan(tops, start, sp) is not None:
                got = self._fill(start, sp, tops, extra[1:], fillers)
                if got is not None:
                    return got
            del tops[pos]
        return None


_HEREDITARY = frozenset(
    {"filled", "same-colour", "different-colours", "same-value", "different-values"})


def _partial_ok(part: ShapePart, placed: tuple[Pos, ...], assign: Mapping[Pos, Card],
                values: tuple[int, ...]) -> bool:
    """Whether the assigned cells of a placed shape can still meet its condition."""
    got = [assign[p] for p in placed if p in assign]
    cond = part.condition
    if not got:
        return True
    if cond in _HEREDITARY:
        # These hold for the whole shape only if they hold for every subset of its tops, so
        # the finished-shape test is the exact partial test too.
        return condition_holds(part, got)
    if cond == "values":
        return all(assign[p].value == v for p, v in zip(placed, part.values, strict=True)
                   if p in assign)
    s = sum(t.value for t in got)
    k = len(placed) - len(got)
    t = part.total if part.total is not None else 0
    lo, hi = values[0], values[-1]
    if part.compare == "ge":
        return s + k * hi >= t
    if part.compare == "le":
        return s + k * lo <= t
    return s + k * lo <= t <= s + k * hi


# --------------------------------------------------------------------------------------------
# Certificates


def certificate_turns(gen: LayersSet, start: Card, sp: Pos, plan: Plan) -> dict[str, Any]:
    """The landscape as JSON turns: one card per turn, breadth first from the starting card,
    with a discarded card paying each skip."""
    order: list[Pos] = [sp]
    seen = {sp}
    i = 0
    while i < len(order):
        r, c = order[i]
        i += 1
        for n in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if n in plan.stacks and n not in seen:
                seen.add(n)
                order.append(n)
    left = plan.left.copy()
    spare = sorted(k for k, n in left.items() for _ in range(n))
    turns: list[dict[str, Any]] = []
    lo = gen.values[0]
    for pos in order:
        prev = start.value if pos == sp else lo - 1
        for card in plan.stacks[pos]:
            if card.start:
                continue
            turn: dict[str, Any] = {"place": [[card.text, [pos[0], pos[1]]]]}
            if card.value - prev == 2:
                kind = spare.pop(0)
                turn["skip_discard"] = gen.make_card(*kind).text
            turns.append(turn)
            prev = card.value
    return {
        "start": start.text,
        "start_at": [sp[0], sp[1]],
        "turns": turns,
        "landscape": {f"{p[0]},{p[1]}": [c.text for c in cards]
                      for p, cards in sorted(plan.stacks.items())},
    }


def replay(gen: LayersSet, obj: Objective, cert: dict[str, Any],
           supply: Counter[Kind]) -> Landscape:
    """Replay a certificate through the rules engine from its JSON; raise IllegalMove when a
    turn is illegal, the cards exceed the deck, or the end landscape misses the objective."""
    colour, value, _ = parse_card_text(cert["start"])
    start = next((s.card for s in gen.starts if s.card.colour == colour), None)
    if start is None or start.value != value:
        raise IllegalMove(f"{cert['start']} is not a starting card of the deck")
    sp = (int(cert["start_at"][0]), int(cert["start_at"][1]))
    moves: list[Place] = []
    used: list[Card] = []
    for t in cert["turns"]:
        cards = tuple((gen.make_card(*parse_card_text(txt)), (int(p[0]), int(p[1])))
                      for txt, p in t["place"])
        discard = (gen.make_card(*parse_card_text(t["skip_discard"]))
                   if t.get("skip_discard") else None)
        moves.append(Place(cards, discard))
        used.extend(c for c, _ in cards)
        if discard is not None:
            used.append(discard)
    need = Counter(c.kind for c in used)
    for kind, n in need.items():
        if supply[kind] < n:
            raise IllegalMove(f"uses {n} x {gen.make_card(*kind).text}; the deck has "
                              f"{supply[kind]}")
    players: tuple[Player, ...] = (Player(Landscape.starting(start, sp), tuple(sorted(used))),)
    rules = rules_of(gen)
    for m in moves:
        players = apply_place(rules, players, 0, m)
    land = players[0].land
    if not objective_met(obj, land.tops(), gen.values):
        raise IllegalMove("the replayed landscape does not meet the objective")
    return land


def _search(gen: LayersSet, obj: Objective, supply: Counter[Kind], starts: tuple[Card, ...],
            meter: Meter) -> tuple[Card, Pos, Plan] | None:
    return _Search(gen, obj, supply, starts, meter).run()


def achieve(gen: LayersSet, obj: Objective, budget: Budget,
            players: int | None = None) -> Achievement:
    """Completable with a replayed certificate, impossible with a reason, or unknown."""
    n = players if players is not None else min(gen.player_counts())
    supply = supply_of(gen, n)
    starts = tuple(s.card for s in gen.starts[:n])
    reason = precheck(gen, obj, supply, starts)
    if reason:
        return Achievement(Verdict.IMPOSSIBLE, reason)
    meter = budget.start()
    try:
        found = _search(gen, obj, supply, starts, meter)
    except _OutOfBudget:
        return Achievement(Verdict.UNKNOWN, f"search budget ran out after {meter.nodes} nodes "
                           f"({budget})", nodes=meter.nodes)
    if found is None:
        return Achievement(Verdict.IMPOSSIBLE, _diagnose(gen, obj, supply, starts, budget, n),
                           nodes=meter.nodes)
    start, sp, plan = found
    cert = certificate_turns(gen, start, sp, plan)
    try:
        replay(gen, obj, cert, supply)
    except IllegalMove as e:  # a bug in the search: never believed, never hidden
        return Achievement(Verdict.UNKNOWN, f"certificate failed its replay: {e}",
                           nodes=meter.nodes)
    cert["players"] = n
    return Achievement(Verdict.COMPLETABLE, "", cert, meter.nodes)


def _diagnose(gen: LayersSet, obj: Objective, supply: Counter[Kind], starts: tuple[Card, ...],
              budget: Budget, n: int) -> str:
    """Why the exhausted search found nothing: a part impossible alone, or only together."""
    cards = f"the {sum(supply.values())} cards of a {n}-player game"
    if len(obj.parts) > 1:
        for part in obj.parts:
            alone = Objective(obj.id, obj.title, (part,), obj.tokens)
            try:
                got = _search(gen, alone, supply, starts, budget.start())
            except _OutOfBudget:
                continue
            if got is None:
                return f"{describe_part(part)}: no 3x3 landscape of {cards} shows it " \
                       "under the stacking rules"
        return "each part can be met alone, but no 3x3 landscape of " \
               f"{cards} meets them all together"
    return f"no 3x3 landscape of {cards} shows it under the stacking rules"


def iter_parts(obj: Objective) -> Iterator[Part]:
    yield from obj.parts
