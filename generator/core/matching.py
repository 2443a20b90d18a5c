"""Bipartite matching: give every left item its own right item (Kuhn's augmenting paths).

Why one helper: tokens to the objective cards that offer them (layers score files), token
hexes to the tiles that show their species (habitats certificates) are the same question.
Deterministic: left items are placed in order, right items tried in order.
"""

from __future__ import annotations

from collections.abc import Callable


def match_all(left: int, right: int,
              fits: Callable[[int, int], bool]) -> tuple[dict[int, int], int | None]:
    """Match each of ``left`` items to a distinct one of ``right`` items with ``fits(i, j)``.

    Returns ``(owner, unmatched)``: ``owner`` maps right index -> left index; ``unmatched``
    is the first left item that could not be given one (then no complete matching exists),
    or None when every left item is matched. O(left x right x left) at most: meant for the
    dozens of items a deck has."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in range(right):
            if j not in seen and fits(i, j):
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(left):
        if not augment(i, set()):
            return owner, i
    return owner, None
