"""The ``habitats`` family: hex habitat tiles, wildlife tokens and scoring cards, with the
tiers of every scoring card proved reachable (or not) within the game's turns and tokens."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel

from ...deck import Deck
from ...errors import Problem
from ...render.colour import is_colour
from ..base import (
    Family,
    ScoreLine,
    ScoreResult,
)
from . import generate as generate_mod
from .model import ONCE_KINDS, HabitatsParams, HabitatsSet

_PARAMS_OF = {
    "sizes": ("group",), "touch": ("run",), "apart": ("isolated", "sight"),
    "distance": ("sight",), "around": ("ring",), "once": ONCE_KINDS,
    "own_species": ("variety",),
}


class HabitatsFamily(Family[HabitatsParams, HabitatsSet]):
    name: ClassVar[str] = "habitats"
    title: ClassVar[str] = "Hex habitat tiles and wildlife scoring"
    summary: ClassVar[str] = ("hex tile drafting: habitat tiles, wildlife tokens and scoring "
                              "cards whose every tier is proved reachable")
    components: ClassVar[tuple[str, ...]] = (
        "hex habitat tiles (one or two habitats, 1-3 wildlife symbols, keystones)",
        "starter tile groups of three",
        "round wildlife tokens and nature tokens",
        "wildlife scoring cards with a pattern diagram and points table",
        "score pad",
        "proof pages of certificate maps",
    )
    Params: ClassVar[type[BaseModel]] = HabitatsParams

    def validate(self, deck: Deck) -> list[Problem]:
        p: HabitatsParams = deck.params
        out: list[Problem] = []
        root = "habitats"
        for key, names in (("habitats", p.habitats), ("species", p.species)):
            seen: set[str] = set()
            for i, n in enumerate(names):
                if not n.strip():
                    out.append(Problem("E-HABITATS-NAME", (root, key, i), "an empty name",
                                       "give every entry a name"))
                elif n in seen:
                    out.append(Problem("E-HABITATS-NAME", (root, key, i),
                                       f"{n!r} appears twice", "names must be unique"))
                seen.add(n)
        if len(p.habitat_colours) > len(p.habitats):
            out.append(Problem("E-HABITATS-COLOUR", (root, "habitat_colours"),
                               f"{len(p.habitat_colours)} colours for {len(p.habitats)} "
                               "habitats", "give at most one colour per habitat"))
        for i, col in enumerate(p.habitat_colours):
            if not is_colour(col):
                out.append(Problem("E-HABITATS-COLOUR", (root, "habitat_colours", i),
                                   f"{col!r} is not a colour", "write #rrggbb, e.g. #4a78b5"))
        if p.starter_groups < p.max_players:
            out.append(Problem("E-HABITATS-STARTERS", (root, "starter_groups"),
                               f"{p.starter_groups} starter groups for {p.max_players} players",
                               f"set starter_groups to at least {p.max_players}"))
        need = p.turns * p.max_players + p.display - 1
        if p.tile_count < need:
            out.append(Problem("E-HABITATS-TILES", (root, "tiles"),
                               f"{p.tile_count} tiles cannot last {p.turns} turns for "
                               f"{p.max_players} players", f"use at least {need} (or 0)"))
        n_key = p.keystones_per_habitat * len(p.habitats)
        if n_key > p.tile_count:
            out.append(Problem("E-HABITATS-KEYSTONES", (root, "keystones_per_habitat"),
                               f"{n_key} keystones do not fit in {p.tile_count} tiles",
                               "lower keystones_per_habitat"))
        if any(x < 0 for x in p.symbol_mix) or (n_key < p.tile_count and sum(p.symbol_mix) <= 0):
            out.append(Problem("E-HABITATS-MIX", (root, "symbol_mix"),
                               f"symbol_mix {list(p.symbol_mix)} gives no tile mix",
                               "three non-negative shares with a positive sum"))
        for i, card in enumerate(p.cards):
            cp = (root, "cards", i)
            if card.species not in p.species:
                out.append(Problem("E-HABITATS-CARD-SPECIES", (*cp, "species"),
                                   f"unknown species {card.species!r}",
                                   "valid: " + ", ".join(p.species)))
            for j, t in enumerate(card.terms):
                tp = (*cp, "terms", j)
                for key in t.model_fields_set & set(_PARAMS_OF):
                    if t.kind not in _PARAMS_OF[key]:
                        out.append(Problem("E-HABITATS-TERM-PARAM", (*tp, key),
                                           f"'{key}' has no meaning for a {t.kind} term",
                                           f"'{key}' applies to: {', '.join(_PARAMS_OF[key])}"))
                if any(v < 0 for v in t.table):
                    out.append(Problem("E-HABITATS-TABLE", (*tp, "table"),
                                       "points cannot be negative", "use 0 or more"))
                if any(s < 1 for s in t.sizes):
                    out.append(Problem("E-HABITATS-TERM-PARAM", (*tp, "sizes"),
                                       "sizes must be 1 or more", "e.g. sizes = [2, 3]"))
                if t.max is not None and t.max < t.min:
                    out.append(Problem("E-HABITATS-TERM-PARAM", (*tp, "max"),
                                       f"max {t.max} is below min {t.min}",
                                       "max must be at least min"))
                if t.once and t.best and t.mode == "each":
                    out.append(Problem("E-HABITATS-TERM-PARAM", (*tp, "once"),
                                       "'once' changes nothing when only the best match "
                                       "counts", "drop 'once' or 'best'"))
                if t.best and t.mode == "count":
                    out.append(Problem("E-HABITATS-TERM-PARAM", (*tp, "best"),
                                       "'best' has no meaning in count mode",
                                       "use mode = \"each\" with best = true"))
        return out

    def generate(self, deck: Deck) -> HabitatsSet:
        return generate_mod.generate(deck.params, deck.seed)

    def score(self, deck: Deck, generated: HabitatsSet, source: Path, text: str) -> ScoreResult:
        from .mapfile import parse_score
        from .rules import ranking, score_maps

        box: HabitatsSet = generated
        parsed = parse_score(box, source, text)
        scores = score_maps(parsed.maps, parsed.cards, box.rules)
        multi = len(scores) > 1
        lines: list[ScoreLine] = []
        for name, sc in zip(parsed.names, scores, strict=True):
            pre = f"{name}: " if multi else ""
            for cs in sc.cards:
                parts = []
                for t, ts in zip(cs.card.terms, cs.terms, strict=True):
                    n = len(ts.matches)
                    what = ", ".join(str(m.measure) for m in ts.matches) if t.mode == "each" \
                        else f"{n}"
                    parts.append(f"{t.kind} {t.mode}: {n} match{'es' if n != 1 else ''}"
                                 + (f" ({what})" if t.mode == "each" and n else ""))
                lines.append(ScoreLine(f"{pre}{cs.card.species}: {cs.card.id} "
                                       f"({cs.card.title})", cs.points, "; ".join(parts)))
            for h in box.rules.habitats:
                lines.append(ScoreLine(f"{pre}corridor {h}", sc.corridor_points[h],
                                       f"largest corridor {sc.corridors[h]} tiles"))
                if sc.bonuses[h]:
                    why = "solo corridor bonus" if not multi else "majority bonus"
                    lines.append(ScoreLine(f"{pre}bonus {h}", sc.bonuses[h], why))
            lines.append(ScoreLine(f"{pre}nature tokens", sc.nature_points,
                                   f"{sc.nature} unspent"))
            if multi:
                lines.append(ScoreLine(f"{pre}total", sc.total, ""))
        if multi:
            places = ranking(scores)
            for place, i in places:
                sc = scores[i]
                tied = [j for _, j in places if j != i and scores[j].total == sc.total]
                why = f"{sc.nature} nature tokens"
                if tied:
                    why += " (equal points: most nature tokens ranks first)"
                lines.append(ScoreLine(f"place {place}: {parsed.names[i]}", sc.total, why))
        total = max(s.total for s in scores)
        return ScoreResult(total=total, lines=tuple(lines))
