"""TOML text with line numbers: where each key path of a parsed document was written.

``tomllib`` parses but forgets positions; error messages need ``file:line: key.path``. After
``tomllib`` accepts the text, a small scanner that follows the TOML grammar (all four string
kinds with their escapes, comments, dotted and quoted keys, nested arrays and inline tables)
records the line of every key path, with the same paths as the parsed data: table headers,
array-of-table entries (``[[a.b]]`` under the second ``[[a]]`` is ``("a", 1, "b", 0)``),
``key = value`` lines, keys inside inline tables (``{a.b = 1}`` is ``(..., "a", "b")``) and
the elements of arrays. A path it did not see resolves to its nearest recorded ancestor, so
every message still points at a useful line. ``tests/test_tomldoc.py`` checks it against
generated documents.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any

from .errors import DeckError, Problem
from .limits import MAX_DEPTH, input_problems

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
    """Parse TOML, raising :class:`DeckError` with the line of a syntax error or of every
    value that breaks the limits of :mod:`generator.limits` (NaN, control characters...)."""
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
    except RecursionError:
        depth_line = _deepest_line(text)
        raise DeckError(
            [Problem("E-TOML-SYNTAX", (), "not valid TOML: brackets nested too deep to read",
                     f"no key nests more than {MAX_DEPTH} levels", filename, depth_line)]
        ) from None
    doc = TomlDoc(filename, data, _scan_lines(text))
    problems = input_problems(data)
    if problems:
        raise DeckError([Problem(p.code, p.path, p.message, p.hint, filename,
                                 doc.line_of(p.path)) for p in problems])
    return doc


def _deepest_line(text: str) -> int:
    """The line where bracket nesting (outside strings, roughly) first passes MAX_DEPTH."""
    depth = 0
    for lineno, line in enumerate(text.splitlines(), start=1):
        for ch in line:
            depth += (ch in "[{") - (ch in "]}")
            if depth > MAX_DEPTH:
                return lineno
    return 1


_BARE_KEY = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_SCALAR_END = frozenset(",]}#\r\n")


class _Scanner:
    """A position-keeping walk over TOML text that ``tomllib`` has already accepted.

    It follows the grammar (strings of all four kinds with their escapes, comments, dotted
    and quoted keys, nested arrays and inline tables, arrays of tables nested in arrays of
    tables) and records the line of every key path it meets, using the same paths as the
    parsed data: ``[[a.b]]`` under the second ``[[a]]`` is ``("a", 1, "b", 0)``.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.lines: dict[KeyPath, int] = {}
        # arrays of tables seen so far (concrete paths) and how many entries each has
        self.aot: dict[KeyPath, int] = {}

    # -- low level -------------------------------------------------------------------
    def peek(self, n: int = 1) -> str:
        return self.text[self.pos:self.pos + n]

    def advance(self, n: int = 1) -> None:
        chunk = self.text[self.pos:self.pos + n]
        self.line += chunk.count("\n")
        self.pos += len(chunk)

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def skip_ws(self) -> None:
        while self.peek() in (" ", "\t"):
            self.pos += 1

    def skip_comment(self) -> None:
        if self.peek() == "#":
            end = self.text.find("\n", self.pos)
            self.pos = len(self.text) if end < 0 else end

    def skip_ws_comments_newlines(self) -> None:
        while not self.at_end():
            ch = self.peek()
            if ch in (" ", "\t", "\r", "\n"):
                self.advance()
            elif ch == "#":
                self.skip_comment()
            else:
                return

    def skip_line(self) -> None:
        end = self.text.find("\n", self.pos)
        self.advance((len(self.text) if end < 0 else end + 1) - self.pos)

    # -- strings and keys ------------------------------------------------------------
    def string(self) -> str:
        """Consume a string of any kind at ``pos`` and return its value (quoted keys need
        it; multi-line strings keep their escapes, which no key can hold)."""
        text = self.text
        if text.startswith('"""', self.pos) or text.startswith("'''", self.pos):
            delim = text[self.pos:self.pos + 3]
            self.advance(3)
            out: list[str] = []
            while not self.at_end():
                if delim == '"""' and self.peek() == "\\":
                    out.append(self.peek(2))
                    self.advance(2)
                elif text.startswith(delim, self.pos):
                    # up to two quote characters may sit just before the closing delimiter
                    extra = 0
                    while extra < 2 and text.startswith(delim[0], self.pos + 3 + extra):
                        extra += 1
                    out.append(delim[0] * extra)
                    self.advance(3 + extra)
                    return "".join(out)
                else:
                    out.append(self.peek())
                    self.advance()
            return "".join(out)
        quote = self.peek()
        self.advance()
        out = []
        while not self.at_end():
            ch = self.peek()
            if quote == '"' and ch == "\\":
                size = {"\\u": 6, "\\U": 10}.get(self.peek(2), 2)
                out.append(_unescape(self.peek(size)))
                self.advance(size)
                continue
            self.advance()
            if ch == quote:
                break
            out.append(ch)
        return "".join(out)

    def key(self) -> list[str]:
        """A (dotted) key: ``a."b.c".'d'`` -> ``["a", "b.c", "d"]``."""
        parts: list[str] = []
        while True:
            self.skip_ws()
            ch = self.peek()
            if ch in ('"', "'"):
                parts.append(self.string())
            else:
                start = self.pos
                while not self.at_end() and self.text[self.pos] in _BARE_KEY:
                    self.pos += 1
                if self.pos == start:
                    raise _Stop
                parts.append(self.text[start:self.pos])
            self.skip_ws()
            if self.peek() != ".":
                return parts
            self.advance()

    # -- values ----------------------------------------------------------------------
    def value(self, path: KeyPath) -> None:
        """Consume one value; record the lines of what it contains under ``path``."""
        ch = self.peek()
        if ch == "[":
            self.advance()
            index = 0
            while True:
                self.skip_ws_comments_newlines()
                if self.peek() == "]":
                    self.advance()
                    return
                self.lines[(*path, index)] = self.line
                self.value((*path, index))
                self.skip_ws_comments_newlines()
                if self.peek() == ",":
                    self.advance()
                    index += 1
                elif self.peek() == "]":
                    self.advance()
                    return
                else:
                    raise _Stop
        elif ch == "{":
            self.advance()
            while True:
                self.skip_ws_comments_newlines()
                if self.peek() == "}":
                    self.advance()
                    return
                self.key_value(path)
                self.skip_ws_comments_newlines()
                if self.peek() == ",":
                    self.advance()
                elif self.peek() == "}":
                    self.advance()
                    return
                else:
                    raise _Stop
        elif ch in ('"', "'"):
            self.string()
        else:
            start = self.pos
            while not self.at_end() and self.text[self.pos] not in _SCALAR_END:
                self.pos += 1
            if self.pos == start:
                raise _Stop
            # a date-time may hold a space; trailing spaces belong to no value
            while self.pos > start and self.text[self.pos - 1] in " \t":
                self.pos -= 1

    def key_value(self, table: KeyPath) -> None:
        line = self.line
        parts = self.key()
        for n in range(1, len(parts)):
            self.lines.setdefault((*table, *parts[:n]), line)
        full = (*table, *parts)
        self.lines[full] = line
        self.skip_ws()
        if self.peek() != "=":
            raise _Stop
        self.advance()
        self.skip_ws()
        self.value(full)

    # -- headers ---------------------------------------------------------------------
    def concrete(self, parts: list[str]) -> KeyPath:
        """The data path of a header's key: every prefix that names an array of tables
        gets that array's current (last) index, as ``tomllib`` resolves it."""
        out: list[str | int] = []
        for part in parts:
            out.append(part)
            count = self.aot.get(tuple(out))
            if count is not None:
                out.append(count - 1)
        return tuple(out)

    def document(self) -> dict[KeyPath, int]:
        table: KeyPath = ()
        while True:
            self.skip_ws_comments_newlines()
            if self.at_end():
                return self.lines
            line = self.line
            if self.text.startswith("[[", self.pos):
                self.advance(2)
                parts = self.key()
                parent = self.concrete(parts[:-1])
                name = (*parent, parts[-1])
                index = self.aot.get(name, 0)
                self.aot[name] = index + 1
                for n in range(1, len(parent) + 1):
                    self.lines.setdefault(parent[:n], line)
                self.lines.setdefault(name, line)
                table = (*name, index)
                self.lines[table] = line
            elif self.peek() == "[":
                self.advance()
                table = self.concrete(self.key())
                for n in range(1, len(table)):
                    self.lines.setdefault(table[:n], line)
                self.lines[table] = line
            else:
                self.key_value(table)
            self.skip_line()


class _Stop(Exception):
    """The scanner met text it does not follow; what it recorded so far stands."""


def _unescape(seq: str) -> str:
    simple = {"\\b": "\b", "\\t": "\t", "\\n": "\n", "\\f": "\f", "\\r": "\r",
              '\\"': '"', "\\\\": "\\"}
    if seq in simple:
        return simple[seq]
    if seq[:2] in ("\\u", "\\U"):
        try:
            return chr(int(seq[2:], 16))
        except ValueError:
            return ""
    return seq


def _scan_lines(text: str) -> dict[KeyPath, int]:
    """The line of every key path in ``text`` (valid TOML). Never raises: on text the
    scanner does not follow it keeps what it found, and ``line_of`` falls back to the
    nearest recorded ancestor."""
    scanner = _Scanner(text)
    try:
        return scanner.document()
    except (_Stop, IndexError, ValueError):
        return scanner.lines
