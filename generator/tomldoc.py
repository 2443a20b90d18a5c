"""TOML text with line numbers: where each key path of a parsed document was written.

``tomllib`` parses but forgets positions; error messages need ``file:line: key.path``. This
module scans the source once and records, for every key path it can see, the line that
defines it: table headers ``[a.b]``, array-of-table headers ``[[a.b]]`` (with their index),
``key = value`` lines (dotted keys too), inline tables, and the elements of multi-line
arrays. A path it did not see resolves to its nearest recorded ancestor, so every message
still points at a useful line.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any

from .errors import DeckError, Problem

KeyPath = tuple[str | int, ...]


@dataclass(frozen=True)
class TomlDoc:
    """A parsed TOML document and the line of each key path."""

    filename: str
    data: dict[str, Any]
    lines: dict[KeyPath, int] = field(default_factory=dict)

    def line_of(self, path: KeyPath) -> int:
        """The line defining ``path``, or of its nearest recorded ancestor (1 if none)."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return 1

    def problem(self, code: str, path: KeyPath, message: str, hint: str = "") -> Problem:
        return Problem(code, tuple(path), message, hint, self.filename, self.line_of(path))


def parse_toml(text: str, filename: str) -> TomlDoc:
    """Parse TOML, raising :class:`DeckError` with the line of a syntax error."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        line = 1
        # tomllib says "... (at line 3, column 7)"
        if "(at line " in msg:
            try:
                line = int(msg.rsplit("(at line ", 1)[1].split(",", 1)[0])
            except ValueError:
                line = 1
            msg = msg.rsplit(" (at line ", 1)[0]
        raise DeckError(
            [Problem("E-TOML-SYNTAX", (), f"not valid TOML: {msg}",
                     "see https://toml.io for the syntax", filename, line)]
        ) from None
    return TomlDoc(filename, data, _scan_lines(text))


def _split_key(text: str) -> list[str]:
    """``a."b.c".d`` -> ``["a", "b.c", "d"]``."""
    parts: list[str] = []
    cur = ""
    quote = ""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
            else:
                cur += ch
        elif ch in "\"'":
            quote = ch
        elif ch == ".":
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return [p for p in parts if p != ""]


def _find_eq(line: str) -> int:
    """Index of the ``=`` separating key and value, outside quotes; -1 if none."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "=":
            return i
        elif ch == "#":
            return -1
    return -1


def _strip_comment(line: str) -> str:
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == "\\" and quote == '"':
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


def _scan_lines(text: str) -> dict[KeyPath, int]:
    lines: dict[KeyPath, int] = {}
    table: KeyPath = ()
    aot_count: dict[KeyPath, int] = {}
    # Stack of open multi-line arrays / inline tables: (path, next element index or -1).
    stack: list[tuple[KeyPath, int]] = []
    in_multiline_string = ""
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if in_multiline_string:
            if in_multiline_string in raw:
                in_multiline_string = ""
            continue
        line = _strip_comment(raw).strip()
        if not line:
            continue
        if stack:
            _scan_value_continuation(line, lineno, stack, lines)
            continue
        if line.startswith("[["):
            name = tuple(_split_key(line[2:line.rfind("]]")]))
            idx = aot_count.get(name, 0)
            aot_count[name] = idx + 1
            table = (*name, idx)
            lines.setdefault(name, lineno)
            lines[table] = lineno
            continue
        if line.startswith("["):
            table = tuple(_split_key(line[1:line.rfind("]")]))
            lines[table] = lineno
            continue
        eq = _find_eq(line)
        if eq < 0:
            continue
        key = (*table, *_split_key(line[:eq]))
        lines[key] = lineno
        value = line[eq + 1:].strip()
        for quote in ('"""', "'''"):
            if value.startswith(quote) and value.count(quote) == 1:
                in_multiline_string = quote
        if value.startswith("[") or value.startswith("{"):
            _open_value(value, key, lineno, stack, lines)
    return lines


def _open_value(
    value: str, key: KeyPath, lineno: int, stack: list[tuple[KeyPath, int]],
    lines: dict[KeyPath, int],
) -> None:
    stack.append((key, 0 if value.startswith("[") else -1))
    _scan_value_continuation(value[1:], lineno, stack, lines, first=True)


def _scan_value_continuation(
    text: str, lineno: int, stack: list[tuple[KeyPath, int]], lines: dict[KeyPath, int],
    first: bool = False,
) -> None:
    """Track bracket depth across lines; record the line of each array element and of each
    ``key = value`` inside inline tables."""
    quote = ""
    i = 0
    at_element_start: bool = True
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 2
                continue
            if ch == quote:
                quote = ""
            i += 1
            continue
        if not stack:
            return
        path, index = stack[-1]
        if ch in "\"'":
            if index >= 0 and at_element_start:
                lines.setdefault((*path, index), lineno)
                at_element_start = False
            quote = ch
        elif ch in "[{":
            if index >= 0:
                child: KeyPath = (*path, index)
                lines.setdefault(child, lineno)
                at_element_start = False
                stack.append((child, 0 if ch == "[" else -1))
            else:
                stack.append((path, 0 if ch == "[" else -1))
            at_element_start = True
        elif ch in "]}":
            stack.pop()
            at_element_start = False
        elif ch == ",":
            if index >= 0:
                stack[-1] = (path, index + 1)
            at_element_start = True
        elif ch == "=" and index < 0:
            # key = value inside an inline table: find the key before '='
            j = i - 1
            while j >= 0 and text[j] in " \t":
                j -= 1
            k = j
            while k >= 0 and (text[k].isalnum() or text[k] in "_-\"'"):
                k -= 1
            name = text[k + 1:j + 1].strip("\"'")
            if name:
                lines.setdefault((*path, name), lineno)
        elif not ch.isspace() and index >= 0 and at_element_start:
            lines.setdefault((*path, index), lineno)
            at_element_start = False
        i += 1
