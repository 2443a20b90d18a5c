"""Streets components -> drawings: the fillable street sheet (one page, A4 or Letter), the
two-sided construction cards (number side front, effect side back), plan cards (the
approved side on the back), the player aid, and a proof page per completable plan (the
certificate's sheet, filled in).

The sheet is drawn for writing on with a pen: thin grey lines, white boxes, numbers and
values in black; every coloured thing also carries a symbol, so it reads in greyscale.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...deck import Deck
from ...render.drawing import (
    Circle,
    Drawing,
    Item,
    Line,
    Polygon,
    Rect,
    Stroke,
    Symbol,
    TextBox,
)
from ...render.symbols import register_symbol
from ..base import Component, Report
from .certify import Certificate
from .model import ConstructionCard, Effect, PlanCard, SheetSpec, StreetsGame
from .rules import EMPTY, ROUND, Sheet, replay

INK = "#000000"
GREY = "#8a8a8a"
LIGHT = "#e9e9e9"
THIN = Stroke(GREY, 0.25)
LINE = Stroke(INK, 0.35)
BOLD = Stroke(INK, 0.9)

register_symbol("streets-price", (
    Polygon(((0.5, 0.05), (0.92, 0.5), (0.66, 0.5), (0.66, 0.95), (0.34, 0.95), (0.34, 0.5),
             (0.08, 0.5)), fill=INK),
))

register_symbol("streets-roundabout", (
    Circle(0.5, 0.5, 0.42, stroke=Stroke(INK, 0.12)),
    Circle(0.5, 0.5, 0.16, fill=INK),
))

EFFECT_STYLE: dict[Effect, tuple[str, str, str, str]] = {
    # effect: (colour, symbol, title, rule text for the card and the aid)
    Effect.FENCE: ("#7b5e3b", "fence", "Fence",
                   "Draw a fence between two houses of any street."),
    Effect.PARK: ("#2e7d32", "park", "Park",
                  "Mark the next park box of the street you built on."),
    Effect.POOL: ("#0277bd", "pool", "Pool",
                  "Built on a pool spot? Tick its pool."),
    Effect.WORKER: ("#e65100", "worker", "Worker",
                    "Write the number shifted by up to {shift}; mark a worker."),
    Effect.PRICE: ("#6a1b9a", "streets-price", "Price rise",
                   "Mark the next value of one group size."),
    Effect.DUPLICATE: ("#c62828", "bis", "Duplicate",
                       "Also copy a neighbour's number into an empty house."),
    Effect.ROUNDABOUT: ("#00695c", "streets-roundabout", "Roundabout",
                        "Also put a roundabout in an empty house: numbers restart after it "
                        "and groups end there."),
}

LEVEL_STYLE = {1: ("#455a64", "I"), 2: ("#5d4037", "II"), 3: ("#311b92", "III")}


# --- the sheet ---------------------------------------------------------------------------


def _house(x: float, y: float, w: float, h: float, pool: bool, value: str,
           dup: bool, pool_built: bool) -> list[Item]:
    roof = h * 0.28
    items: list[Item] = [
        Polygon(((x, y + roof), (x + w / 2, y), (x + w, y + roof), (x + w, y + h), (x, y + h)),
                fill="#ffffff", stroke=LINE),
    ]
    if pool:
        s = min(w * 0.42, h * 0.3)
        items.append(Rect(x + w - s - 0.6, y + h - s - 0.6, s, s, fill="#e1f5fe",
                          stroke=Stroke("#0277bd", 0.25), radius=0.8))
        items.append(Symbol("pool", x + w - s - 0.4, y + h - s - 0.4, s - 0.4,
                            colour="#0277bd"))
        if pool_built:
            items.append(Line(x + w - s - 0.6, y + h - 0.6, x + w - 0.6, y + h - s - 0.6,
                              Stroke(INK, 0.6)))
    if value:
        items.append(TextBox(x, y + roof, w, h - roof - (h * 0.22 if pool else 0),
                             value + ("=" if dup else ""), size=13, min_size=6,
                             align="center", valign="middle", colour="#1a237e",
                             owner="sheet house"))
    return items


def _boxes(x: float, y: float, size: float, values: Sequence[str], marked: int,
           fill: str = "#ffffff", text_size: float = 7.5) -> list[Item]:
    out: list[Item] = []
    for i, v in enumerate(values):
        bx = x + i * (size + 0.8)
        out.append(Rect(bx, y, size, size, fill=fill, stroke=THIN, radius=0.6))
        out.append(TextBox(bx, y, size, size, v, size=text_size, min_size=4, align="center",
                           valign="middle", owner="sheet track"))
        if i < marked:
            out.append(Line(bx + 0.6, y + 0.6, bx + size - 0.6, y + size - 0.6,
                            Stroke(INK, 0.5)))
            out.append(Line(bx + size - 0.6, y + 0.6, bx + 0.6, y + size - 0.6,
                            Stroke(INK, 0.5)))
    return out


def sheet_items(spec: SheetSpec, title: str, w: float, h: float,
                filled: Sheet | None = None, bottom: bool = True,
                levels: dict[str, int] | None = None) -> tuple[list[Item], float]:
    """The sheet's items in a w x h box; returns (items, y where the lower half starts).
    ``filled`` draws a filled-in sheet (proof pages); ``levels`` maps plan ids to levels so
    that claimed points go in their level's box."""
    items: list[Item] = []
    n_streets = len(spec.streets)
    most = max(s.houses for s in spec.streets)
    gap = 2.2
    label_w = 0.0
    hw = min(15.0, (w - label_w - (most - 1) * gap) / most)
    header = 13.0
    items.append(TextBox(0, 0, w * 0.5, 9, f"**{title}**", size=14, min_size=8,
                         valign="middle", owner="sheet title"))
    # Plan boxes: one per level, the points written when a plan is claimed.
    for k in range(3):
        bx = w - (3 - k) * 21.0
        items.append(Rect(bx, 0, 19, 10, fill="#ffffff", stroke=LINE, radius=1.2))
        items.append(TextBox(bx + 0.8, 0.4, 8, 4, f"plan {LEVEL_STYLE[k + 1][1]}", size=5.5,
                             min_size=4, owner="sheet plan box"))
        claimed = [c for c in (filled.claims if filled is not None else ())
                   if (levels or {}).get(c.plan) == k + 1]
        if claimed:
            items.append(TextBox(bx, 2.5, 19, 7.5, str(claimed[0].points), size=11,
                                 min_size=6, align="center", valign="middle",
                                 colour="#1a237e", owner="sheet plan points"))
    lower_h = 80.0 if bottom else 70.0
    block = min(58.0, (h - header - lower_h) / n_streets)
    house_h = min(26.0, block - 17.0)
    y = header
    for s, st in enumerate(spec.streets):
        row = filled.houses[s] if filled is not None else (EMPTY,) * st.houses
        x0 = (w - (st.houses * hw + (st.houses - 1) * gap)) / 2
        items.append(TextBox(x0, y, w - x0, 5, f"**{st.name}**  ·  {st.houses} houses",
                             size=8, min_size=5, owner="sheet street"))
        hy = y + 5.5
        for i in range(st.houses):
            hx = x0 + i * (hw + gap)
            v = row[i]
            if v == ROUND:
                items.extend(_house(hx, hy, hw, house_h, i in st.pools, "", False, False))
                r = min(hw, house_h) * 0.6
                items.append(Symbol("streets-roundabout", hx + (hw - r) / 2,
                                    hy + house_h * 0.3 + (house_h * 0.7 - r) / 2, r,
                                    colour="#00695c"))
                continue
            items.extend(_house(hx, hy, hw, house_h, i in st.pools,
                                "" if v == EMPTY else str(v),
                                filled is not None and i in filled.dups[s],
                                filled is not None and i in filled.pools[s]))
            if i < st.houses - 1:
                # The fence slot between two houses: a dotted guide to draw the fence on.
                fx = hx + hw + gap / 2
                fenced = filled is not None and (i + 1) in filled.fences[s]
                items.append(Line(fx, hy + house_h * 0.2, fx, hy + house_h + 1.0,
                                  BOLD if fenced else Stroke(GREY, 0.2, (0.6, 0.8))))
        if filled is not None:
            for _, a, z in (g for c in filled.claims for g in c.groups if g[0] == s):
                gx = x0 + a * (hw + gap) - 1.0
                gw = (z - a + 1) * (hw + gap) - gap + 2.0
                items.append(Rect(gx, hy - 1.0, gw, house_h + 2.0,
                                  stroke=Stroke("#d81b60", 0.7), radius=3.0))
        py = hy + house_h + 2.0
        if st.parks:
            items.append(Symbol("park", x0, py, 5.5, colour="#2e7d32"))
            marked = filled.parks[s] if filled is not None else 0
            items.extend(_boxes(x0 + 7.0, py, 5.5, [str(v) for v in st.parks], marked,
                                fill="#e8f5e9"))
        y += block
    # The lower half sits at the foot of the page, so the streets get the spare height; the
    # last 6 mm stay free for the renderer's stamp.
    lower = max(y + 2.0, h - lower_h - 2.0) if bottom else y + 2.0
    if bottom:
        _lower_half(items, spec, w, lower, filled)
    return items, lower


def _lower_half(items: list[Item], spec: SheetSpec, w: float, y: float,
                filled: Sheet | None) -> None:
    # Group value columns, left: one column per size, the first value is where prices start.
    col_w = min(15.0, (w * 0.5) / spec.max_group)
    longest = max(len(col) for col in spec.group_values)
    # The columns end above the score row (58 mm below the top of the lower half).
    box = min(6.0, col_w - 2.0, 46.0 / longest - 0.8)
    items.append(TextBox(0, y, w * 0.5, 5, "**Group values** (mark a box per price rise)",
                         size=7, min_size=5, owner="sheet groups"))
    for k, col in enumerate(spec.group_values):
        cx = k * col_w
        items.append(TextBox(cx, y + 5.5, col_w, 4.5, f"{k + 1}×:house:", size=7,
                             min_size=4, align="center", owner="sheet group head"))
        level = filled.price[k] if filled is not None else 0
        for i, v in enumerate(col):
            by = y + 11.0 + i * (box + 0.8)
            bx = cx + (col_w - box) / 2
            items.append(Rect(bx, by, box, box, fill="#f3e5f5" if i == 0 else "#ffffff",
                              stroke=THIN, radius=0.6))
            items.append(TextBox(bx, by, box, box, str(v), size=7, min_size=4,
                                 align="center", valign="middle", owner="sheet group value"))
            if 0 < i <= level:
                items.append(Line(bx + 0.6, by + box - 0.6, bx + box - 0.6, by + 0.6,
                                  Stroke(INK, 0.5)))
    # Tracks, right.
    tx = w * 0.52
    tw = w - tx
    rows: list[tuple[str, str, str, Sequence[int], int, str]] = [
        ("pool", "#0277bd", "Pools", spec.pool_points,
         sum(len(p) for p in filled.pools) if filled else 0, "#e1f5fe"),
        ("worker", "#e65100", "Workers", spec.worker_points,
         filled.workers if filled else 0, "#fff3e0"),
        ("bis", "#c62828", "Duplicates", [-v for v in spec.duplicate_penalty],
         filled.duplicates if filled else 0, "#ffebee"),
        ("refusal", INK, "Refusals", [-v for v in spec.refusal_penalty],
         filled.refusals if filled else 0, LIGHT),
    ]
    ranked = {name: points for name, points, _ in spec.ranked}
    for k, name in ((0, "pools"), (1, "workers")):
        if name in ranked:
            # A ranked track's boxes only count marks; its points come from the rank row.
            symbol, colour, label, values, marked, fill = rows[k]
            rows[k] = (symbol, colour, label, list(range(1, len(values) + 1)), marked, fill)
    for name, points, solo in spec.ranked:
        symbol = {"pools": "pool", "workers": "worker", "parks": "park"}[name]
        solo_text = f", solo {solo}+" if solo else ""
        rows.append((symbol, INK, f"Most {name}{solo_text}", points, 0, "#fffde7"))
    if spec.roundabout_penalty:
        rows.append(("streets-roundabout", "#00695c", "Roundabouts",
                     [-v for v in spec.roundabout_penalty],
                     filled.roundabouts if filled else 0, "#e0f2f1"))
    ty = y
    step = min(8.5, 49.0 / len(rows))      # the end note and the score row stay below
    for symbol, colour, label, values, marked, fill in rows:
        size = min(6.0, step - 2.0, (tw - 24.0) / max(1, len(values)) - 0.8)
        items.append(Symbol(symbol, tx, ty + 0.5, 5.0, colour=colour))
        items.append(TextBox(tx + 6.0, ty, 17.0, 6.5, label, size=7, min_size=4,
                             valign="middle", owner="sheet track label"))
        items.extend(_boxes(tx + 24.0, ty + 0.25, size, [str(v) for v in values], marked,
                            fill=fill, text_size=6.5))
        ty += step
    items.append(TextBox(tx, ty, tw, 9, "The game ends at the last refusal, when a sheet "
                         "has every plan, or when every house is built.", size=6,
                         min_size=4, colour="#555555", owner="sheet end note"))
    # Score row, bottom.
    sy = y + 58.0
    labels = ["plans", "parks", "pools", "workers", "groups", "− dupl.", "− refus.", "total"]
    if spec.roundabout_penalty:
        labels.insert(7, "− round.")
    bw = (w - (len(labels) - 1) * 2.0) / len(labels)
    score = _score_parts(filled) if filled is not None else None
    for i, lab in enumerate(labels):
        bx = i * (bw + 2.0)
        items.append(TextBox(bx, sy, bw, 4.5, lab, size=6.5, min_size=4, align="center",
                             owner="sheet score label"))
        items.append(Rect(bx, sy + 5.0, bw, 11.0, fill="#ffffff",
                          stroke=BOLD if lab == "total" else LINE, radius=1.2))
        if score is not None:
            items.append(TextBox(bx, sy + 5.0, bw, 11.0, str(score[i]), size=11, min_size=6,
                                 align="center", valign="middle", colour="#1a237e",
                                 owner="sheet score"))


def _score_parts(sheet: Sheet) -> list[int]:
    lines = sheet.score()

    def total(prefix: str) -> int:
        return sum(p for label, p, _ in lines if label.startswith(prefix))

    parts = [total("plan "), total("parks"), total("pools"), total("workers"),
             total("groups"), -total("duplicates"), -total("refusals")]
    if sheet.spec.roundabout_penalty:
        parts.append(-total("roundabouts"))
    parts.append(sum(parts[:5]) - sum(parts[5:]))
    return parts


def sheet_drawing(deck: Deck, game: StreetsGame) -> Drawing:
    page = deck.print.page
    m = deck.print.margin
    w, h = page.width - 2 * m, page.height - 2 * m
    items, _ = sheet_items(game.sheet, f"Street sheet — {deck.name}", w, h)
    return Drawing(w, h, tuple(items), bleed=0.0, background="#ffffff")


def proof_drawing(deck: Deck, game: StreetsGame, plan: PlanCard, cert: Certificate) -> Drawing:
    """The certificate of ``plan``: its final sheet filled in, groups ringed, and the moves."""
    page = deck.print.page
    m = deck.print.margin
    w, h = page.width - 2 * m, page.height - 2 * m
    from .generate import offered_pairs

    sheet = replay(game.sheet, cert.moves, offered_pairs(game.cards))
    sheet = sheet.claim(plan, first=True, groups=cert.groups)
    items, lower = sheet_items(game.sheet, f"Proof: {plan.id} {plan.title}", w, h,
                               filled=sheet, bottom=False, levels={plan.id: plan.level})
    moves = "\n".join(f"{i + 1}. {mv}" for i, mv in enumerate(cert.moves))
    text = (f"**{plan.title}** ({plan.id}, level {plan.level}) is met after "
            f"{len(cert.moves)} turns; replayed through the rules engine. Ringed: the groups "
            f"claimed. Moves (card number/effect, street s, house h = number written, effect "
            f"used):\n{moves}")
    items.append(TextBox(0, lower + 2.0, w, h - lower - 2.0, text, size=7.5, min_size=4.5,
                         owner=f"proof {plan.id}"))
    return Drawing(w, h, tuple(items), bleed=0.0, background="#ffffff")


# --- cards -------------------------------------------------------------------------------


def _card_frame(deck: Deck) -> tuple[float, float, float, float]:
    size = deck.print.card
    return size.width, size.height, deck.print.bleed, deck.print.safe


def number_side(deck: Deck, number: int) -> Drawing:
    w, h, bleed, safe = _card_frame(deck)
    items: list[Item] = [
        Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill="#fbf8f1"),
        Rect(safe, safe, w - 2 * safe, h - 2 * safe, stroke=Stroke("#b0a58f", 0.4),
             radius=2.5),
        Symbol("house", w / 2 - 6.0, safe + 4.0, 12.0, colour="#b0a58f"),
        TextBox(safe, h * 0.28, w - 2 * safe, h * 0.44, f"**{number}**", size=64, min_size=20,
                align="center", valign="middle", owner=f"number {number}"),
        TextBox(safe, h - safe - 9.0, w - 2 * safe, 6.0, "house number", size=8, min_size=5,
                align="center", valign="middle", colour="#7a7060", owner="number label"),
    ]
    # Small corner numbers, upside-down readable from across the table.
    items.append(TextBox(safe + 1.5, safe + 1.5, 12, 7, str(number), size=11, min_size=6,
                         owner="number corner"))
    return Drawing(w, h, tuple(items), bleed=bleed, background="#fbf8f1")


def effect_side(deck: Deck, effect: Effect, shift: int) -> Drawing:
    w, h, bleed, safe = _card_frame(deck)
    colour, symbol, title, rule = EFFECT_STYLE[effect]
    s = min(w, h) * 0.5
    items: list[Item] = [
        Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=colour),
        Circle(w / 2, h * 0.4, s * 0.62, fill="#ffffff"),
        Symbol(symbol, w / 2 - s / 2, h * 0.4 - s / 2, s, colour=colour),
        TextBox(safe, h * 0.66, w - 2 * safe, 9.0, f"**{title}**", size=16, min_size=8,
                align="center", valign="middle", colour="#ffffff", owner=f"effect {title}"),
        TextBox(safe + 2, h * 0.66 + 10.0, w - 2 * safe - 4, h - safe - h * 0.66 - 10.0,
                rule.format(shift=shift), size=8.5, min_size=5, align="center",
                colour="#ffffff", owner=f"effect {title} rule"),
    ]
    return Drawing(w, h, tuple(items), bleed=bleed, background=colour)


def _condition_items(spec: SheetSpec, plan: PlanCard, x: float, y: float, w: float,
                     h: float) -> list[Item]:
    items: list[Item] = []
    sizes = plan.group_sizes
    cy = y
    if sizes:
        # Each required group drawn as a row of joined little houses.
        unit = min(9.0, (w - 2.0) / max(sizes))
        rows = len(sizes)
        row_h = min(unit + 3.0, (h * 0.7) / rows)
        unit = min(unit, row_h - 1.5)
        for size in sizes:
            gx = x + (w - size * unit) / 2
            for k in range(size):
                items.append(Symbol("house", gx + k * unit, cy, unit, colour="#263238"))
            items.append(Rect(gx - 0.8, cy - 0.6, size * unit + 1.6, unit + 1.2,
                              stroke=Stroke("#263238", 0.35), radius=1.0))
            cy += row_h
    others = [c for c in plan.conditions if c.kind != "groups"]
    if others:
        icons = {"parks": ":park: ", "pools": ":pool: ", "workers": ":worker: ",
                 "duplicates": ":bis: ", "street_full": ":house: ", "ends": ":house: "}
        text = "\n".join(f"{icons.get(c.kind, '')}{c.describe(spec)}" for c in others)
        if sizes:
            text = "and\n" + text
        items.append(TextBox(x, cy + 1.0, w, y + h - cy - 1.0, text, size=11, min_size=5,
                             align="center", valign="top", owner=f"{plan.id} conditions"))
    return items


def plan_front(deck: Deck, spec: SheetSpec, plan: PlanCard) -> Drawing:
    w, h, bleed, safe = _card_frame(deck)
    colour, roman = LEVEL_STYLE.get(plan.level, ("#455a64", str(plan.level)))
    band = 15.0
    items: list[Item] = [
        Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill="#ffffff"),
        Rect(-bleed, -bleed, w + 2 * bleed, band + bleed, fill=colour),
        TextBox(safe, safe * 0.5, 14, band - safe * 0.5, f"**{roman}**", size=16, min_size=8,
                valign="middle", colour="#ffffff", owner=f"{plan.id} level"),
        TextBox(safe + 14, safe * 0.5, w - 2 * safe - 14, band - safe * 0.5,
                f"**{plan.title}**", size=11, min_size=6, align="right", valign="middle",
                colour="#ffffff", owner=f"{plan.id} title"),
    ]
    items.extend(_condition_items(spec, plan, safe + 2, band + 5.0, w - 2 * safe - 4,
                                  h - band - 26.0))
    by = h - safe - 13.0
    half = (w - 2 * safe - 4) / 2
    for i, (label, pts) in enumerate((("first", plan.first), ("later", plan.later))):
        bx = safe + i * (half + 4)
        items.append(Rect(bx, by, half, 13.0, fill=colour if i == 0 else "#ffffff",
                          stroke=Stroke(colour, 0.6), radius=2.0))
        items.append(TextBox(bx, by + 0.5, half, 8.0, f"**{pts}**", size=15, min_size=8,
                             align="center", valign="middle",
                             colour="#ffffff" if i == 0 else colour,
                             owner=f"{plan.id} points"))
        items.append(TextBox(bx, by + 8.3, half, 4.2, label, size=6.5, min_size=4,
                             align="center", valign="middle",
                             colour="#ffffff" if i == 0 else colour,
                             owner=f"{plan.id} points label"))
    return Drawing(w, h, tuple(items), bleed=bleed, background="#ffffff")


def plan_back(deck: Deck, plan: PlanCard) -> Drawing:
    """The approved side: turned up once a player has met the plan first."""
    w, h, bleed, safe = _card_frame(deck)
    colour, roman = LEVEL_STYLE.get(plan.level, ("#455a64", str(plan.level)))
    s = min(w, h) * 0.42
    items: list[Item] = [
        Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill="#eceff1"),
        Circle(w / 2, h * 0.36, s * 0.65, fill=colour),
        Symbol("check", w / 2 - s / 2, h * 0.36 - s / 2, s, colour="#ffffff"),
        TextBox(safe, h * 0.58, w - 2 * safe, 10, "**APPROVED**", size=16, min_size=8,
                align="center", valign="middle", colour=colour, owner=f"{plan.id} approved"),
        TextBox(safe, h * 0.58 + 11, w - 2 * safe, 8, f"plan {roman}: {plan.title}", size=8,
                min_size=5, align="center", valign="middle", colour=colour,
                owner=f"{plan.id} approved title"),
        TextBox(safe, h - safe - 16, w - 2 * safe, 14,
                f"later players score **{plan.later}**", size=10, min_size=6,
                align="center", valign="middle", colour=colour,
                owner=f"{plan.id} approved points"),
    ]
    return Drawing(w, h, tuple(items), bleed=bleed, background="#eceff1")


def aid_front(deck: Deck, game: StreetsGame) -> Drawing:
    w, h, bleed, safe = _card_frame(deck)
    refusals = len(game.sheet.refusal_penalty)
    text = (
        "**Each round**\n"
        "Flip the top card of each stack: its effect pairs with the number now on top.\n"
        "Everyone picks one of the three pairs.\n\n"
        "**Build** (must): write the number in an empty house. Numbers rise left to "
        "right along a street; gaps and skipped numbers are fine; never a repeat.\n"
        "**Effect** (may): apply the pair's effect.\n"
        f"**No pair fits?** Mark a refusal; {refusals} refusals end the game.\n\n"
        "**Plans**: complete the groups asked for and ring them (they are locked). "
        "First achiever scores more."
    )
    items: list[Item] = [
        Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill="#ffffff"),
        Rect(-bleed, -bleed, w + 2 * bleed, 10 + bleed, fill="#37474f"),
        TextBox(safe, 1.5, w - 2 * safe, 8, "**Player aid**", size=11, min_size=6,
                align="center", valign="middle", colour="#ffffff", owner="aid title"),
        TextBox(safe, 12.0, w - 2 * safe, h - 12.0 - safe, text, size=9, min_size=4.5,
                owner="aid turn"),
    ]
    return Drawing(w, h, tuple(items), bleed=bleed, background="#ffffff")


def aid_back(deck: Deck, game: StreetsGame) -> Drawing:
    w, h, bleed, safe = _card_frame(deck)
    items: list[Item] = [
        Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill="#ffffff"),
        Rect(-bleed, -bleed, w + 2 * bleed, 10 + bleed, fill="#37474f"),
        TextBox(safe, 1.5, w - 2 * safe, 8, "**Effects**", size=11, min_size=6,
                align="center", valign="middle", colour="#ffffff", owner="aid effects"),
    ]
    present = game.effect_counts()
    shown = [style for e, style in EFFECT_STYLE.items()
             if e is not Effect.ROUNDABOUT or present[e]]
    row = (h - 12.0 - safe - 12.0) / len(shown)
    y = 12.0
    for colour, symbol, title, rule in shown:
        items.append(Rect(safe, y + 0.5, 8, 8, fill=colour, radius=1.5))
        items.append(Symbol(symbol, safe + 1, y + 1.5, 6, colour="#ffffff"))
        items.append(TextBox(safe + 10, y, w - 2 * safe - 10, row,
                             f"**{title}**: " + rule.format(shift=game.sheet.worker_shift),
                             size=8.5, min_size=4.5, owner=f"aid {title}"))
        y += row
    items.append(TextBox(safe, h - safe - 11.0, w - 2 * safe, 11.0,
                         "**Score**: plans + parks + pools + workers + groups − duplicates "
                         "− refusals", size=7, min_size=4.5, owner="aid score"))
    return Drawing(w, h, tuple(items), bleed=bleed, background="#ffffff")


# --- components ---------------------------------------------------------------------------


def card_id(card: ConstructionCard) -> str:
    return f"card-{card.number:02d}-{card.effect.value}"


def layout(deck: Deck, game: StreetsGame, report: Report) -> list[Component]:
    out: list[Component] = [
        Component(id="sheet", kind="sheet", title="Street sheet", front=sheet_drawing(deck, game),
                  imposition="page", subjects=("deck",)),
    ]
    backs = deck.print.duplex != "none"
    copies: dict[tuple[int, Effect], int] = {}
    for c in game.cards:
        copies[(c.number, c.effect)] = copies.get((c.number, c.effect), 0) + 1
    for (number, effect), n in sorted(copies.items(), key=lambda kv: (kv[0][0],
                                                                       kv[0][1].value)):
        card = ConstructionCard(0, number, effect)
        out.append(Component(
            id=card_id(card), kind="construction", title=f"Construction {number} / "
            f"{EFFECT_STYLE[effect][2]}", front=number_side(deck, number),
            back=effect_side(deck, effect, game.sheet.worker_shift) if backs else None,
            copies=n, imposition="grid"))
    for plan in game.plans:
        out.append(Component(
            id=plan.id, kind="plan", title=f"Plan {plan.level}: {plan.title}",
            front=plan_front(deck, game.sheet, plan),
            back=plan_back(deck, plan) if backs else None, imposition="grid",
            subjects=(plan.id,)))
    out.append(Component(id="aid", kind="aid", title="Player aid",
                         front=aid_front(deck, game),
                         back=aid_back(deck, game) if backs else None, copies=4,
                         imposition="grid"))
    by_plan = {p.id: p for p in game.plans}
    for entry in report.entries:
        if entry.check == "completable" and entry.status == "completable" \
                and entry.subject in by_plan:
            cert = Certificate.from_json(entry.details["certificate"])
            out.append(Component(
                id=f"proof-{entry.subject}", kind="proof", title=f"Proof of {entry.subject}",
                front=proof_drawing(deck, game, by_plan[entry.subject], cert),
                imposition="page", subjects=(entry.subject,)))
    return out



