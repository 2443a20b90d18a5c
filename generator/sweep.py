"""``paperproof sweep``: check variants of one deck and put their balance figures side by side.

A designer tuning a deck asks "what if the die had another face, or there were six rounds".
Variants come from ``--set KEY=VALUE`` (a key path into the deck, a TOML value; repeat a key
to give it several values; several keys give every combination) and/or a sweep table file::

    [[variant]]
    name = "six rounds"      # optional label
    parks.rounds = 6

Every variant is validated like a deck file before anything runs (a bad value is reported
with the variant's name), then checked on the pool (``--jobs``/``--cluster``: one variant per
worker). The deck as written is the first column. Results do not depend on the pool.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from .build import check_deck, ranking
from .deckfile import LoadedDeck, load_variant
from .errors import DeckError, Problem, UsageError
from .families.base import CheckOptions
from .parallel import SERIAL
from .safepath import MAX_DECK_BYTES, decode_utf8, read_regular_file

FIGURE_DEPTH = 3
"""How deep nested figures are flattened into rows (``balance.water.sheet``): deeper
structures are per-card detail, not a deck's balance."""


@dataclass(frozen=True)
class Variant:
    """One deck variant: its label and the overrides (nested tables) that make it."""

    label: str
    overrides: dict[str, Any]
    settings: tuple[tuple[str, Any], ...] = ()


def parse_value(text: str) -> Any:
    """A ``--set`` value: a TOML value (``6``, ``0.1``, ``[1, 2, 3]``, ``true``, ``"x"``), or
    the text itself as a string when it is not one (``--set parks.name=foo``)."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def _nest(key: str, value: Any) -> dict[str, Any]:
    parts = key.split(".")
    if not all(parts):
        raise UsageError(f"--set {key}: not a key path; write e.g. parks.rounds=6")
    out: dict[str, Any] = {parts[-1]: value}
    for part in reversed(parts[:-1]):
        out = {part: out}
    return out


def _merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        out[k] = _merge(out[k], v) if isinstance(out.get(k), dict) and isinstance(v, dict) else v
    return out


def _show(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def _flat(table: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for k, v in table.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and k != "name":
            out.extend(_flat(v, key + "."))
        else:
            out.append((key, v))
    return out


def set_variants(specs: Sequence[str]) -> list[Variant]:
    """Variants from ``--set KEY=VALUE`` options: each key's values, every combination."""
    values: dict[str, list[Any]] = {}
    for spec in specs:
        key, sep, text = spec.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"--set {spec!r}: write KEY=VALUE, e.g. --set parks.rounds=6")
        _nest(key, None)
        values.setdefault(key, []).append(parse_value(text.strip()))
    if not values:
        return []
    out = []
    keys = list(values)
    for combo in itertools.product(*(values[k] for k in keys)):
        over: dict[str, Any] = {}
        for k, v in zip(keys, combo, strict=True):
            over = _merge(over, _nest(k, v))
        pairs = tuple(zip(keys, combo, strict=True))
        out.append(Variant(" ".join(f"{k}={_show(v)}" for k, v in pairs), over, pairs))
    return out


def table_variants(path: Path) -> list[Variant]:
    """Variants from a sweep table file (``[[variant]]`` tables of deck keys)."""
    data = read_regular_file(path, what="sweep table", max_bytes=MAX_DECK_BYTES)
    text = decode_utf8(data, file=str(path), what="the sweep table")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError([Problem("E-SWEEP-TOML", (), f"not valid TOML: {exc}",
                                 file=str(path))]) from None
    rows = doc.get("variant")
    extra = sorted(set(doc) - {"variant"})
    if not isinstance(rows, list) or not rows or extra or not all(isinstance(r, dict)
                                                                  for r in rows):
        raise DeckError([Problem(
            "E-SWEEP-TABLE", tuple(extra[:1]), "a sweep table holds only [[variant]] tables",
            "write [[variant]] then deck keys, e.g. parks.rounds = 6", file=str(path))])
    out = []
    for i, row in enumerate(rows):
        row = dict(row)
        name = row.pop("name", None)
        pairs = tuple(_flat(row))
        if not pairs:
            raise DeckError([Problem("E-SWEEP-EMPTY", ("variant", i),
                                     "this variant changes no key", file=str(path))])
        label = str(name) if name is not None else " ".join(f"{k}={_show(v)}"
                                                            for k, v in pairs)
        out.append(Variant(label, row, pairs))
    return out


def combine(from_table: Sequence[Variant], from_sets: Sequence[Variant]) -> list[Variant]:
    """Table variants and ``--set`` variants together: every pair when both are given."""
    if from_table and from_sets:
        return [Variant(f"{a.label} {b.label}", _merge(a.overrides, b.overrides),
                        a.settings + b.settings) for a in from_table for b in from_sets]
    return list(from_table or from_sets)


def load_variants(path: Path, variants: Sequence[Variant]) -> list[LoadedDeck]:
    """Validate every variant of the deck at ``path``; all problems at once, each message
    naming its variant."""
    loaded: list[LoadedDeck] = []
    problems: list[Problem] = []
    for v in variants:
        try:
            loaded.append(load_variant(path, v.overrides))
        except DeckError as exc:
            problems.extend(replace(p, message=f"variant {v.label!r}: {p.message}")
                            for p in exc.problems)
    if problems:
        raise DeckError(problems)
    return loaded


def summarise(loaded: LoadedDeck, seed: int | None, options: CheckOptions) -> dict[str, Any]:
    """One variant's figures: verdict counts, ranking flags, hardest and easiest card, and
    the family's scalar deck figures flattened to dotted keys."""
    checked = check_deck(loaded, seed=seed, options=options)
    report = checked.report
    out: dict[str, Any] = {"ok": report.ok}
    for status, n in report.counts().items():
        out[f"checks.{status}"] = n
    ranked = ranking(checked)
    if ranked is not None:
        for flag, n in ranked["flagged"].items():
            out[f"ranking.{flag}"] = n
        cards = ranked["cards"]
        by = ranked["by"]
        for end, card in (("hardest", cards[0]), ("easiest", cards[-1])):
            r = card[by]
            out[f"ranking.{end}"] = (f"{card['subject']} {round(100 * r['value'])}% "
                                     f"({round(100 * r['low'])}..{round(100 * r['high'])})")
    for key, value in _figures(report.figures):
        out[f"figures.{key}"] = value
    return out


def _figures(table: dict[str, Any], prefix: str = "", depth: int = 1) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for k in sorted(table):
        v = table[k]
        if isinstance(v, dict):
            if depth < FIGURE_DEPTH:
                out.extend(_figures(v, f"{prefix}{k}.", depth + 1))
        elif isinstance(v, bool | int | float | str) or v is None:
            out.append((f"{prefix}{k}", v))
    return out


@dataclass(frozen=True)
class SweepResult:
    """Every variant's figures, the deck as written first."""

    deck: str
    labels: tuple[str, ...]
    settings: tuple[tuple[tuple[str, Any], ...], ...]
    figures: tuple[dict[str, Any], ...]

    def rows(self) -> list[str]:
        """Figure names in first-seen order across variants."""
        seen: dict[str, None] = {}
        for f in self.figures:
            for k in f:
                seen.setdefault(k, None)
        return list(seen)

    def to_json(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "variants": [
                {"label": label, "set": {k: v for k, v in s}, "figures": f}
                for label, s, f in zip(self.labels, self.settings, self.figures, strict=True)
            ],
        }

    def table_lines(self) -> list[str]:
        """The figures side by side: one row per figure, one column per variant."""
        rows = self.rows()
        header = ["figure", *self.labels]
        body = [[r, *(_cell(f.get(r)) for f in self.figures)] for r in rows]
        widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(header, widths, strict=True)).rstrip()]
        lines.append("  ".join("-" * w for w in widths))
        for line in body:
            lines.append("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True))
                         .rstrip())
        return lines


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}"
    return _show(value)


def sweep(path: Path, variants: Sequence[Variant], *, seed: int | None = None,
          options: CheckOptions | None = None) -> SweepResult:
    """Check the deck at ``path`` as written and every variant, on ``options.pool``."""
    if not variants:
        raise UsageError("sweep: give variants with --set KEY=VALUE or --table FILE")
    opts = options or CheckOptions()
    base = Variant("as written", {})
    every = [base, *variants]
    loaded = load_variants(path, every)
    if opts.pool.workers > 1:
        inner = replace(opts, pool=SERIAL)
        figures = opts.pool.map(partial(summarise, seed=seed, options=inner), loaded)
    else:
        figures = [summarise(item, seed, opts) for item in loaded]
    return SweepResult(loaded[0].deck.name, tuple(v.label for v in every),
                       tuple(v.settings for v in every), tuple(figures))
