"""``paperproof score DECK SHEET``: read a filled street sheet written in TOML, check that it
is a sheet the rules can produce, and score it.

The sheet file (houses and fences 1-based, as printed; the top-level keys come before the
first ``[[street]]``, as TOML wants)::

    workers = 2                     # worker boxes marked
    rivals = { workers = [3, 1] }   # ranked tracks: the other players' marks (absent: solo)
    refusals = 0                    # refusal boxes marked
    price = [0, 1]                  # price rises marked per group size (1, 2, ...)

    [[street]]                      # one table per street, top to bottom
    houses = [1, 3, ".", 5, "5d"]   # a number, "." empty, "<n>d" a duplicate, "R" a roundabout
    fences = [2]                    # a fence after house 2 (between houses 2 and 3)
    pools = [3]                     # houses whose pool is built
    parks = 1                       # park boxes marked

    [[plan]]
    id = "plan-01"
    first = true                    # scored the first-achiever points
    groups = [[1, 1, 2], [2, 4, 5]] # street, first house, last house
"""

from __future__ import annotations

import re
from typing import Any

from ...errors import DeckError, Problem
from ...tomldoc import TomlDoc
from .model import PlanCard, SheetSpec
from .rules import EMPTY, ROUND, GroupRef, RuleError, Sheet

_DUP = re.compile(r"^\s*(\d+)\s*d\s*$")
_TOP = {"street", "workers", "refusals", "price", "plan", "rivals"}
_STREET = {"houses", "fences", "pools", "parks"}
_PLAN = {"id", "first", "groups"}


class _Errors:
    def __init__(self, doc: TomlDoc) -> None:
        self.doc = doc
        self.problems: list[Problem] = []

    def add(self, code: str, path: tuple[str | int, ...], message: str, hint: str = "") -> None:
        self.problems.append(self.doc.problem(f"E-STREETS-SHEET-{code}", path, message, hint))


def _int(err: _Errors, value: Any, path: tuple[str | int, ...], lo: int, hi: int,
         what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        err.add("TYPE", path, f"{what} must be a whole number, got {value!r}")
        return lo
    if not lo <= value <= hi:
        err.add("RANGE", path, f"{what} {value} is out of range", f"valid: {lo}..{hi}")
        return max(lo, min(hi, value))
    return value


def _list(err: _Errors, value: Any, path: tuple[str | int, ...], what: str) -> list[Any]:
    if not isinstance(value, list):
        err.add("TYPE", path, f"{what} must be an array, got {value!r}")
        return []
    return value


def read_sheet(spec: SheetSpec, plans: tuple[PlanCard, ...], doc: TomlDoc) -> Sheet:
    """The sheet written in ``doc``; raises DeckError listing every problem at file:line."""
    err = _Errors(doc)
    data = doc.data
    for key in data:
        if key not in _TOP:
            err.add("KEY", (key,), f"unknown key {key!r}", "valid: " + ", ".join(sorted(_TOP)))
    streets = _list(err, data.get("street", []), ("street",), "street")
    if len(streets) != len(spec.streets):
        err.add("STREETS", ("street",), f"{len(streets)} [[street]] tables; the sheet has "
                f"{len(spec.streets)}", "one [[street]] per street, top to bottom")
    sheet = Sheet.empty(spec)
    houses = [list(r) for r in sheet.houses]
    dups: list[set[int]] = [set() for _ in spec.streets]
    fences: list[set[int]] = [set() for _ in spec.streets]
    pools: list[set[int]] = [set() for _ in spec.streets]
    parks = [0] * len(spec.streets)
    for s, table in enumerate(streets[: len(spec.streets)]):
        st = spec.streets[s]
        base: tuple[str | int, ...] = ("street", s)
        if not isinstance(table, dict):
            err.add("TYPE", base, "each [[street]] must be a table")
            continue
        for key in table:
            if key not in _STREET:
                err.add("KEY", (*base, key), f"unknown key {key!r}",
                        "valid: " + ", ".join(sorted(_STREET)))
        row = _list(err, table.get("houses", ["."] * st.houses), (*base, "houses"), "houses")
        if row and len(row) != st.houses:
            err.add("HOUSES", (*base, "houses"), f"{st.name} has {st.houses} houses, the "
                    f"array has {len(row)}", 'write "." for an empty house')
        for h, cell in enumerate(row[: st.houses]):
            path = (*base, "houses", h)
            if cell == "." or cell == "":
                continue
            if isinstance(cell, str) and cell.strip().upper() == "R":
                houses[s][h] = ROUND
                continue
            m = _DUP.match(cell) if isinstance(cell, str) else None
            if m:
                houses[s][h] = int(m.group(1))
                dups[s].add(h)
            elif isinstance(cell, int) and not isinstance(cell, bool):
                houses[s][h] = _int(err, cell, path, spec.written_min, spec.written_max,
                                    "house number")
            else:
                err.add("HOUSE", path, f"house {h + 1}: {cell!r} is not a house entry",
                        'a number, "." (empty), "<n>d" (duplicate) or "R" (roundabout)')
        for i, b in enumerate(_list(err, table.get("fences", []), (*base, "fences"), "fences")):
            fences[s].add(_int(err, b, (*base, "fences", i), 1, st.houses - 1,
                               "fence (after house)"))
        for i, h in enumerate(_list(err, table.get("pools", []), (*base, "pools"), "pools")):
            hv = _int(err, h, (*base, "pools", i), 1, st.houses, "pool house") - 1
            if hv not in st.pools:
                err.add("POOL", (*base, "pools", i), f"{st.name} house {hv + 1} has no pool "
                        "spot", "pool spots: " + ", ".join(str(p + 1) for p in st.pools))
            elif houses[s][hv] < 0 or hv in dups[s]:
                err.add("POOL", (*base, "pools", i), f"the pool of house {hv + 1} is built "
                        "but the house is not (a pool comes with its house's number)")
            pools[s].add(hv)
        parks[s] = _int(err, table.get("parks", 0), (*base, "parks"), 0, len(st.parks),
                        "parks")
        _order(err, spec, s, houses[s], dups[s], base)
    workers = _int(err, data.get("workers", 0), ("workers",), 0, len(spec.worker_points),
                   "workers")
    refusals = _int(err, data.get("refusals", 0), ("refusals",), 0,
                    len(spec.refusal_penalty), "refusals")
    price = [0] * spec.max_group
    for k, v in enumerate(_list(err, data.get("price", []), ("price",), "price")):
        if k >= spec.max_group:
            err.add("PRICE", ("price", k), f"no value column for groups of {k + 1}",
                    f"sizes 1..{spec.max_group}")
            break
        price[k] = _int(err, v, ("price", k), 0, len(spec.group_values[k]) - 1,
                        f"price rises of groups of {k + 1}")
    total_dups = sum(len(d) for d in dups)
    if total_dups > len(spec.duplicate_penalty):
        err.add("DUPLICATES", ("street",), f"{total_dups} duplicates; the track has "
                f"{len(spec.duplicate_penalty)} boxes")
    joins = _joins(err, spec, houses, dups, fences)
    rounds = sum(1 for row in houses for v in row if v == ROUND)
    if rounds > len(spec.roundabout_penalty):
        err.add("ROUNDABOUTS", ("street",), f"{rounds} roundabouts; the track has "
                f"{len(spec.roundabout_penalty)} boxes")
    if err.problems:
        raise DeckError(err.problems)
    sheet = Sheet(spec=spec, houses=tuple(tuple(r) for r in houses),
                  dups=tuple(frozenset(d) for d in dups),
                  fences=tuple(frozenset(f) for f in fences),
                  pools=tuple(frozenset(p) for p in pools), parks=tuple(parks),
                  workers=workers, refusals=refusals, price=tuple(price), joins=joins)
    by_id = {p.id: p for p in plans}
    for i, table in enumerate(_list(err, data.get("plan", []), ("plan",), "plan")):
        base = ("plan", i)
        if not isinstance(table, dict):
            err.add("TYPE", base, "each [[plan]] must be a table")
            continue
        for key in table:
            if key not in _PLAN:
                err.add("KEY", (*base, key), f"unknown key {key!r}",
                        "valid: " + ", ".join(sorted(_PLAN)))
        pid = table.get("id")
        if pid not in by_id:
            err.add("PLAN", (*base, "id"), f"unknown plan {pid!r}",
                    "valid: " + ", ".join(by_id))
            continue
        first = table.get("first", False)
        if not isinstance(first, bool):
            err.add("TYPE", (*base, "first"), "first must be true or false")
            continue
        groups: list[GroupRef] = []
        for j, g in enumerate(_list(err, table.get("groups", []), (*base, "groups"),
                                    "groups")):
            if (not isinstance(g, list) or len(g) != 3
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in g)):
                err.add("GROUP", (*base, "groups", j), f"{g!r} is not [street, first house, "
                        "last house]")
                continue
            groups.append((g[0] - 1, g[1] - 1, g[2] - 1))
        try:
            sheet = sheet.claim(by_id[pid], first=first, groups=groups)
        except RuleError as exc:
            err.add("CLAIM", base, str(exc))
    if err.problems:
        raise DeckError(err.problems)
    return sheet


def _joins(err: _Errors, spec: SheetSpec, houses: list[list[int]], dups: list[set[int]],
           fences: list[set[int]]) -> tuple[frozenset[int], ...]:
    """With ``duplicate_rule = "joined"``: every duplicate copies a neighbour showing its
    number with no fence between them; returns those boundaries per street."""
    if spec.duplicate_rule != "joined":
        return ()
    out: list[frozenset[int]] = []
    for s, row in enumerate(houses):
        joined: set[int] = set()
        for h in sorted(dups[s]):
            same = [x for x in (h - 1, h + 1) if 0 <= x < len(row) and row[x] == row[h]]
            open_ = [x for x in same if max(h, x) not in fences[s]]
            if same and not open_:
                err.add("DUPLICATE", ("street", s, "fences"), f"{spec.streets[s].name}: a "
                        f"fence separates duplicate house {h + 1} from the house it copies",
                        "duplicate_rule = joined: no fence between a duplicate and its house")
            elif open_:
                joined.add(max(h, open_[0]))
        out.append(frozenset(joined))
    return tuple(out)


def read_rivals(spec: SheetSpec, doc: TomlDoc) -> dict[str, list[int]] | None:
    """``rivals = { workers = [3, 5] }``: the other players' marks on each ranked track
    (absent: a solo game). Raises DeckError at file:line."""
    raw = doc.data.get("rivals")
    if raw is None:
        return None
    err = _Errors(doc)
    names = [name for name, _, _ in spec.ranked]
    out: dict[str, list[int]] = {}
    if not isinstance(raw, dict):
        err.add("TYPE", ("rivals",), "rivals must be a table, e.g. rivals = { workers = [3, 5] }")
    else:
        for key, counts in raw.items():
            if key not in names:
                err.add("KEY", ("rivals", key), f"{key!r} is not a ranked track of this deck",
                        "ranked: " + (", ".join(names) or "none"))
                continue
            row = _list(err, counts, ("rivals", key), key)
            if len(row) > 5:
                err.add("RANGE", ("rivals", key), f"{len(row)} rivals; a game has at most 6 "
                        "players")
            out[key] = [_int(err, v, ("rivals", key, i), 0, 1000, f"rival {key}")
                        for i, v in enumerate(row)]
    if err.problems:
        raise DeckError(err.problems)
    return out


def _order(err: _Errors, spec: SheetSpec, s: int, row: list[int], dups: set[int],
           base: tuple[str | int, ...]) -> None:
    """Numbers rise along the street; duplicates copy a neighbour; no other repeats."""
    name = spec.streets[s].name
    last = -1
    regulars = 0  # regular (non-duplicate) houses in the current run of equal numbers
    for h, v in enumerate(row):
        if v == EMPTY:
            continue
        if v == ROUND:
            # A roundabout: the part after it numbers independently.
            if last >= 0 and regulars == 0:
                err.add("DUPLICATE", (*base, "houses", h - 1), f"{name}: the run of {last} "
                        "is all duplicates; a duplicate copies a house built with a number")
            last, regulars = -1, 0
            continue
        if h in dups:
            near = [row[x] for x in (h - 1, h + 1) if 0 <= x < len(row)]
            if v not in near:
                err.add("DUPLICATE", (*base, "houses", h), f"{name} house {h + 1}: a "
                        f"duplicate copies a neighbouring house; no neighbour shows {v}")
        if v != last:
            if last >= 0 and regulars == 0:
                err.add("DUPLICATE", (*base, "houses", h - 1), f"{name}: the run of {last} "
                        "is all duplicates; a duplicate copies a house built with a number")
            regulars = 0
        regulars += 0 if h in dups else 1
        if v < last or regulars > 1:
            err.add("ORDER", (*base, "houses", h), f"{name} house {h + 1}: {v} after "
                    f"{last} breaks the rising order",
                    "numbers rise left to right; only duplicates repeat")
        last = v
    if last >= 0 and regulars == 0:
        err.add("DUPLICATE", (*base, "houses"), f"{name}: the run of {last} is all "
                "duplicates; a duplicate copies a house built with a number")


def sheet_to_toml(sheet: Sheet, plans: tuple[PlanCard, ...]) -> str:
    """The sheet written in the score-file format (``read_sheet`` reads it back to an equal
    sheet): the text form of a sheet."""
    by_id = {p.id: p for p in plans}
    out = [f"workers = {sheet.workers}", f"refusals = {sheet.refusals}",
           "price = [" + ", ".join(str(k) for k in sheet.price) + "]", ""]
    for s, row in enumerate(sheet.houses):
        cells = []
        for h, v in enumerate(row):
            if v == EMPTY:
                cells.append('"."')
            elif v == ROUND:
                cells.append('"R"')
            elif h in sheet.dups[s]:
                cells.append(f'"{v}d"')
            else:
                cells.append(str(v))
        out.append("[[street]]")
        out.append("houses = [" + ", ".join(cells) + "]")
        out.append("fences = [" + ", ".join(str(b) for b in sorted(sheet.fences[s])) + "]")
        out.append("pools = [" + ", ".join(str(h + 1) for h in sorted(sheet.pools[s])) + "]")
        out.append(f"parks = {sheet.parks[s]}")
        out.append("")
    for claim in sheet.claims:
        plan = by_id[claim.plan]
        first = claim.points == plan.first and (claim.points != plan.later or
                                                plan.first == plan.later)
        groups = ", ".join(f"[{s + 1}, {a + 1}, {z + 1}]" for s, a, z in claim.groups)
        out.extend(["[[plan]]", f'id = "{claim.plan}"', f"first = {str(first).lower()}",
                    f"groups = [{groups}]", ""])
    return "\n".join(out)
