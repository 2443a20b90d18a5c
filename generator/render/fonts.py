"""Fonts: Noto Sans (upright and italic) registered with reportlab, embedded and subset.

reportlab's 14 standard fonts cover Latin-1 only (no Cyrillic, no Hungarian ``ő``/``ű``), so
every text PaperProof prints uses Noto Sans from the ``fontpkg-noto-sans`` package. reportlab
embeds TrueType fonts as subsets of the glyphs used, so a PDF carries only what it needs.

The package ships variable fonts (``wdth``/``wght`` axes); reportlab reads the default
instance (Regular, width 100) and cannot select another weight. Bold is therefore a *fake
bold*: glyphs are filled and stroked with a thin outline of :data:`BOLD_STROKE_EM` of the font
size (PDF text render mode 2; in SVG the same ``stroke`` on the text). Fake bold does not
change advance widths, so bold and regular runs measure the same, and both painters place
every run at the same coordinates.

Metrics are read from the font file itself (ascent, descent, cap height), so text layout in
:mod:`generator.render.text` does not hard-code numbers that belong to the font.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import fontpkg_noto_sans
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "NotoSans"
"""reportlab name of the upright face."""
ITALIC = "NotoSans-Italic"
"""reportlab name of the italic face."""
SVG_FAMILY = "'Noto Sans', sans-serif"
"""``font-family`` written into SVG files (viewers without Noto Sans fall back to sans-serif;
``textLength`` keeps every run's width as laid out)."""

BOLD_STROKE_EM = 0.035
"""Outline width of fake bold, as a fraction of the font size. 0.035 em thickens Noto Sans'
regular stems (about 0.09 em) by roughly 40 %, close to its SemiBold instance."""

_FILES = {
    REGULAR: "NotoSans[wdth,wght].ttf",
    ITALIC: "NotoSans-Italic[wdth,wght].ttf",
}


@dataclass(frozen=True)
class FontMetrics:
    """Vertical metrics of a face as fractions of the font size (em)."""

    ascent: float
    descent: float
    """Positive distance below the baseline."""
    cap_height: float


def font_file(name: str) -> Path:
    """The TrueType file of a registered face name."""
    return Path(fontpkg_noto_sans.ROOT) / "files" / _FILES[name]


@lru_cache(maxsize=1)
def register_fonts() -> tuple[str, str]:
    """Register both faces with reportlab (once per process); returns (regular, italic)."""
    for name in (REGULAR, ITALIC):
        if name not in pdfmetrics.getRegisteredFontNames():
            # subfontSize default: reportlab subsets and embeds only the glyphs used.
            pdfmetrics.registerFont(TTFont(name, str(font_file(name))))
    return REGULAR, ITALIC


_FAMILIES: dict[str, tuple[str, str, str]] = {"": (REGULAR, ITALIC, SVG_FAMILY)}
"""Font family key -> (regular face, italic face, SVG font-family). ``""`` is Noto Sans; a
deck's own fonts are registered under their ``deck.font_ref`` keys."""
_ACTIVE: list[str] = [""]
"""The family text is measured in right now (set by :func:`using` around one text box)."""


def register_font_file(key: str, data: bytes) -> str:
    """Register a deck's TrueType font (bytes of a .ttf, or an .otf with TrueType outlines)
    under ``key``; reportlab embeds it as a subset like Noto. Returns its family name.
    Raises ``ValueError`` for a file reportlab cannot embed (CFF/PostScript outlines)."""
    import hashlib
    import io

    if key in _FAMILIES:
        return _FAMILIES[key][2]
    name = "PP-" + hashlib.sha256(data).hexdigest()[:16]
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            font = TTFont(name, io.BytesIO(data))
        except Exception as exc:
            raise ValueError(f"it is not a TrueType font reportlab can embed ({exc})"
                             ) from None
        pdfmetrics.registerFont(font)
    face = pdfmetrics.getFont(name).face
    raw = getattr(face, "familyName", None) or name
    family = (raw.decode("latin-1") if isinstance(raw, bytes) else str(raw)).replace("'", "")
    _FAMILIES[key] = (name, name, f"'{family}', {SVG_FAMILY}")
    return family


def family_keys() -> tuple[str, ...]:
    return tuple(_FAMILIES)


class using:  # noqa: N801 - used as a context manager, like open()
    """Measure text in family ``key`` inside the ``with`` block."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __enter__(self) -> None:
        _ACTIVE.append(self.key)

    def __exit__(self, *exc: object) -> None:
        _ACTIVE.pop()


def face_of(key: str, italic: bool) -> str:
    """The reportlab face of family ``key`` for a style (bold is drawn, not a face)."""
    register_fonts()
    regular, ital, _ = _FAMILIES.get(key, _FAMILIES[""])
    return ital if italic else regular


def svg_family(key: str) -> str:
    return _FAMILIES.get(key, _FAMILIES[""])[2]


def face_name(italic: bool) -> str:
    """The reportlab face for a style in the active family (bold is drawn, not a face)."""
    return face_of(_ACTIVE[-1], italic)


def choose_family(chain: str, text: str) -> str | None:
    """The first family of ``chain`` (keys joined by ``|``; ``""`` is Noto Sans) that has a
    glyph for every character of ``text`` in both styles; None if no family does."""
    for key in chain.split("|"):
        if key not in _FAMILIES:
            continue
        chars = set(text)
        if not chars - _covered(face_of(key, False)) and not chars - _covered(face_of(key, True)):
            return key
    return None


def metrics(name: str | None = None) -> FontMetrics:
    """Ascent, descent and cap height of a face (default: the active family's upright)."""
    return _metrics(name or face_name(False))


@lru_cache(maxsize=16)
def _metrics(name: str) -> FontMetrics:
    register_fonts()
    face = pdfmetrics.getFont(name).face
    return FontMetrics(
        ascent=face.ascent / 1000.0,
        descent=-face.descent / 1000.0,
        cap_height=face.capHeight / 1000.0,
    )


@lru_cache(maxsize=16)
def _advances(name: str) -> tuple[dict[str, float], float]:
    """Advance widths (1/1000 em) by character, and the default for unmapped ones: the
    numbers reportlab's ``stringWidth`` sums, read once instead of per call."""
    register_fonts()
    face = pdfmetrics.getFont(name).face
    return ({chr(cp): float(w) for cp, w in face.charWidths.items()}, float(face.defaultWidth))


@lru_cache(maxsize=65536)
def _em_width(text: str, face: str) -> float:
    widths, default = _advances(face)
    get = widths.get
    return sum([get(ch, default) for ch in text]) / 1000.0


def text_width(text: str, size: float, italic: bool = False) -> float:
    """Advance width of ``text`` at ``size`` (any unit: the result is in the same unit), in
    the active family."""
    return _em_width(text, face_name(italic)) * size


@lru_cache(maxsize=16)
def _covered(name: str) -> frozenset[str]:
    register_fonts()
    cmap = pdfmetrics.getFont(name).face.charToGlyph
    return frozenset(chr(cp) for cp in cmap) | {"\n", "\t"}


def missing_glyphs(text: str, italic: bool = False) -> str:
    """Characters of ``text`` the face has no glyph for (they would print as empty boxes)."""
    missing = set(text) - _covered(face_name(italic))
    return "".join(sorted(missing))
