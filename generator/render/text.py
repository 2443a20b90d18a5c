"""Text layout: markup, word wrapping and shrink-to-fit, shared by both painters.

A :class:`generator.render.drawing.TextBox` holds text with a small markup:

- ``**bold**`` and ``*italic*`` (they nest: ``***both***``);
- ``:name:`` an inline symbol from :mod:`generator.render.symbols`, drawn as a square whose
  bottom sits on the baseline and whose top is at the font's cap height;
- ``\\n`` a line break; ``\\*``, ``\\:`` and ``\\\\`` are literal characters.

:func:`layout_text` wraps words to the box width and shrinks the font from ``size`` towards
``min_size`` in steps of :data:`STEP` pt until the text fits the box on both axes. The result
is a :class:`TextLayout`: positioned runs and symbols in millimetres, which the PDF and the SVG
painter both draw, so the two outputs place every word at the same coordinates.

Widths come from the embedded font's advance widths (reportlab applies no kerning), so a
run's width here is exactly the width the PDF draws; the SVG painter pins each run to it with
``textLength``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from ..errors import LayoutError
from ..units import MM_PER_PT
from .drawing import Colour, Symbol, TextBox
from .fonts import choose_family, metrics, missing_glyphs, text_width, using
from .symbols import get_symbol

STEP = 0.25
"""Shrink step in points."""
ICON_PAD_EM = 0.08
"""Space on each side of an inline symbol, as a fraction of the font size."""
_EPS = 1e-6
_SPECIAL = re.compile(r"[*:\\\n\t]")
ICON = re.compile(r":([a-z][a-z0-9]*(?:-[a-z0-9]+)*):")
"""An inline symbol in markup: ``:water:``. The one definition; deck validation uses it too."""
ESCAPE = re.compile(r"\\[*:\\]")
"""A backslash-escaped markup character (``\\*``), printed literally."""


@dataclass(frozen=True)
class Piece:
    """A piece of a word: text in one style, or an inline symbol (``icon`` set, ``text`` empty)."""

    text: str
    bold: bool = False
    italic: bool = False
    icon: str = ""


Word = tuple[Piece, ...]
Paragraph = tuple[Word, ...]


def parse_markup(text: str, bold: bool = False, italic: bool = False) -> tuple[Paragraph, ...]:
    """Markup -> paragraphs (split at ``\\n``) of words (split at spaces) of pieces.

    Symbol names are checked against the library: an unknown ``:name:`` raises
    :class:`generator.render.symbols.UnknownSymbolError` listing the valid names.
    """
    if _SPECIAL.search(text) is None:
        # plain text (most text boxes): no markup to interpret
        return ((tuple((Piece(t, bold, italic),) for t in text.split(" ") if t),))
    paragraphs: list[Paragraph] = []
    words: list[Word] = []
    word: list[Piece] = []
    buf: list[str] = []
    b, it = bold, italic

    def flush_text() -> None:
        if buf:
            word.append(Piece("".join(buf), b, it))
            buf.clear()

    def flush_word() -> None:
        flush_text()
        if word:
            words.append(tuple(word))
            word.clear()

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in "*:\\":
            buf.append(text[i + 1])
            i += 2
            continue
        if ch == "\n":
            flush_word()
            paragraphs.append(tuple(words))
            words = []
            i += 1
            continue
        if ch in " \t":
            flush_word()
            i += 1
            continue
        if text.startswith("**", i):
            flush_text()
            b = not b
            i += 2
            continue
        if ch == "*":
            flush_text()
            it = not it
            i += 1
            continue
        if ch == ":":
            m = ICON.match(text, i)
            if m:
                get_symbol(m.group(1))  # raises with the list of valid names
                flush_text()
                word.append(Piece("", b, it, m.group(1)))
                i = m.end()
                continue
        buf.append(ch)
        i += 1
    flush_word()
    paragraphs.append(tuple(words))
    return tuple(paragraphs)


def plain_text(text: str) -> str:
    """The text a reader sees (markup removed, symbols dropped, one space between words);
    what a PDF text extractor should read back."""
    lines = []
    for para in parse_markup(text):
        lines.append(" ".join("".join(p.text for p in w) for w in para if any(p.text for p in w)))
    return "\n".join(lines)


@dataclass(frozen=True)
class TextRun:
    """One run of text in one style, laid out: baseline start (x, y) and width in mm, font
    size in mm."""

    x: float
    y: float
    text: str
    size: float
    bold: bool
    italic: bool
    colour: Colour
    width: float
    font: str = ""
    """The font family key the run is set in (``""``: Noto Sans)."""


@dataclass(frozen=True)
class TextLayout:
    """A laid-out text box: the chosen size (pt), its runs and inline symbols (mm), and the
    number of lines."""

    size: float
    runs: tuple[TextRun, ...]
    symbols: tuple[Symbol, ...]
    lines: int


def _icon_em() -> float:
    return metrics().cap_height


def _piece_em(p: Piece) -> float:
    if p.icon:
        return _icon_em() + 2 * ICON_PAD_EM
    return text_width(p.text, 1.0, p.italic)


def _space_em(p: Piece) -> float:
    return text_width(" ", 1.0, p.italic and not p.icon)


@dataclass(frozen=True, slots=True)
class _Measured:
    """A word with its pieces' widths, its width and the space after it, in em."""

    pieces: Word
    widths: tuple[float, ...]
    width: float
    space: float


@dataclass(frozen=True, slots=True)
class _Line:
    words: tuple[_Measured, ...]
    width: float
    """Width in em, spaces between words included."""


def _measure(paragraphs: tuple[Paragraph, ...]) -> list[list[_Measured]]:
    out: list[list[_Measured]] = []
    for para in paragraphs:
        words = []
        for w in para:
            widths = tuple(_piece_em(p) for p in w)
            words.append(_Measured(w, widths, sum(widths), _space_em(w[-1])))
        out.append(words)
    return out


def _wrap(measured: list[list[_Measured]], limit_em: float) -> list[_Line] | None:
    """Greedy wrap at ``limit_em`` (box width in em); None when a word is wider than that."""
    lines: list[_Line] = []
    limit = limit_em + _EPS
    for para in measured:
        line: list[_Measured] = []
        width = 0.0
        for w in para:
            if w.width > limit:
                return None
            if line:
                cand = width + line[-1].space + w.width
                if cand <= limit:
                    line.append(w)
                    width = cand
                    continue
                lines.append(_Line(tuple(line), width))
            line, width = [w], w.width
        lines.append(_Line(tuple(line), width))
    return lines


def _sizes(size: float, min_size: float) -> Iterator[float]:
    """``size``, then 0.25 pt smaller each step, down to ``min_size``."""
    yield size
    s = size
    while s - STEP >= min_size - _EPS:
        s = round(s - STEP, 6)
        yield s


def _snippet(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= 40 else flat[:37] + "..."


@lru_cache(maxsize=8192)
def layout_text(box: TextBox) -> TextLayout:
    """Lay out ``box``: wrap, shrink to fit, position. Raises
    :class:`generator.errors.LayoutError` naming ``box.owner`` when the text cannot fit at
    ``box.min_size``, or when the font has no glyph for a character."""
    owner = box.owner or "a text box"
    family = choose_family(box.font, box.text)
    if family is None:
        # no font of the chain has every glyph: name what the first font lacks
        with using(box.font.split("|")[0]):
            missing = missing_glyphs(box.text, False) + missing_glyphs(box.text, True)
        fonts = "the font has no" if "|" not in box.font else "no font of the chain has a"
        raise LayoutError(f"{owner}: {fonts} glyph for "
                          f"{''.join(sorted(set(missing)))!r} in {_snippet(box.text)!r}")
    with using(family):
        laid = _layout(box, owner)
    if family:
        laid = TextLayout(laid.size, tuple(replace(r, font=family) for r in laid.runs),
                          laid.symbols, laid.lines)
    return laid


def _layout(box: TextBox, owner: str) -> TextLayout:
    paragraphs = parse_markup(box.text, box.bold, box.italic)
    if box.w <= 0 or box.h <= 0:
        raise LayoutError(f"{owner}: text box {box.w:g} x {box.h:g} mm has no room")
    measured = _measure(paragraphs)
    for pt in _sizes(box.size, box.min_size):
        em = pt * MM_PER_PT
        lines = _wrap(measured, box.w / em)
        if lines is None:
            continue
        height = len(lines) * box.line_height * em
        if height <= box.h + _EPS:
            return _position(box, lines, pt)
    raise LayoutError(
        f"{owner}: text {_snippet(box.text)!r} does not fit its {box.w:g} x {box.h:g} mm box "
        f"even at the minimum size {box.min_size:g} pt; shorten it, enlarge the box or lower "
        "min_size"
    )


def _position(box: TextBox, lines: list[_Line], pt: float) -> TextLayout:
    em = pt * MM_PER_PT
    m = metrics()
    lh = box.line_height * em
    total = len(lines) * lh
    if box.valign == "top":
        top = box.y
    elif box.valign == "middle":
        top = box.y + (box.h - total) / 2
    else:
        top = box.y + box.h - total
    # The baseline sits where a line box of 1 em (ascent + descent scaled to 1 em) puts it,
    # with the extra leading split above and below.
    base_off = em * ((box.line_height - 1.0) / 2 + m.ascent / (m.ascent + m.descent))
    icon = m.cap_height * em
    pad = ICON_PAD_EM * em
    runs: list[TextRun] = []
    symbols: list[Symbol] = []
    colour = box.colour
    icon_colour = None if colour.lower() == "#000000" else colour
    for i, line in enumerate(lines):
        lw = line.width * em
        if box.align == "left":
            x = box.x
        elif box.align == "center":
            x = box.x + (box.w - lw) / 2
        else:
            x = box.x + box.w - lw
        y = top + i * lh + base_off
        # the open run: its pieces, style, start and width (style None: no open run)
        parts: list[str] = []
        style: tuple[bool, bool] | None = None
        run_x = run_w = 0.0
        prev: _Measured | None = None
        for w in line.words:
            if prev is not None:
                sp = prev.space * em
                first = w.pieces[0]
                if style is not None and not first.icon and style == (first.bold, first.italic):
                    parts.append(" ")
                    run_w += sp
                elif style is not None:
                    runs.append(TextRun(run_x, y, "".join(parts), em, style[0], style[1],
                                        colour, run_w))
                    parts, style = [], None
                x += sp
            for p, pw_em in zip(w.pieces, w.widths, strict=True):
                pw = pw_em * em
                if p.icon:
                    if style is not None:
                        runs.append(TextRun(run_x, y, "".join(parts), em, style[0], style[1],
                                            colour, run_w))
                        parts, style = [], None
                    symbols.append(Symbol(p.icon, x + pad, y - icon, icon, icon_colour))
                else:
                    st = (p.bold, p.italic)
                    if st != style:
                        if style is not None:
                            runs.append(TextRun(run_x, y, "".join(parts), em, style[0],
                                                style[1], colour, run_w))
                        parts, style, run_x, run_w = [], st, x, 0.0
                    parts.append(p.text)
                    run_w += pw
                x += pw
            prev = w
        if style is not None:
            runs.append(TextRun(run_x, y, "".join(parts), em, style[0], style[1], colour,
                                run_w))
    return TextLayout(pt, tuple(runs), tuple(symbols), len(lines))
