"""Completability of a plan card: a certificate (moves from an empty sheet that meet it,
replayed through the rules engine) or a sound reason why no sheet can meet it.

Achievable means: some sequence of combinations the construction deck can show (a number
of one card with the effect of another; stacks are reshuffled when they run out, so any
such pair can come up again) and legal moves, without a refusal, ends in a sheet where the
plan can be claimed.

The search: every way to pack the plan's groups onto the streets (bin packing, groups laid
left to right with a fence after each), then a constructive filling: which houses to build,
which are duplicates, what numbers go where (rising along each street), and which turn
carries which effect. Impossibility is claimed only from necessary conditions (packing,
track lengths, effects missing from the deck, too few distinct numbers); when those pass but
the construction fails, the verdict is ``unknown``, never a guess.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...core.budget import Budget, Meter
from ...core.verdict import Verdict
from .model import Condition, Effect, PlanCard, SheetSpec
from .rules import STREET_KINDS, GroupRef, Move, RuleError, replay


@dataclass(frozen=True)
class Certificate:
    """Moves from an empty sheet, then the claim of the plan with ``groups``."""

    moves: tuple[Move, ...]
    groups: tuple[GroupRef, ...]

    def to_json(self) -> dict[str, Any]:
        return {"moves": [str(m) for m in self.moves],
                "groups": [[s + 1, a + 1, z + 1] for s, a, z in self.groups]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Certificate:
        return cls(moves=tuple(Move.parse(m) for m in data["moves"]),
                   groups=tuple((int(g[0]) - 1, int(g[1]) - 1, int(g[2]) - 1)
                                for g in data["groups"]))


@dataclass(frozen=True)
class Outcome:
    verdict: Verdict
    certificate: Certificate | None = None
    reason: str = ""
    nodes: int = 0


def verify(spec: SheetSpec, plan: PlanCard, cert: Certificate,
           offered: frozenset[tuple[int, Effect]]) -> None:
    """Replay a certificate through the rules engine; raises RuleError if it does not hold."""
    sheet = replay(spec, cert.moves, offered)
    if any(m.refusal for m in cert.moves):
        raise RuleError("a certificate never refuses")
    sheet.claim(plan, first=True, groups=cert.groups)


# --- necessary conditions ------------------------------------------------------------


def packings(sizes: Sequence[int], lengths: Sequence[int],
             meter: Meter | None = None) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every distinct assignment of the group sizes to streets (each street's groups sorted
    large to small), as a tuple of size tuples per street. Largest groups first, so failing
    branches die early."""
    order = sorted(sizes, reverse=True)
    n = len(lengths)

    def rec(i: int, used: list[int], bins: list[list[int]]) -> Iterator[tuple[tuple[int, ...],
                                                                                ...]]:
        if meter is not None and not meter.tick():
            return
        if i == len(order):
            yield tuple(tuple(b) for b in bins)
            return
        size = order[i]
        seen: set[tuple[int, tuple[int, ...]]] = set()
        for s in range(n):
            # Two streets of the same length holding the same groups so far are symmetric
            # for this size only if the assignment is identical; skip exact repeats.
            key = (lengths[s], tuple(bins[s]))
            if key in seen:
                continue
            seen.add(key)
            if used[s] + size <= lengths[s]:
                used[s] += size
                bins[s].append(size)
                yield from rec(i + 1, used, bins)
                bins[s].pop()
                used[s] -= size

    yield from rec(0, [0] * n, [[] for _ in range(n)])


def fences_needed(packing: Sequence[Sequence[int]], lengths: Sequence[int]) -> int:
    """Fences a packing needs: one after every group that does not end at the street end."""
    total = 0
    for groups, length in zip(packing, lengths, strict=True):
        if groups:
            total += len(groups) - (1 if sum(groups) == length else 0)
    return total


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def impossible_reason(spec: SheetSpec, plan: PlanCard, numbers: Sequence[int],
                      effects: frozenset[Effect]) -> str:
    """A reason no sheet can meet ``plan`` (empty when none of the necessary conditions
    fails). Every reason is a proof, not a heuristic."""
    lengths = [s.houses for s in spec.streets]
    names = ", ".join(str(n) for n in lengths)
    sizes = plan.group_sizes
    for size in sizes:
        if size < 1:
            return f"a group of {size} houses cannot exist"
        if size > spec.max_group:
            return (f"groups of {size} never score or count: the value columns stop at "
                    f"{spec.max_group}")
    if sizes:
        if sum(sizes) > sum(lengths):
            return (f"the groups need {sum(sizes)} houses; the streets ({names}) have "
                    f"{sum(lengths)}")
        if next(packings(sizes, lengths), None) is None:
            if len(set(sizes)) == 1:
                size = sizes[0]
                hold = sum(length // size for length in lengths)
                return (f"needs {len(sizes)} groups of {size}; streets of {names} houses hold "
                        f"at most {hold}")
            return (f"the groups {list(sizes)} cannot be laid out on streets of {names} "
                    "houses")
        # A roundabout closes groups too: only a deck with neither can never split a street.
        if Effect.FENCE not in effects and not _roundabouts(spec, effects) and min(
                fences_needed(p, lengths) for p in packings(sizes, lengths)) > 0:
            return "the groups need fences, but the deck has no fence cards"
    distinct = len(set(numbers))
    written = distinct
    if Effect.WORKER in effects:
        written = spec.written_max - spec.written_min + 1
    for c in plan.conditions:
        streets = range(len(spec.streets)) if c.street < 0 else (c.street,)
        if c.street >= len(spec.streets):
            return f"street {c.street + 1} does not exist"
        reason = _condition_reason(spec, c, list(streets), effects, written)
        if reason:
            return reason
    return ""


def _street_can(spec: SheetSpec, c: Condition, s: int, written: int,
                effects: frozenset[Effect]) -> bool:
    """A necessary condition for the per-street condition ``c`` to hold on street ``s``."""
    st = spec.streets[s]
    if c.kind == "parks":
        return len(st.parks) >= max(c.count, 1)
    if c.kind == "pools":
        return len(st.pools) >= max(c.count, 1)
    if c.kind == "duplicates":
        return st.houses - 1 >= c.count
    if _roundabouts(spec, effects):
        return True     # a roundabout restarts the numbering: no counting argument holds
    dups = len(spec.duplicate_penalty) if Effect.DUPLICATE in effects else 0
    return st.houses - min(dups, st.houses - 1) <= written


def _roundabouts(spec: SheetSpec, effects: frozenset[Effect]) -> bool:
    """Whether a sheet can hold a roundabout (a card shows it and the track has a box)."""
    return Effect.ROUNDABOUT in effects and bool(spec.roundabout_penalty)


def _condition_reason(spec: SheetSpec, c: Condition, streets: list[int],
                      effects: frozenset[Effect], written: int) -> str:
    need = c.streets if c.street < 0 else 1
    if need > 1:
        where = f"{need} streets"
    else:
        where = "any street" if len(streets) > 1 else spec.streets[streets[0]].name
    able = sum(1 for s in streets if _street_can(spec, c, s, written, effects)) \
        if c.kind in STREET_KINDS else 0
    short = able < need
    if need > len(streets):
        return f"needs {need} streets; the sheet has {len(streets)}"
    if c.kind == "parks":
        if Effect.PARK not in effects:
            return "needs parks, but the deck has no park cards"
        if short:
            return (f"needs {c.count or 'all'} parks on {where}; "
                    + ("its park track is shorter" if need == 1 else
                       f"only {able} park tracks are long enough"))
    elif c.kind == "pools":
        if Effect.POOL not in effects:
            return "needs pools, but the deck has no pool cards"
        if short:
            return (f"needs {c.count or 'all'} pools on {where}; "
                    + ("it has fewer pool spots" if need == 1 else
                       f"only {able} streets have enough pool spots"))
    elif c.kind == "workers":
        if c.count > 0 and Effect.WORKER not in effects:
            return "needs workers, but the deck has no worker cards"
        if c.count > len(spec.worker_points):
            return (f"needs {c.count} workers; the worker track has "
                    f"{len(spec.worker_points)} boxes")
    elif c.kind == "duplicates":
        if c.count > 0 and Effect.DUPLICATE not in effects:
            return "needs duplicates, but the deck has no duplicate cards"
        if c.count > len(spec.duplicate_penalty):
            return (f"needs {c.count} duplicates; the duplicate track has "
                    f"{len(spec.duplicate_penalty)} boxes")
        if short:
            return f"needs {c.count} duplicates on {where}; a duplicate needs a neighbour"
    elif c.kind == "street_full" and short:
        return (f"{where}: fewer than {need} streets have no more houses than the "
                f"distinct numbers ({written}) and duplicates can fill"
                if need > 1 else
                f"{where} has more houses than the distinct numbers ({written}) and "
                "duplicates can fill")
    return ""


# --- construction --------------------------------------------------------------------


def certify(spec: SheetSpec, plan: PlanCard, numbers: Sequence[int],
            offered: frozenset[tuple[int, Effect]], budget: Budget) -> Outcome:
    """The verdict for ``plan`` on this sheet with a deck whose numbers are ``numbers`` and
    whose combinations are ``offered``."""
    meter = budget.start()
    effects = frozenset(e for _, e in offered)
    reason = impossible_reason(spec, plan, numbers, effects)
    if reason:
        return Outcome(Verdict.IMPOSSIBLE, reason=reason, nodes=meter.nodes)
    lengths = [s.houses for s in spec.streets]
    any_conds = [c for c in plan.conditions if c.kind in STREET_KINDS and c.street < 0]
    fixed_conds = [c for c in plan.conditions if c.kind != "groups" and c not in any_conds]
    # Each "any street" condition picks its streets (one, or ``streets`` distinct ones). The
    # product of those picks grows exponentially with the conditions: it is walked lazily,
    # one budget tick per pick, never built as a list.
    picks = [list(itertools.combinations(range(len(lengths)), c.streets)) for c in any_conds]
    last_error = ""
    for packing in packings(plan.group_sizes, lengths, meter):
        for choice in itertools.product(*picks):
            if not meter.tick():
                break
            conds = list(fixed_conds)
            for c, where in zip(any_conds, choice, strict=True):
                conds.extend(replace(c, street=s, streets=1) for s in where)
            try:
                cert = _construct(spec, packing, conds, numbers, offered)
            except _NoWay as err:
                last_error = str(err)
                continue
            try:
                verify(spec, plan, cert, offered)
            except RuleError as err:
                last_error = f"a constructed certificate failed replay: {err}"
                continue
            return Outcome(Verdict.COMPLETABLE, certificate=cert, nodes=meter.nodes)
        if meter.exhausted:
            break
    if meter.exhausted:
        return Outcome(Verdict.UNKNOWN, reason=f"search budget ({budget}) ran out",
                       nodes=meter.nodes)
    return Outcome(Verdict.UNKNOWN, reason="no construction found and no proof of "
                   f"impossibility ({last_error})", nodes=meter.nodes)


class _NoWay(Exception):
    pass


def _construct(spec: SheetSpec, packing: Sequence[Sequence[int]], conds: Sequence[Condition],
               numbers: Sequence[int], offered: frozenset[tuple[int, Effect]]) -> Certificate:
    n_streets = len(spec.streets)
    lengths = [s.houses for s in spec.streets]
    must: list[set[int]] = [set() for _ in range(n_streets)]
    fences: list[tuple[int, int]] = []
    groups: list[GroupRef] = []
    for s, sizes in enumerate(packing):
        pos = 0
        for size in sizes:
            groups.append((s, pos, pos + size - 1))
            must[s].update(range(pos, pos + size))
            pos += size
            if pos < lengths[s]:
                fences.append((s, pos))
    pool_turns: list[tuple[int, int]] = []
    park_need = [0] * n_streets
    dup_need = [0] * n_streets
    workers = 0
    for c in conds:
        if c.kind == "street_full":
            must[c.street].update(range(lengths[c.street]))
        elif c.kind == "ends":
            for s in range(n_streets):
                must[s].update((0, lengths[s] - 1))
        elif c.kind == "pools":
            spots = spec.streets[c.street].pools
            for h in spots[: c.count or len(spots)]:
                if (c.street, h) not in pool_turns:
                    pool_turns.append((c.street, h))
                    must[c.street].add(h)
        elif c.kind == "parks":
            park_need[c.street] = max(park_need[c.street],
                                      c.count or len(spec.streets[c.street].parks))
        elif c.kind == "workers":
            workers = max(workers, c.count)
        elif c.kind == "duplicates":
            dup_need[c.street] = max(dup_need[c.street], c.count)
    deck_values = sorted(set(numbers))
    pool_set = set(pool_turns)
    # Duplicates: houses whose left neighbour is a regular house; prefer houses that must be
    # built anyway (saves a turn), then add new ones.
    dup: list[set[int]] = [set() for _ in range(n_streets)]
    for s in range(n_streets):
        need = dup_need[s]
        for extra_ok in (False, True):
            for h in range(1, lengths[s]):
                if len(dup[s]) >= need:
                    break
                if (s, h) in pool_set or h in dup[s] or (h - 1) in dup[s]:
                    continue
                if not extra_ok and h not in must[s]:
                    continue
                if h + 1 in dup[s]:
                    continue
                dup[s].add(h)
                must[s].add(h)
                must[s].add(h - 1)
        if len(dup[s]) < need:
            raise _NoWay(f"no room for {need} duplicates on {spec.streets[s].name}")
    regular = [must[s] - dup[s] for s in range(n_streets)]
    # A street that needs more distinct numbers than the deck (and workers) can write turns
    # some of its houses into duplicates of their left neighbour, while the track has room.
    has_worker = any(e is Effect.WORKER for _, e in offered)
    has_dup = any(e is Effect.DUPLICATE for _, e in offered)
    distinct = (spec.written_max - spec.written_min + 1) if has_worker else len(set(numbers))
    room = len(spec.duplicate_penalty) - sum(len(d) for d in dup)
    for s in range(n_streets):
        excess = len(regular[s]) - distinct
        for h in range(1, lengths[s]):
            if excess <= 0 or room <= 0 or not has_dup:
                break
            if (h in regular[s] and h - 1 in regular[s] and (s, h) not in pool_set
                    and h + 1 not in dup[s] and h - 1 not in dup[s]):
                regular[s].discard(h)
                dup[s].add(h)
                excess -= 1
                room -= 1
        dup_need[s] = max(dup_need[s], len(dup[s]))
    # Turns: one per regular house. Effects to place: pools (fixed turns), duplicates (a turn
    # at or after its left neighbour), parks (a turn on the street), fences and workers (any).
    demand = len(pool_turns) + sum(dup_need) + sum(park_need) + len(fences) + workers
    for _ in range(sum(lengths) + 1):
        for s in range(n_streets):
            short = park_need[s] + sum(1 for t in pool_turns if t[0] == s) - len(regular[s])
            while short > 0:
                _add_house(regular, dup, s, lengths[s])
                short -= 1
        if sum(len(r) for r in regular) >= demand:
            break
        best = max(range(n_streets), key=lambda s: lengths[s] - len(regular[s]) - len(dup[s]))
        _add_house(regular, dup, best, lengths[best])
    return _moves(spec, regular, dup, fences, pool_turns, park_need, workers, groups,
                  deck_values, offered)


def _add_house(regular: list[set[int]], dup: list[set[int]], s: int, length: int) -> None:
    for h in range(length):
        if h not in regular[s] and h not in dup[s]:
            regular[s].add(h)
            return
    raise _NoWay("the streets are too short for the turns the plan needs")


def _moves(spec: SheetSpec, regular: list[set[int]], dup: list[set[int]],
           fences: list[tuple[int, int]], pool_turns: list[tuple[int, int]],
           park_need: list[int], workers: int, groups: list[GroupRef],
           deck_values: list[int], offered: frozenset[tuple[int, Effect]]) -> Certificate:
    # Values: per street, the lowest deck numbers in rising order; if a street needs more
    # distinct numbers than the deck has, shifted numbers (worker turns) fill in.
    turns: list[tuple[int, int, int, int]] = []  # (street, house, card number, written)
    all_values = list(range(spec.written_min, spec.written_max + 1))
    has_worker = any(e is Effect.WORKER for _, e in offered)
    for s, reg in enumerate(regular):
        houses = sorted(reg)
        if len(houses) <= len(deck_values):
            picks = [(v, v) for v in deck_values[: len(houses)]]
        elif has_worker and len(houses) <= len(all_values):
            picks = []
            for v in all_values[: len(houses)]:
                card = v if v in deck_values else min(deck_values, key=lambda n: abs(n - v))
                if abs(card - v) > spec.worker_shift:
                    raise _NoWay(f"no card number within {spec.worker_shift} of {v}")
                picks.append((card, v))
        else:
            raise _NoWay(f"{spec.streets[s].name} needs {len(houses)} distinct numbers")
        for h, (card, v) in zip(houses, picks, strict=True):
            turns.append((s, h, card, v))
    effect_of: list[tuple[Effect, Any] | None] = [None] * len(turns)
    for i, (_, _, card, v) in enumerate(turns):
        if card != v:
            effect_of[i] = (Effect.WORKER, None)
    index = {(s, h): i for i, (s, h, _, _) in enumerate(turns)}

    def take(candidates: Sequence[int], effect: Effect, arg: Any) -> None:
        for i in candidates:
            if effect_of[i] is None and (turns[i][2], effect) in offered:
                effect_of[i] = (effect, arg)
                return
        raise _NoWay(f"no free turn for a {effect.value} effect")

    for s, h in pool_turns:
        take([index[(s, h)]], Effect.POOL, None)
    for s in range(len(regular)):
        for h in sorted(dup[s]):
            src = index.get((s, h - 1))
            if src is None:
                raise _NoWay("a duplicate without a regular left neighbour")
            take(range(src, len(turns)), Effect.DUPLICATE, (s, h))
    for s, need in enumerate(park_need):
        on_street = [i for i, t in enumerate(turns) if t[0] == s]
        for _ in range(need):
            take(on_street, Effect.PARK, None)
    for f in fences:
        take(range(len(turns)), Effect.FENCE, f)
    already = sum(1 for e in effect_of if e is not None and e[0] is Effect.WORKER)
    for _ in range(max(0, workers - already)):
        take(range(len(turns)), Effect.WORKER, None)
    moves: list[Move] = []
    effects_by_number: dict[int, list[Effect]] = {}
    for n, e in sorted(offered, key=lambda p: (p[0], p[1].value)):
        effects_by_number.setdefault(n, []).append(e)
    for (s, h, card, v), eff in zip(turns, effect_of, strict=True):
        if eff is None:
            choices = effects_by_number.get(card)
            if not choices:
                raise _NoWay(f"the deck never shows {card}")
            moves.append(Move(card, choices[0], s, h, v))
            continue
        effect, arg = eff
        move = Move(card, effect, s, h, v, use=True)
        if effect in (Effect.FENCE, Effect.DUPLICATE):
            move = replace(move, target=arg)
        moves.append(move)
    return Certificate(moves=tuple(moves), groups=tuple(groups))
