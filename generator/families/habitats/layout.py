"""Habitats components -> drawings: hex tiles (nested honeycomb), round tokens, scoring cards
with a pattern diagram and points table, the score pad, and proof pages of certificate maps.

Every habitat has a colour AND a pattern (dots, stripes, rings, crosses, triangles, ...) so
tiles read in greyscale and for colour-blind players; every species has a distinct shape with
its initial letter, drawn black on a white disc, legible at 40 mm tiles (symbols are 9-11 mm).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ...core.hexgrid import Hex, to_pixel
from ...deck import Deck
from ...render.colour import rgb
from ...render.drawing import (
    Circle,
    Drawing,
    Item,
    Line,
    Point,
    Polygon,
    Rect,
    Stroke,
    Symbol,
    TextBox,
)
from ...render.geometry import disc_outline, hex_corners
from ...render.symbols import register_symbol
from ..base import Component, HexNest, Report
from .model import HabitatsParams, HabitatsSet, ScoringCard, Tile
from .reach import least_measure, measures_for, replay, unit

INK = "#000000"
PAPER = "#ffffff"
SPECIES_COLOURS = ("#7a4b2a", "#2f6690", "#b0306a", "#3f7a2c", "#6b4f8f",
                   "#c06a10", "#2f6f6f", "#555555")
PATTERNS = ("dots", "stripes", "rings", "crosses", "triangles", "waves", "grid", "diamonds")

# --------------------------------------------------------------------------------------------
# Symbols: one shape per species slot, and the nature token
# --------------------------------------------------------------------------------------------


def _regular(cx: float, cy: float, r: float, n: int, start: float) -> tuple[Point, ...]:
    return tuple((cx + r * math.cos(math.radians(start + 360 * i / n)),
                  cy + r * math.sin(math.radians(start + 360 * i / n))) for i in range(n))


def _star(cx: float, cy: float, ro: float, ri: float, n: int) -> tuple[Point, ...]:
    pts: list[Point] = []
    for i in range(2 * n):
        r = ro if i % 2 == 0 else ri
        a = -math.pi / 2 + i * math.pi / n
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return tuple(pts)


_SHAPES: tuple[tuple[Item, ...], ...] = (
    (Rect(0.08, 0.08, 0.84, 0.84, fill=INK, radius=0.12),),                    # square
    (Polygon(((0.5, 0.02), (0.98, 0.92), (0.02, 0.92)), fill=INK),),           # triangle
    (Polygon(((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)), fill=INK),),     # diamond
    (Polygon(_regular(0.5, 0.5, 0.5, 6, 0), fill=INK),),                       # hexagon
    (Circle(0.5, 0.5, 0.47, fill=INK),),                                        # disc
    (Polygon(_star(0.5, 0.55, 0.52, 0.3, 5), fill=INK),),                      # star
    (Polygon(((0.3, 0.0), (0.7, 0.0), (0.7, 0.3), (1.0, 0.3), (1.0, 0.7), (0.7, 0.7),
              (0.7, 1.0), (0.3, 1.0), (0.3, 0.7), (0.0, 0.7), (0.0, 0.3), (0.3, 0.3)),
             fill=INK),),                                                       # cross
    (Polygon(_regular(0.5, 0.52, 0.5, 5, -90), fill=INK),),                    # pentagon
)
NATURE_SYMBOL = "habitats-nature"


def species_symbol(i: int) -> str:
    return f"habitats-species-{i + 1}"


for _i, _shape in enumerate(_SHAPES):
    register_symbol(species_symbol(_i), _shape)
register_symbol(NATURE_SYMBOL, (
    # a leaf with its midrib: the nature token (original shape)
    Polygon(((0.5, 0.02), (0.82, 0.3), (0.88, 0.6), (0.5, 0.98), (0.12, 0.6), (0.18, 0.3)),
            fill=INK),
    Line(0.5, 0.14, 0.5, 0.9, Stroke(PAPER, 0.05)),
    Line(0.5, 0.45, 0.72, 0.3, Stroke(PAPER, 0.035)),
    Line(0.5, 0.62, 0.28, 0.47, Stroke(PAPER, 0.035)),
))


def _shade(colour: str, f: float) -> str:
    """``colour`` darkened (f < 1) or lightened towards white (f > 1)."""
    r, g, b = rgb(colour)
    if f <= 1:
        r, g, b = (int(c * f) for c in (r, g, b))
    else:
        t = min(1.0, f - 1)
        r, g, b = (int(c + (255 - c) * t) for c in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def species_label(names: Sequence[str], species: str) -> str:
    """The shortest prefix of ``species`` no other species shares (``H``, or ``He``/``Ha``
    when two names start alike), capitalised."""
    for n in range(1, len(species) + 1):
        pre = species[:n].lower()
        if not any(o != species and o.lower().startswith(pre) for o in names):
            return pre.capitalize()
    return species.capitalize()


def token_items(box: HabitatsSet, species: str, cx: float, cy: float, r: float,
                letter: bool = True) -> list[Item]:
    """A species mark: white disc, black outline, the species shape and its initial(s)."""
    i = box.rules.species.index(species)
    s = r * 1.15
    out: list[Item] = [
        Circle(cx, cy, r, fill=PAPER, stroke=Stroke(INK, max(0.15, r * 0.06))),
        Symbol(species_symbol(i % len(_SHAPES)), cx - s / 2, cy - s / 2, s),
    ]
    if letter and r >= 2.5:
        label = species_label(box.rules.species, species)
        out.append(TextBox(cx - r, cy - r * 0.55, 2 * r, r * 1.1, label,
                           size=r * (1.9 if len(label) == 1 else 1.3), min_size=3.0,
                           align="center", valign="middle",
                           colour=PAPER, bold=True, owner=f"{species} symbol"))
    return out


# --------------------------------------------------------------------------------------------
# Hex geometry for drawing
# --------------------------------------------------------------------------------------------

def _edge_angles() -> list[float]:
    """The angle (radians, page coordinates) towards each neighbour, in core's order."""
    o = Hex(0, 0)
    x0, y0 = to_pixel(o, 1.0, "pointy")
    return [math.atan2(y - y0, x - x0)
            for x, y in (to_pixel(n, 1.0, "pointy") for n in o.neighbours())]


EDGE_ANGLES = _edge_angles()


def _pip(p: Point, poly: Sequence[Point]) -> bool:
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def habitat_regions(edges: Sequence[str], cx: float, cy: float,
                    circ: float) -> list[tuple[str, tuple[Point, ...]]]:
    """Polygons of a tile's habitats: runs of neighbouring edges with the same habitat, each a
    fan from the centre through the corners of its edges."""
    order = sorted(range(6), key=lambda d: EDGE_ANGLES[d])
    # rotate so that a run never wraps around the list end
    k = next((i for i in range(6) if edges[order[i]] != edges[order[i - 1]]), 0)
    order = order[k:] + order[:k]
    runs: list[tuple[str, list[int]]] = []
    for d in order:
        if runs and runs[-1][0] == edges[d]:
            runs[-1][1].append(d)
        else:
            runs.append((edges[d], [d]))
    out = []
    for hab, ds in runs:
        pts: list[Point] = [] if len(runs) == 1 else [(cx, cy)]
        for j, d in enumerate(ds):
            a = EDGE_ANGLES[d]
            if j == 0:
                pts.append((cx + circ * math.cos(a - math.pi / 6),
                            cy + circ * math.sin(a - math.pi / 6)))
            pts.append((cx + circ * math.cos(a + math.pi / 6),
                        cy + circ * math.sin(a + math.pi / 6)))
        if len(runs) == 1:
            pts = pts[:6]
        out.append((hab, tuple(pts)))
    return out


def pattern_items(pattern: str, poly: Sequence[Point], colour: str, spacing: float,
                  box: tuple[float, float, float, float]) -> list[Item]:
    """Marks of ``pattern`` on a lattice inside ``poly`` (clipped by centre point)."""
    x0, y0, x1, y1 = box
    ink = _shade(colour, 0.55)
    s = spacing
    out: list[Item] = []
    w = max(0.12, s * 0.06)
    j = 0
    y = y0 + s / 2
    while y < y1:
        x = x0 + s / 2 + (s / 2 if j % 2 else 0.0)
        while x < x1:
            if _pip((x, y), poly):
                m = s * 0.22
                if pattern == "dots":
                    out.append(Circle(x, y, m * 0.8, fill=ink))
                elif pattern == "rings":
                    out.append(Circle(x, y, m, stroke=Stroke(ink, w)))
                elif pattern == "crosses":
                    out.append(Line(x - m, y - m, x + m, y + m, Stroke(ink, w)))
                    out.append(Line(x - m, y + m, x + m, y - m, Stroke(ink, w)))
                elif pattern == "triangles":
                    out.append(Polygon(((x, y - m), (x + m, y + m * 0.8),
                                        (x - m, y + m * 0.8)), fill=ink))
                elif pattern == "waves":
                    out.append(Polygon(((x - 1.6 * m, y), (x - 0.8 * m, y - m * 0.7), (x, y),
                                        (x + 0.8 * m, y - m * 0.7), (x + 1.6 * m, y)),
                                       stroke=Stroke(ink, w), closed=False))
                elif pattern == "grid":
                    out.append(Rect(x - m * 0.7, y - m * 0.7, 1.4 * m, 1.4 * m,
                                    stroke=Stroke(ink, w)))
                elif pattern == "diamonds":
                    out.append(Polygon(((x, y - m), (x + m, y), (x, y + m), (x - m, y)),
                                       fill=ink))
                else:  # stripes: short diagonal dashes line up into stripes
                    out.append(Line(x - s * 0.45, y + s * 0.45, x + s * 0.45, y - s * 0.45,
                                    Stroke(ink, w * 1.6)))
            x += s
        y += s * 0.87
        j += 1
    return out


def hex_items(box: HabitatsSet, tile: Tile, rotation: int, cx: float, cy: float, circ: float,
              token: str | None = None, detail: bool = True) -> list[Item]:
    """A tile at (cx, cy) with circumradius ``circ``: habitats, symbols, keystone mark."""
    out: list[Item] = []
    edges = tile.edges(rotation)
    habs = box.rules.habitats
    for hab, poly in habitat_regions(edges, cx, cy, circ):
        i = habs.index(hab)
        colour = box.colours[i]
        out.append(Polygon(poly, fill=colour))
        if detail:
            bb = (cx - circ, cy - circ, cx + circ, cy + circ)
            out += pattern_items(PATTERNS[i % len(PATTERNS)], poly, colour, circ * 0.3, bb)
    if len(set(edges)) > 1:
        # a white divider between the two habitats
        regions = habitat_regions(edges, cx, cy, circ)
        poly = regions[0][1]
        out.append(Line(poly[1][0], poly[1][1], poly[-1][0], poly[-1][1],
                        Stroke(PAPER, max(0.2, circ * 0.025))))
    n = len(tile.species)
    r = circ * (0.27 if n == 1 else 0.22 if n == 2 else 0.2)
    if n == 1:
        spots = [(cx, cy)]
    elif n == 2:
        spots = [(cx - r * 1.1, cy), (cx + r * 1.1, cy)]
    else:
        spots = [(cx, cy - r * 1.05), (cx - r * 1.1, cy + r * 0.85), (cx + r * 1.1, cy + r * 0.85)]
    if token is not None:
        col = SPECIES_COLOURS[box.rules.species.index(token) % len(SPECIES_COLOURS)]
        out.append(Circle(cx, cy, circ * 0.5, fill=col, stroke=Stroke(INK, circ * 0.04)))
        out += token_items(box, token, cx, cy, circ * 0.38, letter=detail)
        return out
    for sp, (x, y) in zip(tile.species, spots, strict=True):
        out += token_items(box, sp, x, y, r, letter=detail)
    if tile.keystone:
        k = circ * 0.26
        out.append(Circle(cx, cy, r * 1.18, stroke=Stroke(INK, max(0.25, circ * 0.035))))
        out.append(Symbol(NATURE_SYMBOL, cx + r * 0.9, cy - r * 1.5, k))
    return out


def tile_drawing(deck: Deck, box: HabitatsSet, tile: Tile) -> Drawing:
    p: HabitatsParams = deck.params
    f = p.hex_size
    circ = f / math.sqrt(3)
    w, h = f, 2 * circ
    cx, cy = w / 2, h / 2
    items = hex_items(box, tile, 0, cx, cy, circ)
    if tile.starter:
        items.append(TextBox(cx - circ * 0.5, cy + circ * 0.55, circ, circ * 0.22,
                             f"start {tile.starter.split('-')[-1]}", size=6.0, min_size=4.0,
                             align="center", valign="middle", bold=True,
                             owner=f"{tile.id} label"))
    return Drawing(w, h, tuple(items), bleed=0.0, cut=hex_corners(cx, cy, circ))


# --------------------------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------------------------

def _disc_cut(d: float) -> tuple[Point, ...]:
    return disc_outline(d / 2, d / 2, d / 2)


def token_drawing(deck: Deck, box: HabitatsSet, species: str | None) -> Drawing:
    p: HabitatsParams = deck.params
    d = p.token_size
    bleed = deck.print.bleed
    r = d / 2
    if species is None:
        items: list[Item] = [Circle(r, r, r + bleed, fill="#5f8f3a"),
                             Symbol(NATURE_SYMBOL, r - r * 0.6, r - r * 0.7, r * 1.2,
                                    colour="#ffffff")]
    else:
        col = SPECIES_COLOURS[box.rules.species.index(species) % len(SPECIES_COLOURS)]
        items = [Circle(r, r, r + bleed, fill=col)]
        items += token_items(box, species, r, r * 0.86, r * 0.64)
        items.append(TextBox(r * 0.3, r * 1.53, r * 1.4, r * 0.3, species, size=6.0,
                             min_size=3.5, align="center", valign="middle", colour=PAPER,
                             bold=True, owner=f"token {species} name"))
    return Drawing(d, d, tuple(items), bleed=bleed, cut=_disc_cut(d))


# --------------------------------------------------------------------------------------------
# Scoring cards
# --------------------------------------------------------------------------------------------

def diagram_items(box: HabitatsSet, card: ScoringCard, x: float, y: float, w: float,
                  h: float) -> list[Item]:
    """A small hex map of one match of the card's first term (its first scoring tier)."""
    term = card.terms[0]
    if term.mode == "each":
        ms, _ = measures_for(term, min(1, len(term.table) - 1), box)
        if not ms:
            ms, _ = measures_for(term, 0, box)
        measure = ms[0] if ms else None
    else:
        measure = least_measure(term, box)
    if measure is None:
        return []
    toks: Mapping[Hex, str] = unit(term, card.species, measure, box)
    if term.kind == "sight":
        toks = {**toks}
    hexes = set(toks)
    for hx in list(toks):
        hexes.update(hx.neighbours())
    pts = {hx: to_pixel(hx, 1.0, "pointy") for hx in hexes}
    xs = [q[0] for q in pts.values()]
    ys = [q[1] for q in pts.values()]
    span_x = max(xs) - min(xs) + math.sqrt(3)
    span_y = max(ys) - min(ys) + 2
    s = min(w / span_x, h / span_y)
    ox = x + (w - span_x * s) / 2 - (min(xs) - math.sqrt(3) / 2) * s
    oy = y + (h - span_y * s) / 2 - (min(ys) - 1) * s
    out: list[Item] = []
    for hx in sorted(hexes):
        px, py = pts[hx]
        cx, cy = ox + px * s, oy + py * s
        corners = tuple((cx + s * math.cos(math.radians(-90 + 60 * i)),
                         cy + s * math.sin(math.radians(-90 + 60 * i))) for i in range(6))
        out.append(Polygon(corners, fill="#eeeeee" if hx not in toks else "#ffffff",
                           stroke=Stroke("#999999", 0.2)))
        if hx in toks:
            out += token_items(box, toks[hx], cx, cy, s * 0.62, letter=s * 0.62 >= 2.5)
    return out


def card_front(deck: Deck, box: HabitatsSet, card: ScoringCard) -> Drawing:
    size = deck.print.card
    w, h, bleed, safe = size.width, size.height, deck.print.bleed, deck.print.safe
    si = box.rules.species.index(card.species)
    col = SPECIES_COLOURS[si % len(SPECIES_COLOURS)]
    band = min(15.0, h * 0.17)
    items: list[Item] = [
        Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill="#fbf8f0"),
        Rect(-bleed, -bleed, w + 2 * bleed, band + bleed, fill=col),
    ]
    items += token_items(box, card.species, safe + band * 0.36, band * 0.55, band * 0.32)
    items.append(TextBox(safe + band * 0.8, safe * 0.5, w - 2 * safe - band * 1.4,
                         band - safe * 0.5, f"{card.title}", size=13, min_size=7,
                         align="left", valign="middle", colour=PAPER, bold=True,
                         owner=f"{card.id} title"))
    items.append(TextBox(w - safe - band * 0.6, safe * 0.5, band * 0.6, band - safe * 0.5,
                         card.letter, size=13, min_size=7, align="right", valign="middle",
                         colour=PAPER, bold=True, owner=f"{card.id} letter"))
    rows = len(card.terms)
    row_h = 10.0 if h >= 80 else 8.5
    tab_y = h - safe - rows * row_h
    dy = band + 2
    free = tab_y - 1.5 - dy  # shared by the diagram and the rules text
    dh = free * 0.5
    items.append(Rect(safe, dy, w - 2 * safe, dh, fill=PAPER, stroke=Stroke("#cccccc", 0.2),
                      radius=1.5))
    items += diagram_items(box, card, safe + 1, dy + 1, w - 2 * safe - 2, dh - 2)
    ty = dy + dh + 1.5
    th = tab_y - 1.5 - ty
    items.append(TextBox(safe, ty, w - 2 * safe, th, card.rules_text(), size=8.5,
                         min_size=5.0, owner=f"{card.id} text"))
    for ti, term in enumerate(card.terms):
        labels = term.table_labels()
        n = len(labels)
        cw = (w - 2 * safe) / n
        y0 = tab_y + ti * row_h
        mark = "\u00d7" if term.mode == "count" else ""
        for j, (lab, pts) in enumerate(zip(labels, term.table, strict=True)):
            x0 = safe + j * cw
            items.append(Rect(x0 + 0.3, y0, cw - 0.6, row_h - 1, fill=PAPER,
                              stroke=Stroke(col, 0.35), radius=1.0))
            items.append(TextBox(x0 + 0.5, y0 + 0.3, cw - 1, (row_h - 1) * 0.4,
                                 f"{mark}{lab}", size=7, min_size=4.5, align="center",
                                 valign="middle", colour="#444444",
                                 owner=f"{card.id} table label"))
            items.append(TextBox(x0 + 0.5, y0 + (row_h - 1) * 0.4, cw - 1,
                                 (row_h - 1) * 0.58, str(pts), size=11, min_size=5.5,
                                 align="center", valign="middle", bold=True,
                                 owner=f"{card.id} table points"))
    items.append(Rect(0, 0, w, h, stroke=Stroke(col, 0.6), radius=3.0))
    return Drawing(w, h, tuple(items), bleed=bleed, background="#fbf8f0")


def card_back(deck: Deck, box: HabitatsSet, card: ScoringCard) -> Drawing:
    size = deck.print.card
    w, h, bleed, safe = size.width, size.height, deck.print.bleed, deck.print.safe
    col = SPECIES_COLOURS[box.rules.species.index(card.species) % len(SPECIES_COLOURS)]
    items: list[Item] = [Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=col)]
    items += token_items(box, card.species, w / 2, h * 0.42, min(w, h) * 0.22)
    items.append(TextBox(safe, h * 0.66, w - 2 * safe, h * 0.1, card.species, size=16,
                         min_size=8, align="center", valign="middle", colour=PAPER, bold=True,
                         owner=f"{card.id} back"))
    items.append(TextBox(safe, h * 0.77, w - 2 * safe, h * 0.07, "wildlife scoring", size=9,
                         min_size=6, align="center", valign="middle", colour=PAPER,
                         owner=f"{card.id} back"))
    return Drawing(w, h, tuple(items), bleed=bleed, background=col)


# --------------------------------------------------------------------------------------------
# Score pad and proof pages
# --------------------------------------------------------------------------------------------

def _page_area(deck: Deck) -> tuple[float, float]:
    pg = deck.print.page
    m = deck.print.margin
    return pg.width - 2 * m - 2, pg.height - 2 * m - 2


def score_pad(deck: Deck, box: HabitatsSet) -> Drawing:
    p: HabitatsParams = deck.params
    w, h = _page_area(deck)
    players = p.score_pad_players or p.max_players
    rows: list[tuple[str, str, str | None]] = []  # label, kind, species
    for sp in box.rules.species:
        rows.append((sp, "species", sp))
    rows.append(("wildlife total", "sum", None))
    for hab in box.rules.habitats:
        rows.append((f"{hab}: corridor", "habitat", hab))
        rows.append((f"{hab}: bonus", "bonus", hab))
    rows.append(("habitat total", "sum", None))
    rows.append(("nature tokens", "nature", None))
    rows.append(("TOTAL", "sum", None))
    title_h = 12.0
    label_w = w * 0.34
    rh = 8.0
    block_h = (len(rows) + 1) * rh + 8.0
    games = max(1, int((h - title_h) // block_h))
    if games == 1:
        rh = min(9.0, (h - title_h - 8) / (len(rows) + 1))
    cw = (w - label_w) / players
    items: list[Item] = [TextBox(0, 0, w, title_h, f"**{deck.name}** score pad", size=16,
                                 min_size=9, align="center", valign="middle",
                                 owner="score pad title")]
    y = title_h
    for g in range(games):
        items.append(TextBox(0, y, label_w, rh, f"game {g + 1}: player", size=9, min_size=6,
                             valign="middle", italic=True, owner="score pad header"))
        for j in range(players):
            items.append(Rect(label_w + j * cw, y, cw, rh, stroke=Stroke(INK, 0.3)))
        y += rh
        for label, kind, key in rows:
            fill = "#e8e8e8" if kind == "sum" else None
            if kind in ("habitat", "bonus") and key is not None:
                i = box.rules.habitats.index(key)
                fill = _shade(box.colours[i], 1.6)
            items.append(Rect(0, y, w, rh, fill=fill, stroke=Stroke(INK, 0.3)))
            x_text = 1.0
            if kind == "species" and key is not None:
                items += token_items(box, key, rh * 0.5 + 0.5, y + rh / 2, rh * 0.4)
                x_text = rh + 1.5
            if kind in ("habitat", "bonus") and key is not None:
                # a swatch with the habitat's colour and pattern, for greyscale prints
                i = box.rules.habitats.index(key)
                sw = (rh * 1.4, rh * 0.8)
                poly = ((1.0, y + 0.1 * rh), (1.0 + sw[0], y + 0.1 * rh),
                        (1.0 + sw[0], y + 0.1 * rh + sw[1]), (1.0, y + 0.1 * rh + sw[1]))
                items.append(Polygon(poly, fill=box.colours[i]))
                items += pattern_items(PATTERNS[i % len(PATTERNS)], poly, box.colours[i],
                                       rh * 0.35, (1.0, y, 1.0 + sw[0], y + rh))
                x_text = sw[0] + 2.5
            if kind == "nature":
                items.append(Symbol(NATURE_SYMBOL, 0.8, y + rh * 0.1, rh * 0.8))
                x_text = rh + 1.5
            items.append(TextBox(x_text, y, label_w - x_text, rh, label, size=9, min_size=5.5,
                                 valign="middle", bold=kind == "sum", owner="score pad row"))
            for j in range(players):
                items.append(Rect(label_w + j * cw, y, cw, rh, stroke=Stroke(INK, 0.3)))
            y += rh
        y += 8.0
    return Drawing(w, h, tuple(items))


def map_items(box: HabitatsSet, certificate: Mapping[str, Any], x: float, y: float, w: float,
              h: float) -> list[Item]:
    """A certificate's final map, replayed, fitted into the box (x, y, w, h)."""
    m = replay(certificate, box)
    pts = {hx: to_pixel(hx, 1.0, "pointy") for hx in m.tiles}
    xs = [q[0] for q in pts.values()]
    ys = [q[1] for q in pts.values()]
    span_x = max(xs) - min(xs) + math.sqrt(3)
    span_y = max(ys) - min(ys) + 2
    s = min(w / span_x, h / span_y, 9.0)
    ox = x + (w - span_x * s) / 2 - (min(xs) - math.sqrt(3) / 2) * s
    oy = y + (h - span_y * s) / 2 - (min(ys) - 1) * s
    out: list[Item] = []
    for hx in sorted(m.tiles):
        placed = m.tiles[hx]
        px, py = pts[hx]
        out += hex_items(box, placed.tile, placed.rotation, ox + px * s, oy + py * s, s,
                         token=m.tokens.get(hx), detail=False)
        corners = tuple((ox + px * s + s * math.cos(math.radians(-90 + 60 * i)),
                         oy + py * s + s * math.sin(math.radians(-90 + 60 * i)))
                        for i in range(6))
        out.append(Polygon(corners, stroke=Stroke("#333333", 0.15)))
    return out


def proof_pages(deck: Deck, box: HabitatsSet, report: Report) -> list[Component]:
    """One panel per card: the certificate of its highest reachable tier."""
    best: dict[str, dict[str, Any]] = {}
    for e in report.entries:
        if e.status == "completable" and "certificate" in e.details:
            best[e.subject] = e.details["certificate"]  # tiers come in order: last is top
    w, h = _page_area(deck)
    cols, rows = 2, 3
    pw, ph = w / cols, (h - 12) / rows
    panels = [(cid, best[cid]) for cid in (c.id for c in box.cards) if cid in best]
    out: list[Component] = []
    for page, start in enumerate(range(0, len(panels), cols * rows)):
        items: list[Item] = [TextBox(0, 0, w, 10, f"**{deck.name}**: proof maps (highest "
                                     "reachable tier of each card, replayed)", size=11,
                                     min_size=7, align="center", valign="middle",
                                     owner="proof title")]
        subjects = []
        for k, (cid, cert) in enumerate(panels[start:start + cols * rows]):
            r, c = divmod(k, cols)
            x0, y0 = c * pw, 12 + r * ph
            card = box.card(cid)
            assert card is not None
            items.append(Rect(x0 + 1, y0 + 1, pw - 2, ph - 2, stroke=Stroke("#999999", 0.2)))
            items.append(TextBox(x0 + 3, y0 + 2, pw - 6, 9,
                                 f"**{cid}** {card.title}: tier {cert['tier'] + 1}, "
                                 f"{cert['points']} pts, {len(cert['turns'])} turns, "
                                 f"{cert['tokens']} tokens", size=8, min_size=5,
                                 owner=f"proof {cid}"))
            items += map_items(box, cert, x0 + 3, y0 + 12, pw - 6, ph - 15)
            subjects.append(cid)
        out.append(Component(id=f"proof-{page + 1:02d}", kind="proof",
                             title=f"Proof maps {page + 1}", front=Drawing(w, h, tuple(items)),
                             imposition="page", subjects=tuple(subjects)))
    return out


# --------------------------------------------------------------------------------------------
# All components
# --------------------------------------------------------------------------------------------

def layout(deck: Deck, box: HabitatsSet, report: Report) -> list[Component]:
    p: HabitatsParams = deck.params
    nest = HexNest(flat_to_flat=p.hex_size, orientation="pointy")
    out: list[Component] = []
    for t in box.tiles:
        out.append(Component(id=t.id, kind="tile", title=str(t),
                             front=tile_drawing(deck, box, t), imposition="nest", nest=nest))
    for g in box.starters:
        for t in g.tiles:
            out.append(Component(id=t.id, kind="starter-tile", title=str(t),
                                 front=tile_drawing(deck, box, t), imposition="nest",
                                 nest=nest))
    for i, sp in enumerate(box.rules.species):
        out.append(Component(id=f"tokens-{i + 1}", kind="token", title=f"{sp} token",
                             front=token_drawing(deck, box, sp),
                             copies=box.rules.tokens_per_species,
                             subjects=(f"tokens-{i + 1}",)))
    if box.rules.nature_tokens:
        out.append(Component(id="nature-tokens", kind="token", title="nature token",
                             front=token_drawing(deck, box, None),
                             copies=box.rules.nature_tokens))
    for c in box.cards:
        out.append(Component(id=c.id, kind="scoring-card", title=f"{c.species}: {c.title}",
                             front=card_front(deck, box, c), back=card_back(deck, box, c),
                             subjects=(c.id,)))
    out.append(Component(id="score-pad", kind="score-pad", title="Score pad",
                         front=score_pad(deck, box), imposition="page"))
    out += proof_pages(deck, box, report)
    return out
