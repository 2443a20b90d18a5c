"""Sample components for the render tests and bench/render.py.

They exercise what real families draw (full-bleed backgrounds, rounded frames, symbols, rich
text, rotated and clipped groups, hex tiles and polyomino pieces with their cut outlines)
without depending on any family.
"""

from __future__ import annotations

import math

from generator.render.component import Component, HexNest, PolyNest
from generator.render.drawing import (
    Circle,
    Drawing,
    Group,
    Item,
    Line,
    Path,
    Point,
    Polygon,
    Rect,
    Stroke,
    Symbol,
    TextBox,
)

POKER = (63.5, 88.9)
PALETTE = ("#cfe3f5", "#f5e0c3", "#d8ecd0", "#ead6f0", "#f7d4d4")


def typical_card(i: int, w: float = POKER[0], h: float = POKER[1], bleed: float = 3.0,
                 back: bool = True, copies: int = 1) -> Component:
    """A typical card: 20 shapes and 2 lines of text (the bench's unit of work)."""
    colour = PALETTE[i % len(PALETTE)]
    items: list[Item] = [
        Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=colour),       # 1 full bleed
        Rect(3, 3, w - 6, h - 6, stroke=Stroke("#333333", 0.4), radius=3),     # 2 frame
        Rect(5, 5, w - 10, 11, fill="#ffffff", radius=2),                      # 3 title band
        Circle(w - 10, 10.5, 4, fill="#ffcc33", stroke=Stroke("#333333", 0.3)),  # 4 cost
    ]
    for k in range(9):                                                          # 5-13 grid
        r, c = divmod(k, 3)
        items.append(Rect(12 + c * 13.5, 22 + r * 13.5, 12.5, 12.5,
                          fill=("#88aa66", "#6699cc", "#ccaa66")[(i + k) % 3]))
    items += [
        Line(5, h - 24, w - 5, h - 24, Stroke("#333333", 0.3)),                # 14
        Polygon(((5, h - 8), (9, h - 14), (13, h - 8)), fill="#333333"),       # 15
        Path((("M", w - 14, h - 8), ("C", w - 12, h - 16, w - 6, h - 16, w - 5, h - 8),
              ("Z",)), fill="#aa3333"),                                       # 16
        Circle(w / 2, h - 11, 2.5, fill="#333333"),                            # 17
        Rect(16, h - 14, 10, 4, fill="#ffffff", stroke=Stroke("#333333", 0.2)),  # 18
        Rect(w - 26, h - 14, 10, 4, fill="#ffffff", stroke=Stroke("#333333", 0.2)),  # 19
        Line(5, 19, w - 5, 19, Stroke("#999999", 0.2, (1.0, 1.0))),             # 20
        TextBox(7, 6, w - 24, 9, f"**Card {i}**", size=11, min_size=6, owner=f"card {i}"),
        TextBox(7, h - 23, w - 14, 8, f"Gain :star: when *card {i}* is played.", size=8,
                min_size=5, owner=f"card {i}"),
    ]
    front = Drawing(w, h, tuple(items), bleed=bleed)
    bk = None
    if back:
        bk = Drawing(w, h, (Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill="#334466"),
                            Symbol("die", w / 2 - 10, h / 2 - 10, 20, "#ffffff")), bleed=bleed)
    return Component(f"card-{i}", "card", f"Card {i}", front, bk, copies=copies)


def showcase_card(i: int = 0) -> Component:
    """A card using every kind of item: rotated and clipped groups, every base symbol, text
    in several languages with bold, italic and icons, dashed strokes, even-odd holes."""
    from generator.render.symbols import BASE_SYMBOLS

    w, h, b = POKER[0], POKER[1], 3.0
    items: list[Item] = [Rect(-b, -b, w + 2 * b, h + 2 * b, fill="#f4f1e8")]
    for k, name in enumerate(BASE_SYMBOLS):
        r, c = divmod(k, 6)
        items.append(Symbol(name, 4 + c * 9.5, 4 + r * 9.5, 8.0,
                            None if k % 2 else "#225588"))
    items += [
        TextBox(4, 44, w - 8, 20, "**Привет**, *árvíztűrő tükörfúrógép* :water: "
                "Ça va? Perché? ¿Señor? ñ", size=9, min_size=5, owner="showcase"),
        Group((Rect(0, 0, 16, 8, fill="#cc4444", radius=1.5),
               TextBox(1, 1, 14, 6, "*rot*", size=7, min_size=4, align="center")),
              dx=12, dy=70, rotate=25, scale=1.2),
        Group((Circle(5, 5, 9, fill="#44aa44"), Line(0, 0, 10, 10, Stroke("#000000", 0.5))),
              dx=44, dy=68, clip=Rect(0, 0, 10, 10, radius=2)),
        Path((("M", 30, 66), ("L", 40, 66), ("L", 40, 76), ("L", 30, 76), ("Z",),
              ("M", 33, 69), ("L", 37, 69), ("L", 37, 73), ("L", 33, 73), ("Z",)),
             fill="#333333"),
        Polygon(((4, 84), (20, 80), (36, 84)), stroke=Stroke("#663399", 0.4, (1.0, 0.5)),
                closed=False),
    ]
    return Component(f"showcase-{i}", "card", "Showcase", Drawing(w, h, tuple(items), bleed=b))


def hex_outline(flat_to_flat: float, orientation: str = "pointy") -> tuple[Point, ...]:
    """The hexagon of a tile, in its bounding box (origin top-left)."""
    long = flat_to_flat * 2 / math.sqrt(3)
    if orientation == "pointy":
        w, h, start = flat_to_flat, long, -90.0
    else:
        w, h, start = long, flat_to_flat, 0.0
    return tuple((w / 2 + long / 2 * math.cos(math.radians(start + 60 * k)),
                  h / 2 + long / 2 * math.sin(math.radians(start + 60 * k))) for k in range(6))


def hex_tile(i: int, flat_to_flat: float = 30.0, orientation: str = "pointy",
             copies: int = 1) -> Component:
    pts = hex_outline(flat_to_flat, orientation)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    s = min(w, h) * 0.4
    front = Drawing(w, h, (Polygon(pts, fill=PALETTE[i % len(PALETTE)]),
                           Symbol(("tree", "water", "wildlife")[i % 3], w / 2 - s / 2,
                                  h / 2 - s / 2, s)), cut=pts)
    back = Drawing(w, h, (Polygon(pts, fill="#555555"),), cut=pts)
    nest = HexNest(flat_to_flat, "pointy") if orientation == "pointy" else HexNest(
        flat_to_flat, "flat")
    return Component(f"hex-{i}", "tile", f"Tile {i}", front, back, copies=copies,
                     imposition="nest", nest=nest)


def cells_outline(cells: tuple[tuple[int, int], ...], cell: float) -> tuple[Point, ...]:
    """The outline of a simply connected polyomino (cells as (row, col)), clockwise on the
    page, in mm from the top-left of its bounding box."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    edges: dict[tuple[int, int], tuple[int, int]] = {}
    directed: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for r, c in cells:
        x, y = c - c0, r - r0
        for a, b in (((x, y), (x + 1, y)), ((x + 1, y), (x + 1, y + 1)),
                     ((x + 1, y + 1), (x, y + 1)), ((x, y + 1), (x, y))):
            if (b, a) in directed:
                directed.remove((b, a))
            else:
                directed.add((a, b))
    for a, b in directed:
        edges[a] = b
    start = min(edges)
    pts = [start]
    p = edges[start]
    while p != start:
        pts.append(p)
        p = edges[p]
    # drop collinear points
    out: list[tuple[int, int]] = []
    n = len(pts)
    for k in range(n):
        pa, pb, pc = pts[k - 1], pts[k], pts[(k + 1) % n]
        if (pb[0] - pa[0]) * (pc[1] - pb[1]) != (pb[1] - pa[1]) * (pc[0] - pb[0]):
            out.append(pb)
    return tuple((x * cell, y * cell) for x, y in out)


def poly_piece(i: int, cells: tuple[tuple[int, int], ...], cell: float = 10.0,
               copies: int = 1) -> Component:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    rows = max(r for r, _ in cells) - r0 + 1
    cols = max(c for _, c in cells) - c0 + 1
    items: tuple[Item, ...] = tuple(
        Rect((c - c0) * cell, (r - r0) * cell, cell, cell, fill=PALETTE[i % len(PALETTE)],
             stroke=Stroke("#ffffff", 0.3)) for r, c in cells)
    front = Drawing(cols * cell, rows * cell, items, cut=cells_outline(cells, cell))
    return Component(f"piece-{i}", "piece", f"Piece {i}", front, copies=copies,
                     imposition="nest", nest=PolyNest(cells, cell))


PIECES: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 0), (0, 1), (1, 1)),
    ((0, 0), (1, 0), (2, 0), (2, 1)),
    ((0, 0), (0, 1), (1, 0), (1, 1)),
    ((0, 1), (1, 0), (1, 1), (1, 2)),
    ((0, 0), (0, 1), (0, 2), (0, 3)),
    ((0, 0), (1, 0), (1, 1), (2, 1)),
)


def board(i: int = 0, w: float = 180.0, h: float = 250.0) -> Component:
    b = 3.0
    front = Drawing(w, h, (Rect(-b, -b, w + 2 * b, h + 2 * b, fill="#eeeecc"),
                           TextBox(10, 10, w - 20, 20, "Board", size=28, owner="board")),
                    bleed=b)
    return Component(f"board-{i}", "board", "Board", front, imposition="page")
