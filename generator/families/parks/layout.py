"""Parks components -> drawings: the sheet page, park cards, grand park cards, the die net,
tokens, the solo score pad and a proof page per certificate.

Sizes are true: a sheet square and a card space are both ``square`` mm (default 20), so a
freed section physically fits its card. Features print as a colour tint AND a symbol (pavilion,
kite for play area, drop for water, tree for greenery), icons as a paw (wildlife) or arrows
(recycling) on a white disc, so everything reads in greyscale and for colour-blind players.
Walkways are drawn as a brown band with a dashed centre line joining their spaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.grid import Cell, outline
from ...deck import Deck
from ...errors import LayoutError
from ...render.drawing import (
    Circle,
    Drawing,
    Item,
    Line,
    Path,
    PathOp,
    Polygon,
    Rect,
    Stroke,
    Symbol,
    TextBox,
)
from ...render.geometry import disc_outline
from ...render.symbols import has_symbol, register_symbol
from ..base import Component, Report
from .cert import Certificate, HandCertificate, RoundPlan
from .model import (
    FEATURE_WORDS,
    Bonus,
    Card,
    Feature,
    Icon,
    ParksParams,
    ParksSet,
    Sheet,
    Square,
    Token,
    face_label,
)
from .rules import Placement

INK = "#2b2b2b"
PAPER = "#ffffff"
CUT_LINE = Stroke("#9c9c9c", 0.2)
OUTLINE = Stroke(INK, 0.6)
FEATURE_FILL = {Feature.PAVILION: "#f2c2a6", Feature.PLAY: "#f5e39c",
                Feature.WATER: "#b6d9f1", Feature.GREENERY: "#bfe2aa"}
FEATURE_SYMBOL = {Feature.PAVILION: "pavilion", Feature.PLAY: "play",
                  Feature.WATER: "water", Feature.GREENERY: "tree"}
ICON_SYMBOL = {Icon.WILDLIFE: "wildlife", Icon.RECYCLING: "recycling"}
BONUS_SYMBOL = {Bonus.EXTRA_CUT: "extra-cut", Bonus.GARDENER: "gardener",
                Bonus.WILDLIFE_TOKEN: "parks-icon-token"}
BONUS_WORDS = {Bonus.EXTRA_CUT: "Extra cut", Bonus.GARDENER: "Gardener",
               Bonus.WILDLIFE_TOKEN: "Wildlife/Recycling", Bonus.NONE: ""}
WALKWAY = "#8a6a3c"
SECTION_COLOURS = ("#2f6fb5", "#3f8f3f", "#b07d12", "#7b4fa8", "#1f8f86", "#b0508a",
                   "#5f5f5f", "#1f3f7f")
"""Section outlines on proof pages: no red among them (red is the cut colour)."""
CUT_RED = "#c0262d"
SECTION_DASH = (1.6, 0.8)
"""Sections are outlined dashed and cuts drawn solid, so the two read apart in greyscale."""
CRUMPLED_GREY = "#c8c8c8"
LABEL_MARGIN = 4.0
"""Millimetres left of and above the proof sheet for the row and column line numbers."""


def _register() -> None:
    # The token symbol: a paw and a recycling arrow halves on one disc.
    if not has_symbol("parks-icon-token"):
        register_symbol("parks-icon-token", (
            Circle(0.5, 0.5, 0.46, stroke=Stroke(INK, 0.06)),
            Symbol("wildlife", 0.12, 0.12, 0.4),
            Symbol("recycling", 0.48, 0.48, 0.4),
        ))


_register()


# --------------------------------------------------------------------------------------------
# Pieces


def square_items(x: float, y: float, size: float, sq: Square, grid: bool = True) -> list[Item]:
    """One sheet square: feature tint + symbol, icon disc in the top-right corner."""
    items: list[Item] = [Rect(x, y, size, size, fill=FEATURE_FILL[sq.feature],
                              stroke=CUT_LINE if grid else None)]
    s = size * 0.46
    items.append(Symbol(FEATURE_SYMBOL[sq.feature], x + (size - s) / 2, y + (size - s) / 2 + size
                        * 0.06, s, colour=INK))
    if sq.icon:
        r = size * 0.17
        cx, cy = x + size - r - size * 0.05, y + r + size * 0.05
        items.append(Circle(cx, cy, r, fill=PAPER, stroke=Stroke(INK, 0.15)))
        items.append(Symbol(ICON_SYMBOL[sq.icon], cx - r * 0.7, cy - r * 0.7, r * 1.4,
                            colour=INK))
    return items


def outline_path(cells: frozenset[Cell], x0: float, y0: float, size: float,
                 stroke: Stroke, fill: str | None = None) -> Path:
    ops: list[PathOp] = []
    for loop in outline(cells):
        first = True
        for r, c in loop:
            ops.append(("M" if first else "L", x0 + c * size, y0 + r * size))
            first = False
        ops.append(("Z",))
    return Path(tuple(ops), fill=fill, stroke=stroke)


def card_grid_items(card: Card, x0: float, y0: float, size: float) -> list[Item]:
    """A card's spaces: demanded spaces tinted with their feature and its symbol, icon demands
    as a disc, walkway bands, thin inner lines and a bold outline."""
    items: list[Item] = [outline_path(card.cells, x0, y0, size, Stroke(INK, 0.0), PAPER)]
    dm = card.demand_map()
    for r, c in sorted(card.cells):
        d = dm.get((r, c))
        x, y = x0 + c * size, y0 + r * size
        if d and d.feature:
            items.append(Rect(x, y, size, size, fill=FEATURE_FILL[d.feature]))
    for w in card.walkways:
        band = size * 0.2
        for a in sorted(w):
            for b in ((a[0], a[1] + 1), (a[0] + 1, a[1])):
                if b in w:
                    ax, ay = x0 + (a[1] + 0.5) * size, y0 + (a[0] + 0.5) * size
                    bx, by = x0 + (b[1] + 0.5) * size, y0 + (b[0] + 0.5) * size
                    items.append(Line(ax, ay, bx, by, Stroke(WALKWAY, band)))
                    items.append(Line(ax, ay, bx, by, Stroke(PAPER, 0.35, (1.2, 1.0))))
            cx, cy = x0 + (a[1] + 0.5) * size, y0 + (a[0] + 0.5) * size
            items.append(Circle(cx, cy, band * 0.8, fill=WALKWAY))
    for r, c in sorted(card.cells):
        d = dm.get((r, c))
        x, y = x0 + c * size, y0 + r * size
        items.append(Rect(x, y, size, size, stroke=CUT_LINE))
        if d and d.feature:
            s = size * 0.42
            items.append(Symbol(FEATURE_SYMBOL[d.feature], x + size * 0.08, y + size * 0.08, s,
                                colour=INK))
        if d and d.icon:
            rad = size * 0.2
            cx, cy = x + size - rad - size * 0.06, y + size - rad - size * 0.06
            items.append(Circle(cx, cy, rad, fill=PAPER, stroke=Stroke(INK, 0.2)))
            items.append(Symbol(ICON_SYMBOL[d.icon], cx - rad * 0.7, cy - rad * 0.7, rad * 1.4,
                                colour=INK))
    items.append(outline_path(card.cells, x0, y0, size, OUTLINE))
    return items


# --------------------------------------------------------------------------------------------
# Components


def sheet_drawing(sheet: Sheet, size: float, title: str,
                  cut_note: str = "cut along the grey lines") -> Drawing:
    w, h = sheet.cols * size, sheet.rows * size
    top = 10.0
    items: list[Item] = [TextBox(0, 0, w, 8, f"**{title}** \u2014 {cut_note}",
                                 size=11, min_size=6, owner="sheet")]
    for r in range(sheet.rows):
        for c in range(sheet.cols):
            items.extend(square_items(c * size, top + r * size, size, sheet.at((r, c))))
    items.append(Rect(0, top, w, h, stroke=Stroke(INK, 0.5)))
    return Drawing(w, top + h, tuple(items))


def card_drawing(deck: Deck, card: Card, size: float) -> Drawing:
    W, H = deck.print.card.width, deck.print.card.height
    safe = deck.print.safe
    bleed = deck.print.bleed
    items: list[Item] = [Rect(-bleed, -bleed, W + 2 * bleed, H + 2 * bleed, fill="#f6f2e4")]
    bonus_w = 0.0 if card.bonus is Bonus.NONE else 5.0
    items.append(TextBox(safe, safe - 0.5, W - 2 * safe - bonus_w - 1, 4.5, f"**{card.name}**",
                         size=9, min_size=5, owner=card.id))
    if card.bonus is not Bonus.NONE:
        items.append(Symbol(BONUS_SYMBOL[card.bonus], W - safe - 4.5, safe - 0.7, 4.5,
                            colour=INK))
    gw, gh = card.width * size, card.height * size
    x0 = (W - gw) / 2
    y0 = 7.5 + max(0.0, (H - 8.0 - gh) / 2)
    if gw > W or y0 + gh > H:
        raise LayoutError(f"{card.id}: a {card.height}x{card.width} outline at {size:g} mm "
                          f"squares does not fit a {W:g}x{H:g} mm card; use smaller squares "
                          "([parks] square) or a larger card ([print] card)")
    items.extend(card_grid_items(card, x0, y0, size))
    return Drawing(W, H, tuple(items), bleed=bleed)


def card_back(deck: Deck) -> Drawing:
    W, H = deck.print.card.width, deck.print.card.height
    bleed = deck.print.bleed
    s = min(W, H) * 0.5
    return Drawing(W, H, (
        Rect(-bleed, -bleed, W + 2 * bleed, H + 2 * bleed, fill="#35603f"),
        Rect(4, 4, W - 8, H - 8, stroke=Stroke("#e9e2c8", 0.6), radius=3),
        Symbol("tree", (W - s) / 2, (H - s) / 2 - 6, s, colour="#e9e2c8"),
        TextBox(deck.print.safe, H / 2 + s / 2 - 2, W - 2 * deck.print.safe, 8,
                f"**{deck.label('parks.back')}**",
                size=14, align="center", colour="#e9e2c8", owner="back"),
    ), bleed=bleed)


def grand_drawing(card: Card, size: float, word: str = "GRAND PARK") -> Drawing:
    gw, gh = card.width * size, card.height * size
    W, H = gw + 16, gh + 24
    items: list[Item] = [
        Rect(0, 0, W, H, fill="#efe6cc", stroke=Stroke(INK, 0.5), radius=3),
        Symbol("star", 4, 4, 8, colour=INK),
        TextBox(14, 3.5, W - 28, 9, f"**{word}** \u2014 {card.name}", size=11, min_size=6,
                owner=card.id),
        Symbol("star", W - 12, 4, 8, colour=INK),
    ]
    items.extend(card_grid_items(card, 8, 16, size))
    return Drawing(W, H, tuple(items))


CUBE_NET = ((1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2))
"""The cross net: top, left, front, right, back, bottom (column, row). Folded with the
front facing you, every face reads the right way up: the side faces keep the net's up, and
the top face's up points to the back."""
CUBE_OUTLINE = ((1, 0), (2, 0), (2, 1), (3, 1), (4, 1), (4, 2), (3, 2), (2, 2), (2, 3), (1, 3),
                (1, 2), (0, 2), (0, 1), (1, 1))
"""The net's outline, clockwise on the page, in face units."""
CUBE_TABS = frozenset({2, 3, 4, 5, 6, 10, 12})
"""Outline edges (index i: CUBE_OUTLINE[i] -> [i + 1]) that carry a glue tab: one edge of
each of the seven pairs that meet when the net is folded (each tab's partner is the edge it
is glued under)."""
CUBE_FOLDS = (((1, 1), (2, 1)), ((1, 1), (1, 2)), ((2, 1), (2, 2)), ((3, 1), (3, 2)),
              ((1, 2), (2, 2)))
"""The five edges between neighbouring faces."""
TAB_DEPTH = 0.22
"""Glue tab depth as a fraction of the face (a 20 mm face: 4.4 mm of glue)."""
TAB_INSET = 0.18
"""How far a tab's outer edge is set in from each end (fraction of the face): the 45-ish
degree sides keep neighbouring tabs from colliding at a corner."""
FOLD_STROKE = Stroke("#808080", 0.25, (1.5, 1.0))
"""Fold lines: grey dashes, so no one cuts them."""


def _net_outline(x0: float, y0: float, size: float) -> tuple[tuple[tuple[float, float], ...],
                                                             list[tuple[tuple[float, float], ...]]]:
    """The cut outline (with glue tabs) and the fold lines (face edges and tab bases)."""
    pts = [(x0 + c * size, y0 + r * size) for c, r in CUBE_OUTLINE]
    out: list[tuple[float, float]] = []
    folds: list[tuple[tuple[float, float], ...]] = []
    n = len(pts)
    for i, p in enumerate(pts):
        q = pts[(i + 1) % n]
        out.append(p)
        if i in CUBE_TABS:
            dx, dy = (q[0] - p[0]) / size, (q[1] - p[1]) / size
            nx, ny = dy, -dx  # outward for a clockwise outline, y down
            d, k = TAB_DEPTH * size, TAB_INSET * size
            out.append((p[0] + dx * k + nx * d, p[1] + dy * k + ny * d))
            out.append((q[0] - dx * k + nx * d, q[1] - dy * k + ny * d))
            folds.append((p, q))
    for (c1, r1), (c2, r2) in CUBE_FOLDS:
        folds.append(((x0 + c1 * size, y0 + r1 * size), (x0 + c2 * size, y0 + r2 * size)))
    return tuple(out), folds


def die_drawing(faces: tuple[tuple[int, ...], ...], size: float) -> Drawing:
    """A cube net for six faces, with glue tabs and dashed folds (cut files get the outline
    and the folds on their own layers); for another count, a strip of face tiles to draw
    blind."""
    net = len(faces) == 6
    if net:
        spots = list(CUBE_NET)
        title = "Park die \u2014 cut out, fold on the dashes, glue the tabs"
        cols, rows = 4, 3
    else:
        spots = [(i % 6, i // 6) for i in range(len(faces))]
        title = f"Park die \u2014 {len(faces)} face tiles: draw one blind each round"
        cols, rows = min(6, len(faces)), (len(faces) + 5) // 6
    items: list[Item] = [TextBox(0, 0, cols * size, 8, f"**{title}**", size=10, min_size=5,
                                 owner="die")]
    top = 10.0 + (TAB_DEPTH * size if net else 0.0)
    cuts: tuple[tuple[tuple[float, float], ...], ...] = ()
    folds: list[tuple[tuple[float, float], ...]] = []
    if net:
        outline, folds = _net_outline(0.0, top, size)
        cuts = (outline,)
        items.append(Polygon(outline, fill=PAPER))
    for (c, r), face in zip(spots, faces, strict=False):
        x, y = c * size, top + r * size
        items.append(Rect(x, y, size, size, fill=PAPER,
                          stroke=None if net else Stroke(INK, 0.3)))
        items.append(TextBox(x, y + size * 0.12, size, size * 0.4, f"**{face_label(face)}**",
                             size=14, min_size=6, align="center", owner="die"))
        # One bar per cut, its length proportional to the cut.
        unit = size * 0.8 / max(4, max(face))
        for i, n in enumerate(face):
            by = y + size * 0.6 + i * size * 0.07
            items.append(Line(x + size * 0.1, by, x + size * 0.1 + n * unit, by,
                              Stroke(CUT_RED, 0.6)))
    if not net:
        cuts = tuple(((c * size, top + r * size), ((c + 1) * size, top + r * size),
                      ((c + 1) * size, top + (r + 1) * size), (c * size, top + (r + 1) * size))
                     for c, r in spots[:len(faces)])
    for a, b in folds:
        items.append(Line(a[0], a[1], b[0], b[1], FOLD_STROKE))
    if net:
        items.append(Polygon(cuts[0], stroke=Stroke(INK, 0.3)))
    width = cols * size + (TAB_DEPTH * size if net else 0.0)
    return Drawing(width, top + rows * size + (TAB_DEPTH * size if net else 0.0), tuple(items),
                   cuts=cuts, folds=tuple(folds))


def tokens_drawing(tokens: tuple[tuple[Token, int], ...]) -> Drawing:
    d = 22.0
    per_row = 8
    items: list[Item] = [TextBox(0, 0, per_row * d, 8, "**Bonus tokens** \u2014 cut out",
                                 size=10, owner="tokens")]
    i = 0
    cuts: list[tuple[tuple[float, float], ...]] = []
    for token, count in tokens:
        name = "gardener" if token is Token.GARDENER else "parks-icon-token"
        for _ in range(count):
            x, y = (i % per_row) * d, 10 + (i // per_row) * d
            items.append(Circle(x + d / 2, y + d / 2, d / 2 - 1, fill="#f6f2e4",
                                stroke=Stroke(INK, 0.3)))
            items.append(Symbol(name, x + d / 2 - 6, y + d / 2 - 6, 12, colour=INK))
            cuts.append(disc_outline(x + d / 2, y + d / 2, d / 2 - 1))
            i += 1
    rows = max(1, (i + per_row - 1) // per_row)
    return Drawing(per_row * d, 10 + rows * d, tuple(items), cuts=tuple(cuts))


SOLO_LINES = (("Completed park cards", "\u00d73"), ("Completed grand park cards", "\u00d75"),
              ("Tokens held", "\u00d71"), ("Largest placed section (squares)", "+1 each"),
              ("Crumpled sections", "\u22121 each"), ("Incomplete face-up cards", "\u22121 each"),
              ("**Total**", ""))


def score_pad_drawing(width: float, game: str = "Game {n}") -> Drawing:
    games = 6
    label_w = 70.0
    col_w = (width - label_w) / games
    row_h = 12.0
    items: list[Item] = [TextBox(0, 0, width, 10, "**Solo park score pad**", size=14,
                                 owner="score-pad")]
    top = 14.0
    for g in range(games):
        items.append(TextBox(label_w + g * col_w, top, col_w, row_h, game.format(n=g + 1), size=9,
                             align="center", valign="middle", owner="score-pad"))
    for i, (label, rule) in enumerate(SOLO_LINES):
        y = top + (i + 1) * row_h
        items.append(TextBox(1, y, label_w - 2, row_h,
                             f"{label} {rule}".strip(), size=9, min_size=6, valign="middle",
                             owner="score-pad"))
        for g in range(games):
            items.append(Rect(label_w + g * col_w, y, col_w, row_h, stroke=Stroke(INK, 0.25)))
    return Drawing(width, top + (len(SOLO_LINES) + 1) * row_h, tuple(items))


def proof_drawing(ps: ParksSet, cards: Sequence[Card], rounds: Sequence[RoundPlan],
                  title: str, owner: str, width: float, height: float) -> Drawing:
    """A proof page a designer can cut along: the sheet with its grid lines numbered as the
    certificate names them (corner ``row,col``), every cut drawn solid red and numbered in
    the order made (``round.cut``, Extra Cuts continuing their round's count), the placed
    sections outlined dashed in distinct non-red colours and lettered, crumpled squares grey;
    then each card covered by the lettered sections; then the rounds in words."""
    sheet = ps.sheet
    lm = LABEL_MARGIN
    s = min(10.0, (width - 4 - lm) / sheet.cols)
    items: list[Item] = [TextBox(0, 0, width, 12, title, size=9, min_size=5, owner=owner)]
    top = 14.0 + lm
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    placed = [pd for rp in rounds for pd in list(rp.placed) + [p for e in rp.extra
                                                              for p in e.placed]]
    crumpled = {cell for rp in rounds for sec in list(rp.crumpled) + [
        x for e in rp.extra for x in e.crumpled] for cell in sec}
    for r in range(sheet.rows):
        for c in range(sheet.cols):
            items.extend(square_items(lm + c * s, top + r * s, s, sheet.at((r, c))))
            if (r, c) in crumpled:
                items.append(Rect(lm + c * s, top + r * s, s, s, fill=CRUMPLED_GREY))
    for r in range(sheet.rows + 1):
        items.append(TextBox(0, top + r * s - 1.5, lm - 0.5, 3, str(r), size=5, min_size=3,
                             align="right", valign="middle", owner=owner))
    for c in range(sheet.cols + 1):
        items.append(TextBox(lm + c * s - 2, top - lm, 4, lm - 0.5, str(c), size=5,
                             min_size=3, align="center", valign="bottom", owner=owner))
    for i, pd in enumerate(placed):
        col = SECTION_COLOURS[i % len(SECTION_COLOURS)]
        items.append(outline_path(pd.section, lm, top, s, Stroke(col, 0.9, SECTION_DASH)))
        r0, c0 = min(pd.section)
        items.append(TextBox(lm + c0 * s + s * 0.25, top + r0 * s + s * 0.25, s * 0.5, s * 0.5,
                             f"**{letters[i % 26]}**", size=8, min_size=4, colour=col,
                             align="center", valign="middle", owner=owner))
    for n, rp in enumerate(rounds, start=1):
        for k, cut in enumerate(rp.all_cuts, start=1):
            (r1, c1), (r2, c2) = cut.start, cut.end
            items.append(Line(lm + c1 * s, top + r1 * s, lm + c2 * s, top + r2 * s,
                              Stroke(CUT_RED, 0.7)))
            mx, my = lm + (c1 + c2) / 2 * s, top + (r1 + r2) / 2 * s
            items.append(Circle(mx, my, 2.0, fill=PAPER, stroke=Stroke(CUT_RED, 0.2)))
            items.append(TextBox(mx - 2.0, my - 1.5, 4.0, 3.0, f"{n}.{k}", size=4.5,
                                 min_size=2.5, align="center", valign="middle",
                                 colour=CUT_RED, owner=owner))
    items.append(Rect(lm, top, sheet.cols * s, sheet.rows * s, stroke=Stroke(INK, 0.4)))
    y = top + sheet.rows * s + 6
    # Each card covered by the sections placed on it: the sheet squares laid on it,
    # outlined and lettered by section (a card certificate shows the card as printed too).
    cs = min(s, (width - 8.0 * len(cards)) / max(1, sum(c.width for c in cards) +
                                                 (cards[0].width if len(cards) == 1 else 0)))
    x = 0.0
    if len(cards) == 1:
        items.extend(card_grid_items(cards[0], 0, y, cs))
        x = cards[0].width * cs + 8
    for card in cards:
        items.append(outline_path(card.cells, x, y, cs, OUTLINE))
        if len(cards) > 1:
            items.append(TextBox(x, y - 4.5, max(12.0, card.width * cs), 4, card.id, size=5,
                                 min_size=3, owner=owner))
        for i, pd in enumerate(placed):
            if pd.card != card.id:
                continue
            col = SECTION_COLOURS[i % len(SECTION_COLOURS)]
            m = pd.placement.mapping()
            for sq, (r, c) in sorted(m.items()):
                items.extend(square_items(x + c * cs, y + r * cs, cs, sheet.at(sq)))
            cells = frozenset(m.values())
            items.append(outline_path(cells, x, y, cs, Stroke(col, 0.9, SECTION_DASH)))
            r0, c0 = min(cells)
            items.append(TextBox(x + c0 * cs + cs * 0.25, y + r0 * cs + cs * 0.25, cs * 0.5,
                                 cs * 0.5, f"**{letters[i % 26]}**", size=8, min_size=3,
                                 colour=col, align="center", valign="middle", owner=owner))
        x += card.width * cs + 8
    y += max(c.height for c in cards) * cs + 6
    lines = []
    for n, rp in enumerate(rounds, start=1):
        cuts = "; ".join(f"{n}.{k} {cut}" for k, cut in enumerate(rp.cuts, start=1))
        keeps = [f"{n}.{k} keeps {kp[0]},{kp[1]}" for k, kp in enumerate(rp.keeps, start=1)
                 if kp is not None]
        got = [f"{letters[placed.index(pd) % 26]} on {pd.card}" for pd in rp.placed]
        crum = len(rp.crumpled)
        extra = (("; " + ", ".join(keeps)) if keeps else "") + \
            ((": placed " + ", ".join(got)) if got else "") + \
            (f"; {crum} scrap(s) crumpled" if crum else "")
        for j, e in enumerate(rp.extra, start=len(rp.cuts) + 1):
            eg = [f"{letters[placed.index(pd) % 26]} on {pd.card}" for pd in e.placed]
            extra += f"; Extra Cut {n}.{j} {e.cut}" + (": placed " + ", ".join(eg) if eg else "")
        lines.append(f"Round {n}, face {face_label(rp.face)}: {cuts}{extra}")
    text = "\n".join(lines) + ("\nCuts: n.k is cut k of round n, from the corner row,col "
                               "(the numbered grid lines), direction, length. Dashed outlines: "
                               "sections; grey: crumpled.")
    avail_h = max(20.0, min(height - y, 8.0 + 4.0 * len(lines)))
    items.append(TextBox(0, y, max(40.0, width), avail_h, text, size=8, min_size=3,
                         owner=owner))
    return Drawing(width, min(height, y + avail_h), tuple(items))


def placement_cells(p: Placement) -> frozenset[Cell]:
    return frozenset(p.mapping().values())


def layout(deck: Deck, ps: ParksSet, report: Report) -> list[Component]:
    p: ParksParams = deck.params
    size = p.square
    page = deck.print.page
    margin = deck.print.margin
    avail_w = page.width - 2 * margin
    avail_h = page.height - 2 * margin
    comps: list[Component] = []
    sheet_d = sheet_drawing(ps.sheet, size, deck.label("parks.sheet"),
                            deck.label("parks.cut_note"))
    fits = (sheet_d.width <= avail_w and sheet_d.height <= avail_h) or \
        (sheet_d.width <= avail_h and sheet_d.height <= avail_w)
    if not fits:
        raise LayoutError(f"the {ps.sheet.rows}x{ps.sheet.cols} park sheet at {size:g} mm "
                          f"squares ({sheet_d.width:g}x{sheet_d.height:g} mm) does not fit the "
                          f"page; use smaller squares ([parks] square) or a larger page")
    comps.append(Component("sheet", "park-sheet", deck.label("parks.sheet"), sheet_d,
                           imposition="page"))
    back = card_back(deck)
    for card in ps.park_cards:
        comps.append(Component(card.id, "park-card", card.name, card_drawing(deck, card, size),
                               back=back, subjects=(card.id,)))
    for card in ps.grand_cards:
        comps.append(Component(card.id, "grand-park-card", card.name,
                               grand_drawing(card, size, deck.label("parks.grand")),
                               imposition="page",
                               subjects=(card.id,)))
    comps.append(Component("die", "die", deck.label("parks.die"), die_drawing(ps.die.faces, size),
                           imposition="page"))
    if any(n for _, n in ps.tokens):
        comps.append(Component("tokens", "tokens", deck.label("parks.tokens"),
                               tokens_drawing(ps.tokens),
                               imposition="page"))
    comps.append(Component("score-pad", "score-pad", deck.label("parks.score_pad"),
                           score_pad_drawing(min(avail_w, 190.0), deck.label("parks.game")),
                           imposition="page"))
    if p.proofs:
        for e in report.entries:
            if e.check != "completable" or e.status != "completable":
                continue
            cert_json: Any = e.details.get("certificate")
            if not cert_json:
                continue
            card = ps.card(e.subject)
            cert = Certificate.from_json(cert_json)
            title = f"**Proof: {card.id} {card.name}** \u2014 {e.message}"
            comps.append(Component(f"proof-{card.id}", "proof", f"Proof of {card.name}",
                                   proof_drawing(ps, [card], cert.rounds, title,
                                                 f"proof-{card.id}", avail_w, avail_h),
                                   imposition="page", subjects=(card.id,)))
        for e in report.entries:
            if e.check != "hand-coverage":
                continue
            for k, hand in enumerate(e.details.get("hands", []), start=1):
                if "certificate" not in hand:
                    continue
                hc = HandCertificate.from_json(hand["certificate"])
                cards = [ps.card(cid) for cid in hc.deal]
                title = (f"**Proof: hand {k}** ({', '.join(hc.deal)}; the first two face up, "
                         f"the rest the pile) \u2014 {len(hc.rounds)} rounds, "
                         f"{hc.cut_count} cuts")
                comps.append(Component(f"proof-hand-{k}", "proof", f"Proof of hand {k}",
                                       proof_drawing(ps, cards, hc.rounds, title,
                                                     f"proof-hand-{k}", avail_w, avail_h),
                                       imposition="page", subjects=hc.deal))
    return comps


__all__ = ["layout", "FEATURE_WORDS"]
