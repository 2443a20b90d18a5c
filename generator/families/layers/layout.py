"""Layers components -> drawings: landscape cards, starting cards, objective cards with a 3x3
diagram, score tokens, the scissors token, and a proof page per certificate.

Every colour is printed with its pattern too (a tiled motif and a corner badge), so cards read
in greyscale and for colour-blind players. The symbols of the patterns are registered here.
"""

from __future__ import annotations

from typing import Any

from ...deck import Deck
from ...render.colour import mix
from ...render.drawing import (
    Circle,
    Drawing,
    Group,
    Item,
    Line,
    Path,
    Polygon,
    Rect,
    Stroke,
    Symbol,
    TextBox,
)
from ...render.geometry import disc_outline
from ...render.symbols import INK, PAPER, register_symbol
from ..base import Component, Report
from .model import Card, Colour, CountPart, LayersSet, Objective, ShapePart
from .objectives import describe_part

# --------------------------------------------------------------------------------------------
# Pattern symbols (unit box, ink = INK so Symbol(colour=...) recolours them)


def _s(w: float) -> Stroke:
    return Stroke(INK, w)


def _wave_ops(y: float, amp: float) -> tuple[Any, ...]:
    ops: list[Any] = [("M", 0.05, y)]
    for i in range(3):
        a = 0.05 + i * 0.3
        s = -1.0 if i % 2 == 0 else 1.0
        ops.append(("C", a + 0.1, y + s * amp, a + 0.2, y + s * amp, a + 0.3, y))
    return tuple(ops)


_PATTERNS: dict[str, tuple[Item, ...]] = {
    "leaves": (
        Path((("M", 0.15, 0.85), ("C", 0.15, 0.35, 0.5, 0.1, 0.9, 0.1),
              ("C", 0.9, 0.55, 0.6, 0.85, 0.15, 0.85), ("Z",)), fill=INK),
        Line(0.15, 0.85, 0.62, 0.38, Stroke(PAPER, 0.06)),
    ),
    "waves": (
        Path(_wave_ops(0.3, 0.14), stroke=_s(0.09)),
        Path(_wave_ops(0.7, 0.14), stroke=_s(0.09)),
    ),
    "flames": (
        Path((("M", 0.5, 0.05), ("C", 0.75, 0.35, 0.9, 0.55, 0.78, 0.78),
              ("C", 0.68, 0.95, 0.32, 0.95, 0.22, 0.78),
              ("C", 0.12, 0.58, 0.3, 0.45, 0.38, 0.3),
              ("C", 0.42, 0.45, 0.5, 0.5, 0.5, 0.05), ("Z",)), fill=INK),
    ),
    "dots": (
        Circle(0.28, 0.3, 0.14, fill=INK), Circle(0.72, 0.3, 0.14, fill=INK),
        Circle(0.5, 0.72, 0.14, fill=INK),
    ),
    "stripes": (
        Line(0.05, 0.55, 0.55, 0.05, _s(0.1)), Line(0.2, 0.95, 0.95, 0.2, _s(0.1)),
    ),
    "checks": (
        Rect(0.1, 0.1, 0.38, 0.38, fill=INK), Rect(0.52, 0.52, 0.38, 0.38, fill=INK),
    ),
    "rings": (
        Circle(0.5, 0.5, 0.4, stroke=_s(0.08)), Circle(0.5, 0.5, 0.2, stroke=_s(0.08)),
    ),
    "zigzag": (
        Polygon(((0.05, 0.65), (0.28, 0.3), (0.5, 0.65), (0.72, 0.3), (0.95, 0.65)),
                stroke=_s(0.1), closed=False),
    ),
}

for _name, _items in _PATTERNS.items():
    register_symbol(f"layers-{_name}", _items)

register_symbol("layers-stack", (
    Rect(0.1, 0.52, 0.62, 0.36, fill=INK, radius=0.05),
    Rect(0.19, 0.33, 0.62, 0.36, fill=PAPER, stroke=_s(0.06), radius=0.05),
    Rect(0.28, 0.14, 0.62, 0.36, fill=INK, radius=0.05),
))


register_symbol("layers-equal", (
    Rect(0.15, 0.3, 0.7, 0.13, fill=INK), Rect(0.15, 0.57, 0.7, 0.13, fill=INK),
))
register_symbol("layers-differ", (
    Rect(0.15, 0.3, 0.7, 0.13, fill=INK), Rect(0.15, 0.57, 0.7, 0.13, fill=INK),
    Line(0.3, 0.9, 0.7, 0.1, _s(0.1)),
))


def pattern_symbol(colour: Colour) -> str:
    return f"layers-{colour.pattern}"


_mix = mix


DARK = "#222222"
CARD_BACK = "#2e3a44"
PAPER_TINT = "#f4efe4"

# --------------------------------------------------------------------------------------------
# Landscape cards


def _pattern_tiles(w: float, h: float, bleed: float, symbol: str, colour: str,
                   step: float) -> tuple[Item, ...]:
    items: list[Item] = []
    size = step * 0.45
    row = 0
    y = -bleed
    while y < h + bleed:
        x = -bleed + (step / 2 if row % 2 else 0.0)
        while x < w + bleed:
            items.append(Symbol(symbol, x, y, size, colour))
            x += step
        y += step * 0.8
        row += 1
    return (Group(tuple(items), clip=Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed)),)


def _stars(cx: float, y: float, n: int, size: float, colour: str = DARK) -> tuple[Item, ...]:
    if n <= 0:
        return ()
    gap = size * 0.15
    total = n * size + (n - 1) * gap
    x0 = cx - total / 2
    return tuple(Symbol("star", x0 + i * (size + gap), y, size, colour) for i in range(n))


def card_front(deck: Deck, gen: LayersSet, card: Card, mark: str = "", owner: str = "",
               start: bool = False) -> Drawing:
    """Colour and pattern to the bleed, a large value in a paper panel, stars, the scissors
    logo, corner indices (value + pattern badge) and a player-count mark."""
    w, h = deck.print.card.width, deck.print.card.height
    b, safe = deck.print.bleed, deck.print.safe
    col = gen.colour(card.colour)
    ink = col.ink
    sym = pattern_symbol(col)
    items: list[Item] = [Rect(-b, -b, w + 2 * b, h + 2 * b, fill=ink)]
    items.extend(_pattern_tiles(w, h, b, sym, _mix(ink, "#ffffff", 0.3), 10.0))
    pw, ph = w * 0.62, h * 0.5
    px, py = (w - pw) / 2, (h - ph) / 2
    items.append(Rect(px, py, pw, ph, fill=PAPER, stroke=Stroke(DARK, 0.5), radius=3.0))
    items.append(TextBox(px, py + ph * 0.04, pw, ph * 0.58, str(card.value), size=80,
                         min_size=30, align="center", valign="middle", bold=True, colour=DARK,
                         owner=owner))
    star = min(pw / 4.5, 8.0)
    items.extend(_stars(w / 2, py + ph * 0.64, card.stars, star))
    items.append(TextBox(px + 1, py + ph * 0.82, pw - 2, ph * 0.15, card.colour.upper(),
                         size=9, min_size=5, align="center", valign="middle", bold=True,
                         colour=DARK, owner=owner))
    # corner indices: value and the pattern badge, top-left and (turned) bottom-right
    badge = 9.0
    corner: list[Item] = [
        Circle(safe + badge / 2, safe + badge / 2, badge / 2 + 0.6, fill=PAPER,
               stroke=Stroke(DARK, 0.3)),
        TextBox(safe, safe, badge, badge, str(card.value), size=16, min_size=8,
                align="center", valign="middle", bold=True, colour=DARK, owner=owner),
        Circle(safe + badge / 2, safe + badge * 1.75, badge / 2 - 0.5, fill=PAPER),
        Symbol(sym, safe + 1.5, safe + badge * 1.25 + 0.5, badge - 3.0, DARK),
    ]
    items.extend(corner)
    items.append(Group(tuple(corner), dx=w, dy=h, rotate=180))
    if card.scissors:
        r = 6.0
        cx, cy = w - safe - r, safe + r
        items.append(Circle(cx, cy, r, fill=PAPER, stroke=Stroke(DARK, 0.5)))
        items.append(Symbol("scissors", cx - r * 0.7, cy - r * 0.7, r * 1.4, DARK))
    if mark:
        items.append(Rect(safe, h - safe - 6, 10, 6, fill=PAPER, radius=1.0))
        items.append(TextBox(safe, h - safe - 6, 10, 6, mark, size=8, min_size=5,
                             align="center", valign="middle", bold=True, colour=DARK,
                             owner=owner))
    if start:
        items.append(Rect(px, py + ph + 1.5, pw, 6.5, fill=DARK, radius=1.5))
        items.append(TextBox(px, py + ph + 1.5, pw, 6.5, "START", size=10, min_size=6,
                             align="center", valign="middle", bold=True, colour="#ffffff",
                             owner=owner))
    return Drawing(w, h, tuple(items), bleed=b)


def card_back(deck: Deck, label: str, fill: str = CARD_BACK, owner: str = "") -> Drawing:
    w, h = deck.print.card.width, deck.print.card.height
    b = deck.print.bleed
    s = min(w, h) * 0.5
    items: list[Item] = [
        Rect(-b, -b, w + 2 * b, h + 2 * b, fill=fill),
        Rect(deck.print.safe, deck.print.safe, w - 2 * deck.print.safe,
             h - 2 * deck.print.safe, stroke=Stroke(PAPER, 0.6), radius=3.0),
        Symbol("layers-stack", (w - s) / 2, (h - s) / 2 - 6, s, PAPER),
        TextBox(deck.print.safe, h / 2 + s / 2 - 2, w - 2 * deck.print.safe, 10, label,
                size=14, min_size=7, align="center", valign="middle", bold=True,
                colour=PAPER, owner=owner),
    ]
    return Drawing(w, h, tuple(items), bleed=b)


# --------------------------------------------------------------------------------------------
# Objective cards


def _diagram(x: float, y: float, size: float, gen: LayersSet, part: ShapePart) -> list[Item]:
    """A 3x3 grid with the shape's drawn orientation shaded (centred when smaller)."""
    cell = size / 3
    cells = part.variants[0]
    hh = max(r for r, _ in cells) + 1
    ww = max(c for _, c in cells) + 1
    dr, dc = (3 - hh) // 2, (3 - ww) // 2
    on = {(r + dr, c + dc): i for i, (r, c) in enumerate(cells)}
    items: list[Item] = []
    for r in range(3):
        for c in range(3):
            cx, cy = x + c * cell, y + r * cell
            if (r, c) in on:
                fill = "#5b5b5b"
                if part.condition == "same-colour" and part.colour:
                    fill = gen.colour(part.colour).ink
                items.append(Rect(cx + 0.6, cy + 0.6, cell - 1.2, cell - 1.2, fill=fill,
                                  stroke=Stroke(DARK, 0.4), radius=1.0))
                label = ""
                if part.condition == "values":
                    label = str(part.values[on[(r, c)]])
                elif part.condition in ("same-value", "different-values"):
                    sym = "layers-equal" if part.condition == "same-value" else "layers-differ"
                    items.append(Symbol(sym, cx + cell * 0.25, cy + cell * 0.25, cell * 0.5,
                                        "#ffffff"))
                if part.condition == "same-colour" and part.colour:
                    sym = pattern_symbol(gen.colour(part.colour))
                    items.append(Symbol(sym, cx + cell * 0.25, cy + cell * 0.25, cell * 0.5,
                                        "#ffffff"))
                elif part.condition in ("same-colour", "different-colours"):
                    sym = "layers-stack" if part.condition == "same-colour" else "layers-dots"
                    items.append(Symbol(sym, cx + cell * 0.25, cy + cell * 0.25, cell * 0.5,
                                        "#ffffff"))
                if label:
                    items.append(TextBox(cx, cy, cell, cell, label, size=14, min_size=6,
                                         align="center", valign="middle", bold=True,
                                         colour="#ffffff"))
            else:
                items.append(Rect(cx + 0.6, cy + 0.6, cell - 1.2, cell - 1.2, fill=PAPER,
                                  stroke=Stroke("#9a9a9a", 0.3, (1.0, 0.8)), radius=1.0))
    return items


def _count_glyph(x: float, y: float, size: float, gen: LayersSet, part: CountPart) -> list[Item]:
    items: list[Item] = [Rect(x, y, size, size, fill=PAPER, stroke=Stroke(DARK, 0.4),
                              radius=2.0)]
    big = f"{part.at_least}×"
    if part.kind == "scissors":
        items.append(Symbol("scissors", x + size * 0.45, y + size * 0.2, size * 0.45, DARK))
        items.append(TextBox(x, y, size * 0.48, size, big, size=18, min_size=7,
                             align="right", valign="middle", bold=True, colour=DARK))
    elif part.kind == "value":
        items.append(TextBox(x, y, size, size, f"{big}{part.value}", size=22, min_size=7,
                             align="center", valign="middle", bold=True, colour=DARK))
    elif part.kind == "colour" and part.colour:
        col = gen.colour(part.colour)
        items.append(Rect(x + size * 0.5, y + size * 0.2, size * 0.4, size * 0.6, fill=col.ink,
                          radius=1.0))
        items.append(Symbol(pattern_symbol(col), x + size * 0.55, y + size * 0.35, size * 0.3,
                            "#ffffff"))
        items.append(TextBox(x, y, size * 0.48, size, big, size=18, min_size=7,
                             align="right", valign="middle", bold=True, colour=DARK))
    else:
        vals = " ".join(str(v) for v in gen.values)
        items.append(TextBox(x + 1, y, size - 2, size, vals, size=14, min_size=5,
                             align="center", valign="middle", bold=True, colour=DARK))
    return items


def objective_front(deck: Deck, gen: LayersSet, obj: Objective) -> Drawing:
    w, h = deck.print.card.width, deck.print.card.height
    b, safe = deck.print.bleed, deck.print.safe
    owner = obj.id
    items: list[Item] = [
        Rect(-b, -b, w + 2 * b, h + 2 * b, fill=PAPER_TINT),
        Rect(safe - 1, safe - 1, w - 2 * safe + 2, h - 2 * safe + 2,
             stroke=Stroke(DARK, 0.5), radius=3.0),
        TextBox(safe + 1, safe + 1, w - 2 * safe - 2, 9, f"**{obj.title}**", size=12,
                min_size=6, align="center", valign="middle", owner=owner),
    ]
    top = safe + 11
    bottom = h - safe - 13
    n = len(obj.parts)
    slot = (bottom - top) / n
    for i, part in enumerate(obj.parts):
        y = top + i * slot
        label_h = min(9.0, slot * 0.3)
        size = min(slot - label_h - 1, w - 2 * safe - 6, 40.0)
        x = (w - size) / 2
        if isinstance(part, ShapePart):
            items.extend(_diagram(x, y, size, gen, part))
        else:
            g = min(size, 22.0)
            items.extend(_count_glyph((w - g) / 2, y + (size - g) / 2, g, gen, part))
        text = describe_part(part)
        if isinstance(part, ShapePart) and len(part.variants) > 1:
            text += " (any way round)" if part.name != "diagonal" else " (either way)"
        items.append(TextBox(safe + 1, y + size + 0.5, w - 2 * safe - 2, label_h, text,
                             size=8, min_size=5, align="center", valign="middle",
                             colour=DARK, owner=owner))
    # the tokens it pays, highest first
    r = 4.5
    n_t = len(obj.tokens)
    gap = 2.0
    total = n_t * 2 * r + (n_t - 1) * gap
    x0 = (w - total) / 2
    ty = h - safe - 6.5
    for i, t in enumerate(obj.tokens):
        cx = x0 + r + i * (2 * r + gap)
        items.append(Circle(cx, ty, r, fill="#ffffff", stroke=Stroke(DARK, 0.5)))
        items.append(TextBox(cx - r, ty - r, 2 * r, 2 * r, str(t), size=11, min_size=6,
                             align="center", valign="middle", bold=True, colour=DARK,
                             owner=owner))
    return Drawing(w, h, tuple(items), bleed=b)


# --------------------------------------------------------------------------------------------
# Tokens

TOKEN_MM = 25.0


def _circle_outline(d: float) -> tuple[tuple[float, float], ...]:
    return disc_outline(d / 2, d / 2, d / 2)


def token_front(deck: Deck, value: int | None, label: str = "") -> Drawing:
    d = TOKEN_MM
    b = deck.print.bleed
    items: list[Item] = [Circle(d / 2, d / 2, d / 2 + b, fill="#e9c46a" if value is not None
                                else "#d9d9d9"),
                         Circle(d / 2, d / 2, d / 2 - 2, stroke=Stroke(DARK, 0.5))]
    if value is None:
        items.append(Symbol("scissors", d * 0.2, d * 0.2, d * 0.6, DARK))
    else:
        items.append(TextBox(d * 0.15, d * 0.12, d * 0.7, d * 0.5, str(value), size=28,
                             min_size=10, align="center", valign="middle", bold=True,
                             colour=DARK))
        items.append(Symbol("star", d * 0.4, d * 0.6, d * 0.2, DARK))
        if label:
            items.append(TextBox(d * 0.2, d * 0.8, d * 0.6, d * 0.1, label, size=5,
                                 min_size=3, align="center", valign="middle", colour=DARK))
    return Drawing(d, d, tuple(items), bleed=b, cut=_circle_outline(d))


# --------------------------------------------------------------------------------------------
# Proof pages


def proof_page(deck: Deck, gen: LayersSet, obj: Objective, cert: dict[str, Any]) -> Drawing:
    """The certificate landscape as a 3x3 of stacks (top card drawn, the cards under it listed)
    and the turns that build it."""
    pw, ph = deck.print.page.width, deck.print.page.height
    m = deck.print.margin
    w, h = pw - 2 * m, ph - 2 * m
    items: list[Item] = [
        TextBox(0, 0, w, 10, f"**Proof {obj.id}: {obj.title}**", size=14, min_size=8,
                owner=f"proof-{obj.id}"),
        TextBox(0, 10, w, 8, "; ".join(describe_part(p) for p in obj.parts) +
                f" - built from the cards of a {cert.get('players', '?')}-player game, "
                "replayed through the rules engine", size=9, min_size=6,
                owner=f"proof-{obj.id}"),
    ]
    grid = min(w, h * 0.55)
    cell = grid / 3
    gx, gy = (w - grid) / 2, 22.0
    stacks = {tuple(int(x) for x in k.split(",")): v for k, v in cert["landscape"].items()}
    for r in range(3):
        for c in range(3):
            x, y = gx + c * cell, gy + r * cell
            cards = stacks.get((r, c))
            if not cards:
                items.append(Rect(x + 1, y + 1, cell - 2, cell - 2,
                                  stroke=Stroke("#aaaaaa", 0.3, (1.0, 1.0))))
                continue
            from .model import parse_card_text

            colour, value, sc = parse_card_text(cards[-1])
            col = gen.colour(colour)
            items.append(Rect(x + 1, y + 1, cell - 2, cell - 2, fill=col.ink,
                              stroke=Stroke(DARK, 0.4), radius=2.0))
            items.append(Symbol(pattern_symbol(col), x + 3, y + 3, 8, "#ffffff"))
            items.append(Rect(x + cell * 0.3, y + cell * 0.12, cell * 0.4, cell * 0.36,
                              fill=PAPER, radius=1.5))
            items.append(TextBox(x + cell * 0.3, y + cell * 0.12, cell * 0.4, cell * 0.36,
                                 str(value), size=26, min_size=8, align="center",
                                 valign="middle", bold=True, colour=DARK))
            if sc:
                items.append(Symbol("scissors", x + cell - 11, y + 3, 8, "#ffffff"))
            under = " > ".join(cards)
            items.append(Rect(x + 2, y + cell * 0.56, cell - 4, cell * 0.4, fill=PAPER,
                              radius=1.0))
            items.append(TextBox(x + 3, y + cell * 0.57, cell - 6, cell * 0.38, under, size=8,
                                 min_size=4, align="center", valign="middle", colour=DARK))
    turns = []
    for i, t in enumerate(cert["turns"], start=1):
        placed = ", ".join(f"{txt} at {p[0]},{p[1]}" for txt, p in t["place"])
        skip = f" (skip, discard {t['skip_discard']})" if t.get("skip_discard") else ""
        turns.append(f"{i}. {placed}{skip}")
    start = f"Start: {cert['start']} at {cert['start_at'][0]},{cert['start_at'][1]}. "
    items.append(TextBox(0, gy + grid + 4, w, h - gy - grid - 4, start + "  ".join(turns),
                         size=9, min_size=4, owner=f"proof-{obj.id}"))
    return Drawing(w, h, tuple(items))


# --------------------------------------------------------------------------------------------


def layout(deck: Deck, gen: LayersSet, report: Report) -> list[Component]:
    backs = deck.print.duplex != "none"
    first = min(gen.player_counts())
    out: list[Component] = []
    groups: dict[tuple[str, int, bool, int], int] = {}
    for lc in gen.landscape:
        key = (lc.card.colour, lc.card.value, lc.card.scissors, lc.min_players)
        groups[key] = groups.get(key, 0) + 1
    land_back = card_back(deck, "LANDSCAPE") if backs else None
    for (colour, value, sc, mp), n in groups.items():
        card = gen.make_card(colour, value, sc)
        cid = f"land-{colour}-{value}" + ("-scissors" if sc else "") + \
              (f"-{mp}p" if mp > first else "")
        mark = f"{mp}+" if mp > first else ""
        out.append(Component(
            id=cid, kind="landscape card", title=card.text + (f" ({mark} players)" if mark
                                                              else ""),
            front=card_front(deck, gen, card, mark, owner=cid), back=land_back, copies=n))
    start_back = card_back(deck, "START", fill="#5a4632") if backs else None
    for s in gen.starts:
        out.append(Component(
            id=s.id, kind="starting card", title=f"starting card {s.card.text}",
            front=card_front(deck, gen, s.card, owner=s.id, start=True), back=start_back))
    obj_back = card_back(deck, "OBJECTIVE", fill="#6b5b3e") if backs else None
    for obj in gen.objectives:
        out.append(Component(
            id=obj.id, kind="objective card", title=obj.title,
            front=objective_front(deck, gen, obj), back=obj_back, subjects=(obj.id,)))
    # Score tokens: one set of the deck's tokens per objective in play, plus each custom set.
    p = deck.params
    default = tuple(sorted(p.tokens, reverse=True))
    counts: dict[int, int] = {}
    for t in default:
        counts[t] = counts.get(t, 0) + p.objectives_per_game
    for t, n in sorted(counts.items(), reverse=True):
        out.append(Component(id=f"token-{t}", kind="score token", title=f"score token {t}",
                             front=token_front(deck, t), copies=n))
    for obj in gen.objectives:
        if obj.tokens != default:
            for i, t in enumerate(obj.tokens):
                out.append(Component(id=f"token-{obj.id}-{i + 1}", kind="score token",
                                     title=f"score token {t} of {obj.title}",
                                     front=token_front(deck, t, obj.title)))
    out.append(Component(id="scissors-token", kind="scissors token", title="scissors token",
                         front=token_front(deck, None)))
    for entry in report.entries:
        if entry.check == "achievable" and entry.status == "completable":
            obj = gen.objective(entry.subject)
            out.append(Component(
                id=f"proof-{obj.id}", kind="proof", title=f"proof of {obj.title}",
                front=proof_page(deck, gen, obj, entry.details["certificate"]),
                imposition="page", subjects=(obj.id,)))
    return out
