"""Deck table + seed -> the landscape cards, starting cards and objectives (deterministic).

The scissors logos are the only random part: ``round(scissors_share * n)`` of each colour's
``n`` printed cards, chosen by ``make_rng(seed, "layers-scissors", colour)`` so that adding a
colour never moves another colour's logos.
"""

from __future__ import annotations

from ...core.rng import make_rng
from ...errors import Problem
from .model import (
    _NAME,
    Card,
    Colour,
    CountPart,
    LandscapeCard,
    LayersParams,
    LayersSet,
    Objective,
    Part,
    PartSpec,
    ShapePart,
    StartCard,
)
from .objectives import DEFAULT_TURN, NAMED_SHAPES, parse_cells, shape_variants

F = "layers"


def validate_params(p: LayersParams) -> list[Problem]:
    """Every problem the schema cannot see, each located at its key."""
    out: list[Problem] = []
    nvals = p.max_value - p.min_value + 1
    names = [c.name for c in p.colours]
    for i, c in enumerate(p.colours):
        if not _NAME.match(c.name):
            out.append(Problem("E-LAYERS-COLOUR-NAME", (F, "colours", i, "name"),
                               f"{c.name!r} is not a usable colour name",
                               "use lowercase letters, digits and '-', starting with a letter"))
        if names.index(c.name) != i:
            out.append(Problem("E-LAYERS-COLOUR-DUPLICATE", (F, "colours", i, "name"),
                               f"colour {c.name!r} is defined twice", "give each colour once"))
    if nvals < 1:
        out.append(Problem("E-LAYERS-VALUES", (F, "max_value"),
                           f"max_value {p.max_value} is below min_value {p.min_value}",
                           "max_value must be at least min_value"))
        return out
    if len(p.stars) != nvals:
        out.append(Problem("E-LAYERS-STARS", (F, "stars"),
                           f"{len(p.stars)} star entries for {nvals} values",
                           f"give one entry per value {p.min_value}..{p.max_value}"))
    if not p.copies:
        out.append(Problem("E-LAYERS-COPIES", (F, "copies"), "no player count given",
                           "give copies per value for each player count, e.g. 2 = [3,3,3,3,2]"))
    counts = sorted(p.copies)
    if p.card_list:
        out.extend(_card_list_problems(p))
    for n in counts:
        row = p.copies[n]
        if p.card_list:
            continue
        if n < 1:
            out.append(Problem("E-LAYERS-COPIES", (F, "copies", str(n)),
                               f"player count {n} is not valid", "use player counts >= 1"))
        if len(row) != nvals:
            out.append(Problem("E-LAYERS-COPIES", (F, "copies", str(n)),
                               f"{len(row)} entries for {nvals} values",
                               f"give one count per value {p.min_value}..{p.max_value}"))
        if any(x < 0 for x in row):
            out.append(Problem("E-LAYERS-COPIES", (F, "copies", str(n)),
                               "a negative number of copies", "copies are 0 or more"))
        if n > len(p.colours):
            out.append(Problem("E-LAYERS-START", (F, "copies", str(n)),
                               f"{n} players need {n} starting cards but there are "
                               f"{len(p.colours)} colours",
                               "each player starts with a card of a different colour"))
    ordered = [] if p.card_list else list(zip(counts, counts[1:], strict=False))
    for a, b in ordered:
        ra, rb = p.copies[a], p.copies[b]
        if len(ra) == len(rb) and any(x > y for x, y in zip(ra, rb, strict=True)):
            out.append(Problem("E-LAYERS-COPIES-ORDER", (F, "copies", str(b)),
                               f"{b} players use fewer copies of some value than {a} players",
                               "copies must not shrink as players grow (cards print an 'n+' "
                               "mark)"))
    if not p.min_value <= p.start.value <= p.max_value:
        out.append(Problem("E-LAYERS-START", (F, "start", "value"),
                           f"start value {p.start.value} is outside the values",
                           f"use a value in {p.min_value}..{p.max_value}"))
    if p.end_piles >= p.piles:
        out.append(Problem("E-LAYERS-PILES", (F, "end_piles"),
                           f"end_piles {p.end_piles} is not below piles {p.piles}",
                           "the end comes when fewer piles remain than were dealt"))
    if any(t < 0 for t in p.tokens):
        out.append(Problem("E-LAYERS-TOKENS", (F, "tokens"), "a negative token",
                           "token values are 0 or more"))
    if not p.objectives:
        out.append(Problem("E-LAYERS-OBJECTIVES", (F, "objectives"), "no objective cards",
                           "give at least objectives_per_game objective cards"))
    elif p.objectives_per_game > len(p.objectives):
        out.append(Problem("E-LAYERS-OBJECTIVES", (F, "objectives_per_game"),
                           f"{p.objectives_per_game} objectives per game but only "
                           f"{len(p.objectives)} cards", "lower objectives_per_game"))
    for n in p.simulate_players:
        if n not in p.copies:
            out.append(Problem("E-LAYERS-SIMULATE", (F, "simulate_players"),
                               f"no copies given for {n} players",
                               f"use player counts among {counts}"))
    for i, o in enumerate(p.objectives):
        for j, part in enumerate(o.parts):
            out.extend(_part_problems(p, part, (F, "objectives", i, "parts", j)))
        if o.tokens is not None and (not o.tokens or any(t < 0 for t in o.tokens)):
            out.append(Problem("E-LAYERS-TOKENS", (F, "objectives", i, "tokens"),
                               "tokens must be a non-empty list of values >= 0",
                               "e.g. tokens = [4, 3, 2]"))
    return out


def _card_list_problems(p: LayersParams) -> list[Problem]:
    """An explicit card list: known colours, values in range, one star count per card kind
    (stars are not part of a card's identity in score files), player counts that exist."""
    out: list[Problem] = []
    names = {c.name for c in p.colours}
    stars: dict[tuple[str, int, bool], int] = {}
    counts = sorted(p.copies)
    for i, c in enumerate(p.card_list):
        path: tuple[str | int, ...] = (F, "card_list", i)
        if c.colour not in names:
            out.append(Problem("E-LAYERS-CARD-COLOUR", (*path, "colour"),
                               f"card {i + 1}: unknown colour {c.colour!r}",
                               "valid: " + ", ".join(sorted(names))))
        if not p.min_value <= c.value <= p.max_value:
            out.append(Problem("E-LAYERS-CARD-VALUE", (*path, "value"),
                               f"card {i + 1}: value {c.value} is outside the values",
                               f"use {p.min_value}..{p.max_value}"))
        kind = (c.colour, c.value, c.scissors)
        if stars.setdefault(kind, c.stars) != c.stars:
            out.append(Problem("E-LAYERS-CARD-STARS", (*path, "stars"),
                               f"card {i + 1}: {c.colour} {c.value}"
                               + (" scissors" if c.scissors else "")
                               + f" is listed with {stars[kind]} and {c.stars} stars",
                               "cards that look alike carry the same stars"))
        if c.min_players and counts and c.min_players > counts[-1]:
            out.append(Problem("E-LAYERS-CARD-PLAYERS", (*path, "min_players"),
                               f"card {i + 1} is used from {c.min_players} players; the "
                               f"deck plays {counts[0]}..{counts[-1]}",
                               "0 or a player count among the keys of copies"))
    return out


def _part_problems(p: LayersParams, part: PartSpec, path: tuple[str | int, ...]) -> list[Problem]:
    out: list[Problem] = []
    shaped = part.shape is not None or part.cells is not None
    if part.shape is not None and part.cells is not None:
        out.append(Problem("E-LAYERS-PART", path, "both shape and cells given",
                           "give a named shape or custom cells, not both"))
    if shaped == (part.count is not None):
        out.append(Problem("E-LAYERS-PART", path,
                           "a part is either a shape (shape/cells) or a count",
                           "give shape = 'line' (or cells = '#../##.') or count = 'value'"))
        return out
    names = {c.name for c in p.colours}
    if part.colour is not None and part.colour not in names:
        out.append(Problem("E-LAYERS-PART-COLOUR", path + ("colour",),
                           f"unknown colour {part.colour!r}",
                           "valid: " + ", ".join(sorted(names))))
    if part.count is not None:
        if part.count == "value" and part.value is None:
            out.append(Problem("E-LAYERS-PART", path + ("value",), "count = 'value' needs value",
                               "e.g. value = 5"))
        if part.count == "colour" and part.colour is None:
            out.append(Problem("E-LAYERS-PART", path + ("colour",),
                               "count = 'colour' needs colour", "e.g. colour = 'fern'"))
        return out
    cells = None
    if part.cells is not None:
        try:
            cells = parse_cells(part.cells)
        except ValueError as e:
            out.append(Problem("E-LAYERS-PART-CELLS", path + ("cells",), str(e),
                               "rows of '#' and '.', separated by '/'"))
            return out
    else:
        assert part.shape is not None
        cells = NAMED_SHAPES[part.shape]
    if part.condition == "values" and len(part.values) != len(cells):
        out.append(Problem("E-LAYERS-PART-VALUES", path + ("values",),
                           f"{len(part.values)} values for a shape of {len(cells)} cells",
                           "give one value per cell, in reading order"))
    if part.condition == "sum" and part.sum is None:
        out.append(Problem("E-LAYERS-PART-SUM", path + ("sum",), "condition 'sum' needs sum",
                           "e.g. sum = 12"))
    return out


def build_part(p: LayersParams, part: PartSpec) -> Part:
    """A validated part spec -> the rules part."""
    if part.count is not None:
        return CountPart(part.count, part.at_least, part.value, part.colour)
    if part.cells is not None:
        name, cells = "cells", parse_cells(part.cells)
    else:
        assert part.shape is not None
        name, cells = part.shape, NAMED_SHAPES[part.shape]
    turn = part.turn if part.turn is not None else DEFAULT_TURN.get(name, False)
    return ShapePart(
        name=name, variants=shape_variants(name, cells, turn), condition=part.condition,
        colour=part.colour, values=part.values, total=part.sum, compare=part.compare,
    )


def generate(p: LayersParams, seed: int) -> LayersSet:
    """The deck's components. Assumes ``validate_params`` found nothing."""
    values = tuple(range(p.min_value, p.max_value + 1))
    stars = {v: s for v, s in zip(values, p.stars, strict=False)}
    counts = sorted(p.copies)
    copies = {n: {(c.name, v): p.copies[n][i] for c in p.colours for i, v in enumerate(values)}
              for n in counts}
    landscape: list[LandscapeCard] = []
    kind_stars: dict[tuple[str, int, bool], int] = {}
    if p.card_list:
        landscape, kind_stars, copies = _listed_cards(p, values, counts)
    generated = () if p.card_list else p.colours
    for colour in generated:
        mine: list[tuple[int, int, int]] = []  # (value, copy index, min players)
        for i, v in enumerate(values):
            most = max(p.copies[n][i] for n in counts)
            for k in range(most):
                first = min(n for n in counts if p.copies[n][i] > k)
                mine.append((v, k, first))
        n_scissors = round(p.scissors_share * len(mine))
        rng = make_rng(seed, "layers-scissors", colour.name)
        logos = set(rng.sample(range(len(mine)), n_scissors))
        for idx, (v, k, first) in enumerate(mine):
            card = Card(colour.name, v, idx in logos, stars[v])
            landscape.append(LandscapeCard(f"land-{colour.name}-{v}-{k + 1}", card, first))
    starts = tuple(
        StartCard(f"start-{c.name}", Card(c.name, p.start.value, False, p.start.stars, True))
        for c in p.colours[: max(counts)]
    )
    objectives = tuple(
        Objective(
            id=f"obj-{i + 1:02d}", title=o.title,
            parts=tuple(build_part(p, part) for part in o.parts),
            tokens=tuple(sorted(o.tokens if o.tokens is not None else p.tokens, reverse=True)),
        )
        for i, o in enumerate(p.objectives)
    )
    return LayersSet(
        colours=tuple(Colour(c.name, c.ink.lower(), c.pattern) for c in p.colours),
        values=values, stars=stars, landscape=tuple(landscape), starts=starts,
        objectives=objectives, copies=copies, kind_stars=kind_stars,
    )


def _listed_cards(p: LayersParams, values: tuple[int, ...], counts: list[int]) -> tuple[
        list[LandscapeCard], dict[tuple[str, int, bool], int],
        dict[int, dict[tuple[str, int], int]]]:
    """The explicit card list as printed cards, their stars per kind, and the copies of each
    (colour, value) at each player count."""
    landscape: list[LandscapeCard] = []
    kind_stars: dict[tuple[str, int, bool], int] = {}
    seen: dict[tuple[str, int], int] = {}
    copies = {n: {(c.name, v): 0 for c in p.colours for v in values} for n in counts}
    for spec in p.card_list:
        kind_stars[(spec.colour, spec.value, spec.scissors)] = spec.stars
        first = max(spec.min_players, counts[0])
        for _ in range(spec.copies):
            k = seen.get((spec.colour, spec.value), 0)
            seen[(spec.colour, spec.value)] = k + 1
            card = Card(spec.colour, spec.value, spec.scissors, spec.stars)
            landscape.append(LandscapeCard(f"land-{spec.colour}-{spec.value}-{k + 1}", card,
                                           first))
            for n in counts:
                if n >= first:
                    copies[n][(spec.colour, spec.value)] += 1
    return landscape, kind_stars, copies
