"""Exact maximum-weight set packing over small universes (a few dozen items).

Rules such as "partition the tokens into lines, each token in one line, scoring most" or "each
token in at most one pair" ask for the best choice of pairwise disjoint candidate sets. The
universe is small (the tokens one player places: at most a few dozen), so the optimum is
proved, not approximated:

1. candidates that share no item with each other fall into independent *clusters*
   (union-find over shared items), each solved alone;
2. within a cluster, ``best(avail)`` is the heaviest packing inside the item mask ``avail``:
   the lowest available item ``t`` is either left out, or covered by one of the candidates
   whose lowest item is ``t`` (a candidate lying inside ``avail`` cannot hold an item below
   ``t``). Memoised on ``avail``; every packing is reached, so the maximum is exact.

Candidates are bit masks over item indices. Pure; no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Packing:
    """The heaviest packing found: its total weight and the chosen candidate indices
    (ascending)."""

    weight: int
    chosen: tuple[int, ...]


def _clusters(masks: Sequence[int]) -> list[list[int]]:
    """Candidate indices grouped so that no two groups share an item, in order of first
    candidate."""
    parent = list(range(len(masks)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[int, int] = {}
    for i, m in enumerate(masks):
        bits = m
        while bits:
            low = bits & -bits
            bit = low.bit_length() - 1
            bits ^= low
            if bit in owner:
                a, b = find(i), find(owner[bit])
                if a != b:
                    parent[max(a, b)] = min(a, b)
            else:
                owner[bit] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(masks)):
        groups.setdefault(find(i), []).append(i)
    return [groups[k] for k in sorted(groups)]


def max_weight_packing(masks: Sequence[int], weights: Sequence[int]) -> Packing:
    """The heaviest set of pairwise disjoint candidates (``masks[i]`` weighing
    ``weights[i]``); non-positive weights and empty masks are never chosen. Ties go to the
    packing found first (candidates in index order), so the answer is deterministic."""
    if len(masks) != len(weights):
        raise ValueError("one weight per candidate")
    keep = [i for i, (m, w) in enumerate(zip(masks, weights, strict=True)) if m and w > 0]
    total = 0
    chosen: list[int] = []
    for cluster in _clusters([masks[i] for i in keep]):
        idx = [keep[j] for j in cluster]
        w, picks = _solve_cluster([masks[i] for i in idx], [weights[i] for i in idx])
        total += w
        chosen.extend(idx[p] for p in picks)
    return Packing(total, tuple(sorted(chosen)))


def _solve_cluster(masks: Sequence[int], weights: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    by_low: dict[int, list[int]] = {}
    universe = 0
    for i, m in enumerate(masks):
        by_low.setdefault(m & -m, []).append(i)
        universe |= m
    memo: dict[int, tuple[int, tuple[int, ...]]] = {}

    def best(avail: int) -> tuple[int, tuple[int, ...]]:
        # drop items no candidate inside ``avail`` starts at (they can only be left out)
        while avail and (avail & -avail) not in by_low:
            avail ^= avail & -avail
        if not avail:
            return 0, ()
        hit = memo.get(avail)
        if hit is not None:
            return hit
        low = avail & -avail
        out = best(avail ^ low)  # the lowest item stays out
        for i in by_low[low]:
            m = masks[i]
            if m & avail == m:
                w, rest = best(avail & ~m)
                if w + weights[i] > out[0]:
                    out = (w + weights[i], (i, *rest))
        memo[avail] = out
        return out

    return best(universe)


def max_disjoint(masks: Sequence[int]) -> Packing:
    """The largest number of pairwise disjoint candidates (every candidate weighs 1)."""
    return max_weight_packing(masks, [1] * len(masks))


__all__ = ["Packing", "max_disjoint", "max_weight_packing"]
