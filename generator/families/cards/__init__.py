"""The ``cards`` family: a custom deck from a table of rows (player aids, rule summaries,
event decks), printed with the full print engine."""

from __future__ import annotations

import csv
import difflib
import io
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from ...deck import Deck
from ...errors import DeckError, Problem
from ...limits import control_character, describe_control
from ...render.symbols import has_symbol, symbol_names
from ...safepath import MAX_CSV_BYTES, read_text_inside
from ..base import Family, ImageRef
from . import generate as generate_mod
from .model import CardDeck, CardRow, CardsParams
from .rules import inline_icons, unbalanced_markup

CSV_COLUMNS = ("count", "title", "text", "icons", "colour", "back", "footer", "image",
               "image_fit", "image_anchor")

MAX_PRINTED_CARDS = 10_000
"""Most cards (rows x counts) one deck prints: the build's component limit
(``generator.build.MAX_COMPONENTS``); 10,000 rows of count 999 would run for days."""

MAX_CSV_ROWS = 10_000
"""Most rows a card CSV may hold (each row is at least one printed card; 10,000 is far past
any deck a designer prints and keeps a stray huge file from running for minutes)."""


_TEXT_COLUMNS = frozenset({"title", "text", "back", "footer"})


def _csv_text(column: str, value: str) -> str:
    """A CSV field as the designer meant it: in text columns ``\\n`` (backslash, n) is a
    line break, as in TOML strings (a spreadsheet cell cannot hold a real one easily);
    ``\\\\n`` keeps a literal backslash-n."""
    if column not in _TEXT_COLUMNS or "\\" not in value:
        return value
    return value.replace("\\\\", "\x00").replace("\\n", "\n").replace("\x00", "\\\\")


def _where(i: int, row: CardRow, column: str, *rest: int
           ) -> tuple[tuple[str | int, ...], str, int]:
    """Where a problem of row ``i`` is reported: a CSV row at ``file.csv:LINE`` with its
    column, an inline row at its deck key (the loader adds the deck's line)."""
    if row.source:
        file, _, line = row.source.rpartition(":")
        return ("cards", "csv", column), file, int(line)
    return ("cards", "rows", i, column, *rest), "", 0


class CardsFamily(Family[CardsParams, CardDeck]):
    name: ClassVar[str] = "cards"
    title: ClassVar[str] = "Custom cards from a table"
    summary: ClassVar[str] = "a custom deck from a table of rows (player aids, event decks)"
    components: ClassVar[tuple[str, ...]] = ("cards with title, icons, rich text and a back",)
    Params: ClassVar[type[BaseModel]] = CardsParams

    def resolve_files(self, table: dict[str, Any], base_dir: Path) -> dict[str, Any]:
        name = table.get("csv")
        if not isinstance(name, str):
            return table
        path, text = read_text_inside(base_dir, name, what="the CSV file",
                                      max_bytes=MAX_CSV_BYTES, key=("cards", "csv"))
        rows = list(table.get("rows", []))
        problems: list[Problem] = []
        reader = csv.DictReader(io.StringIO(text, newline=""))
        try:
            header = reader.fieldnames or []
        except csv.Error:
            header = []
            problems.append(Problem("E-CARDS-CSV", ("cards", "csv"),
                                    "the CSV header line cannot be read", "", str(path), 1))
        for position, column in enumerate(header, start=1):
            if column in CSV_COLUMNS:
                continue
            # the file's own text is never echoed (it may not be what the designer thinks)
            close = difflib.get_close_matches(column.strip().lower(), CSV_COLUMNS, n=1)
            hint = (f"did you mean {close[0]!r}? " if close else "") + \
                "valid columns: " + ", ".join(CSV_COLUMNS)
            problems.append(Problem("E-CARDS-CSV-COLUMN", ("cards", "csv"),
                                    f"column {position} of the header is not a known column",
                                    hint, str(path), 1))
        last_line = 1
        while True:
            try:
                record = next(reader)
            except StopIteration:
                break
            except csv.Error:
                problems.append(Problem("E-CARDS-CSV", ("cards", "csv"),
                                        "this CSV line cannot be read (an unclosed quote?)",
                                        "", str(path), reader.line_num))
                break
            n = first_line = last_line + 1
            last_line = reader.line_num
            if len(rows) >= MAX_CSV_ROWS:
                problems.append(Problem("E-CARDS-CSV-ROWS", ("cards", "csv"),
                                        f"more than {MAX_CSV_ROWS} rows",
                                        "split the deck", str(path), n))
                break
            missing = [k for k in header if k in CSV_COLUMNS and record.get(k) is None]
            if missing:
                have = len(header) - len(missing)
                problems.append(Problem("E-CARDS-CSV-SHORT", ("cards", "csv"),
                                        f"this row has {have} field(s) of {len(header)}; "
                                        f"column {missing[0]!r} is missing",
                                        "add the missing fields (an empty field is two "
                                        "commas: ,,)", str(path), n))
                continue
            if record.get(None):
                problems.append(Problem("E-CARDS-CSV-LONG", ("cards", "csv"),
                                        f"this row has more fields than the {len(header)} "
                                        "columns of the header",
                                        "quote a field that holds a comma: \"a, b\"",
                                        str(path), n))
                continue
            row: dict[str, Any] = {k: _csv_text(k, v) for k, v in record.items()
                                   if k in CSV_COLUMNS and v not in (None, "")}
            bad = [(k, control_character(v)) for k, v in row.items()]
            for column, found in bad:
                if found is not None:
                    problems.append(Problem("E-TEXT-CONTROL", ("cards", "csv", column),
                                            f"column {column!r}: the text "
                                            + describe_control(row[column], found),
                                            "remove it", str(path), n))
            if any(found is not None for _, found in bad):
                continue
            if "icons" in row:
                row["icons"] = tuple(row["icons"].split())
            try:
                CardRow.model_validate(row)
            except ValidationError as exc:
                for err in exc.errors(include_url=False):
                    col = str(err["loc"][0]) if err["loc"] else "?"
                    msg = err["msg"].removeprefix("Value error, ")
                    problems.append(Problem("E-CARDS-CSV-VALUE", ("cards", "csv", col),
                                            f"column {col!r}: {msg}", "", str(path), n))
                continue
            row["source"] = f"{path}:{first_line}"
            rows.append(row)
        if problems:
            error = DeckError(problems)
            # the good rows still get checked (icons, images), so every problem shows at once
            error.partial = {**table, "rows": rows}  # type: ignore[attr-defined]
            raise error
        return {**table, "rows": rows}

    def image_paths(self, deck: Deck) -> list[ImageRef]:
        params: CardsParams = deck.params
        out: list[ImageRef] = []
        for i, row in enumerate(params.rows):
            if row.image:
                key, file, line = _where(i, row, "image")
                out.append(ImageRef(key, row.image, file, line))
        return out

    def validate(self, deck: Deck) -> list[Problem]:
        params: CardsParams = deck.params
        problems: list[Problem] = []
        valid = ", ".join(symbol_names())
        if not params.rows:
            problems.append(Problem("E-CARDS-EMPTY", ("cards", "rows"), "the deck has no cards",
                                    "add [[cards.rows]] tables or a csv file"))
        total = sum(row.count for row in params.rows)
        if total > MAX_PRINTED_CARDS:
            problems.append(Problem("E-CARDS-TOO-MANY", ("cards", "rows"),
                                    f"the rows print {total:,} cards, more than the "
                                    f"{MAX_PRINTED_CARDS:,} one deck may print",
                                    "lower the counts or split the deck"))
        for i, row in enumerate(params.rows):
            for j, icon in enumerate(row.icons):
                if not has_symbol(icon):
                    key, file, line = _where(i, row, "icons", j)
                    problems.append(Problem("E-CARDS-ICON", key, f"unknown symbol {icon!r}",
                                            f"valid: {valid}", file, line))
            key, file, line = _where(i, row, "text")
            for icon in inline_icons(row.text):
                if not has_symbol(icon):
                    problems.append(Problem("E-CARDS-ICON", key,
                                            f"unknown inline symbol :{icon}:", f"valid: {valid}",
                                            file, line))
            marker = unbalanced_markup(row.text)
            if marker:
                problems.append(Problem("E-CARDS-MARKUP", key,
                                        f"{marker} is opened but never closed",
                                        f"close it with another {marker}", file, line))
        back = params.back
        if back is not None and back.icon is not None and not has_symbol(back.icon):
            problems.append(Problem("E-CARDS-ICON", ("cards", "back", "icon"),
                                    f"unknown symbol {back.icon!r}", f"valid: {valid}"))
        return problems

    def generate(self, deck: Deck) -> CardDeck:
        return generate_mod.generate(deck)
