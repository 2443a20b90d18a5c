"""Unicode text prints: it reads back from the PDF as the same text AND draws ink where the
text box is (a PDF can extract right and still draw empty boxes), with the font embedded."""

from __future__ import annotations

import io
from typing import Any

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.deck import PrintSettings
from generator.families.base import Component
from generator.render.drawing import Drawing, Rect, TextBox
from generator.render.impose import Stamp
from generator.render.writers import component_svg, write_pod_pdf
from generator.units import MM_PER_PT

SAMPLES = {
    "russian": "Съешь же ещё этих мягких французских булок",
    "hungarian": "Árvíztűrő tükörfúrógép: ő és ű",
    "french": "Où est la gâteau? Ça coûte très cher, garçon",
    "italian": "Perché è così? Più caffè, però",
    "spanish": "¿Dónde está el niño? ¡Señor, mañana!",
}
DPI = 150


def _card(text: str, bold: bool = False) -> Component:
    box = TextBox(4, 10, 55.5, 30, text, size=11, min_size=6, bold=bold, owner="sample")
    return Component("u", "card", "Unicode", Drawing(63.5, 88.9, (box,), bleed=3))


def _pdf(comp: Component) -> bytes:
    buf = io.BytesIO()
    write_pod_pdf([comp], PrintSettings(stamp=False), Stamp("u", "1", 1), buf)
    return buf.getvalue()


def _ink(data: bytes, box_mm: tuple[float, float, float, float], bleed: float = 3.0) -> float:
    """Fraction of dark pixels inside a box given in trim mm."""
    page = pdfium.PdfDocument(data)[0]
    img = page.render(scale=DPI / 72).to_pil().convert("L")
    px = DPI / 25.4
    x0, y0, x1, y1 = box_mm
    crop = img.crop((round((x0 + bleed) * px), round((y0 + bleed) * px),
                     round((x1 + bleed) * px), round((y1 + bleed) * px)))
    hist: list[int] = crop.histogram()
    area: int = crop.width * crop.height
    return sum(hist[:128]) / max(area, 1)


@pytest.mark.parametrize("lang", sorted(SAMPLES))
def test_text_extracts_and_draws_ink(lang: str) -> None:
    text = SAMPLES[lang]
    data = _pdf(_card(text))
    extracted = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert " ".join(extracted.split()) == text
    # ink inside the text box; a box of missing glyphs (.notdef) would be empty or boxes,
    # nothing outside it
    # two to three lines of 11 pt text cover a few percent of the 30 mm box
    assert _ink(data, (4, 10, 59.5, 40)) > 0.01
    assert _ink(data, (4, 45, 59.5, 85)) == 0.0


def test_font_is_embedded_as_a_subset() -> None:
    data = _pdf(_card(SAMPLES["russian"]))
    reader = PdfReader(io.BytesIO(data))
    fonts: Any = reader.pages[0]["/Resources"]["/Font"]  # type: ignore[index]
    names = []
    for ref in fonts.values():
        font = ref.get_object()
        if "NotoSans" not in str(font["/BaseFont"]):
            continue  # reportlab lists its initial Helvetica; no text is set in it
        desc = font.get("/FontDescriptor")
        if desc is None and "/DescendantFonts" in font:
            desc = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        assert desc is not None and "/FontFile2" in desc.get_object()
        names.append(str(font["/BaseFont"]))
    # reportlab subset names look like AAAAAA+NotoSans
    assert any("NotoSans" in n for n in names)
    assert len(data) < 120_000  # the 2 MB font is subset, not embedded whole


def test_every_glyph_draws_ink() -> None:
    """Each character of every sample, on its own, leaves ink (no empty .notdef glyph)."""
    chars = sorted({ch for t in SAMPLES.values() for ch in t if ch.isalpha()})
    text = " ".join(chars)
    lay_box = TextBox(2, 2, 59.5, 84.9, text, size=14, min_size=6, owner="glyphs")
    from generator.render.text import layout_text

    lay = layout_text(lay_box)
    data = _pdf(Component("g", "card", "Glyphs", Drawing(63.5, 88.9, (lay_box,), bleed=3)))
    em = lay.size * MM_PER_PT
    from generator.render.fonts import text_width

    blank = []
    for run in lay.runs:
        x = run.x
        for word in run.text.split(" "):
            w = text_width(word, em)
            if _ink(data, (x + 0.05 * w, run.y - 0.6 * em, x + 0.95 * w, run.y)) == 0.0:
                blank.append(word)
            x += w + text_width(" ", em)
    assert blank == []


def test_fake_bold_is_darker_and_the_same_width() -> None:
    text = SAMPLES["hungarian"]
    regular, bold = _pdf(_card(text)), _pdf(_card(text, bold=True))
    assert _ink(bold, (4, 10, 59.5, 40)) > 1.2 * _ink(regular, (4, 10, 59.5, 40))
    assert " ".join(PdfReader(io.BytesIO(bold)).pages[0].extract_text().split()) == text
    svg = component_svg(_card(text, bold=True))
    assert 'stroke="#000000"' in svg and "font-family=\"'Noto Sans', sans-serif\"" in svg


def test_svg_carries_the_text() -> None:
    svg = component_svg(_card(SAMPLES["russian"]))
    for word in SAMPLES["russian"].split():
        assert word in svg
    assert 'textLength="' in svg


def test_text_over_colour_renders() -> None:
    box = TextBox(4, 10, 55.5, 30, "**Ночь** ő", size=14, colour="#ffffff", owner="x")
    comp = Component("d", "card", "Dark", Drawing(63.5, 88.9, (
        Rect(-3, -3, 69.5, 94.9, fill="#000000"), box), bleed=3))
    data = _pdf(comp)
    # white text on black: some light pixels inside the box
    assert _ink(data, (4, 10, 59.5, 40)) < 0.995
    assert _ink(data, (4, 45, 59.5, 85)) == 1.0
