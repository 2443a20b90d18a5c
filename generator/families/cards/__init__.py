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
from ...render.symbols import has_symbol, symbol_names
from ...safepath import MAX_CSV_BYTES, read_text_inside
from ..base import CheckOptions, Component, Family, Report
from . import check as check_mod
from . import generate as generate_mod
from . import layout as layout_mod
from .model import CardDeck, CardRow, CardsParams
from .rules import inline_icons, unbalanced_markup

CSV_COLUMNS = ("count", "title", "text", "icons", "colour", "back", "footer")

MAX_CSV_ROWS = 10_000
"""Most rows a card CSV may hold (each row is at least one printed card; 10,000 is far past
any deck a designer prints and keeps a stray huge file from running for minutes)."""


class CardsFamily(Family):
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
            n = reader.line_num
            if len(rows) >= MAX_CSV_ROWS:
                problems.append(Problem("E-CARDS-CSV-ROWS", ("cards", "csv"),
                                        f"more than {MAX_CSV_ROWS} rows",
                                        "split the deck", str(path), n))
                break
            row: dict[str, Any] = {k: v for k, v in record.items()
                                   if k in CSV_COLUMNS and v not in (None, "")}
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
            rows.append(row)
        if problems:
            raise DeckError(problems)
        return {**table, "rows": rows}

    def validate(self, deck: Deck) -> list[Problem]:
        params: CardsParams = deck.params
        problems: list[Problem] = []
        valid = ", ".join(symbol_names())
        if not params.rows:
            problems.append(Problem("E-CARDS-EMPTY", ("cards", "rows"), "the deck has no cards",
                                    "add [[cards.rows]] tables or a csv file"))
        for i, row in enumerate(params.rows):
            for j, icon in enumerate(row.icons):
                if not has_symbol(icon):
                    problems.append(Problem("E-CARDS-ICON", ("cards", "rows", i, "icons", j),
                                            f"unknown symbol {icon!r}", f"valid: {valid}"))
            for icon in inline_icons(row.text):
                if not has_symbol(icon):
                    problems.append(Problem("E-CARDS-ICON", ("cards", "rows", i, "text"),
                                            f"unknown inline symbol :{icon}:", f"valid: {valid}"))
            marker = unbalanced_markup(row.text)
            if marker:
                problems.append(Problem("E-CARDS-MARKUP", ("cards", "rows", i, "text"),
                                        f"{marker} is opened but never closed",
                                        f"close it with another {marker}"))
        back = params.back
        if back is not None and back.icon is not None and not has_symbol(back.icon):
            problems.append(Problem("E-CARDS-ICON", ("cards", "back", "icon"),
                                    f"unknown symbol {back.icon!r}", f"valid: {valid}"))
        return problems

    def generate(self, deck: Deck) -> CardDeck:
        return generate_mod.generate(deck)

    def check(self, deck: Deck, generated: Any, options: CheckOptions) -> Report:
        return check_mod.check(deck, generated)

    def layout(self, deck: Deck, generated: Any, report: Report) -> list[Component]:
        return layout_mod.layout(deck, generated)
