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


def face_name(italic: bool) -> str:
    """The reportlab face for a style (bold is drawn, not a separate face)."""
    register_fonts()
    return ITALIC if italic else REGULAR


@lru_cache(maxsize=4)
def metrics(name: str = REGULAR) -> FontMetrics:
    """Ascent, descent and cap height of a face, read from its font file."""
    register_fonts()
    face = pdfmetrics.getFont(name).face
    return FontMetrics(
        ascent=face.ascent / 1000.0,
        descent=-face.descent / 1000.0,
        cap_height=face.capHeight / 1000.0,
    )


@lru_cache(maxsize=4)
def _advances(name: str) -> tuple[dict[str, float], float]:
    """Advance widths (1/1000 em) by character, and the default for unmapped ones: the
    numbers reportlab's ``stringWidth`` sums, read once instead of per call."""
    register_fonts()
    face = pdfmetrics.getFont(name).face
    return ({chr(cp): float(w) for cp, w in face.charWidths.items()}, float(face.defaultWidth))


@lru_cache(maxsize=65536)
def _em_width(text: str, italic: bool) -> float:
    widths, default = _advances(face_name(italic))
    get = widths.get
    return sum([get(ch, default) for ch in text]) / 1000.0


def text_width(text: str, size: float, italic: bool = False) -> float:
    """Advance width of ``text`` at ``size`` (any unit: the result is in the same unit)."""
    return _em_width(text, italic) * size


@lru_cache(maxsize=4)
def _covered(name: str) -> frozenset[str]:
    register_fonts()
    cmap = pdfmetrics.getFont(name).face.charToGlyph
    return frozenset(chr(cp) for cp in cmap) | {"\n", "\t"}


def missing_glyphs(text: str, italic: bool = False) -> str:
    """Characters of ``text`` the face has no glyph for (they would print as empty boxes)."""
    missing = set(text) - _covered(face_name(italic))
    return "".join(sorted(missing))
