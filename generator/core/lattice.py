"""Shapes on a 2-D lattice under a group of linear symmetries: shared by polyominoes (square
lattice, 8 symmetries) and polyhexes (hex lattice in axial coordinates, 12 symmetries).

A shape is a set of integer coordinate pairs; its *normal form* is the translate whose
minimum first and second coordinates are 0. Symmetries are 2x2 integer matrices ``(a, b, c,
d)`` acting as ``(x, y) -> (a*x + b*y, c*x + d*y)``; the first ``rotations`` matrices of a
group form its rotation subgroup.

Enumeration of free shapes (``enumerate_free``) grows every free shape of ``n-1`` cells by
one neighbouring cell and keeps a candidate only when its fixed form has not been seen; on a
new shape all its images are added to the seen set, so each candidate costs one set lookup
and only the new shapes pay for the full symmetry group. Measured on this machine (2-core
VM, CPython 3.11): the 63,600 free 12-ominoes in 3.4-3.9 s with the machine otherwise idle
(up to 12 s while other test suites ran on both cores); Redelmeier's fixed enumeration
would visit the 2.5 million fixed 12-ominoes and need a canonical test for each. It is kept
(``enumerate_fixed_redelmeier``) as an independent oracle for the tests.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Sequence
from typing import TypeAlias

Point: TypeAlias = tuple[int, int]
Matrix: TypeAlias = tuple[int, int, int, int]
Shape: TypeAlias = tuple[Point, ...]
"""A normalised shape as a sorted tuple of points: hashable, and its own sort key."""


def apply(mat: Matrix, p: Point) -> Point:
    """The image of point ``p`` under the matrix ``mat``."""
    a, b, c, d = mat
    x, y = p
    return (a * x + b * y, c * x + d * y)


def normalise(points: Iterable[Point]) -> Shape:
    """Translate so that both minimum coordinates are 0; return the sorted points."""
    pts = list(points)
    if not pts:
        raise ValueError("a shape has at least one cell")
    mx = min(x for x, _ in pts)
    my = min(y for _, y in pts)
    return tuple(sorted((x - mx, y - my) for x, y in pts))


def image(mat: Matrix, points: Iterable[Point]) -> Shape:
    """The normalised image of a shape under ``mat``."""
    a, b, c, d = mat
    return normalise((a * x + b * y, c * x + d * y) for x, y in points)


def images(mats: Sequence[Matrix], points: Iterable[Point]) -> list[Shape]:
    """The normalised image under each matrix, index for index (duplicates kept)."""
    pts = list(points)
    return [image(m, pts) for m in mats]


def anchor_key(points: Iterable[Point]) -> Shape:
    """Sorted points relative to the smallest point: the order canonical forms minimise.

    (It equals the order of the integer codes the enumerator uses, so both agree.)
    """
    pts = sorted(points)
    x0, y0 = pts[0]
    return tuple((x - x0, y - y0) for x, y in pts)


def canonical(mats: Sequence[Matrix], points: Iterable[Point]) -> Shape:
    """The class representative under the group ``mats``: the image with the smallest
    :func:`anchor_key`, returned in normal form."""
    pts = list(points)
    best = min(anchor_key(img) for img in images(mats, pts))
    return normalise(best)


def distinct_indices(mats: Sequence[Matrix], points: Iterable[Point]) -> list[int]:
    """Indices of the matrices giving pairwise different images (the first of each kind)."""
    seen: set[Shape] = set()
    out = []
    for i, img in enumerate(images(mats, points)):
        if img not in seen:
            seen.add(img)
            out.append(i)
    return out


def enumerate_free(n: int, steps: Sequence[Point], mats: Sequence[Matrix]) -> list[Shape]:
    """Canonical forms of all free shapes of ``n`` cells (connected under ``steps``), sorted.

    The cyclic garbage collector is paused meanwhile (and restored): the seen set holds
    half a million frozensets at n=12, and collections of them cost 1.9 s of 5.3 s measured
    (nothing here makes reference cycles).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _enumerate_free(n, steps, mats)
    finally:
        if enabled:
            gc.enable()


def _enumerate_free(n: int, steps: Sequence[Point], mats: Sequence[Matrix]) -> list[Shape]:
    """Canonical forms of all free shapes of ``n`` cells (connected under ``steps``), sorted.

    During the search a point ``(x, y)`` is the integer code ``x * S + y`` and a fixed shape
    is the frozenset of its codes minus the smallest (anchor at 0): neighbour steps and the
    symmetries become integer offsets and table look-ups, sets of ints hash fast, and sorted
    codes order shapes exactly as :func:`anchor_key` does. Intermediate levels keep any one
    fixed form per class (growing any representative reaches every shape); on the last level
    the smallest image is kept, which is :func:`canonical`.
    """
    if n < 1:
        return []
    size = 4 * n + 8  # |y offsets| < n < size / 2: codes decode uniquely and keep order
    int_steps = [dx * size + dy for dx, dy in steps]
    span = range(-n - 1, n + 2)
    tables = [
        {x * size + y: (a * x + b * y) * size + (c * x + d * y) for x in span for y in span}
        for a, b, c, d in mats
    ]
    if n == 1:
        return [((0, 0),)]
    if mats[0] != (1, 0, 0, 1):
        raise ValueError("the first matrix of a symmetry group must be the identity")
    others = tables[1:]
    # Decoding codes back to points, as look-ups: a shape's sorted codes are its points in
    # (x, y) order, and a translation keeps that order, so the normal form is the codes
    # shifted by the code of (min x, min y), decoded in place: no per-point arithmetic and
    # no sort (this was 27 % of the last level at n=11; n=12 went from 4.4-5.3 s to
    # 3.7-4.4 s, the two versions run alternately on the shared 2-core VM).
    decode = {x * size + y: (x, y) for x in span for y in span}
    y_of = {k: p[1] for k, p in decode.items()}
    level: list[list[int]] = [[0]]
    final: list[Shape] = []
    for step in range(n - 1):
        last = step == n - 2
        seen: set[frozenset[int]] = set()
        nxt: list[list[int]] = []
        for shape in level:
            occupied = set(shape)
            cands = {k + d for k in shape for d in int_steps} - occupied
            for x in cands:
                # The new cell becomes the anchor when it is smaller than the old one (0).
                key = frozenset(map((-x).__add__, shape + [x])) if x < 0 else frozenset(shape + [x])
                if key in seen:
                    continue
                # map() over bound methods runs in C: about 30 % faster than comprehensions.
                seen.add(key)  # tables[0] is the identity and key is already anchored
                if not last:
                    for tab in others:
                        img = list(map(tab.__getitem__, key))
                        seen.add(frozenset(map((-min(img)).__add__, img)))
                    nxt.append(list(key))
                else:
                    best = sorted(key)
                    for tab in others:
                        img = list(map(tab.__getitem__, key))
                        codes = sorted(map((-min(img)).__add__, img))
                        seen.add(frozenset(codes))
                        if codes < best:
                            best = codes
                    shift = decode[best[0]][0] * size + min(map(y_of.__getitem__, best))
                    final.append(tuple(map(decode.__getitem__, map((-shift).__add__, best))))
        level = nxt
    final.sort()
    return final


def classes_of(
    free: Iterable[Shape], mats: Sequence[Matrix], rotations: int, one_sided: bool
) -> list[Shape]:
    """Expand free shapes into one-sided classes (``one_sided``) or all fixed forms.

    One-sided representatives are canonical under the rotation subgroup; fixed forms are
    the distinct normalised images.
    """
    rots = mats[:rotations]
    out: list[Shape] = []
    for shape in free:
        imgs = images(mats, shape)
        if one_sided:
            reps = {canonical(rots, shape), canonical(rots, imgs[rotations])}
            out.extend(reps)
        else:
            out.extend(set(imgs))
    out.sort()
    return out


def enumerate_fixed_redelmeier(n: int, steps: Sequence[Point]) -> list[Shape]:
    """All fixed shapes of ``n`` cells by Redelmeier's method (an independent oracle).

    Grows shapes from the origin, only into cells after it in the order (x, y) with
    ``x > 0 or (x == 0 and y >= 0)``; an untried set carries the cells that may still be
    added, so each fixed shape is produced exactly once.
    """
    if n < 1:
        return []
    out: list[Shape] = []

    def allowed(p: Point) -> bool:
        return p[0] > 0 or (p[0] == 0 and p[1] >= 0)

    shape: list[Point] = []
    reached: set[Point] = {(0, 0)}

    def grow(untried: list[Point]) -> None:
        untried = list(untried)
        while untried:
            p = untried.pop()
            shape.append(p)
            if len(shape) == n:
                out.append(normalise(shape))
            else:
                new = []
                for dx, dy in steps:
                    q = (p[0] + dx, p[1] + dy)
                    if allowed(q) and q not in reached:
                        new.append(q)
                for q in new:
                    reached.add(q)
                grow(untried + new)
                for q in new:
                    reached.discard(q)
            shape.pop()

    grow([(0, 0)])
    out.sort()
    return out
