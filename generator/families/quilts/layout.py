"""Quilts -> drawings: pieces (nested, shared cut lines), boards, time track, tokens, bonus
tile, 1x1 patches and proof pages.

Every piece shows its button cost (button symbol + number) and time cost (clock + number) in
its first square, and one large button per income icon in its other squares. Fabrics differ
by colour AND pattern (stripes, dots, checks, hatching, zigzag, plain), so pieces stay apart
in greyscale and for colour-blind players. Board squares are the pieces' squares (``cell``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ...core.grid import outline
from ...deck import Deck
from ...render.drawing import (
    Circle,
    Drawing,
    Group,
    Item,
    Line,
    Polygon,
    Rect,
    Stroke,
    Symbol,
    TextBox,
)
from ...render.symbols import INK, PAPER, register_symbol
from ..base import Component, PolyNest, Report
from .model import Piece, QuiltSet
from .paper import print_area
from .rules import PATCH

Cell = tuple[int, int]

FABRICS: tuple[tuple[str, str, str], ...] = (
    # (name, fill, pattern ink): light fills keep black numbers readable (contrast >= 10:1).
    ("stripes", "#f4c7a1", "#c98b5a"),
    ("dots", "#b9d7ea", "#5f8fb0"),
    ("checks", "#c8e3b6", "#77a35f"),
    ("hatching", "#f1d98c", "#b7983a"),
    ("zigzag", "#e4b9d6", "#a9699a"),
    ("plain", "#d8d0c0", "#8f8672"),
)

_SPOOL: tuple[Item, ...] = (
    Rect(0.18, 0.08, 0.64, 0.12, fill=INK),
    Rect(0.18, 0.80, 0.64, 0.12, fill=INK),
    Rect(0.28, 0.20, 0.44, 0.60, fill=PAPER, stroke=Stroke(INK, 0.06)),
    Line(0.28, 0.35, 0.72, 0.30, Stroke(INK, 0.05)),
    Line(0.28, 0.50, 0.72, 0.45, Stroke(INK, 0.05)),
    Line(0.28, 0.65, 0.72, 0.60, Stroke(INK, 0.05)),
)
_PATCH: tuple[Item, ...] = (
    Rect(0.12, 0.12, 0.76, 0.76, fill=INK),
    Rect(0.24, 0.24, 0.52, 0.52, stroke=Stroke(PAPER, 0.05, (0.08, 0.06))),
)
register_symbol("quilt-marker", _SPOOL)
register_symbol("quilt-patch", _PATCH)


def fabric(index: int) -> tuple[str, str, str]:
    return FABRICS[index % len(FABRICS)]


def pattern(kind: str, ink: str, x: float, y: float, s: float) -> Group | None:
    """The fabric pattern of one square at (x, y), size s mm, clipped to the square."""
    st = Stroke(ink, 0.35)
    items: list[Item] = []
    step = s / 5
    if kind == "stripes":
        for i in range(-5, 6):
            items.append(Line(i * step, 0, i * step + s, s, st))
    elif kind == "dots":
        for i in range(5):
            for j in range(5):
                items.append(Circle((i + 0.5) * step, (j + 0.5) * step, s * 0.045, fill=ink))
    elif kind == "checks":
        for i in range(1, 5):
            items.append(Line(i * step, 0, i * step, s, st))
            items.append(Line(0, i * step, s, i * step, st))
    elif kind == "hatching":
        for i in range(-5, 6):
            items.append(Line(i * step, 0, i * step + s, s, st))
            items.append(Line(i * step + s, 0, i * step, s, st))
    elif kind == "zigzag":
        for j in range(4):
            yy = (j + 0.5) * s / 4
            pts = tuple((k * s / 8, yy + (s / 24 if k % 2 else -s / 24)) for k in range(9))
            items.append(Polygon(pts, stroke=st, closed=False))
    if not items:
        return None
    return Group(tuple(items), dx=x, dy=y, clip=Rect(0, 0, s, s))


def stitches(cells: frozenset[Cell], s: float, dx: float = 0.0, dy: float = 0.0,
             colour: str = "#333333") -> list[Item]:
    """A dashed seam inset along the shape's outline (convex corners trimmed, concave corners
    extended so the seam runs continuously)."""
    d = max(0.9, s * 0.09)
    st = Stroke(colour, 0.3, (1.2, 0.9))
    out: list[Item] = []
    for r, c in sorted(cells):
        # side: (neighbour across it, axis, fixed coordinate, start-end perpendicular pairs)
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if (nr, nc) in cells:
                continue
            horizontal = nr != r
            if horizontal:
                y = (r + (1 if nr > r else 0)) * s + (-d if nr > r else d)
                ends = []
                for side, (pc, sign) in enumerate(((c - 1, -1), (c + 1, 1))):
                    base = c * s if side == 0 else (c + 1) * s
                    if (r, pc) not in cells:
                        ends.append(base - sign * d)
                    elif (nr, pc) in cells:
                        ends.append(base + sign * d)
                    else:
                        ends.append(base)
                out.append(Line(dx + ends[0], dy + y, dx + ends[1], dy + y, st))
            else:
                x = (c + (1 if nc > c else 0)) * s + (-d if nc > c else d)
                ends = []
                for side, (pr, sign) in enumerate(((r - 1, -1), (r + 1, 1))):
                    base = r * s if side == 0 else (r + 1) * s
                    if (pr, c) not in cells:
                        ends.append(base - sign * d)
                    elif (pr, nc) in cells:
                        ends.append(base + sign * d)
                    else:
                        ends.append(base)
                out.append(Line(dx + x, dy + ends[0], dx + x, dy + ends[1], st))
    return out


def outline_points(cells: frozenset[Cell], s: float, dx: float = 0.0, dy: float = 0.0
                   ) -> tuple[tuple[float, float], ...]:
    """The outer outline (longest loop) of cells as points in mm."""
    loops = outline(cells)
    loop = max(loops, key=len)
    return tuple((dx + c * s, dy + r * s) for r, c in loop)


def label_cell(cells: frozenset[Cell]) -> Cell:
    return min(cells)


def piece_items(piece: Piece, s: float) -> list[Item]:
    """The drawing of a piece in its own frame (0, 0 at its bounding box's corner)."""
    name, fill, ink = fabric(piece.index)
    cells = piece.shape.cells
    items: list[Item] = []
    for r, c in sorted(cells):
        items.append(Rect(c * s, r * s, s, s, fill=fill))
        pat = pattern(name, ink, c * s, r * s, s)
        if pat is not None:
            items.append(pat)
    items.extend(stitches(cells, s))
    k = s / 15.0
    lr, lc = label_cell(cells)
    x, y = lc * s, lr * s
    items.append(Rect(x + 0.9 * k, y + 0.9 * k, s - 1.8 * k, s - 1.8 * k, fill=PAPER,
                      stroke=Stroke(INK, 0.25), radius=1.2 * k))
    icon = 5.0 * k
    items.append(Symbol("button", x + 1.6 * k, y + 1.7 * k, icon))
    items.append(TextBox(x + 7.0 * k, y + 1.2 * k, s - 8.0 * k, 6.0 * k, str(piece.cost),
                         size=12 * k, min_size=5, bold=True, valign="middle",
                         owner=f"{piece.id} cost"))
    items.append(Symbol("clock", x + 1.6 * k, y + 8.3 * k, icon))
    items.append(TextBox(x + 7.0 * k, y + 7.8 * k, s - 8.0 * k, 6.0 * k, str(piece.time),
                         size=12 * k, min_size=5, bold=True, valign="middle",
                         owner=f"{piece.id} time"))
    others = [cell for cell in sorted(cells) if cell != (lr, lc)]
    for i in range(piece.income):
        if i < len(others):
            r, c = others[i]
            cx, cy = (c + 0.5) * s, (r + 0.5) * s
            items.append(Circle(cx, cy, 0.36 * s, fill=PAPER, stroke=Stroke(INK, 0.3)))
            items.append(Symbol("button", cx - 0.28 * s, cy - 0.28 * s, 0.56 * s))
        else:  # a piece with fewer free squares than icons: small icons on the label's edge
            items.append(Symbol("button", x + s - (i + 1) * 3.2 * k, y + s - 3.4 * k, 2.8 * k))
    last_r, last_c = max(cells)
    if (last_r, last_c) != (lr, lc):
        items.append(TextBox(last_c * s + s * 0.45, last_r * s + s * 0.72, s * 0.5, s * 0.24,
                             f"{piece.index + 1:02d}", size=6 * k, min_size=4, align="right",
                             valign="bottom", colour="#333333", owner=f"{piece.id} number"))
    return items


def piece_component(piece: Piece, s: float) -> Component:
    cells = piece.shape.cells
    front = Drawing(piece.shape.width * s, piece.shape.height * s, tuple(piece_items(piece, s)),
                    bleed=0.0, cut=outline_points(cells, s))
    return Component(
        id=piece.id, kind="piece",
        title=f"{piece.id}: cost {piece.cost}, time {piece.time}, income {piece.income}",
        front=front, imposition="nest", nest=PolyNest(tuple(sorted(cells)), s),
        subjects=(piece.id,),
    )


def patch_component(i: int, s: float) -> Component:
    items: list[Item] = [Rect(0, 0, s, s, fill="#5a5a5a"),
                         *stitches(frozenset({(0, 0)}), s, colour="#ffffff")]
    return Component(id=f"patch-{i + 1}", kind="patch", title="1x1 patch",
                     front=Drawing(s, s, tuple(items), cut=((0, 0), (s, 0), (s, s), (0, s))),
                     imposition="nest", nest=PolyNest(((0, 0),), s))


# ---------------------------------------------------------------------------------------------
# Board, track, proof pages


def grid_items(rows: int, cols: int, s: float, x0: float, y0: float,
               holes: frozenset[Cell] = frozenset()) -> list[Item]:
    """The board's squares: a ruled rectangle, or (a shaped board) each square drawn with
    thin rules and every loop of the shape's outline (outer edge and holes) drawn thick."""
    if holes:
        cells = frozenset((r, c) for r in range(rows) for c in range(cols)
                          if (r, c) not in holes)
        out: list[Item] = [Rect(x0 + c * s, y0 + r * s, s, s, fill="#fbf8f1",
                                stroke=Stroke("#9a9a9a", 0.25)) for r, c in sorted(cells)]
        for loop in outline(cells):
            out.append(Polygon(tuple((x0 + c * s, y0 + r * s) for r, c in loop),
                               stroke=Stroke(INK, 0.8)))
        return out
    items: list[Item] = [Rect(x0, y0, cols * s, rows * s, fill="#fbf8f1")]
    thin = Stroke("#9a9a9a", 0.25)
    for r in range(1, rows):
        items.append(Line(x0, y0 + r * s, x0 + cols * s, y0 + r * s, thin))
    for c in range(1, cols):
        items.append(Line(x0 + c * s, y0, x0 + c * s, y0 + rows * s, thin))
    items.append(Rect(x0, y0, cols * s, rows * s, stroke=Stroke(INK, 0.8)))
    return items


def board_component(deck: Deck, qs: QuiltSet) -> Component:
    r = qs.rules
    s = float(deck.params.cell)
    w, h = r.cols * s + 10, r.rows * s + 26
    items: list[Item] = [
        TextBox(5, 2, w - 10, 8, f"**Quilt board** {r.area} squares" if r.shaped else
                f"**Quilt board** {r.rows} x {r.cols}", size=14, min_size=7,
                owner="board title"),
        *grid_items(r.rows, r.cols, s, 5, 11, r.holes),
        TextBox(5, 13 + r.rows * s, w - 10, 11,
                f"Each empty square at the end: -{r.empty_penalty} points. First completely "
                f"filled {r.bonus_size}x{r.bonus_size} square: bonus tile, "
                f"+{r.bonus_points} points.", size=9, min_size=5, owner="board legend"),
    ]
    return Component(id="board", kind="board", title="Quilt board", front=Drawing(w, h,
                     tuple(items)), copies=2, imposition="page", subjects=("board",))


def track_geometry(n: int, area: tuple[float, float]) -> tuple[float, int]:
    """(space size mm, spaces per row) for n spaces in a serpentine that fits the area with
    30 mm for the title and legend."""
    aw, ah = area
    s = 16.0
    while s > 4.0:
        per_row = max(1, int(aw // s))
        rows = math.ceil(n / per_row)
        if rows * s + 30 <= ah:
            return s, per_row
        s -= 0.5
    return s, max(1, int(aw // s))


def track_component(deck: Deck, qs: QuiltSet) -> Component:
    t = qs.rules.track
    n = t.length + 1
    s, per_row = track_geometry(n, print_area(deck))
    rows = math.ceil(n / per_row)
    w = per_row * s
    items: list[Item] = [TextBox(0, 0, w, 9, "**Time track**: the token further behind moves;"
                                 " on a tie, the one on top.", size=11, min_size=6,
                                 owner="track title")]
    y0 = 11.0
    for i in range(n):
        row, k = divmod(i, per_row)
        col = k if row % 2 == 0 else per_row - 1 - k
        x, y = col * s, y0 + row * s
        fill = "#fbf8f1"
        if i in t.income:
            fill = "#f1d98c"
        if i in t.patches:
            fill = "#c8e3b6"
        if i in (0, t.length):
            fill = "#d8d0c0"
        items.append(Rect(x, y, s, s, fill=fill, stroke=Stroke(INK, 0.3)))
        items.append(TextBox(x + 0.6, y + 0.4, s - 1.2, s * 0.3, str(i), size=6.5, min_size=4,
                             colour="#444444", owner=f"track space {i}"))
        icon = s * 0.5
        if i in t.income:
            items.append(Symbol("button", x + (s - icon) / 2, y + s * 0.36, icon))
        if i in t.patches:
            items.append(Symbol("quilt-patch", x + (s - icon) / 2, y + s * 0.36, icon))
        if i == 0:
            items.append(TextBox(x, y + s * 0.35, s, s * 0.5, "start", size=7, min_size=4,
                                 align="center", valign="middle", owner="track start"))
        if i == t.length:
            items.append(TextBox(x, y + s * 0.35, s, s * 0.5, f"end +{t.end_buttons}",
                                 size=7, min_size=4, align="center", valign="middle",
                                 owner="track end"))
    legend_y = y0 + rows * s + 2
    items.append(TextBox(0, legend_y, w, 16,
                         ":button: income: take one button per button on your quilt.  "
                         ":quilt-patch: first to reach it places a 1x1 patch.  Passing: move "
                         "just past the other token, one button per space.",
                         size=8.5, min_size=5, owner="track legend"))
    return Component(id="track", kind="track", title="Time track",
                     front=Drawing(w, legend_y + 17, tuple(items)), imposition="page",
                     subjects=("deck",))


def placement_cells(p: dict[str, Any]) -> frozenset[Cell]:
    return frozenset((int(r), int(c)) for r, c in p["cells"])


def proof_component(deck: Deck, qs: QuiltSet, subject: str, title: str,
                    cert: dict[str, Any], rows: int, cols: int,
                    holes: frozenset[Cell] = frozenset(), at: Cell = (0, 0)) -> Component:
    """A proof page: the certificate's placements on the board (``holes`` of a shaped
    board left blank) or on a square whose corner is ``at`` on the board."""
    aw, ah = print_area(deck)
    s = min(float(deck.params.cell), (aw - 10) / cols, (ah - 60) / rows)
    w = cols * s + 10
    items: list[Item] = [TextBox(5, 2, w - 10, 10, f"**Proof**: {title}", size=13, min_size=6,
                                 owner=f"proof {subject} title")]
    y0 = 14.0
    items.extend(grid_items(rows, cols, s, 5, y0, holes))
    names = []
    for p in cert["placements"]:
        cells = frozenset((r - at[0], c - at[1]) for r, c in placement_cells(p))
        index = int(p["index"])
        if index == PATCH:
            fill, ink, kind, label = "#5a5a5a", "#5a5a5a", "plain", "1x1"
        else:
            kind, fill, ink = fabric(index)
            label = f"{index + 1:02d}"
            names.append(label)
        for r, c in sorted(cells):
            items.append(Rect(5 + c * s, y0 + r * s, s, s, fill=fill))
            pat = pattern(kind, ink, 5 + c * s, y0 + r * s, s)
            if pat is not None:
                items.append(pat)
        items.append(Polygon(outline_points(cells, s, 5, y0), stroke=Stroke(INK, 0.6)))
        lr, lc = min(cells)
        items.append(TextBox(5 + lc * s + 0.5, y0 + lr * s + 0.5, s - 1, s * 0.45, label,
                             size=8, min_size=4, bold=True,
                             colour="#ffffff" if index == PATCH else INK,
                             owner=f"proof {subject} {label}"))
    patches = sum(1 for p in cert["placements"] if int(p["index"]) == PATCH)
    text = (f"Pieces used ({len(names)}): {', '.join(names)}; 1x1 patches: {patches}. "
            "Replayed through the rules engine: every placement inside the board, no overlap, "
            "each piece once.")
    items.append(TextBox(5, y0 + rows * s + 3, w - 10, 30, text, size=9, min_size=5,
                         owner=f"proof {subject} text"))
    return Component(id=f"proof-{subject}", kind="proof", title=f"Proof: {title}",
                     front=Drawing(w, y0 + rows * s + 35, tuple(items)), imposition="page",
                     subjects=(subject,))


# ---------------------------------------------------------------------------------------------
# Tokens


def token(id_: str, kind: str, title: str, size: float, bleed: float, fill: str,
          items: Sequence[Item], copies: int = 1, subjects: tuple[str, ...] = ()) -> Component:
    front = Drawing(size, size, (Rect(-bleed, -bleed, size + 2 * bleed, size + 2 * bleed,
                                      fill=fill), *items), bleed=bleed, background=fill)
    return Component(id=id_, kind=kind, title=title, front=front, copies=copies,
                     imposition="grid", subjects=subjects)


def tokens(deck: Deck, qs: QuiltSet) -> list[Component]:
    bleed = float(deck.print.bleed)
    out: list[Component] = []
    t = 18.0
    for player, fill in ((1, "#b9d7ea"), (2, "#f4c7a1")):
        out.append(token(f"time-{player}", "token", f"Time token, player {player}", t, bleed,
                         fill, [Symbol("clock", 2, 2, 8),
                                TextBox(8, 7, 9, 10, str(player), size=20, min_size=8,
                                        bold=True, align="center", valign="middle",
                                        owner=f"time token {player}")]))
    out.append(token("marker", "token", "Ring marker", t, bleed, "#fbf8f1",
                     [Symbol("quilt-marker", 3, 3, 12)]))
    colours = ("#f1d98c", "#b9d7ea", "#e4b9d6", "#c8e3b6")
    for n, (value, count) in enumerate(sorted(deck.params.buttons.items())):
        if count <= 0:
            continue
        out.append(token(f"buttons-{value}", "token", f"Button token ({value})", t, bleed,
                         colours[n % len(colours)],
                         [Symbol("button", 5, 1.5, 8),
                          TextBox(1.5, 9.5, 15, 8, str(value), size=15, min_size=6,
                                  bold=True, align="center", valign="middle",
                                  owner=f"button {value}")],
                         copies=count))
    r = qs.rules
    # Every token shares one size (18 mm) so they impose together on one sheet.
    out.append(token("bonus", "bonus", "Bonus tile", t, bleed, "#fbf8f1", [
        Rect(1.2, 1.2, t - 2.4, t - 2.4, stroke=Stroke(INK, 0.35, (1.2, 0.9))),
        TextBox(2, 2.2, t - 4, 6, f"{r.bonus_size} x {r.bonus_size}", size=10, min_size=5,
                bold=True, align="center", valign="middle", owner="bonus size"),
        TextBox(2, 8, t - 4, 8.5, f"+{r.bonus_points}", size=17, min_size=6, bold=True,
                align="center", valign="middle", owner="bonus points"),
    ], subjects=("bonus",)))
    return out


def layout(deck: Deck, qs: QuiltSet, report: Report) -> list[Component]:
    s = float(deck.params.cell)
    out: list[Component] = [piece_component(p, s) for p in qs.pieces]
    out.extend(patch_component(i, s) for i in range(len(qs.rules.track.patches)))
    out.append(board_component(deck, qs))
    out.append(track_component(deck, qs))
    out.extend(tokens(deck, qs))
    r = qs.rules
    for entry in report.entries:
        cert = entry.details.get("certificate") if entry.status == "completable" else None
        if not cert:
            continue
        if entry.subject == "board":
            out.append(proof_component(deck, qs, "board", f"{r.board_name()} can be filled",
                                       cert, r.rows, r.cols, r.holes))
        elif entry.subject == "bonus":
            k = r.bonus_size
            cells = [c for p in cert["placements"] for c in placement_cells(p)]
            at = (min(c[0] for c in cells), min(c[1] for c in cells)) if cells else (0, 0)
            out.append(proof_component(deck, qs, "bonus", f"a {k}x{k} bonus square can be "
                                       "filled", cert, k, k, at=at))
    return out

