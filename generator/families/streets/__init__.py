"""The ``streets`` family: roll-and-write street sheets, two-sided construction cards dealt
into three stacks, plan cards in three levels, and a player aid; a rules engine, a greedy
bot, completability certificates for every plan, and ``paperproof score`` for filled
sheets."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel

from ...deck import Deck
from ...errors import Problem
from ...tomldoc import parse_toml
from ..base import (
    Family,
    ScoreLine,
    ScoreResult,
)
from .generate import generate
from .model import Effect, StreetsGame, StreetsParams
from .rules import STREET_KINDS, tie_break
from .score import read_rivals, read_sheet


def validate_params(p: StreetsParams) -> list[Problem]:
    """Every problem of a ``[streets]`` table the schema cannot see."""
    out: list[Problem] = []
    root = "streets"
    if p.number_max < p.number_min:
        out.append(Problem("E-STREETS-NUMBERS", (root, "number_max"),
                           f"number_max {p.number_max} is below number_min {p.number_min}",
                           "number_max >= number_min"))
    span = p.number_max - p.number_min + 1
    if p.card_list:
        out.extend(_card_list_problems(p))
    elif p.number_counts:
        if len(p.number_counts) != span:
            out.append(Problem("E-STREETS-NUMBER-COUNTS", (root, "number_counts"),
                               f"{len(p.number_counts)} counts for {span} numbers "
                               f"({p.number_min}..{p.number_max})",
                               "one count per number from number_min to number_max"))
        if any(c < 0 for c in p.number_counts):
            out.append(Problem("E-STREETS-NUMBER-COUNTS", (root, "number_counts"),
                               "a count is negative", "counts are 0 or more"))
        total = sum(p.number_counts)
        if total % 3 or total < 6:
            out.append(Problem("E-STREETS-CARDS", (root, "number_counts"),
                               f"the counts add up to {total} cards",
                               "a multiple of 3 (three equal stacks), at least 6"))
    else:
        if p.cards % 3:
            out.append(Problem("E-STREETS-CARDS", (root, "cards"),
                               f"{p.cards} cards do not deal into three equal stacks",
                               f"use {p.cards - p.cards % 3} or {p.cards + 3 - p.cards % 3}"))
        if p.number_max >= p.number_min and p.cards < span:
            out.append(Problem("E-STREETS-CARDS", (root, "cards"),
                               f"{p.cards} cards cannot show each of {span} numbers once",
                               f"at least {span} cards"))
    if not p.card_list and sum(p.effects.weights().values()) == 0:
        out.append(Problem("E-STREETS-EFFECTS", (root, "effects"),
                           "every effect weight is 0", "give at least one effect a weight"))
    tracks = [r.track for r in p.ranked]
    for i, name in enumerate(tracks):
        if tracks.index(name) != i:
            out.append(Problem("E-STREETS-RANKED", (root, "ranked", i, "track"),
                               f"the {name} track is ranked twice", "rank each track once"))
    roundabouts = (p.effects.roundabout > 0 if not p.card_list else
                   any(c.effect is Effect.ROUNDABOUT for c in p.card_list))
    if roundabouts and not p.roundabout_penalty:
        out.append(Problem("E-STREETS-ROUNDABOUT-TRACK", (root, "roundabout_penalty"),
                           "the deck has roundabout cards but the sheet no roundabout track",
                           "e.g. roundabout_penalty = [3, 8]"))
    for s, st in enumerate(p.streets):
        for i, h in enumerate(st.pools):
            if not 1 <= h <= st.houses:
                out.append(Problem("E-STREETS-POOL", (root, "streets", s, "pools", i),
                                   f"pool spot at house {h}; {st.name} has houses "
                                   f"1..{st.houses}", f"1..{st.houses}"))
        if len(set(st.pools)) != len(st.pools):
            out.append(Problem("E-STREETS-POOL", (root, "streets", s, "pools"),
                               "a pool spot is listed twice", "list each house once"))
    total_pools = sum(len(set(st.pools)) for st in p.streets)
    if len(p.pool_points) < total_pools:
        out.append(Problem("E-STREETS-POOL-TRACK", (root, "pool_points"),
                           f"{len(p.pool_points)} boxes for {total_pools} pool spots",
                           "one box per pool spot"))
    for k, col in enumerate(p.group_values):
        if not col:
            out.append(Problem("E-STREETS-GROUP-VALUES", (root, "group_values", k),
                               f"the column for groups of {k + 1} is empty",
                               "at least one value"))
    for i, plan in enumerate(p.plans):
        for j, c in enumerate(plan.conditions):
            path = (root, "plans", i, "conditions", j)
            if c.street > len(p.streets):
                out.append(Problem("E-STREETS-PLAN-STREET", (*path, "street"),
                                   f"street {c.street} does not exist",
                                   f"1..{len(p.streets)}, or 0 for any street"))
            if c.kind == "groups":
                if not c.sizes:
                    out.append(Problem("E-STREETS-PLAN-SIZES", (*path, "sizes"),
                                       "a groups condition needs sizes",
                                       "e.g. sizes = [3, 3]"))
                for k, size in enumerate(c.sizes):
                    if size < 1:
                        out.append(Problem("E-STREETS-PLAN-SIZES", (*path, "sizes", k),
                                           f"group size {size}", "sizes are 1 or more"))
            elif c.sizes:
                out.append(Problem("E-STREETS-PLAN-SIZES", (*path, "sizes"),
                                   f"sizes only belong to groups conditions, not {c.kind}",
                                   "remove sizes"))
            if c.streets > 1 and (c.street != 0 or c.kind not in STREET_KINDS):
                out.append(Problem("E-STREETS-PLAN-STREETS", (*path, "streets"),
                                   f"streets = {c.streets} needs street = 0 and a parks, "
                                   "pools, street_full or duplicates condition",
                                   "e.g. { kind = \"parks\", streets = 2 }"))
            elif c.streets > len(p.streets):
                out.append(Problem("E-STREETS-PLAN-STREETS", (*path, "streets"),
                                   f"streets = {c.streets} but the sheet has "
                                   f"{len(p.streets)} streets", f"1..{len(p.streets)}"))
            if c.kind in ("workers", "duplicates") and c.count < 1:
                out.append(Problem("E-STREETS-PLAN-COUNT", (*path, "count"),
                                   f"a {c.kind} condition needs a count", "count >= 1"))
    return out


def _card_list_problems(p: StreetsParams) -> list[Problem]:
    """Problems of an explicit ``card_list``: numbers on the cards' range, three stacks."""
    out: list[Problem] = []
    root = "streets"
    for i, card in enumerate(p.card_list):
        if not p.number_min <= card.number <= p.number_max:
            out.append(Problem("E-STREETS-CARD-NUMBER", (root, "card_list", i, "number"),
                               f"card {i + 1} shows {card.number}, outside the numbers "
                               f"{p.number_min}..{p.number_max}",
                               "change the number or number_min / number_max"))
    total = sum(c.copies for c in p.card_list)
    if total % 3 or total < 6:
        out.append(Problem("E-STREETS-CARDS", (root, "card_list"),
                           f"the card list holds {total} cards",
                           "a multiple of 3 (three equal stacks), at least 6"))
    return out


class StreetsFamily(Family[StreetsParams, StreetsGame]):
    name: ClassVar[str] = "streets"
    title: ClassVar[str] = "Roll-and-write streets"
    summary: ClassVar[str] = ("street score sheets, two-sided construction cards and plan "
                              "cards for a roll-and-write city builder")
    components: ClassVar[tuple[str, ...]] = (
        "street sheet (fillable page, A4 or Letter)",
        "construction cards (number side / effect side)",
        "plan cards in three levels (approved side on the back)",
        "player aid",
    )
    Params: ClassVar[type[BaseModel]] = StreetsParams

    def validate(self, deck: Deck) -> list[Problem]:
        params: StreetsParams = deck.params
        return validate_params(params)

    def generate(self, deck: Deck) -> StreetsGame:
        params: StreetsParams = deck.params
        return generate(params, deck.seed)

    def score(self, deck: Deck, generated: StreetsGame, source: Path,
              text: str) -> ScoreResult:
        doc = parse_toml(text, str(source))
        sheet = read_sheet(generated.sheet, generated.plans, doc)
        rivals = read_rivals(generated.sheet, doc)
        key = tie_break(sheet)
        sizes = ", ".join(f"{n} of {k + 1}" for k, n in enumerate(key[1:]) if n)
        lines = (*(ScoreLine(label, points, detail)
                   for label, points, detail in sheet.score(rivals)),
                 ScoreLine("tie-break", 0, f"{key[0]} completed groups"
                           + (f" ({sizes})" if sizes else "")
                           + "; on equal totals more groups win, then more groups of 1, 2, ..."))
        return ScoreResult(total=sum(line.points for line in lines), lines=lines)
