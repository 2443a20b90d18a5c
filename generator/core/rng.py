"""Seeded randomness: one independent, deterministic stream per purpose.

Why: same deck + seed must give identical output, and adding a new random stream (a new card
type, a new simulation) must not shift the numbers any other stream draws. Each stream is
seeded from a SHA-256 hash of the deck seed and the stream's name parts, never from a shared
generator.
"""

from __future__ import annotations

import hashlib
import random


def stream_seed(seed: int, *stream: str | int) -> int:
    """The 64-bit seed of the stream ``(seed, *stream)``, stable across Python versions/runs."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    parts = [f"i{seed}"]
    for part in stream:
        if isinstance(part, bool) or not isinstance(part, (str, int)):
            raise TypeError(f"stream parts must be str or int, got {type(part).__name__}")
        # Tag the type so ("1",) and (1,) are different streams; length-prefix strings so
        # ("ab", "c") and ("a", "bc") are too.
        parts.append(f"i{part}" if isinstance(part, int) else f"s{len(part)}:{part}")
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def make_rng(seed: int, *stream: str | int) -> random.Random:
    """A ``random.Random`` for one purpose, e.g. ``make_rng(seed, "park-cards", 3)``."""
    return random.Random(stream_seed(seed, *stream))
