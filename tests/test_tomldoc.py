"""The TOML locator: every key path of a document is found at the line that wrote it.

The property test writes random documents (nested tables, arrays of tables inside arrays of
tables, dotted and quoted keys, inline tables, multi-line arrays, all four string kinds with
quotes, escapes, ``#`` and brackets inside, comments everywhere) while recording the line of
each path it writes: that record is the oracle. ``tomllib`` must parse the text back to the
same data (so the generator writes real TOML) and the locator must report every path at its
recorded line.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.tomldoc import KeyPath, parse_toml

TRICKY = " #=[]{},.\"'\\ab"
"""Characters that confused the old line scanner inside strings, keys and comments."""


def _basic(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'


def test_escaped_quote_then_hash_does_not_swallow_the_rest() -> None:
    doc = parse_toml('a = 1\nb = ["say \\"#1\\"", 2]\nc = 3\n[t]\nd = 4\n', "f.toml")
    assert doc.data["b"] == ['say "#1"', 2]
    assert doc.line_of(("c",)) == 3 and doc.line_of(("t", "d")) == 5
    assert doc.line_of(("b", 1)) == 2


def test_dotted_keys_in_inline_tables_get_their_own_path() -> None:
    doc = parse_toml('x = 0\nt = {a.b = 1, "c.d" = 2}\n', "f.toml")
    assert doc.data["t"] == {"a": {"b": 1}, "c.d": 2}
    assert doc.lines[("t", "a", "b")] == 2 and doc.lines[("t", "c.d")] == 2
    assert ("t", "b") not in doc.lines


def test_nested_arrays_of_tables_point_at_their_own_header() -> None:
    text = ("[[plans]]\nname = 'a'\n[[plans.conditions]]\nkind = 1\n"
            "[[plans]]\nname = 'b'\n[[plans.conditions]]\nkind = 2\n"
            "[[plans.conditions]]\nkind = 3\n[plans.extra]\nz = 1\n")
    doc = parse_toml(text, "f.toml")
    assert doc.line_of(("plans", 1, "conditions", 1, "kind")) == 10
    assert doc.line_of(("plans", 1, "conditions", 0)) == 7
    assert doc.line_of(("plans", 0, "conditions", 0, "kind")) == 4
    assert doc.line_of(("plans", 1, "extra", "z")) == 12


@dataclass
class Writer:
    """Writes TOML line by line and records the line of every path it writes."""

    lines: list[str] = field(default_factory=list)
    where: dict[KeyPath, int] = field(default_factory=dict)

    @property
    def next_line(self) -> int:
        return len(self.lines) + 1


KEYS = st.one_of(
    st.sampled_from(["a", "b", "key", "x-1", "k_2", "0", "true"]),
    st.text(alphabet=TRICKY + "xyz", min_size=1, max_size=6),
)
SCALARS = st.one_of(
    st.integers(-10**6, 10**6),
    st.booleans(),
    st.text(alphabet=TRICKY + "\n", max_size=8).map(lambda s: ("basic", s)),
    st.text(alphabet=TRICKY.replace("'", ""), max_size=8).map(lambda s: ("literal", s)),
    st.text(alphabet=TRICKY + "\n", max_size=12).map(lambda s: ("mlbasic", s)),
    st.text(alphabet="ab #=[]{\"\n", max_size=12).map(lambda s: ("mlliteral", s)),
)


def _values(depth: int) -> st.SearchStrategy[Any]:
    if depth <= 0:
        return SCALARS
    inner = _values(depth - 1)
    return st.one_of(
        SCALARS,
        st.tuples(st.just("array"), st.lists(inner, max_size=4), st.booleans()),
        st.tuples(st.just("inline"),
                  st.dictionaries(st.tuples(KEYS, st.lists(KEYS, max_size=1).map(tuple)), inner,
                                  max_size=3)),
    )


def _write_value(value: Any, path: KeyPath, w: Writer, out: list[str],
                 single_line: bool) -> Any:
    """Append the value's text to ``out`` (the current line is ``out[-1]``); return the data
    tomllib must read back. Multi-line pieces add lines to ``out``."""
    line = len(w.lines) + len(out)
    if isinstance(value, (bool, int)):
        out[-1] += str(value).lower() if isinstance(value, bool) else str(value)
        return value
    kind = value[0]
    if kind == "basic":
        out[-1] += _basic(value[1]).replace("\n", "\\n")
        return value[1]
    if kind == "literal":
        out[-1] += f"'{value[1]}'"
        return value[1]
    if kind in ("mlbasic", "mlliteral") and single_line:
        out[-1] += _basic(value[1]).replace("\n", "\\n")
        return value[1]
    if kind == "mlbasic":
        body = value[1].replace("\\", "\\\\").replace('"', '\\"')
        pieces = ('"""' + body + '"""').split("\n")
        out[-1] += pieces[0]
        out.extend(pieces[1:])
        return value[1].removeprefix("\n")  # a newline right after the opening is trimmed
    if kind == "mlliteral":
        pieces = ("'''" + value[1] + "'''").split("\n")
        out[-1] += pieces[0]
        out.extend(pieces[1:])
        return value[1].removeprefix("\n")  # a newline right after the opening is trimmed
    if kind == "array":
        items, multi = value[1], value[2] and not single_line
        out[-1] += "["
        data: list[Any] = []
        for i, item in enumerate(items):
            if multi:
                out.append("  ")
                if i % 2:
                    out[-1] = '  # comment with "quote [and] = #'
                    out.append("  ")
            elif i:
                out[-1] += " "
            w.where[(*path, i)] = len(w.lines) + len(out)
            data.append(_write_value(item, (*path, i), w, out, single_line))
            out[-1] += ","
        if multi:
            out.append("]")
        else:
            out[-1] += "]"
        return data
    assert kind == "inline"
    out[-1] += "{"
    table: dict[str, Any] = {}
    first = True
    for (head, rest), item in value[1].items():
        parts = [head, *rest]
        node = table
        clash = False
        for part in parts[:-1]:
            existing = node.get(part)
            if existing is None:
                existing = node[part] = {}
            if not isinstance(existing, dict) or existing.get("__leaf__"):
                clash = True
                break
            node = existing
        if clash or parts[-1] in node:
            continue
        out[-1] += ("" if first else ", ") + ".".join(_key(p) for p in parts) + " = "
        first = False
        for n in range(1, len(parts) + 1):
            w.where.setdefault((*path, *parts[:n]), line)
        got = _write_value(item, (*path, *parts), w, out, True)
        node[parts[-1]] = got
    out[-1] += "}"
    return _plain(table)


def _plain(table: dict[str, Any]) -> dict[str, Any]:
    return {k: _plain(v) if isinstance(v, dict) else v for k, v in table.items()}


def _key(name: str) -> str:
    if name and all(c.isalnum() and c.isascii() or c in "_-" for c in name):
        return name
    return _basic(name)


TABLES = st.recursive(
    st.dictionaries(KEYS, _values(2), max_size=3).map(lambda kv: ("table", kv, {}, {})),
    lambda children: st.tuples(
        st.just("table"),
        st.dictionaries(KEYS, _values(2), max_size=3),
        st.dictionaries(KEYS, children, max_size=2),
        st.dictionaries(KEYS, st.lists(children, min_size=1, max_size=3), max_size=2),
    ),
    max_leaves=6,
)


def _write_table(node: Any, path: KeyPath, header_path: tuple[str, ...], w: Writer,
                 taken: set[str]) -> dict[str, Any]:
    """Write a table's key/values, then its sub-tables and arrays of tables as headers."""
    _, kvs, subs, arrays = node
    data: dict[str, Any] = {}
    for i, (key, value) in enumerate(kvs.items()):
        if key in taken:
            continue
        taken.add(key)
        if i % 2:
            w.lines.append("# a comment: key = [1, 2] \"'")
        out = [f"{_key(key)} = "]
        w.where[(*path, key)] = w.next_line
        data[key] = _write_value(value, (*path, key), w, out, False)
        if i % 3 == 1:
            out[-1] += '  # trailing "#" comment ['
        w.lines.extend(out)
    for key, sub in subs.items():
        if key in taken:
            continue
        taken.add(key)
        w.lines.append("")
        w.lines.append("[" + ".".join(_key(p) for p in (*header_path, key)) + "]  # [x]")
        w.where.setdefault((*path, key), w.next_line - 1)
        data[key] = _write_table(sub, (*path, key), (*header_path, key), w, set())
    for key, entries in arrays.items():
        if key in taken:
            continue
        taken.add(key)
        data[key] = []
        for n, entry in enumerate(entries):
            w.lines.append("[[" + ".".join(_key(p) for p in (*header_path, key)) + "]]")
            w.where.setdefault((*path, key), w.next_line - 1)
            w.where[(*path, key, n)] = w.next_line - 1
            data[key].append(_write_table(entry, (*path, key, n), (*header_path, key), w,
                                          set()))
    return data


@settings(max_examples=150)
@given(TABLES)
def test_every_key_path_is_found_at_its_true_line(tree: Any) -> None:
    w = Writer()
    expected = _write_table(tree, (), (), w, set())
    text = "\n".join(w.lines) + "\n"
    assert tomllib.loads(text) == expected, text
    doc = parse_toml(text, "gen.toml")
    wrong = {p: (line, doc.lines.get(p)) for p, line in w.where.items()
             if doc.lines.get(p) != line}
    assert not wrong, (text, wrong)
