"""Bounds at the boundary: limits every deck value obeys, checked before the models see it.

A deck is untrusted input, and a number or list that is only "valid" can still make a
generator loop for hours, allocate gigabytes or overflow a C integer in a PDF writer. The
model fields carry the maxima that depend on what a key means (``[check] simulations``, a
card's copies, stars per value); this module enforces the limits that hold for *every* value,
whatever key it sits under, so that no key added later can forget them:

- no NaN or infinity anywhere (TOML allows ``nan`` and ``inf``; no deck key means them);
- every number's magnitude at most :data:`MAX_NUMBER` (the ``seed`` excepted: any 64-bit
  integer is a seed);
- every list at most :data:`MAX_ITEMS` long, every text at most :data:`MAX_TEXT_CHARS`;
- no control character in any text or key (a NUL in a card name made an SVG that was not XML
  and went raw into ``index.html``): line breaks and tabs are the only ones allowed;
- nesting at most :data:`MAX_DEPTH` deep.

Each problem carries the key path, so the loader reports it at ``file:line: key``.
The limits are documented in ``docs/decks.md`` (generated from :func:`limits_markdown`).
"""

from __future__ import annotations

import math
from typing import Any

from .errors import Problem

KeyPath = tuple[str | int, ...]

MAX_NUMBER = 1_000_000_000
"""Largest magnitude of any number in a deck (1e9): every real count, size, weight or budget
is far below it, while 1e308 or 2**63 (which overflow the integer conversions of the PDF and
image writers) are refused. Keys whose meaning needs a tighter bound say so in their field."""

MAX_ITEMS = 10_000
"""Longest list in a deck: as many items as the longest card CSV (see
:data:`generator.families.cards.MAX_CSV_ROWS`); tighter per-key limits apply where work grows
faster than the list."""

MAX_TEXT_CHARS = 10_000
"""Longest text (a card's body is a few hundred characters; 10,000 is pages of text that
could never fit on a component)."""

MAX_DEPTH = 32
"""Deepest nesting of tables and lists: the deepest deck key is under 8 levels; ``tomllib``
itself fails with a RecursionError near 500, which is reported as a syntax problem."""

SEED_KEYS = frozenset({("seed",)})
"""Keys exempt from :data:`MAX_NUMBER`: a seed is an identifier, not an amount."""

ALLOWED_CONTROLS = frozenset("\n\t")
"""Control characters text may hold: line breaks (card text uses them) and tabs."""


def control_character(text: str) -> tuple[int, str] | None:
    """The position and character of the first control character in ``text`` that a deck may
    not hold (C0 except line break and tab, carriage return, DEL, C1, and the non-characters
    U+FFFE/U+FFFF, none of which may appear in an SVG), or ``None``."""
    for i, ch in enumerate(text):
        code = ord(ch)
        if (code < 0x20 and ch not in ALLOWED_CONTROLS) or 0x7F <= code <= 0x9F \
                or code in (0xFFFE, 0xFFFF) or 0xD800 <= code <= 0xDFFF:
            return i, ch
    return None


def describe_control(text: str, found: tuple[int, str]) -> str:
    i, ch = found
    return f"holds the control character U+{ord(ch):04X} at character {i + 1}"


def input_problems(data: Any) -> list[Problem]:
    """Every value of ``data`` (a parsed deck, after its files were read) that breaks one of
    the limits above. Iterative, so a deeply nested document cannot overflow the stack."""
    problems: list[Problem] = []
    stack: list[tuple[KeyPath, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if len(path) > MAX_DEPTH:
            problems.append(Problem("E-DECK-TOO-DEEP", path,
                                    f"nested more than {MAX_DEPTH} levels deep",
                                    "no deck key nests this deep; check the brackets"))
            continue
        if isinstance(value, dict):
            for key, item in value.items():
                found = control_character(str(key))
                if found is not None:
                    problems.append(Problem("E-TEXT-CONTROL", (*path, key),
                                            "the key " + describe_control(str(key), found),
                                            "remove it"))
                    continue
                stack.append(((*path, key), item))
        elif isinstance(value, list | tuple):
            if len(value) > MAX_ITEMS:
                problems.append(Problem("E-DECK-TOO-MANY", path,
                                        f"{len(value)} items, more than the {MAX_ITEMS} "
                                        "allowed", "shorten the list"))
                continue
            stack.extend(((*path, i), item) for i, item in enumerate(value))
        elif isinstance(value, str):
            if len(value) > MAX_TEXT_CHARS:
                problems.append(Problem("E-TEXT-TOO-LONG", path,
                                        f"{len(value)} characters, more than the "
                                        f"{MAX_TEXT_CHARS} allowed", "shorten the text"))
                continue
            found = control_character(value)
            if found is not None:
                problems.append(Problem("E-TEXT-CONTROL", path,
                                        "the text " + describe_control(value, found),
                                        "remove it; only line breaks and tabs may appear in "
                                        "text"))
        elif isinstance(value, float) and not math.isfinite(value):
            problems.append(Problem("E-DECK-NOT-FINITE", path,
                                    f"{value!r} is not a usable number",
                                    "write a finite number (nan and inf mean nothing here)"))
        elif isinstance(value, int | float) and not isinstance(value, bool) \
                and abs(value) > MAX_NUMBER and path not in SEED_KEYS:
            problems.append(Problem("E-DECK-TOO-BIG", path,
                                    f"{value!r} is larger than any deck value may be",
                                    f"use a number between {-MAX_NUMBER} and {MAX_NUMBER}"))
    return sorted(problems, key=lambda p: tuple(str(x) for x in p.path))


def limits_markdown() -> str:
    """The limits as a Markdown section of the deck reference."""
    return (
        "## Limits every value obeys\n\n"
        "Whatever the key, a deck is refused (exit 2, at `file:line: key`) when it holds:\n\n"
        "- `nan` or `inf` anywhere;\n"
        f"- a number larger than {MAX_NUMBER:,} in magnitude (the `seed` excepted);\n"
        f"- a list of more than {MAX_ITEMS:,} items or a text of more than "
        f"{MAX_TEXT_CHARS:,} characters;\n"
        "- a control character in a text or key (line breaks and tabs are allowed);\n"
        f"- tables or lists nested more than {MAX_DEPTH} levels deep.\n\n"
        "Keys whose cost grows with their value have tighter maxima, listed with each key "
        "below.\n"
    )
