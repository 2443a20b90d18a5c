"""The rules engine of one player's street sheet: legal moves, effects, plans, scoring.

Rules decisions (where the seed is silent; documented in docs/families/streets.md):

- Numbers rise strictly from left to right along a street; empty houses may be left between
  built ones and numbers may be skipped. A number appears once per street, except duplicate
  houses, which copy the number of a neighbouring built house (so a street reads
  non-decreasing, with equal numbers only in a contiguous run made by duplicates).
- A group is a maximal run of houses between fences (the street ends count as fences); it is
  complete when all its houses are built. Complete groups up to the largest value column
  score that column's current value.
- Fences may be drawn on any street, never inside a group already used for a plan (locked).
- A worker writes the card's number shifted by any amount up to ``worker_shift`` (0 allowed)
  and marks the worker track while it has boxes.
- The pool effect builds the pool of the house just built, if it stands on a pool spot; the
  park effect marks the park track of the street the house was built on.
- A duplicate house may be written on any street, next to a built house (it copies the left
  neighbour if built, else the right one), while the duplicate
  track has boxes; it comes in addition to the house of the turn. With ``duplicate_rule =
  "joined"`` the player chooses the neighbour (``s1h4<`` left, ``s1h4>`` right) and no fence
  may separate the duplicate from the house it copies, then or later.
- A refusal is marked only when the player can place none of the round's combinations.
- A roundabout (the roundabout effect, in addition to the house of the turn) goes in an empty
  house of any street, never inside a group used for a plan, while its track has boxes. The
  street's parts on either side number independently (each rising, a number may appear once
  per part), no group crosses it, and the house counts as built (full streets, ends).

Everything here is pure: states are frozen and every move returns a new state.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ...core.answer import IllegalMove
from .model import Condition, Effect, PlanCard, SheetSpec

EMPTY = -1
ROUND = -2
"""A house holding a roundabout: counts as built, numbers nothing, ends groups."""

STREET_KINDS = frozenset({"parks", "pools", "street_full", "duplicates"})
"""Condition kinds that hold on a street (``street``, or ``streets`` many with street 0)."""

GroupRef = tuple[int, int, int]
"""A group as (street, first house, last house), 0-based, inclusive."""


RuleError = IllegalMove
"""An illegal move; the message says which rule it breaks (the core's one illegal-move
error, under this family's name)."""


@dataclass(frozen=True)
class Move:
    """One turn of one player: the combination taken and what was done with it.

    ``street == -1`` is a refusal. ``target`` is the fence ``(street, boundary)`` (boundary
    ``b`` lies between houses ``b-1`` and ``b``, 0-based) or the duplicate ``(street, house)``;
    ``size`` the group size whose value a price rise raises.

    Text form (round trips through :meth:`parse`), houses and boundaries 1-based:
    ``"7/fence s2h5=7 +fence s1b3"``, ``"9/worker s3h8=11 +worker"``, ``"4/pool refuse"``.
    """

    number: int
    effect: Effect
    street: int = -1
    house: int = -1
    written: int = -1
    use: bool = False
    target: tuple[int, int] = (-1, -1)
    size: int = 0
    side: int = 0
    """A duplicate's copied neighbour: -1 left, +1 right, 0 by the left-first rule."""

    @property
    def refusal(self) -> bool:
        return self.street < 0

    def __str__(self) -> str:
        head = f"{self.number}/{self.effect.value}"
        if self.refusal:
            return f"{head} refuse"
        text = f"{head} s{self.street + 1}h{self.house + 1}={self.written}"
        if not self.use:
            return text
        e = self.effect
        if e is Effect.FENCE:
            return f"{text} +fence s{self.target[0] + 1}b{self.target[1]}"
        if e in (Effect.DUPLICATE, Effect.ROUNDABOUT):
            side = {-1: "<", 1: ">"}.get(self.side, "")
            return f"{text} +{e.value} s{self.target[0] + 1}h{self.target[1] + 1}{side}"
        if e is Effect.PRICE:
            return f"{text} +price {self.size}"
        return f"{text} +{e.value}"

    _RE = re.compile(
        r"^\s*(\d+)/([a-z]+)\s+(?:(refuse)|s(\d+)h(\d+)=(\d+)"
        r"(?:\s+\+([a-z]+)(?:\s+(?:s(\d+)([bh])(\d+)([<>])?|(\d+)))?)?)\s*$"
    )

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move written as by ``str(move)``; raises ValueError naming what is wrong."""
        m = cls._RE.match(text)
        if not m:
            raise ValueError(f"not a move: {text!r} (e.g. '7/fence s2h5=7 +fence s1b3')")
        number = int(m.group(1))
        try:
            effect = Effect(m.group(2))
        except ValueError:
            raise ValueError(f"unknown effect {m.group(2)!r} in {text!r}") from None
        if m.group(3):
            return cls(number, effect)
        street, house, written = int(m.group(4)) - 1, int(m.group(5)) - 1, int(m.group(6))
        used = m.group(7)
        if used is None:
            return cls(number, effect, street, house, written)
        if used != effect.value:
            raise ValueError(f"{text!r} uses +{used} with a {effect.value} card")
        target = (-1, -1)
        size = side = 0
        if effect in (Effect.FENCE, Effect.DUPLICATE, Effect.ROUNDABOUT):
            if m.group(8) is None:
                raise ValueError(f"{text!r}: +{used} needs a target like s1b3 / s1h4")
            kind = "b" if effect is Effect.FENCE else "h"
            if m.group(9) != kind:
                raise ValueError(f"{text!r}: +{used} takes s<street>{kind}<n>")
            t = int(m.group(10))
            target = (int(m.group(8)) - 1, t if effect is Effect.FENCE else t - 1)
            if m.group(11) and effect is not Effect.DUPLICATE:
                raise ValueError(f"{text!r}: only a duplicate chooses a side (< or >)")
            side = {"<": -1, ">": 1}.get(m.group(11) or "", 0)
        elif effect is Effect.PRICE:
            if m.group(12) is None:
                raise ValueError(f"{text!r}: +price needs a group size")
            size = int(m.group(12))
        return cls(number, effect, street, house, written, True, target, size, side)


@dataclass(frozen=True)
class Claim:
    """A plan claimed by the player: the points written and the groups it used (locked)."""

    plan: str
    points: int
    groups: tuple[GroupRef, ...] = ()


@dataclass(frozen=True)
class Sheet:
    """One player's sheet. ``houses[s][h]`` is the number written (``EMPTY`` = -1);
    ``fences[s]`` holds boundaries 1..L-1; ``price[k]`` the level of group size k+1."""

    spec: SheetSpec = field(repr=False, compare=False)
    houses: tuple[tuple[int, ...], ...]
    dups: tuple[frozenset[int], ...]
    fences: tuple[frozenset[int], ...]
    pools: tuple[frozenset[int], ...]
    parks: tuple[int, ...]
    workers: int
    refusals: int
    price: tuple[int, ...]
    claims: tuple[Claim, ...] = ()
    joins: tuple[frozenset[int], ...] = ()
    """Per street, boundaries between a duplicate and the house it copies (joined rule):
    no fence may be drawn there. Empty tuple: none anywhere."""

    @classmethod
    def empty(cls, spec: SheetSpec) -> Sheet:
        n = len(spec.streets)
        return cls(
            spec=spec,
            houses=tuple((EMPTY,) * s.houses for s in spec.streets),
            dups=(frozenset(),) * n,
            fences=(frozenset(),) * n,
            pools=(frozenset(),) * n,
            parks=(0,) * n,
            workers=0,
            refusals=0,
            price=(0,) * spec.max_group,
        )

    # --- derived facts --------------------------------------------------------------

    @property
    def duplicates(self) -> int:
        return sum(len(d) for d in self.dups)

    @property
    def roundabouts(self) -> int:
        return sum(1 for row in self.houses for v in row if v == ROUND)

    @property
    def locked(self) -> frozenset[GroupRef]:
        return frozenset(g for c in self.claims for g in c.groups)

    def claimed(self, plan_id: str) -> bool:
        return any(c.plan == plan_id for c in self.claims)

    def built(self, street: int) -> int:
        return sum(1 for v in self.houses[street] if v != EMPTY)

    def full(self) -> bool:
        return all(v != EMPTY for row in self.houses for v in row)

    def groups(self, street: int) -> list[tuple[int, int, bool]]:
        """Runs between fences and roundabouts on a street: (first, last, complete)."""
        row = self.houses[street]
        cuts = set(self.fences[street])
        for h, v in enumerate(row):
            if v == ROUND:
                cuts.update(b for b in (h, h + 1) if 0 < b < len(row))
        out: list[tuple[int, int, bool]] = []
        start = 0
        for b in [*sorted(cuts), len(row)]:
            if not (b - start == 1 and row[start] == ROUND):
                out.append((start, b - 1, all(row[h] != EMPTY for h in range(start, b))))
            start = b
        return out

    def complete_groups(self) -> list[GroupRef]:
        """Every complete group of a scoring size (1..max_group), street by street."""
        out: list[GroupRef] = []
        for s in range(len(self.houses)):
            for a, z, done in self.groups(s):
                if done and z - a + 1 <= self.spec.max_group:
                    out.append((s, a, z))
        return out

    def bounds(self, street: int) -> list[tuple[int, int]]:
        """For every house: (largest number built to its left, smallest to its right);
        -1 / a large number when none. A regular number v fits an empty house h iff
        left < v < right."""
        row = self.houses[street]
        n = len(row)
        left = [-1] * n
        best = -1
        for h in range(n):
            left[h] = best
            if row[h] == ROUND:
                best = -1
            elif row[h] != EMPTY:
                best = row[h]
        right = [1 << 30] * n
        best = 1 << 30
        for h in range(n - 1, -1, -1):
            right[h] = best
            if row[h] == ROUND:
                best = 1 << 30
            elif row[h] != EMPTY:
                best = row[h]
        return list(zip(left, right, strict=True))

    def places(self, value: int) -> list[tuple[int, int]]:
        """Every (street, house) where the regular number ``value`` may be written."""
        out: list[tuple[int, int]] = []
        for s, row in enumerate(self.houses):
            for h, (lo, hi) in enumerate(self.bounds(s)):
                if row[h] == EMPTY and lo < value < hi:
                    out.append((s, h))
        return out

    def written_options(self, number: int, effect: Effect) -> list[int]:
        """The numbers a combination lets the player write (a worker shifts by 0..shift)."""
        if effect is not Effect.WORKER:
            return [number]
        k = self.spec.worker_shift
        return [v for v in range(number - k, number + k + 1)
                if self.spec.written_min <= v <= self.spec.written_max]

    def can_place(self, number: int, effect: Effect) -> bool:
        return any(self.places(v) for v in self.written_options(number, effect))

    # --- moves ------------------------------------------------------------------------

    def apply(self, move: Move) -> Sheet:
        """The sheet after ``move``; raises :class:`RuleError` if it breaks a rule."""
        spec = self.spec
        if move.refusal:
            if self.can_place(move.number, move.effect):
                raise RuleError(f"refusal with {move.number}/{move.effect.value}, but the "
                                "number fits a house")
            if self.refusals >= len(spec.refusal_penalty):
                raise RuleError("the refusal track is already full (the game is over)")
            return replace(self, refusals=self.refusals + 1)
        s, h, v = move.street, move.house, move.written
        if not 0 <= s < len(spec.streets):
            raise RuleError(f"street {s + 1} does not exist (1..{len(spec.streets)})")
        row = self.houses[s]
        if not 0 <= h < len(row):
            raise RuleError(f"{spec.streets[s].name} has houses 1..{len(row)}, not {h + 1}")
        if row[h] != EMPTY:
            raise RuleError(f"{spec.streets[s].name} house {h + 1} is already built")
        worker = move.use and move.effect is Effect.WORKER
        if v != move.number:
            if not worker:
                raise RuleError(f"wrote {v} from a {move.number} card without a worker")
            if abs(v - move.number) > spec.worker_shift:
                raise RuleError(f"a worker shifts by at most {spec.worker_shift}, "
                                f"not {move.number} -> {v}")
        if not spec.written_min <= v <= spec.written_max:
            raise RuleError(f"{v} is outside the numbers {spec.written_min}..{spec.written_max}")
        lo, hi = self.bounds(s)[h]
        if not lo < v < hi:
            raise RuleError(f"{v} at {spec.streets[s].name} house {h + 1} breaks the rising "
                            f"order (needs more than {max(lo, -1)} and less than the next "
                            "built number, never a repeat)")
        houses = list(self.houses)
        houses[s] = row[:h] + (v,) + row[h + 1:]
        out = replace(self, houses=tuple(houses))
        if move.use:
            out = out._effect(move)
        return out

    def _effect(self, move: Move) -> Sheet:
        spec = self.spec
        s, h = move.street, move.house
        e = move.effect
        if e is Effect.FENCE:
            fs, b = move.target
            if not 0 <= fs < len(spec.streets):
                raise RuleError(f"fence on street {fs + 1}, which does not exist")
            if not 1 <= b < spec.streets[fs].houses:
                raise RuleError(f"fence position {b} is not between two houses of "
                                f"{spec.streets[fs].name} (1..{spec.streets[fs].houses - 1})")
            if b in self.fences[fs]:
                raise RuleError(f"{spec.streets[fs].name} already has a fence at {b}")
            if self.joins and b in self.joins[fs]:
                raise RuleError(f"a fence at {b} would separate a duplicate from the house "
                                "it copies")
            for ls, a, z in self.locked:
                if ls == fs and a < b <= z:
                    raise RuleError(f"fence {b} would split a group used for a plan")
            fences = list(self.fences)
            fences[fs] = fences[fs] | {b}
            return replace(self, fences=tuple(fences))
        if e is Effect.PARK:
            if self.parks[s] >= len(spec.streets[s].parks):
                raise RuleError(f"the park track of {spec.streets[s].name} is full")
            parks = list(self.parks)
            parks[s] += 1
            return replace(self, parks=tuple(parks))
        if e is Effect.POOL:
            if h not in spec.streets[s].pools:
                raise RuleError(f"{spec.streets[s].name} house {h + 1} has no pool spot")
            pools = list(self.pools)
            pools[s] = pools[s] | {h}
            return replace(self, pools=tuple(pools))
        if e is Effect.WORKER:
            return replace(self, workers=min(self.workers + 1, len(spec.worker_points)))
        if e is Effect.PRICE:
            k = move.size - 1
            if not 0 <= k < spec.max_group:
                raise RuleError(f"no value column for groups of {move.size} (1..{spec.max_group})")
            if self.price[k] >= len(spec.group_values[k]) - 1:
                raise RuleError(f"the value column of groups of {move.size} is at its top")
            price = list(self.price)
            price[k] += 1
            return replace(self, price=tuple(price))
        if e is Effect.ROUNDABOUT:
            return self._roundabout(move.target)
        # duplicate
        ds, dh = move.target
        if self.duplicates >= len(spec.duplicate_penalty):
            raise RuleError("the duplicate track is full")
        if not 0 <= ds < len(spec.streets) or not 0 <= dh < spec.streets[ds].houses:
            raise RuleError(f"duplicate at street {ds + 1} house {dh + 1}, which does not exist")
        row = self.houses[ds]
        if row[dh] != EMPTY:
            raise RuleError(f"{spec.streets[ds].name} house {dh + 1} is already built")
        # It copies the left neighbour when that one is built, else the right one (or the
        # side the player chose, joined rule); both bound the house, so the street stays in
        # order either way.
        if move.side and spec.duplicate_rule != "joined":
            raise RuleError("duplicates copy the left neighbour when built, else the right "
                            "one (duplicate_rule = left-first): no side to choose")
        sides = (dh - 1, dh + 1) if not move.side else (dh + move.side,)
        near = [x for x in sides if 0 <= x < len(row) and row[x] >= 0]
        if not near:
            raise RuleError(f"a duplicate needs a built neighbour; {spec.streets[ds].name} "
                            f"house {dh + 1} has none" + (" on that side" if move.side else ""))
        copied = near[0]
        houses = list(self.houses)
        houses[ds] = row[:dh] + (row[copied],) + row[dh + 1:]
        dups = list(self.dups)
        dups[ds] = dups[ds] | {dh}
        out = replace(self, houses=tuple(houses), dups=tuple(dups))
        if spec.duplicate_rule == "joined":
            b = max(dh, copied)
            if b in self.fences[ds]:
                raise RuleError(f"a fence separates {spec.streets[ds].name} house {dh + 1} "
                                f"from the house it would copy (duplicate_rule = joined)")
            joins = list(self.joins or (frozenset(),) * len(spec.streets))
            joins[ds] = joins[ds] | {b}
            out = replace(out, joins=tuple(joins))
        return out

    def _roundabout(self, target: tuple[int, int]) -> Sheet:
        spec = self.spec
        rs, rh = target
        if self.roundabouts >= len(spec.roundabout_penalty):
            raise RuleError("the roundabout track is full" if spec.roundabout_penalty else
                            "this sheet has no roundabout track")
        if not 0 <= rs < len(spec.streets) or not 0 <= rh < spec.streets[rs].houses:
            raise RuleError(f"roundabout at street {rs + 1} house {rh + 1}, which does not "
                            "exist")
        row = self.houses[rs]
        if row[rh] != EMPTY:
            raise RuleError(f"{spec.streets[rs].name} house {rh + 1} is already built")
        for ls, a, z in self.locked:
            if ls == rs and a <= rh <= z:
                raise RuleError(f"a roundabout at house {rh + 1} would split a group used "
                                "for a plan")
        houses = list(self.houses)
        houses[rs] = row[:rh] + (ROUND,) + row[rh + 1:]
        return replace(self, houses=tuple(houses))

    # --- plans --------------------------------------------------------------------------

    def meets(self, cond: Condition) -> bool:
        """Whether a non-group condition holds now (group conditions: :meth:`find_groups`)."""
        if cond.kind in STREET_KINDS:
            streets = range(len(self.spec.streets)) if cond.street < 0 else (cond.street,)
            need = cond.streets if cond.street < 0 else 1
            return sum(1 for s in streets if self.meets_on(cond, s)) >= need
        if cond.kind == "workers":
            return self.workers >= cond.count
        if cond.kind == "ends":
            return all(row[0] != EMPTY and row[-1] != EMPTY for row in self.houses)
        if cond.kind == "groups":
            return self.find_groups(cond.sizes) is not None
        raise RuleError(f"unknown condition {cond.kind!r}")

    def meets_on(self, cond: Condition, s: int) -> bool:
        """Whether a per-street condition (parks, pools, street_full, duplicates) holds on
        street ``s``."""
        st = self.spec.streets[s]
        if cond.kind == "parks":
            return len(st.parks) > 0 and self.parks[s] >= (cond.count or len(st.parks))
        if cond.kind == "pools":
            return len(st.pools) > 0 and len(self.pools[s]) >= (cond.count or len(st.pools))
        if cond.kind == "street_full":
            return all(v != EMPTY for v in self.houses[s])
        if cond.kind == "duplicates":
            return len(self.dups[s]) >= cond.count
        raise RuleError(f"{cond.kind!r} is not a per-street condition")

    def find_groups(self, sizes: Sequence[int]) -> tuple[GroupRef, ...] | None:
        """Distinct complete, unlocked groups with exactly these sizes (first found)."""
        locked = self.locked
        free = [g for g in self.complete_groups() if g not in locked]
        chosen: list[GroupRef] = []
        for size in sorted(sizes):
            pick = next((g for g in free if g[2] - g[1] + 1 == size and g not in chosen), None)
            if pick is None:
                return None
            chosen.append(pick)
        return tuple(chosen)

    def plan_met(self, plan: PlanCard) -> tuple[GroupRef, ...] | None:
        """The groups a claim of ``plan`` would use if it is met now, else None."""
        for c in plan.conditions:
            if c.kind != "groups" and not self.meets(c):
                return None
        return self.find_groups(plan.group_sizes)

    def claim(self, plan: PlanCard, first: bool,
              groups: Sequence[GroupRef] | None = None) -> Sheet:
        """Claim ``plan`` (first achiever or later), locking its groups."""
        if self.claimed(plan.id):
            raise RuleError(f"{plan.id} is already claimed on this sheet")
        for c in plan.conditions:
            if c.kind != "groups" and not self.meets(c):
                raise RuleError(f"{plan.id}: not met: {c.describe(self.spec)}")
        if groups is None:
            found = self.find_groups(plan.group_sizes)
            if found is None:
                raise RuleError(f"{plan.id}: no free complete groups of sizes "
                                f"{list(plan.group_sizes)}")
            groups = found
        groups = tuple(groups)
        self._check_groups(plan, groups)
        points = plan.first if first else plan.later
        return replace(self, claims=(*self.claims, Claim(plan.id, points, groups)))

    def _check_groups(self, plan: PlanCard, groups: tuple[GroupRef, ...]) -> None:
        if len(set(groups)) != len(groups):
            raise RuleError(f"{plan.id}: the same group is used twice")
        sizes = sorted(z - a + 1 for _, a, z in groups)
        if sizes != sorted(plan.group_sizes):
            raise RuleError(f"{plan.id} needs groups of sizes {list(plan.group_sizes)}, "
                            f"got {sizes}")
        complete = set(self.complete_groups())
        locked = self.locked
        for g in groups:
            name = f"{self.spec.streets[g[0]].name} houses {g[1] + 1}-{g[2] + 1}" \
                if 0 <= g[0] < len(self.spec.streets) else str(g)
            if g not in complete:
                raise RuleError(f"{plan.id}: {name} is not a complete group")
            if g in locked:
                raise RuleError(f"{plan.id}: {name} was already used for a plan")

    # --- end and scoring ----------------------------------------------------------------

    def over(self, plans_total: int) -> bool:
        """This sheet ends the game: refusal track full, every plan claimed, or sheet full."""
        return (self.refusals >= len(self.spec.refusal_penalty)
                or (plans_total > 0 and len(self.claims) >= plans_total) or self.full())

    def marks(self, track: str) -> int:
        """Marks on a rankable track: workers, pools built, or parks of all streets."""
        if track == "workers":
            return self.workers
        if track == "pools":
            return sum(len(p) for p in self.pools)
        return sum(self.parks)

    def score(self, rivals: Mapping[str, Sequence[int]] | None = None
              ) -> list[tuple[str, int, str]]:
        """The score breakdown: (label, points, detail) lines; the total is their sum.
        ``rivals`` gives the other players' marks on each ranked track (none: a solo
        game)."""
        spec = self.spec
        ranked = {name: (points, solo) for name, points, solo in spec.ranked}
        lines: list[tuple[str, int, str]] = []
        for c in self.claims:
            lines.append((f"plan {c.plan}", c.points, f"{len(c.groups)} groups locked"))
        if "parks" in ranked:
            lines.append(self._ranked_line("parks", *ranked["parks"], rivals))
        else:
            for s, st in enumerate(spec.streets):
                k = self.parks[s]
                lines.append((f"parks {st.name}", st.parks[k - 1] if k else 0, f"{k} parks"))
        n_pools = sum(len(p) for p in self.pools)
        if "pools" in ranked:
            lines.append(self._ranked_line("pools", *ranked["pools"], rivals))
        else:
            lines.append(("pools", _track(spec.pool_points, n_pools), f"{n_pools} pools"))
        if "workers" in ranked:
            lines.append(self._ranked_line("workers", *ranked["workers"], rivals))
        else:
            lines.append(("workers", _track(spec.worker_points, self.workers),
                          f"{self.workers} workers"))
        counts = [0] * spec.max_group
        for _, a, z in self.complete_groups():
            counts[z - a] += 1
        for k, n in enumerate(counts):
            value = spec.group_values[k][self.price[k]]
            lines.append((f"groups of {k + 1}", n * value, f"{n} x {value}"))
        lines.append(("duplicates", -_track(spec.duplicate_penalty, self.duplicates),
                      f"{self.duplicates} duplicates"))
        lines.append(("refusals", -_track(spec.refusal_penalty, self.refusals),
                      f"{self.refusals} refusals"))
        if spec.roundabout_penalty:
            n = self.roundabouts
            lines.append(("roundabouts", -_track(spec.roundabout_penalty, n),
                          f"{n} roundabouts"))
        return lines

    def _ranked_line(self, track: str, points: tuple[int, ...], solo: int,
                     rivals: Mapping[str, Sequence[int]] | None) -> tuple[str, int, str]:
        mine = self.marks(track)
        others = list((rivals or {}).get(track, ()))
        if not others:
            won = points[0] if solo and mine >= solo else 0
            return (track, won, f"{mine} {track}, solo: {solo or 'never'}"
                    + (f" needed for {points[0]}" if solo else ""))
        return (track, ranked_points(mine, others, points),
                f"{mine} {track}, place {1 + sum(1 for o in others if o > mine)} of "
                f"{len(others) + 1} (ranked)")

    def total(self, rivals: Mapping[str, Sequence[int]] | None = None) -> int:
        return sum(p for _, p, _ in self.score(rivals))


def ranked_points(mine: int, others: Sequence[int], points: Sequence[int]) -> int:
    """Points of a ranked track: place = 1 + the players with strictly more marks (ties share
    the better place); no marks, or a place past the table, score nothing."""
    place = 1 + sum(1 for o in others if o > mine)
    return points[place - 1] if mine > 0 and place <= len(points) else 0


def rivals_of(sheets: Sequence[Sheet], i: int) -> dict[str, list[int]]:
    """The other players' marks on each ranked track, for ``sheets[i].score(rivals)``."""
    spec = sheets[i].spec
    return {name: [sh.marks(name) for j, sh in enumerate(sheets) if j != i]
            for name, _, _ in spec.ranked}


def final_totals(sheets: Sequence[Sheet]) -> list[int]:
    """Every player's total at the end of a game, ranked tracks against the others."""
    return [sh.total(rivals_of(sheets, i)) for i, sh in enumerate(sheets)]


def tie_break(sheet: Sheet) -> tuple[int, ...]:
    """The seed's tie-break between equal totals, compared largest first: the number of
    completed (scoring) groups, then of groups of 1 house, of 2, of 3, ..."""
    counts = [0] * sheet.spec.max_group
    for _, a, z in sheet.complete_groups():
        counts[z - a] += 1
    return (sum(counts), *counts)


def standings(totals: Sequence[int], sheets: Sequence[Sheet]) -> list[int]:
    """The place of every player (1 = winner): higher total first, then the tie-break;
    players equal on both share the better place (the seed: "play another game")."""
    keys = [(t, tie_break(sh)) for t, sh in zip(totals, sheets, strict=True)]
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def _track(track: Sequence[int], marked: int) -> int:
    if marked <= 0 or not track:
        return 0
    return track[min(marked, len(track)) - 1]


def replay(spec: SheetSpec, moves: Iterable[Move],
           offered: frozenset[tuple[int, Effect]] | None = None) -> Sheet:
    """Apply ``moves`` from an empty sheet; with ``offered``, every combination must be one
    the construction deck can show. Raises RuleError naming the move that fails."""
    sheet = Sheet.empty(spec)
    for i, move in enumerate(moves):
        if offered is not None and (move.number, move.effect) not in offered:
            raise RuleError(f"move {i + 1} ({move}): the deck never shows "
                            f"{move.number} with {move.effect.value}")
        try:
            sheet = sheet.apply(move)
        except RuleError as err:
            raise RuleError(f"move {i + 1} ({move}): {err}") from None
    return sheet


def legal_moves(sheet: Sheet, number: int, effect: Effect) -> Iterator[Move]:
    """Every legal placement of a combination, without and with its effect (fences and
    duplicates at every legal target, price rises on every column that can rise)."""
    spec = sheet.spec
    for v in sheet.written_options(number, effect):
        for s, h in sheet.places(v):
            worker = v != number
            if not worker:
                yield Move(number, effect, s, h, v)
            base = Move(number, effect, s, h, v, use=True)
            try:
                after = sheet.apply(Move(number, effect, s, h, v, use=False)) if not worker \
                    else None
            except RuleError:
                after = None
            if effect is Effect.FENCE:
                for fs, st in enumerate(spec.streets):
                    for b in range(1, st.houses):
                        m = replace(base, target=(fs, b))
                        if _ok(sheet, m):
                            yield m
            elif effect in (Effect.DUPLICATE, Effect.ROUNDABOUT):
                if after is None:
                    continue
                sides = (-1, 1) if (effect is Effect.DUPLICATE
                                    and spec.duplicate_rule == "joined") else (0,)
                for ds, row in enumerate(after.houses):
                    for dh in range(len(row)):
                        if row[dh] == EMPTY:
                            for side in sides:
                                m = replace(base, target=(ds, dh), side=side)
                                if _ok(sheet, m):
                                    yield m
            elif effect is Effect.PRICE:
                for k in range(spec.max_group):
                    m = replace(base, size=k + 1)
                    if _ok(sheet, m):
                        yield m
            elif _ok(sheet, base):
                yield base


def _ok(sheet: Sheet, move: Move) -> bool:
    try:
        sheet.apply(move)
    except RuleError:
        return False
    return True
