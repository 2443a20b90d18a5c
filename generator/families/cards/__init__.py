"""The ``cards`` family: a custom deck from a table of rows (player aids, rule summaries,
event decks), printed with the full print engine."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from ...deck import Deck
from ...errors import DeckError, Problem
from ...render.symbols import has_symbol, symbol_names
from ..base import CheckOptions, Component, Family, Report
from . import check as check_mod
from . import generate as generate_mod
from . import layout as layout_mod
from .model import CardDeck, CardRow, CardsParams
from .rules import inline_icons, unbalanced_markup

CSV_COLUMNS = ("count", "title", "text", "icons", "colour", "back", "footer")


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
        path = base_dir / name
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise DeckError([Problem("E-CARDS-CSV", ("cards", "csv"),
                                     f"cannot read the CSV file {name!r}: {exc}",
                                     "give a UTF-8 CSV path relative to the deck file")]) from None
        rows = list(table.get("rows", []))
        problems: list[Problem] = []
        reader = csv.DictReader(text.splitlines())
        unknown = [c for c in (reader.fieldnames or []) if c not in CSV_COLUMNS]
        if unknown:
            problems.append(Problem("E-CARDS-CSV-COLUMN", ("cards", "csv"),
                                    f"unknown column {unknown[0]!r}",
                                    "valid columns: " + ", ".join(CSV_COLUMNS), str(path), 1))
        for n, record in enumerate(reader, start=2):
            row: dict[str, Any] = {k: v for k, v in record.items()
                                   if k in CSV_COLUMNS and v not in (None, "")}
            if "icons" in row:
                row["icons"] = tuple(row["icons"].split())
            try:
                CardRow.model_validate(row)
            except ValidationError as exc:
                for err in exc.errors(include_url=False):
                    col = str(err["loc"][0]) if err["loc"] else "?"
                    problems.append(Problem("E-CARDS-CSV-VALUE", ("cards", "csv", col),
                                            f"row {n}, column {col!r}: {err['msg']}",
                                            "", str(path), n))
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
