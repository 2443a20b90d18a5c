"""Shared cut lines: merge the trim outlines of imposed components so no edge is cut twice.

Neighbouring hex tiles, polyomino pieces packed on a common grid, and cards imposed without
bleed or gutter share edges. A cutting machine (or a laser) that follows both outlines cuts
every shared edge twice: it wastes time, burns or tears the board. :func:`merge_outlines`
walks the outlines in order; each edge is reduced by whatever part of its line earlier
outlines already cover. An outline that lost nothing stays one closed path; one that shares
edges becomes the open polylines that are left.

Edges are compared on their supporting line (direction and offset quantised to 1e-6 and
1e-3 mm, neighbouring quantisation cells looked up too), so overlaps are found even when two
pieces' edges are split differently (a 3-cell side against a 2-cell side).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .drawing import Point

_TOL = 1e-3
"""Pieces shorter than this (mm) are dropped; endpoints closer than this are joined."""

_Key = tuple[int, int, int]


@dataclass(frozen=True)
class CutPath:
    """The cut of one component: a closed outline, or the open polylines left after removing
    edges that earlier components already cut."""

    owner: str
    closed: bool
    polylines: tuple[tuple[Point, ...], ...]


def _line(p: Point, q: Point) -> tuple[_Key, float, float, float, float] | None:
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if length < _TOL:
        return None
    ux, uy = dx / length, dy / length
    sign = 1.0
    if ux < -1e-9 or (abs(ux) <= 1e-9 and uy < 0):
        ux, uy, sign = -ux, -uy, -1.0
    offset = ux * p[1] - uy * p[0]
    key = (round(ux * 1e6), round(uy * 1e6), round(offset * 1e3))
    t0 = ux * p[0] + uy * p[1]
    return key, t0, sign, ux, uy


def _neighbours(key: _Key) -> Iterable[_Key]:
    a, b, c = key
    for da in (-1, 0, 1):
        for db in (-1, 0, 1):
            for dc in (-1, 0, 1):
                yield (a + da, b + db, c + dc)


def _subtract(lo: float, hi: float, cover: list[tuple[float, float]]) -> list[tuple[float, float]]:
    pieces = [(lo, hi)]
    for a, b in cover:
        nxt: list[tuple[float, float]] = []
        for x, y in pieces:
            if b <= x + _TOL or a >= y - _TOL:
                nxt.append((x, y))
                continue
            if a > x + _TOL:
                nxt.append((x, a))
            if b < y - _TOL:
                nxt.append((b, y))
        pieces = nxt
    return [(x, y) for x, y in pieces if y - x > _TOL]


def merge_outlines(outlines: Iterable[tuple[str, tuple[Point, ...]]]) -> list[CutPath]:
    """Closed outlines (owner, points) -> cut paths without doubled segments."""
    covered: dict[_Key, list[tuple[float, float]]] = {}
    out: list[CutPath] = []
    for owner, pts in outlines:
        n = len(pts)
        pieces: list[tuple[Point, Point]] = []
        lost = False
        for i in range(n):
            p, q = pts[i], pts[(i + 1) % n]
            line = _line(p, q)
            if line is None:
                continue
            key, t0, sign, ux, uy = line
            tq = ux * q[0] + uy * q[1]
            lo, hi = min(t0, tq), max(t0, tq)
            cover: list[tuple[float, float]] = []
            for k in _neighbours(key):
                cover.extend(covered.get(k, ()))
            left = _subtract(lo, hi, cover)
            if len(left) != 1 or abs(left[0][0] - lo) > _TOL or abs(left[0][1] - hi) > _TOL:
                lost = True
            covered.setdefault(key, []).append((lo, hi))
            # back to points, in the outline's own direction
            seg_pts = []
            for a, b in left:
                pa = (p[0] + (a - t0) * ux, p[1] + (a - t0) * uy)
                pb = (p[0] + (b - t0) * ux, p[1] + (b - t0) * uy)
                seg_pts.append((pa, pb))
            if sign < 0:
                seg_pts = [(b2, a2) for a2, b2 in reversed(seg_pts)]
            pieces.extend(seg_pts)
        if not lost:
            out.append(CutPath(owner, True, (tuple(pts),)))
            continue
        out.append(CutPath(owner, False, _chain(pieces)))
    return out


def _close(a: Point, b: Point) -> bool:
    return abs(a[0] - b[0]) <= _TOL and abs(a[1] - b[1]) <= _TOL


def _chain(pieces: list[tuple[Point, Point]]) -> tuple[tuple[Point, ...], ...]:
    lines: list[list[Point]] = []
    for a, b in pieces:
        if lines and _close(lines[-1][-1], a):
            lines[-1].append(b)
        else:
            lines.append([a, b])
    if len(lines) > 1 and _close(lines[-1][-1], lines[0][0]):
        last = lines.pop()
        lines[0] = last + lines[0][1:]
    return tuple(tuple(line) for line in lines)


def segments(paths: Iterable[CutPath]) -> list[tuple[Point, Point]]:
    """Every straight segment of the cut paths (closed outlines include their closing edge)."""
    out: list[tuple[Point, Point]] = []
    for cp in paths:
        for line in cp.polylines:
            for i in range(len(line) - 1):
                out.append((line[i], line[i + 1]))
            if cp.closed and len(line) > 2:
                out.append((line[-1], line[0]))
    return out
