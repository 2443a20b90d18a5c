"""A seeded, schema-driven deck fuzzer (used by tests/test_fuzz.py and bench/fuzz.py).

Seeds are real decks: the six default decks, the six starters and the test decks. Each case
mutates one seed, either *along the JSON Schema* (a key set to a boundary of its schema
range, one past it, a wrong enum member, a value of the wrong type, NaN, a control
character, an optional key the deck does not use, a key removed, a list emptied or
repeated) or *at the byte level* (a byte flipped, NUL or invalid UTF-8 inserted, a line
dropped, doubled or cut). The case is then loaded, checked and, when ``build`` is asked
and the check passes, built, and classified:

- ``ok`` / ``fails-checks`` / ``invalid``: exit 0 / 1 / 2 as designed;
- ``crash``: an exception that is not one of ours (a traceback for the user);
- ``unlocated``: an exit-2 deck error with a problem lacking ``file:line``;
- ``bad-exit``: an exit code other than 0, 1, 2;
- ``build-failed``: ``check`` passed but ``build`` then failed;
- ``over-budget``: the case ran past its wall-clock guard (a hang).
"""

from __future__ import annotations

import json
import math
import random
import re
import signal
import tempfile
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

BAD_KINDS = ("crash", "unlocated", "bad-exit", "build-failed", "over-budget")
"""Outcomes that are defects: the fuzz test and bench require zero of each."""


@dataclass(frozen=True)
class Seed:
    name: str
    text: str
    base_dir: Path


@dataclass(frozen=True)
class Case:
    number: int
    seed: str
    mutation: str
    data: bytes
    base_dir: Path


@dataclass(frozen=True)
class Outcome:
    case: Case
    kind: str
    exit_code: int
    message: str
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"case": self.case.number, "seed": self.case.seed,
                "mutation": self.case.mutation, "kind": self.kind,
                "exit": self.exit_code, "message": self.message[:2000],
                "seconds": round(self.seconds, 3)}


def seeds() -> list[Seed]:
    """The default decks, the starters and the test decks (map files excluded)."""
    from generator.build import render_starter
    from generator.families import FAMILIES

    out: list[Seed] = []
    for path in sorted((ROOT / "decks").glob("*.toml")):
        out.append(Seed(f"decks/{path.name}", path.read_text(encoding="utf-8"), path.parent))
    for fam in FAMILIES:
        out.append(Seed(f"starter/{fam.name}", render_starter(fam.name, f"{fam.name}-starter"),
                        ROOT / "decks"))
    for path in sorted((ROOT / "tests" / "decks").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        if re.search(r"^family\s*=", text, re.M):
            out.append(Seed(f"tests/decks/{path.name}", text, path.parent))
    return out


# --- TOML writing -----------------------------------------------------------------------

def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False).replace("\\u007f", "\\u007F")
    if isinstance(v, list):
        return "[" + ", ".join(_scalar(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_scalar(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def _is_table_array(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def to_toml(data: dict[str, Any], prefix: tuple[str, ...] = ()) -> str:
    """TOML text of ``data`` with real [tables] and [[arrays of tables]] (so the locator's
    line numbers are exercised as in hand-written decks)."""
    lines: list[str] = []
    later: list[tuple[str, Any]] = []
    for k, v in data.items():
        if isinstance(v, dict) or _is_table_array(v):
            later.append((k, v))
        else:
            lines.append(f"{_key(k)} = {_scalar(v)}")
    for k, v in later:
        path = (*prefix, k)
        name = ".".join(_key(p) for p in path)
        if isinstance(v, dict):
            lines += ["", f"[{name}]", to_toml(v, path)]
        else:
            for item in v:
                lines += ["", f"[[{name}]]", to_toml(item, path)]
    return "\n".join(line for line in lines if line is not None).strip("\n") + "\n"


# --- schema-driven mutation -------------------------------------------------------------

def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    for _ in range(20):
        if "$ref" in schema:
            schema = root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
            continue
        for alt in ("anyOf", "oneOf", "allOf"):
            if alt in schema:
                options = [s for s in schema[alt] if s.get("type") != "null"]
                objects = [s for s in options if "$ref" in s or s.get("type") == "object"]
                schema = (objects or options or [{}])[0]
                break
        else:
            return schema
    return schema


def _sub(schema: dict[str, Any], part: str | int, root: dict[str, Any]) -> dict[str, Any]:
    s = _resolve(schema, root)
    if isinstance(part, int):
        items = s.get("items") or (s.get("prefixItems") or [{}])[0]
        return items if isinstance(items, dict) else {}
    props = s.get("properties", {})
    if part in props:
        return dict(props[part])
    extra = s.get("additionalProperties")
    return extra if isinstance(extra, dict) else {}


NASTY_TEXT = ["", "A\x00B", "\x1b[31mred", "x" * 20_000, "<svg onload=alert(1)>",
              "../../../../etc/passwd", "/dev/zero", "é" * 300, "\u202e\u0301", " ",
              "**unclosed", ":nosuch:", "a\nb\nc" * 50, "\ud7ff", "🂡🂢"]
NASTY_NUMBERS: list[Any] = [0, -1, 1, 2, 3, 7, 100, 10_000, 10**6, 10**9, 10**9 + 1,
                            2**63 - 1, -(2**63), 0.0, -0.0, 0.5, 1e-9, 1e308, float("nan"),
                            float("inf"), float("-inf"), True, False]


def _values_for(schema: dict[str, Any], root: dict[str, Any], current: Any,
                rng: random.Random) -> list[Any]:
    """Values worth trying at a key whose schema is ``schema``."""
    s = _resolve(schema, root)
    out: list[Any] = []
    for bound in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        if bound in s:
            b = s[bound]
            out += [b, b - 1, b + 1, b * 10 + 1]
    if "enum" in s:
        out += list(s["enum"]) + [str(s["enum"][0]) + "x", ""]
    if "const" in s:
        out.append(str(s["const"]) + "x")
    if "maxItems" in s:
        n = int(s["maxItems"])
        sample = current[0] if isinstance(current, list) and current else 1
        out += [[sample] * n, [sample] * (n + 1)]
    if "minItems" in s:
        out.append([])
    if s.get("type") == "string" or isinstance(current, str):
        out += NASTY_TEXT
    if isinstance(current, list):
        out += [[], current + current, current[:1] * 40, [current], current[::-1]]
    if isinstance(current, dict):
        out += [{}, {"unknown_key": 1}, [current], "table"]
    out += NASTY_NUMBERS
    out += ["12mm", "-3mm", "1e9mm", "nanmm", "#zzzzzz", "#000000", [1, "a"], {"a": 1}]
    return out


def _paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*path, k)
            yield from _paths(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data[:6]):
            yield (*path, i)
            yield from _paths(v, (*path, i))


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        data = data[p]
    return data


def mutate_schema(data: dict[str, Any], schema: dict[str, Any], rng: random.Random
                  ) -> tuple[dict[str, Any], str]:
    """One schema-guided mutation of a deep copy of ``data``."""
    data = json.loads(json.dumps(data, allow_nan=True))
    paths = [p for p in _paths(data) if p != ("family",)]
    choice = rng.random()
    if choice < 0.25:
        # add a key the deck does not use, with a boundary value from its schema
        holder_paths = [()] + [p for p in paths if isinstance(_get(data, p), dict)]
        holder = rng.choice(holder_paths)
        sub: dict[str, Any] = schema
        for part in holder:
            sub = _sub(sub, part, schema)
        props = _resolve(sub, schema).get("properties", {})
        missing = [k for k in props if k not in _get(data, holder)]
        if missing:
            key = rng.choice(missing)
            value = rng.choice(_values_for(props[key], schema, None, rng))
            _get(data, holder)[key] = value
            return data, f"add {'.'.join(map(str, (*holder, key)))} = {_short(value)}"
    if not paths:
        return data, "none"
    path = rng.choice(paths)
    parent, last = _get(data, path[:-1]), path[-1]
    if choice < 0.35 and isinstance(parent, dict):
        del parent[last]
        return data, f"remove {'.'.join(map(str, path))}"
    sub = schema
    for part in path:
        sub = _sub(sub, part, schema)
    value = rng.choice(_values_for(sub, schema, parent[last], rng))
    parent[last] = value
    return data, f"set {'.'.join(map(str, path))} = {_short(value)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."


def mutate_bytes(text: str, rng: random.Random) -> tuple[bytes, str]:
    data = bytearray(text.encode("utf-8"))
    kind = rng.choice(["flip", "insert", "drop-line", "double-line", "truncate", "bom",
                       "swap-lines"])
    lines = text.splitlines(keepends=True)
    if kind == "flip" and data:
        i = rng.randrange(len(data))
        data[i] = rng.randrange(256)
        return bytes(data), f"flip byte {i}"
    if kind == "insert":
        i = rng.randrange(len(data) + 1)
        junk = rng.choice([b"\x00", b"\xff\xfe", b"\xc3", b"\r", b"[", b"]]", b"=", b'"',
                           b"\n[x]\n", b"\\u0000", b"#", b"'''", b'"""'])
        return bytes(data[:i] + junk + data[i:]), f"insert {junk!r} at {i}"
    if kind == "drop-line" and lines:
        i = rng.randrange(len(lines))
        return "".join(lines[:i] + lines[i + 1:]).encode("utf-8"), f"drop line {i + 1}"
    if kind == "double-line" and lines:
        i = rng.randrange(len(lines))
        return "".join(lines[:i + 1] + lines[i:]).encode("utf-8"), f"double line {i + 1}"
    if kind == "swap-lines" and len(lines) > 1:
        i = rng.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        return "".join(lines).encode("utf-8"), f"swap lines {i + 1}-{i + 2}"
    if kind == "bom":
        return b"\xef\xbb\xbf" + bytes(data), "utf-8 bom"
    i = rng.randrange(len(data) + 1)
    return bytes(data[:i]), f"truncate at {i}"


def cases(seed: int, count: int, only: list[Seed] | None = None) -> Iterator[Case]:
    """``count`` cases, the same for the same ``seed`` on any machine."""
    import tomllib

    from generator.schema import deck_schema

    rng = random.Random(seed)
    pool = only if only is not None else seeds()
    schemas: dict[str, dict[str, Any]] = {}
    for n in range(count):
        s = pool[n % len(pool)]
        if rng.random() < 0.3:
            data, what = mutate_bytes(s.text, rng)
            yield Case(n, s.name, "bytes: " + what, data, s.base_dir)
            continue
        parsed = tomllib.loads(s.text)
        family = str(parsed.get("family"))
        if family not in schemas:
            schemas[family] = deck_schema(family)
        mutated, what = mutate_schema(parsed, schemas[family], rng)
        if rng.random() < 0.3:  # a second mutation now and then
            mutated, more = mutate_schema(mutated, schemas[family], rng)
            what += "; " + more
        yield Case(n, s.name, "schema: " + what, to_toml(mutated).encode("utf-8"),
                   s.base_dir)


# --- running ----------------------------------------------------------------------------

class _Guard(Exception):
    pass


def run_case(case: Case, *, build: bool, seconds_cap: float, simulations: int | None = 0,
             check: bool = True) -> Outcome:
    """Load, check (unless ``check`` is false: load only) and, when ``build`` and the check
    passes, build one case in-process, under a wall-clock guard of ``seconds_cap``."""
    from generator.build import build_deck, check_deck
    from generator.deckfile import load_deck
    from generator.errors import DeckError, PaperProofError
    from generator.families.base import CheckOptions

    start = time.perf_counter()

    def on_alarm(signum: int, frame: object) -> None:
        raise _Guard

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds_cap)
    stage = "load"
    try:
        with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
            folder = Path(tmp)
            deck_path = folder / "deck.toml"
            deck_path.write_bytes(case.data)
            # the deck's sibling files (CSV, map files) come along, as in its own folder
            for sibling in case.base_dir.glob("*.csv"):
                (folder / sibling.name).write_bytes(sibling.read_bytes())
            for sibling in case.base_dir.glob("*.toml"):
                if not (folder / sibling.name).exists():
                    (folder / sibling.name).write_bytes(sibling.read_bytes())
            options = CheckOptions(simulations=simulations)
            try:
                loaded = load_deck(deck_path)
                if not check:
                    return _done(case, "ok", 0, "", start)
                stage = "check"
                checked = check_deck(loaded, options=options)
                if not checked.report.ok:
                    return _done(case, "fails-checks", 1, "", start)
                if build:
                    stage = "build"
                    try:
                        build_deck(loaded, folder / "out", options=options)
                    except _Guard:
                        raise
                    except BaseException as exc:  # noqa: BLE001 - classifying every outcome
                        return _done(case, "build-failed", getattr(exc, "exit_code", -1),
                                     f"{type(exc).__name__}: {exc}\n"
                                     + traceback.format_exc(), start)
                return _done(case, "ok", 0, "", start)
            except DeckError as exc:
                bad = [p for p in exc.problems if not p.file or p.line < 1]
                if bad:
                    return _done(case, "unlocated", 2, bad[0].format(), start)
                return _done(case, "invalid", 2, exc.problems[0].format(), start)
            except PaperProofError as exc:
                kind = "invalid" if exc.exit_code in (1, 2) else "bad-exit"
                if exc.exit_code == 2:
                    kind = "unlocated"  # an exit-2 error that names no file:line
                return _done(case, kind, exc.exit_code, f"{stage}: {type(exc).__name__}: {exc}",
                             start)
    except _Guard:
        return _done(case, "over-budget", -1, f"past {seconds_cap:g} s in {stage}", start)
    except RecursionError:
        return _done(case, "crash", -1, traceback.format_exc(limit=5), start)
    except Exception:  # noqa: BLE001 - a crash is what we are looking for
        return _done(case, "crash", -1, f"{stage}: " + traceback.format_exc(), start)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _done(case: Case, kind: str, code: int, message: str, start: float) -> Outcome:
    return Outcome(case, kind, code, message, time.perf_counter() - start)
