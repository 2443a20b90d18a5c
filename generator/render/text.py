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
from dataclasses import dataclass
from functools import lru_cache

from ..errors import LayoutError
from ..units import MM_PER_PT
from .drawing import Colour, Symbol, TextBox
from .fonts import metrics, missing_glyphs, text_width
from .symbols import get_symbol

STEP = 0.25
"""Shrink step in points."""
ICON_PAD_EM = 0.08
"""Space on each side of an inline symbol, as a fraction of the font size."""
_EPS = 1e-6
_ICON = re.compile(r":([a-z][a-z0-9]*(?:-[a-z0-9]+)*):")


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
            m = _ICON.match(text, i)
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


def _measure(paragraphs: tuple[Paragraph, ...]) -> list[list[tuple[Word, float, float]]]:
    """Each word with its width and the width of the space after it, in em."""
    return [[(w, sum(_piece_em(p) for p in w), _space_em(w[-1])) for w in para]
            for para in paragraphs]


def _wrap(measured: list[list[tuple[Word, float, float]]], limit_em: float
          ) -> list[list[Word]] | None:
    """Greedy wrap at ``limit_em`` (box width in em); None when a word is wider than that."""
    lines: list[list[Word]] = []
    for para in measured:
        line: list[Word] = []
        width = 0.0
        space = 0.0
        for w, ww, sp in para:
            if ww > limit_em + _EPS:
                return None
            if line:
                cand = width + space + ww
                if cand <= limit_em + _EPS:
                    line.append(w)
                    width, space = cand, sp
                    continue
                lines.append(line)
            line, width, space = [w], ww, sp
        lines.append(line)
    return lines


def _line_em(line: list[Word]) -> float:
    total = 0.0
    for k, w in enumerate(line):
        if k:
            total += _space_em(line[k - 1][-1])
        total += sum(_piece_em(p) for p in w)
    return total


def _sizes(size: float, min_size: float) -> list[float]:
    out = [size]
    s = size
    while s - STEP >= min_size - _EPS:
        s = round(s - STEP, 6)
        out.append(s)
    return out


def _snippet(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= 40 else flat[:37] + "..."


@lru_cache(maxsize=8192)
def layout_text(box: TextBox) -> TextLayout:
    """Lay out ``box``: wrap, shrink to fit, position. Raises
    :class:`generator.errors.LayoutError` naming ``box.owner`` when the text cannot fit at
    ``box.min_size``, or when the font has no glyph for a character."""
    owner = box.owner or "a text box"
    for italic in (False, True):
        missing = missing_glyphs(box.text, italic)
        if missing:
            raise LayoutError(f"{owner}: the font has no glyph for {missing!r} "
                              f"in {_snippet(box.text)!r}")
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


class _RunBuilder:
    """Collects consecutive pieces of one style on one line into a :class:`TextRun`."""

    def __init__(self, runs: list[TextRun], y: float, em: float, colour: Colour) -> None:
        self.runs, self.y, self.em, self.colour = runs, y, em, colour
        self.parts: list[str] = []
        self.style: tuple[bool, bool] | None = None
        self.x = 0.0
        self.width = 0.0

    def start(self, style: tuple[bool, bool], x: float) -> None:
        self.style, self.x = style, x

    def add(self, text: str, width: float) -> None:
        self.parts.append(text)
        self.width += width

    def close(self) -> None:
        if self.parts and self.style is not None:
            self.runs.append(TextRun(self.x, self.y, "".join(self.parts), self.em,
                                     self.style[0], self.style[1], self.colour, self.width))
        self.parts, self.style, self.width = [], None, 0.0


def _position(box: TextBox, lines: list[list[Word]], pt: float) -> TextLayout:
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
    icon_colour = None if box.colour.lower() == "#000000" else box.colour
    for i, line in enumerate(lines):
        lw = _line_em(line) * em
        if box.align == "left":
            x = box.x
        elif box.align == "center":
            x = box.x + (box.w - lw) / 2
        else:
            x = box.x + box.w - lw
        y = top + i * lh + base_off
        run = _RunBuilder(runs, y, em, box.colour)
        for k, w in enumerate(line):
            if k:
                sp = _space_em(line[k - 1][-1]) * em
                first = w[0]
                if run.parts and not first.icon and run.style == (first.bold, first.italic):
                    run.add(" ", sp)
                else:
                    run.close()
                x += sp
            for p in w:
                pw = _piece_em(p) * em
                if p.icon:
                    run.close()
                    symbols.append(Symbol(p.icon, x + pad, y - icon, icon, icon_colour))
                else:
                    style = (p.bold, p.italic)
                    if style != run.style:
                        run.close()
                        run.start(style, x)
                    run.add(p.text, pw)
                x += pw
        run.close()
    return TextLayout(pt, tuple(runs), tuple(symbols), len(lines))
