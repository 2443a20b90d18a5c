"""Deck parameters + seed -> the sheet, the construction deck (dealt in three stacks), plans.

Deterministic: every random draw comes from ``make_rng(seed, "streets-...")`` streams.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...core.apportion import apportion as apportion
from ...core.rng import make_rng
from ...errors import GenerationError
from .model import (
    EFFECT_ORDER,
    Condition,
    ConditionParams,
    ConstructionCard,
    Effect,
    PlanCard,
    PlanParams,
    SheetSpec,
    Street,
    StreetsGame,
    StreetsParams,
)


def shape_weights(shape: str, lo: int, hi: int) -> list[float]:
    """Relative frequency of each number lo..hi for a distribution shape."""
    n = hi - lo + 1
    if shape == "flat":
        return [1.0] * n
    if shape == "triangle":
        return [float(min(k + 1, n - k)) for k in range(n)]
    # bell: binomial coefficients C(n-1, k), softened by a square root so that the ends
    # still appear (with n = 16 the raw ends are 1/6435 of the middle; rooted, 1/80).
    return [math.sqrt(math.comb(n - 1, k)) for k in range(n)]


def number_counts(p: StreetsParams) -> dict[int, int]:
    """Copies of each house number in the construction deck."""
    if p.number_counts:
        return {p.number_min + i: c for i, c in enumerate(p.number_counts)}
    weights = shape_weights(p.number_shape, p.number_min, p.number_max)
    counts = apportion(p.cards, weights, minimum=1)
    return {p.number_min + i: c for i, c in enumerate(counts)}


def build_sheet(p: StreetsParams) -> SheetSpec:
    streets = tuple(
        Street(name=s.name, houses=s.houses, pools=tuple(sorted(h - 1 for h in s.pools)),
               parks=tuple(s.parks))
        for s in p.streets
    )
    return SheetSpec(
        streets=streets,
        group_values=tuple(tuple(col) for col in p.group_values),
        pool_points=tuple(p.pool_points),
        worker_points=tuple(p.worker_points),
        duplicate_penalty=tuple(p.duplicate_penalty),
        refusal_penalty=tuple(p.refusal_penalty),
        worker_shift=p.worker_shift,
        written_min=max(0, p.number_min - p.worker_shift),
        written_max=p.number_max + p.worker_shift,
        roundabout_penalty=tuple(p.roundabout_penalty),
        ranked=tuple((r.track, tuple(r.points), r.solo) for r in p.ranked),
        duplicate_rule=p.duplicate_rule,
    )


def build_cards(p: StreetsParams, seed: int) -> tuple[ConstructionCard, ...]:
    """The construction deck: the ``card_list`` as written when given; else numbers by the
    distribution, effects by the mix, paired by a seeded shuffle so that every number meets
    a spread of effects."""
    if p.card_list:
        listed = [(c.number, c.effect) for c in p.card_list for _ in range(c.copies)]
        return tuple(ConstructionCard(index=i, number=n, effect=e)
                     for i, (n, e) in enumerate(listed))
    counts = number_counts(p)
    numbers = [n for n, c in counts.items() for _ in range(c)]
    weights = p.effects.weights()
    effect_counts = apportion(len(numbers), [weights[e] for e in EFFECT_ORDER])
    effects = [e for e, c in zip(EFFECT_ORDER, effect_counts, strict=True) for _ in range(c)]
    rng = make_rng(seed, "streets-effects")
    rng.shuffle(effects)
    return tuple(ConstructionCard(index=i, number=n, effect=e)
                 for i, (n, e) in enumerate(zip(numbers, effects, strict=True)))


def deal(card_count: int, seed: int, shuffle: int = 0) -> tuple[tuple[int, ...], ...]:
    """Shuffle the card indices and split them into three equal stacks (the rules' setup);
    ``shuffle`` numbers the reshuffles of one game (0 = the initial deal)."""
    order = list(range(card_count))
    make_rng(seed, "streets-deal", shuffle).shuffle(order)
    third = card_count // 3
    return tuple(tuple(order[k * third:(k + 1) * third]) for k in range(3))


def plan_card(index: int, plan: PlanParams, spec: SheetSpec) -> PlanCard:
    conds = tuple(
        Condition(kind=c.kind, sizes=tuple(sorted(c.sizes)), street=c.street - 1,
                  count=c.count, streets=c.streets)
        for c in plan.conditions
    )
    title = plan.title or "; ".join(c.describe(spec) for c in conds)
    return PlanCard(id=f"plan-{index + 1:02d}", level=plan.level, title=title,
                    conditions=conds, first=plan.first, later=plan.later)


# Shape of generated plans per level: (groups min, max), (largest size), (houses min, max).
# Level 1 asks for 5-9 houses in 2-3 small groups; level 3 for 11-17 houses in 3-4 groups,
# which the default bots complete in about a tenth of the games (bench/streets.py).
PLAN_SHAPES: dict[int, tuple[tuple[int, int], int, tuple[int, int]]] = {
    1: ((2, 3), 4, (5, 9)),
    2: ((2, 3), 5, (7, 12)),
    3: ((3, 4), 6, (11, 17)),
}


def _fits(sizes: Sequence[int], lengths: Sequence[int]) -> bool:
    """Whether the groups can be laid out on streets of these lengths (first-fit over all
    street orders is exact for so few groups: we try every assignment)."""
    def rec(i: int, free: list[int]) -> bool:
        if i == len(sizes):
            return True
        for s in range(len(free)):
            if free[s] >= sizes[i]:
                free[s] -= sizes[i]
                if rec(i + 1, free):
                    return True
                free[s] += sizes[i]
        return False

    return rec(0, list(lengths))


def generate_plans(p: StreetsParams, spec: SheetSpec, seed: int) -> list[PlanParams]:
    """Seeded group-size plans per level (``generated_plans``), each fitting the streets and
    none repeating another plan's sizes. Points grow with the houses and groups asked for."""
    lengths = [s.houses for s in spec.streets]
    seen = {tuple(sorted(x for c in plan.conditions if c.kind == "groups" for x in c.sizes))
            for plan in p.plans}
    out: list[PlanParams] = []
    for level, count in zip((1, 2, 3), p.generated_plans, strict=True):
        (gmin, gmax), biggest, (hmin, hmax) = PLAN_SHAPES[level]
        biggest = min(biggest, spec.max_group)
        rng = make_rng(seed, "streets-plans", level)
        made = 0
        for _ in range(2000):
            if made == count:
                break
            n = rng.randint(gmin, gmax)
            sizes = tuple(sorted(rng.randint(1, biggest) for _ in range(n)))
            total = sum(sizes)
            if not hmin <= total <= hmax or sizes in seen or not _fits(sizes, lengths):
                continue
            if level >= 2 and len(set(sizes)) < 2:
                continue
            seen.add(sizes)
            first = round(0.6 * total + 1.5 * n + 2 * (level - 1))
            out.append(PlanParams(
                level=level, title="Blocks of " + ", ".join(str(x) for x in sizes),
                conditions=[ConditionParams(kind="groups", sizes=list(sizes))],
                first=first, later=max(1, round(first * 0.55))))
            made += 1
        if made < count:
            raise GenerationError(
                f"could only generate {made} of {count} level-{level} plans that fit streets "
                f"of {lengths} houses and differ from the others; ask for fewer")
    return out


def generate(p: StreetsParams, seed: int) -> StreetsGame:
    spec = build_sheet(p)
    cards = build_cards(p, seed)
    s0, s1, s2 = deal(len(cards), seed)
    all_plans = [*p.plans, *generate_plans(p, spec, seed)]
    plans = tuple(plan_card(i, plan, spec) for i, plan in enumerate(all_plans))
    return StreetsGame(sheet=spec, cards=cards, stacks=(s0, s1, s2), plans=plans)


def offered_pairs(cards: Sequence[ConstructionCard]) -> frozenset[tuple[int, Effect]]:
    """Every (number, effect) combination the deck can show: the number of one card with the
    effect of another (a combination never pairs a card with itself)."""
    by_number: dict[int, list[int]] = {}
    by_effect: dict[Effect, list[int]] = {}
    for c in cards:
        by_number.setdefault(c.number, []).append(c.index)
        by_effect.setdefault(c.effect, []).append(c.index)
    out: set[tuple[int, Effect]] = set()
    for n, ns in by_number.items():
        for e, es in by_effect.items():
            if len(ns) > 1 or len(es) > 1 or ns[0] != es[0]:
                out.add((n, e))
    return frozenset(out)
