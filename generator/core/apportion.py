"""Largest-remainder apportionment: split a whole number in proportion to weights.

Why one helper: the decks' mixes (street numbers and effects, habitat tiles per habitat)
must add up exactly to the counts a designer asked for, deterministically on every machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def apportion(total: int, weights: Sequence[float], minimum: int = 0) -> list[int]:
    """Split ``total`` into integers proportional to ``weights`` (largest remainder), each at
    least ``minimum`` where its weight is positive; a weight of 0 (or less) gets 0.
    Deterministic: ties go to the earlier index. ``total <= 0`` or no positive weight gives
    all zeros; a ``minimum`` the total cannot give every positive part is a ValueError."""
    positive = [i for i, w in enumerate(weights) if w > 0]
    out = [0] * len(weights)
    if not positive or total <= 0:
        return out
    base = minimum * len(positive)
    if base > total:
        raise ValueError(f"cannot give {minimum} to each of {len(positive)} parts of {total}")
    rest = total - base
    wsum = float(sum(weights[i] for i in positive))
    shares = {i: rest * weights[i] / wsum for i in positive}
    for i in positive:
        out[i] = minimum + math.floor(shares[i])
    left = total - sum(out)
    order = sorted(positive, key=lambda i: (-(shares[i] - math.floor(shares[i])), i))
    for i in order[:left]:
        out[i] += 1
    return out
