"""The parks certificate model: every move of a proof (or of a played game) written down.

A certificate is a list of rounds. A round names the die face used, its cuts in order, for
every cut the square of the part that stays when the cut leaves a tie for the largest part
(``null`` when there is no tie: the largest part stays by rule), every freed section placed
(on which card, how: transform, offset, any token waivers) or crumpled, and the Extra Cuts
made at once after the round's BUILD and CHECK, each with its own keep, placements and
crumples. Nothing is left to a default: :mod:`.replay` refuses a round that leaves a tie
unnamed, a freed section unaccounted for, or crumples a section that had a legal place.

Placements are listed before crumples: a player may place and crumple in any order, but
crumpling first only leaves more room on the cards (so more sections would have to be
placed), so placements first loses nothing. The JSON form is documented in
docs/families/parks.md and has a JSON Schema (``paperproof schema parks-certificate``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...core.grid import Cell
from .model import Cut
from .rules import Build, Placement


class CertificateError(ValueError):
    """A certificate or move log that is not well formed; the message names the place."""


@dataclass(frozen=True)
class Placed:
    """A freed section laid on the face-up card ``card`` (an id) with ``placement``."""

    card: str
    placement: Placement

    @property
    def section(self) -> frozenset[Cell]:
        return self.placement.section

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, **self.placement.to_json()}


@dataclass(frozen=True)
class ExtraPlan:
    """An Extra Cut made at once: the cut (a length of the round's face), the square kept on
    a tie, and what happens to the sections it frees."""

    cut: Cut
    keep: Cell | None = None
    placed: tuple[Placed, ...] = ()
    crumpled: tuple[frozenset[Cell], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"cut": str(self.cut), "keep": list(self.keep) if self.keep else None,
                "placed": [p.to_json() for p in self.placed],
                "crumpled": [_cells_json(s) for s in self.crumpled]}


@dataclass(frozen=True)
class RoundPlan:
    """One round: the face, its cuts with the square kept on each tie (None: no tie), the
    sections placed and crumpled in BUILD, then the Extra Cuts made at once."""

    face: tuple[int, ...]
    cuts: tuple[Cut, ...]
    keeps: tuple[Cell | None, ...]
    placed: tuple[Placed, ...] = ()
    crumpled: tuple[frozenset[Cell], ...] = ()
    extra: tuple[ExtraPlan, ...] = ()

    @property
    def builds(self) -> tuple[Build, ...]:
        """Every section of the round (its Extra Cuts' too) as engine builds, placements
        first; card positions are not known here (0), so this is for drawing and counting."""
        out: list[Build] = []
        for placed, crumpled in [(self.placed, self.crumpled)] + [
                (e.placed, e.crumpled) for e in self.extra]:
            out.extend(Build(p.section, 0, p.placement) for p in placed)
            out.extend(Build(s) for s in crumpled)
        return tuple(out)

    @property
    def all_cuts(self) -> tuple[Cut, ...]:
        """The round's cuts, then its Extra Cuts, in the order made."""
        return self.cuts + tuple(e.cut for e in self.extra)

    def to_json(self) -> dict[str, Any]:
        return {"face": list(self.face), "cuts": [str(c) for c in self.cuts],
                "keep": [list(k) if k else None for k in self.keeps],
                "placed": [p.to_json() for p in self.placed],
                "crumpled": [_cells_json(s) for s in self.crumpled],
                "extra": [e.to_json() for e in self.extra]}

    @classmethod
    def from_json(cls, data: Any, where: str = "round") -> RoundPlan:
        d = _obj(data, where, {"face", "cuts", "keep", "placed", "crumpled", "extra"},
                 {"face", "cuts"})
        face = tuple(_int(x, f"{where}.face[{i}]") for i, x in enumerate(_list(d["face"],
                                                                             f"{where}.face")))
        cuts = tuple(_cut(x, f"{where}.cuts[{i}]")
                     for i, x in enumerate(_list(d["cuts"], f"{where}.cuts")))
        keeps_raw = _list(d.get("keep", [None] * len(cuts)), f"{where}.keep")
        if len(keeps_raw) != len(cuts):
            raise CertificateError(f"{where}.keep: {len(keeps_raw)} entries for {len(cuts)} "
                                   "cuts (one per cut, null where the cut leaves no tie)")
        keeps = tuple(_keep(k, f"{where}.keep[{i}]") for i, k in enumerate(keeps_raw))
        placed = _placed_list(d.get("placed", []), f"{where}.placed")
        crumpled = _crumpled_list(d.get("crumpled", []), f"{where}.crumpled")
        extra: list[ExtraPlan] = []
        for i, e in enumerate(_list(d.get("extra", []), f"{where}.extra")):
            w = f"{where}.extra[{i}]"
            ed = _obj(e, w, {"cut", "keep", "placed", "crumpled"}, {"cut"})
            extra.append(ExtraPlan(_cut(ed["cut"], f"{w}.cut"), _keep(ed.get("keep"), f"{w}.keep"),
                                   _placed_list(ed.get("placed", []), f"{w}.placed"),
                                   _crumpled_list(ed.get("crumpled", []), f"{w}.crumpled")))
        return cls(face, cuts, keeps, placed, crumpled, tuple(extra))


class _RoundsFigures:
    """What card and hand certificates derive alike from their ``rounds``."""

    rounds: tuple[RoundPlan, ...]

    @property
    def placements(self) -> tuple[Placement, ...]:
        return placements_of(self.rounds)

    @property
    def cut_count(self) -> int:
        return sum(len(r.all_cuts) for r in self.rounds)


@dataclass(frozen=True)
class Certificate(_RoundsFigures):
    """A replayable proof that one card is completable from a fresh sheet (the card is the
    only face-up card, faces chosen freely)."""

    card: str
    rounds: tuple[RoundPlan, ...]

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "rounds": [r.to_json() for r in self.rounds]}

    @classmethod
    def from_json(cls, data: Any) -> Certificate:
        d = _obj(data, "certificate", {"card", "rounds"}, {"card", "rounds"})
        return cls(_str(d["card"], "card"), _rounds(d["rounds"]))


@dataclass(frozen=True)
class HandCertificate(_RoundsFigures):
    """A replayable plan completing a dealt hand from one fresh sheet: ``deal`` the card ids
    in deal order (the first two face up, the rest the pile, top first), ``rounds`` as in a
    card certificate. A placement names its card, since the face-up row changes as cards
    complete."""

    deal: tuple[str, ...]
    rounds: tuple[RoundPlan, ...]

    def to_json(self) -> dict[str, Any]:
        return {"deal": list(self.deal), "rounds": [r.to_json() for r in self.rounds]}

    @classmethod
    def from_json(cls, data: Any) -> HandCertificate:
        d = _obj(data, "certificate", {"deal", "rounds"}, {"deal", "rounds"})
        deal = tuple(_str(x, f"deal[{i}]") for i, x in enumerate(_list(d["deal"], "deal")))
        return cls(deal, _rounds(d["rounds"]))


def placements_of(rounds: Sequence[RoundPlan]) -> tuple[Placement, ...]:
    """Every placement of ``rounds`` in the order made (Extra Cuts after their round)."""
    return tuple(b.placement for r in rounds for b in r.builds if b.placement is not None)


# --------------------------------------------------------------------------------------------
# Strict JSON readers: a move log may be typed by hand, so every slip names its place.


def _cells_json(section: frozenset[Cell]) -> list[list[int]]:
    return [list(c) for c in sorted(section)]


def _obj(data: Any, where: str, allowed: set[str], required: set[str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise CertificateError(f"{where}: expected an object")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise CertificateError(f"{where}: unknown key {unknown[0]!r} (valid: "
                               + ", ".join(sorted(allowed)) + ")")
    missing = sorted(required - set(data))
    if missing:
        raise CertificateError(f"{where}: missing {missing[0]!r}")
    return data


def _list(data: Any, where: str) -> list[Any]:
    if not isinstance(data, list):
        raise CertificateError(f"{where}: expected a list")
    return data


def _int(data: Any, where: str) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        raise CertificateError(f"{where}: expected a whole number, got {data!r}")
    return data


def _str(data: Any, where: str) -> str:
    if not isinstance(data, str):
        raise CertificateError(f"{where}: expected a string, got {data!r}")
    return data


def _cell(data: Any, where: str) -> Cell:
    items = _list(data, where)
    if len(items) != 2:
        raise CertificateError(f"{where}: expected [row, column]")
    return (_int(items[0], where), _int(items[1], where))


def _cut(data: Any, where: str) -> Cut:
    try:
        return Cut.parse(_str(data, where))
    except ValueError as err:
        raise CertificateError(f"{where}: {err}") from None


def _keep(data: Any, where: str) -> Cell | None:
    return None if data is None else _cell(data, where)


def _section(data: Any, where: str) -> frozenset[Cell]:
    cells = [_cell(c, f"{where}[{i}]") for i, c in enumerate(_list(data, where))]
    if not cells:
        raise CertificateError(f"{where}: a section has one or more squares")
    return frozenset(cells)


def _placed_list(data: Any, where: str) -> tuple[Placed, ...]:
    out: list[Placed] = []
    for i, p in enumerate(_list(data, where)):
        w = f"{where}[{i}]"
        d = _obj(p, w, {"card", "section", "transform", "offset", "waive"},
                 {"card", "section", "transform", "offset"})
        k = _int(d["transform"], f"{w}.transform")
        if not 0 <= k < 8:
            raise CertificateError(f"{w}.transform: {k} is not 0..7")
        waive: list[tuple[Cell, str]] = []
        for j, x in enumerate(_list(d.get("waive", []), f"{w}.waive")):
            items = _list(x, f"{w}.waive[{j}]")
            if len(items) != 3 or items[2] not in ("feature", "icon"):
                raise CertificateError(f"{w}.waive[{j}]: expected [row, column, "
                                       "\"feature\" | \"icon\"]")
            waive.append(((_int(items[0], w), _int(items[1], w)), str(items[2])))
        out.append(Placed(_str(d["card"], f"{w}.card"),
                          Placement(_section(d["section"], f"{w}.section"), k,
                                    _cell(d["offset"], f"{w}.offset"), tuple(waive))))
    return tuple(out)


def _crumpled_list(data: Any, where: str) -> tuple[frozenset[Cell], ...]:
    return tuple(_section(s, f"{where}[{i}]") for i, s in enumerate(_list(data, where)))


def _rounds(data: Any) -> tuple[RoundPlan, ...]:
    return tuple(RoundPlan.from_json(r, f"rounds[{i}]")
                 for i, r in enumerate(_list(data, "rounds")))


def certificate_schema() -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of the three written forms: a card certificate, a hand
    certificate and a solo move log (``paperproof schema parks-certificate``). The schema
    says what is well formed; whether the moves are legal only replay can say."""
    cell = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
            "description": "[row, column], 0-based from the top-left"}
    section = {"type": "array", "items": cell, "minItems": 1,
               "description": "the section's sheet squares"}
    cut = {"type": "string", "pattern": r"^-?\d+,-?\d+ [NESW] \d+$",
           "description": "'row,col DIR length': from lattice corner row,col (0,0 the sheet's "
                          "top-left corner) towards N/E/S/W through length unit edges"}
    keep = {"oneOf": [cell, {"type": "null"}],
            "description": "a square of the part that stays on a tie for the largest part; "
                           "null when the cut leaves no tie"}
    placed = {"type": "object", "additionalProperties": False,
              "required": ["card", "section", "transform", "offset"],
              "properties": {
                  "card": {"type": "string", "description": "the face-up card's id"},
                  "section": section,
                  "transform": {"type": "integer", "minimum": 0, "maximum": 7,
                                "description": "0 identity, 1-3 rotate 90/180/270 clockwise, "
                                               "4 mirror left-right, 5 mirror top-bottom, "
                                               "6 transpose, 7 anti-transpose"},
                  "offset": {**cell, "description": "card space = transform(square) + offset"},
                  "waive": {"type": "array", "description": "token waivers",
                            "items": {"type": "array", "minItems": 3, "maxItems": 3,
                                      "prefixItems": [{"type": "integer"}, {"type": "integer"},
                                                      {"enum": ["feature", "icon"]}]}}}}
    built = {"placed": {"type": "array", "items": {"$ref": "#/$defs/placed"}},
             "crumpled": {"type": "array", "items": section,
                          "description": "sections with no legal place on any face-up card"}}
    extra = {"type": "object", "additionalProperties": False, "required": ["cut"],
             "properties": {"cut": cut, "keep": keep, **built}}
    rnd = {"type": "object", "additionalProperties": False, "required": ["face", "cuts"],
           "properties": {
               "face": {"type": "array", "items": {"type": "integer", "minimum": 1},
                        "minItems": 1, "description": "the die face (cut lengths)"},
               "cuts": {"type": "array", "items": cut, "description": "in the order made"},
               "keep": {"type": "array", "items": keep, "description": "one per cut"},
               **built,
               "extra": {"type": "array", "items": {"$ref": "#/$defs/extra"},
                         "description": "Extra Cuts made at once after BUILD and CHECK"}}}
    rounds = {"type": "array", "items": {"$ref": "#/$defs/round"}}
    ids = {"type": "array", "items": {"type": "string"}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "PaperProof parks certificate or solo move log",
        "oneOf": [
            {"title": "card certificate", "type": "object", "additionalProperties": False,
             "required": ["card", "rounds"],
             "properties": {"card": {"type": "string"}, "rounds": rounds}},
            {"title": "hand certificate", "type": "object", "additionalProperties": False,
             "required": ["deal", "rounds"],
             "properties": {"deal": ids, "rounds": rounds}},
            {"title": "solo move log", "type": "object", "additionalProperties": False,
             "required": ["solo", "deal", "grands", "rounds"],
             "properties": {"solo": {"const": True}, "deal": ids,
                            "grands": {"type": "integer", "minimum": 0}, "rounds": rounds}},
        ],
        "$defs": {"round": rnd, "extra": extra, "placed": placed},
    }
