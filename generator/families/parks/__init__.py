"""The ``parks`` family: roll-and-cut park sheets and park cards, every card proven
completable from a fresh sheet with a replayed certificate."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from ...core.grid import components
from ...deck import Deck
from ...errors import DeckError, Problem
from ..base import (
    Family,
    ScoreLine,
    ScoreResult,
)
from . import generate as generate_mod
from .model import Card, Feature, ParksParams, ParksSet, Sheet, card_box
from .rules import solo_points


def _id_ranges(ps: ParksSet) -> str:
    out = []
    for cards in (ps.park_cards, ps.grand_cards):
        if cards:
            out.append(f"{cards[0].id}..{cards[-1].id}" if len(cards) > 1 else cards[0].id)
    return " and ".join(out) or "none (the deck has no cards)"


class ParksFamily(Family[ParksParams, ParksSet]):
    name: ClassVar[str] = "parks"
    title: ClassVar[str] = "Roll-and-cut parks"
    summary: ClassVar[str] = ("roll-and-cut: a park sheet to cut up and park cards to cover, "
                              "each card proven completable")
    components: ClassVar[tuple[str, ...]] = (
        "park sheet at true square size",
        "park cards and grand park cards",
        "printable die net",
        "bonus tokens",
        "solo score pad",
        "proof pages (cuts on the sheet, sections on the card)",
    )
    Params: ClassVar[type[BaseModel]] = ParksParams

    def validate(self, deck: Deck) -> list[Problem]:
        p: ParksParams = deck.params
        out: list[Problem] = []
        root = ("parks",)
        letters = "P A W G (pavilion, play area, water, greenery)"
        if p.sheet:
            widths = {len(r.strip()) for r in p.sheet}
            if len(widths) != 1:
                out.append(Problem("E-PARKS-SHEET", root + ("sheet",),
                                   "sheet rows have different lengths",
                                   "every row needs the same number of squares"))
            for i, row in enumerate(p.sheet):
                bad = [ch for ch in row.strip() if ch not in "PAWG"]
                if bad:
                    out.append(Problem("E-PARKS-SHEET", root + ("sheet", i),
                                       f"unknown feature letter {bad[0]!r}", f"use {letters}"))
            if p.sheet_icons:
                if len(p.sheet_icons) != len(p.sheet) or any(
                        len(a.strip()) != len(b.strip())
                        for a, b in zip(p.sheet_icons, p.sheet, strict=False)):
                    out.append(Problem("E-PARKS-SHEET-ICONS", root + ("sheet_icons",),
                                       "icon rows do not match the sheet rows in size",
                                       "one row of '.', 'w', 'r' per sheet row, same length"))
                for i, row in enumerate(p.sheet_icons):
                    bad = [ch for ch in row.strip() if ch not in ".wr"]
                    if bad:
                        out.append(Problem("E-PARKS-SHEET-ICONS", root + ("sheet_icons", i),
                                           f"unknown icon letter {bad[0]!r}",
                                           "use '.' none, 'w' wildlife, 'r' recycling"))
        elif p.sheet_icons:
            out.append(Problem("E-PARKS-SHEET-ICONS", root + ("sheet_icons",),
                               "sheet_icons given without a hand-drawn sheet",
                               "add sheet = [...] rows, or remove sheet_icons"))
        if not any(w > 0 for w in p.feature_mix.values()):
            out.append(Problem("E-PARKS-MIX", root + ("feature_mix",),
                               "no feature has a positive weight",
                               "give at least one of pavilion, play, water, greenery a weight > 0"))
        if not p.die:
            out.append(Problem("E-PARKS-DIE", root + ("die",), "the die has no faces",
                               "e.g. die = [[1], [2, 2], [3, 3, 3]]"))
        for i, face in enumerate(p.die):
            if not face or any(n < 1 for n in face):
                out.append(Problem("E-PARKS-DIE", root + ("die", i),
                                   f"face {face} needs one or more cut lengths of 1 or more",
                                   "e.g. [2, 2] for two cuts of length 2"))
        box = card_box(deck.print.card.width, deck.print.card.height, p.square)
        for key, (lo, hi), cap, what, count in (
                ("card_cells", p.card_cells, box[0] * box[1], "the card at this square size",
                 p.cards),
                ("grand_cells", p.grand_cells, p.grand_box[0] * p.grand_box[1], "grand_box",
                 p.grand_cards)):
            if count == 0:
                continue  # no cards are generated, so their size range asks nothing
            if lo < 1 or hi < lo:
                out.append(Problem("E-PARKS-SIZE", root + (key,), f"bad range [{lo}, {hi}]",
                                   "two numbers, 1 <= min <= max"))
            elif hi > cap:
                out.append(Problem("E-PARKS-SIZE", root + (key,),
                                   f"cards of up to {hi} spaces do not fit {what} "
                                   f"({cap} spaces)",
                                   f"at most {cap}, or smaller squares / larger cards"))
        lo_i, hi_i = p.icon_demands
        if lo_i < 0 or hi_i < lo_i:
            out.append(Problem("E-PARKS-ICONS", root + ("icon_demands",),
                               f"bad range [{lo_i}, {hi_i}]", "two numbers, 0 <= min <= max"))
        for i, spec in enumerate(p.card):
            path = root + ("card", i)
            try:
                card = Card.from_rows(f"card-{i}", spec.name, spec.shape, spec.icons,
                                      spec.walkways, spec.bonus, spec.grand)
            except ValueError as err:
                out.append(Problem("E-PARKS-CARD", path + ("shape",), str(err),
                                   f"shape rows use '.', '#' or {letters}"))
                continue
            if len(components(card.cells)) != 1:
                out.append(Problem("E-PARKS-CARD-SHAPE", path + ("shape",),
                                   "the park outline is not one connected shape",
                                   "join the spaces edge to edge"))
            for j, w in enumerate(card.walkways):
                if len(components(w)) != 1:
                    out.append(Problem("E-PARKS-WALKWAY", path + ("walkways",),
                                       f"walkway {j + 1} is split in two",
                                       "a walkway's cells must be joined edge to edge"))
            rows, cols = p.grand_box if spec.grand else box
            if card.fitted(rows, cols) is None:
                out.append(Problem("E-PARKS-CARD-SIZE", path + ("shape",),
                                   f"a {card.height}x{card.width} outline does not fit "
                                   + ("grand_box" if spec.grand else "the card") +
                                   f" ({rows} rows x {cols} columns at {p.square:g} mm)",
                                   "use a smaller outline, smaller squares or a larger card "
                                   "(an outline that fits turned a quarter is turned)"))
        return out

    def generate(self, deck: Deck) -> ParksSet:
        return generate_mod.generate(deck)

    def score(self, deck: Deck, generated: ParksSet, source: Path, text: str) -> ScoreResult:
        """Score a finished solo game: ``completed = ["park-03", "Wren Patch", ...]`` (card ids
        or names),
        ``tokens``, ``largest_section`` (squares), ``crumpled`` and ``incomplete`` (face-up
        cards left incomplete), all whole numbers >= 0 (default 0)."""
        from ...deckfile import parse_toml

        ps: ParksSet = generated
        if text.lstrip().startswith("{"):
            return _score_log(ps, source, text)
        doc = parse_toml(text, str(source))
        data = doc.data
        problems: list[Problem] = []
        counts: dict[str, int] = {}
        keys = ("tokens", "largest_section", "crumpled", "incomplete")
        for key in keys:
            value = data.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                problems.append(Problem("E-PARKS-SCORE", (key,),
                                        f"{key} must be a whole number >= 0, got {value!r}",
                                        f"e.g. {key} = 2", str(source), doc.line_of((key,))))
            else:
                counts[key] = value
        ids = {c.id: c for c in ps.cards}
        # a card may be named by its id or by its printed name (any case)
        ids.update({k: c for c in ps.cards for k in (c.name.lower(), c.id.lower())
                    if k not in ids})
        done = data.get("completed", [])
        cards: list[Card] = []
        if not isinstance(done, list) or not all(isinstance(x, str) for x in done):
            problems.append(Problem("E-PARKS-SCORE", ("completed",),
                                    "completed must be a list of card ids",
                                    'e.g. completed = ["park-03", "grand-01"]', str(source),
                                    doc.line_of(("completed",))))
        else:
            for i, card_id in enumerate(done):
                if card_id not in ids and card_id.lower() in ids:
                    card_id = ids[card_id.lower()].id
                if card_id not in ids:
                    problems.append(Problem(
                        "E-PARKS-SCORE", ("completed", i), f"no card {card_id!r} in this deck",
                        "valid ids: " + _id_ranges(ps), str(source),
                        doc.line_of(("completed",))))
                elif ids[card_id] in cards:
                    problems.append(Problem("E-PARKS-SCORE", ("completed", i),
                                            f"{card_id} is listed twice", "list each card once",
                                            str(source), doc.line_of(("completed",))))
                else:
                    cards.append(ids[card_id])
        for key in sorted(set(data) - {"completed", *keys}):
            problems.append(Problem("E-PARKS-SCORE", (key,), f"unknown key {key!r}",
                                    "valid: completed, " + ", ".join(keys), str(source),
                                    doc.line_of((key,))))
        if not problems:
            problems.extend(_implausible(ps, cards, counts, str(source), doc.line_of))
        if problems:
            raise DeckError(problems)
        parks = sum(1 for c in cards if not c.grand)
        grands = len(cards) - parks
        pts = solo_points(parks, grands, counts["tokens"], counts["largest_section"],
                          counts["crumpled"], counts["incomplete"])
        details = {"completed park cards": f"{parks} x 3",
                   "completed grand park cards": f"{grands} x 5",
                   "tokens held": f"{counts['tokens']} x 1",
                   "largest placed section": f"{counts['largest_section']} squares",
                   "crumpled sections": f"{counts['crumpled']} x -1",
                   "incomplete face-up cards": f"{counts['incomplete']} x -1"}
        return ScoreResult(pts["total"], tuple(ScoreLine(k, v, details[k])
                                               for k, v in pts.items() if k != "total"))


def _score_lines(pts: dict[str, int], details: dict[str, str]) -> ScoreResult:
    return ScoreResult(pts["total"], tuple(ScoreLine(k, v, details.get(k, ""))
                                           for k, v in pts.items() if k != "total"))


def _score_log(ps: ParksSet, source: Path, text: str) -> ScoreResult:
    """Score a solo move log (JSON, :class:`solo.SoloLog`): replayed through the engine from
    the deal, refused with the round and rule when a move is illegal or the game unfinished."""
    import json

    from .cert import CertificateError
    from .solo import SoloLog, replay_solo

    def bad(message: str, hint: str) -> DeckError:
        return DeckError([Problem("E-PARKS-SCORE-LOG", (), message, hint, str(source), 1)])

    try:
        log = SoloLog.from_json(json.loads(text))
    except json.JSONDecodeError as err:
        raise DeckError([Problem("E-PARKS-SCORE-LOG", (), f"not JSON: {err.msg}",
                                 "a move log as `paperproof check --format json` shows one",
                                 str(source), err.lineno)]) from None
    except CertificateError as err:
        raise bad(str(err), "see docs/families/parks.md, 'The certificate format'") from None
    ids = {c.id: c for c in ps.cards}
    missing = [cid for cid in log.deal if cid not in ids]
    if missing:
        raise bad(f"the deal names {missing[0]!r}, which is not a card of this deck",
                  "valid ids: " + _id_ranges(ps))
    player, problem = replay_solo(ps.sheet, ps.die, [ids[c] for c in log.deal], log)
    if player is None:
        raise bad(f"the move log breaks the rules: {problem}",
                  "every move is replayed through the rules engine")
    from .rules import solo_score

    pts = solo_score(player)
    details = {"completed park cards": f"{pts['completed park cards'] // 3} x 3",
               "completed grand park cards": f"{pts['completed grand park cards'] // 5} x 5",
               "tokens held": f"{len(player.tokens)} x 1",
               "largest placed section": f"{player.largest_placed} squares",
               "crumpled sections": f"{len(player.crumpled)} x -1",
               "incomplete face-up cards": f"{-pts['incomplete face-up cards']} x -1"}
    return _score_lines(pts, details)


def _implausible(ps: ParksSet, cards: list[Card], counts: dict[str, int], source: str,
                 line_of: Any) -> list[Problem]:
    """A hand-typed tally no solo game could produce, each with the reason."""
    from .solo import SOLO_GRANDS, SOLO_PARKS

    out: list[Problem] = []

    def add(key: str, message: str, hint: str) -> None:
        out.append(Problem("E-PARKS-SCORE", (key,), message, hint, source, line_of((key,))))

    grands = sum(1 for c in cards if c.grand)
    if grands > SOLO_GRANDS or len(cards) - grands > SOLO_PARKS:
        add("completed", f"{len(cards) - grands} park and {grands} grand park cards completed; "
            f"a solo deal has {SOLO_PARKS} park cards and {SOLO_GRANDS} grand park "
            f"card{'s' if SOLO_GRANDS > 1 else ''}", "list the cards this game completed")
    squares = len(ps.sheet.cells())
    biggest = max((c.size for c in ps.cards), default=0)
    if counts["largest_section"] > min(squares, biggest):
        add("largest_section", f"a placed section of {counts['largest_section']} squares: the "
            f"largest card has {biggest} spaces and the sheet {squares} squares",
            f"at most {min(squares, biggest)}")
    earned = sum(1 for c in cards if c.bonus.value in ("gardener", "wildlife-token"))
    if counts["tokens"] > earned:
        add("tokens", f"{counts['tokens']} tokens held, but the completed cards award "
            f"{earned}", "tokens come only from completed cards' bonuses")
    if counts["crumpled"] > squares:
        add("crumpled", f"{counts['crumpled']} crumpled sections from a sheet of {squares} "
            "squares", f"at most {squares}")
    if counts["incomplete"] > SOLO_GRANDS + SOLO_PARKS - len(cards):
        add("incomplete", f"{counts['incomplete']} incomplete face-up cards with "
            f"{len(cards)} completed: a solo deal has {SOLO_GRANDS + SOLO_PARKS} cards",
            "count the face-up cards left incomplete")
    return out


__all__ = ["ParksFamily", "ParksParams", "ParksSet", "Card", "Sheet", "Feature"]
