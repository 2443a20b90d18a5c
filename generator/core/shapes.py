"""The text behind ``paperproof shapes N``: every polyomino or polyhex of N cells as text art.

Pure: returns a string, so the CLI command only prints it (and tests compare it).
"""

from __future__ import annotations

from .hexgrid import count_polyhexes, enumerate_polyhexes
from .polyomino import Symmetry, count_polyominoes, enumerate_polyominoes

MAX_CELLS = 12
"""Largest N accepted: the 63,600 free 12-ominoes take about 4 s; 13 would take about 15 s."""
MAX_LISTED = 100_000
"""Longer lists are refused (use ``count_only``): 2.5 million fixed 12-ominoes are no gallery."""

_NAMES = {
    1: "monomino",
    2: "domino",
    3: "tromino",
    4: "tetromino",
    5: "pentomino",
    6: "hexomino",
    7: "heptomino",
    8: "octomino",
    9: "nonomino",
    10: "decomino",
}


def shape_noun(n: int, hex: bool, plural: bool) -> str:
    """``"pentominoes"``, ``"12-ominoes"``, ``"polyhexes of 4 cells"``."""
    if hex:
        return f"polyhex{'es' if plural else ''} of {n} cell{'s' if n != 1 else ''}"
    base = _NAMES.get(n, f"{n}-omino")
    return base + ("es" if plural else "")


def shapes_text(
    n: int,
    hex: bool = False,
    symmetry: Symmetry = Symmetry.FREE,
    count_only: bool = False,
    width: int = 78,
) -> str:
    """The shapes of ``n`` cells as a numbered gallery (``width`` characters wide), or with
    ``count_only`` just their number. Raises ValueError for N outside 1..12 or a list longer
    than :data:`MAX_LISTED`."""
    if not 1 <= n <= MAX_CELLS:
        raise ValueError(f"N must be between 1 and {MAX_CELLS}, got {n}")
    count = count_polyhexes(n, symmetry) if hex else count_polyominoes(n, symmetry)
    if count_only:
        return f"{count}\n"
    if count > MAX_LISTED:
        raise ValueError(
            f"there are {count:,} {symmetry.value} {shape_noun(n, hex, True)}: too many to "
            "list; add --count to print only the number"
        )
    if hex:
        arts = [p.art() for p in enumerate_polyhexes(n, symmetry)]
    else:
        arts = [str(p) for p in enumerate_polyominoes(n, symmetry)]
    noun = shape_noun(n, hex, count != 1)
    head = f"{count} {symmetry.value} {noun}"
    return head + "\n\n" + _gallery(arts, width) + "\n"


def _gallery(arts: list[str], width: int) -> str:
    """Blocks side by side, each under its number, wrapped at ``width`` characters."""
    blocks = []
    for i, art in enumerate(arts, 1):
        lines = [str(i)] + art.split("\n")
        w = max(len(ln) for ln in lines)
        blocks.append([ln.ljust(w) for ln in lines])
    rows: list[list[list[str]]] = [[]]
    used = 0
    for b in blocks:
        w = len(b[0])
        if rows[-1] and used + 3 + w > width:
            rows.append([])
            used = 0
        used += (3 if rows[-1] else 0) + w
        rows[-1].append(b)
    out = []
    for row in rows:
        h = max(len(b) for b in row)
        for k in range(h):
            out.append("   ".join(b[k] if k < len(b) else " " * len(b[0]) for b in row).rstrip())
        out.append("")
    return "\n".join(out).rstrip("\n")
