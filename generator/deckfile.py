"""Deck files: TOML -> a validated, frozen deck, or every problem at ``file:line: key``.

This is the boundary: whatever passes here is a well-formed deck that must never crash the
generators, checks or layouts later. Problems are collected, not raised one by one, and each
says what is wrong and what would be valid. Unknown keys get a "did you mean".
"""

from __future__ import annotations

import difflib
import types
import typing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .deck import Deck, deck_model
from .errors import DeckError, Problem, UsageError
from .families import family_names, find_family
from .families.base import AnyFamily
from .safepath import MAX_DECK_BYTES, decode_utf8, read_regular_file
from .tomldoc import KeyPath, TomlDoc, parse_toml

__all__ = ["LoadedDeck", "TomlDoc", "load_deck", "load_deck_text", "load_variant", "parse_toml"]


@dataclass(frozen=True)
class LoadedDeck:
    """A validated deck, its family and where it came from."""

    deck: Deck
    family: AnyFamily
    path: Path

    @property
    def stem(self) -> str:
        """The output folder name: the deck file's name without ``.toml``."""
        return self.path.stem


def load_deck(path: Path) -> LoadedDeck:
    """Read and validate a deck file. Raises :class:`DeckError` (exit 2) on any problem."""
    data = read_regular_file(path, what="deck file", max_bytes=MAX_DECK_BYTES)
    text = decode_utf8(data, file=str(path), what="the deck file")
    return load_deck_text(text, str(path), base_dir=path.parent)


def load_deck_text(text: str, filename: str = "<deck>", base_dir: Path | None = None,
                   overrides: dict[str, Any] | None = None) -> LoadedDeck:
    """Validate deck text (``filename`` is used in messages and as the deck's path).
    ``overrides`` (nested tables, e.g. ``{"parks": {"rounds": 6}}``) replace the file's
    values before validation: a variant of the deck (``paperproof sweep``)."""
    doc = parse_toml(text, filename)
    data = dict(doc.data)
    if overrides:
        data = _merged(data, overrides)
    family_name = data.get("family")
    if not isinstance(family_name, str):
        names = ", ".join(family_names())
        what = "is missing" if family_name is None else f"must be a string, got {family_name!r}"
        raise DeckError([doc.problem("E-DECK-FAMILY", ("family",), f"'family' {what}",
                                     f"add family = \"...\" with one of: {names}")])
    try:
        family = find_family(family_name)
    except UsageError:
        known = list(family_names())
        close = difflib.get_close_matches(family_name, known, n=1)
        hint = (f"did you mean {close[0]!r}? " if close else "") + "valid: " + ", ".join(known)
        raise DeckError([doc.problem("E-DECK-FAMILY", ("family",),
                                     f"unknown family {family_name!r}", hint)]) from None

    problems: list[Problem] = []
    table = data.get(family.name)
    if isinstance(table, dict) and base_dir is not None:
        try:
            data[family.name] = family.resolve_files(table, base_dir)
        except DeckError as exc:
            partial = getattr(exc, "partial", None)
            if isinstance(partial, dict):
                data[family.name] = partial
            # a problem without a place is one of the deck's own keys (the csv = line)
            problems.extend(p if p.file else Problem(p.code, p.path, p.message, p.hint,
                                                     filename, doc.line_of(p.path))
                            for p in exc.problems)

    model = deck_model(family.name, family.Params)
    deck: Deck | None = None
    try:
        deck = model.model_validate(data)
    except ValidationError as exc:
        problems.extend(_problems_from_validation(exc, doc, model))
    if deck is not None:
        from .art import load_art

        folder = base_dir if base_dir is not None else Path.cwd()
        deck = deck.in_folder(str(folder.resolve()))
        # images and icon symbols load before validation, so icons can be checked by name
        for p in load_art(deck, folder, family.image_paths(deck)):
            problems.append(p if p.file else Problem(p.code, p.path, p.message, p.hint,
                                                     filename, doc.line_of(p.path)))
    if deck is not None:
        for p in family.validate(deck):
            problems.append(Problem(p.code, p.path, p.message, p.hint,
                                    p.file or filename, p.line or doc.line_of(p.path)))
        flagged = {p.path for p in problems}
        for p in _unknown_symbols(doc.data):
            if p.path not in flagged:
                problems.append(Problem(p.code, p.path, p.message, p.hint, filename,
                                        doc.line_of(p.path)))
    if problems:
        raise DeckError(_sorted(problems))
    assert deck is not None
    return LoadedDeck(deck, family, Path(filename))


def _merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``over`` deep-merged in (tables merge, everything else is replaced)."""
    out = dict(base)
    for key, value in over.items():
        old = out.get(key)
        out[key] = (_merged(old, value) if isinstance(old, dict) and isinstance(value, dict)
                    else value)
    return out


def load_variant(path: Path, overrides: dict[str, Any]) -> LoadedDeck:
    """The deck file at ``path`` with ``overrides`` applied (see :func:`load_deck_text`)."""
    data = read_regular_file(path, what="deck file", max_bytes=MAX_DECK_BYTES)
    text = decode_utf8(data, file=str(path), what="the deck file")
    return load_deck_text(text, str(path), base_dir=path.parent, overrides=overrides)


def _unknown_symbols(data: Any) -> list[Problem]:
    """Inline icons (``:name:``) naming no symbol, in any text of the deck: every text may be
    drawn with markup (titles, names, labels), and the painter refuses an unknown symbol, so
    ``check`` must refuse it first, at its line."""
    from .render.symbols import has_symbol
    from .render.text import ESCAPE, ICON

    out: list[Problem] = []
    stack: list[tuple[KeyPath, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend(((*path, k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(((*path, i), v) for i, v in enumerate(value))
        elif isinstance(value, str):
            for name in ICON.findall(ESCAPE.sub("", value)):
                if not has_symbol(name):
                    out.append(Problem("E-TEXT-SYMBOL", path,
                                       f"unknown inline symbol :{name}:",
                                       "see paperproof shapes for the symbol names; write "
                                       "\\: for a plain colon"))
                    break
    return out


M = TypeVar("M", bound=BaseModel)


def load_score_file(model: type[M], text: str, filename: str) -> tuple[M, TomlDoc]:
    """Parse a filled score file (``paperproof score DECK FILE``) and validate it against the
    family's pydantic ``ScoreFile`` model, exactly as a deck is: every problem is reported
    with ``file:line: key`` (unknown keys with the valid ones, wrong types with what to
    write). Returns the model and the parsed document (for the lines of the family's own
    checks, such as a card id the deck does not have)."""
    doc = parse_toml(text, filename)
    try:
        return model.model_validate(doc.data), doc
    except ValidationError as exc:
        problems = [replace(p, code=p.code.replace("E-DECK-", "E-SCORE-"))
                    for p in _problems_from_validation(exc, doc, model)]
        raise DeckError(_sorted(problems)) from None


def _sorted(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.file, p.line, p.key, p.code))


def _problems_from_validation(
    exc: ValidationError, doc: TomlDoc, model: type[BaseModel]
) -> list[Problem]:
    out: list[Problem] = []
    seen: set[tuple[KeyPath, str]] = set()
    for err in exc.errors(include_url=False):
        loc = _data_path(doc.data, tuple(err["loc"]))
        kind = err["type"]
        if kind == "extra_forbidden":
            key = str(loc[-1]) if loc else "?"
            allowed = _fields_at(model, loc[:-1], doc.data)
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}?" if close else ""
            if allowed:
                hint = (hint + " " if hint else "") + "valid keys: " + ", ".join(allowed)
            problem = doc.problem("E-DECK-UNKNOWN-KEY", loc, f"unknown key {key!r}", hint)
        elif kind == "missing":
            problem = doc.problem("E-DECK-MISSING-KEY", loc, "required key is missing",
                                  "add it (see docs/decks.md)")
        else:
            msg = err["msg"]
            if msg.startswith("Value error, "):
                msg = msg[len("Value error, "):]
            given = err.get("input")
            got = "" if kind.startswith("value_error") or isinstance(given, dict) \
                else f" (got {given!r})"
            problem = doc.problem("E-DECK-VALUE", loc, f"{msg}{got}", _hint_for(kind, err))
        sig = (problem.path, problem.message)
        if sig not in seen:
            seen.add(sig)
            out.append(problem)
    return out


def _hint_for(kind: str, err: Any) -> str:
    ctx = err.get("ctx") or {}
    if kind == "literal_error" and "expected" in ctx:
        return f"valid: {ctx['expected']}"
    if kind in {"int_type", "int_parsing", "int_from_float"}:
        return "write a whole number"
    if kind in {"float_type", "float_parsing"}:
        return "write a number"
    if kind in {"bool_type", "bool_parsing"}:
        return "write true or false"
    if kind in {"string_type"}:
        return "write a quoted string"
    return ""


def _data_path(data: Any, loc: tuple[Any, ...]) -> KeyPath:
    """Drop pydantic's internal loc parts (union member names, validator tags) by walking the
    data: keep only the parts that index into the document."""
    out: list[str | int] = []
    node = data
    for part in loc:
        in_dict = isinstance(node, dict) and isinstance(part, str) and part in node
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if in_dict or in_list:
            out.append(part)
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str):
            # a key that is not in the data: missing or unknown; it ends the path
            out.append(part)
            node = None
        # else: an internal tag (e.g. 'function-before[...]', 'list[...]'): skip
    return tuple(out)


def _fields_at(model: type[BaseModel], path: KeyPath, data: Any) -> list[str]:
    """The keys the model allows at ``path`` (for "did you mean")."""
    current: Any = model
    for part in path:
        if isinstance(part, int):
            current = _unwrap_sequence(current)
        else:
            sub = _as_model(current)
            if sub is None or part not in sub.model_fields:
                return []
            current = sub.model_fields[part].annotation
    sub = _as_model(current)
    return sorted(sub.model_fields) if sub is not None else []


def _as_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _as_model(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            found = _as_model(arg)
            if found is not None:
                return found
    return None


def _unwrap_sequence(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap_sequence(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            inner = _unwrap_sequence(arg)
            if inner is not None:
                return inner
        return None
    if origin in (list, tuple):
        args = typing.get_args(annotation)
        return args[0] if args else None
    return None
