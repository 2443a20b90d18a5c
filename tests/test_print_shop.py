"""Print-shop grade output, checked on every default deck: bleed on every pod page, embedded
fonts only, duplex-safe sheet files, stamps clear of every other element, cut files per sheet.

The components are laid out without running the checks (an empty report: no proof pages),
which keeps the module cheap; proof pages are page components like boards and share their
code paths.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.deck import PrintSettings
from generator.deckfile import load_deck
from generator.families import FAMILIES
from generator.families.base import Report
from generator.render.component import Component
from generator.render.impose import Stamp
from generator.render.writers import write_pod_pdf, write_sheets_pdf

ROOT = Path(__file__).resolve().parent.parent
NAMES = [f.name for f in FAMILIES]


@cache
def deck_components(name: str) -> tuple[PrintSettings, Stamp, tuple[Component, ...]]:
    loaded = load_deck(ROOT / "decks" / f"{name}.toml")
    deck = loaded.deck
    generated = loaded.family.generate(deck)
    comps = loaded.family.layout(deck, generated, Report(deck.name, name, deck.seed, ()))
    return deck.print, Stamp(deck.name, deck.version, deck.seed), tuple(comps)


@cache
def pod_pdf(name: str) -> bytes:
    settings, stamp, comps = deck_components(name)
    buf = io.BytesIO()
    write_pod_pdf(comps, settings, stamp, buf)
    return buf.getvalue()


@pytest.mark.parametrize("name", NAMES)
def test_every_pod_page_has_bleed_beyond_its_trim(name: str) -> None:
    reader = PdfReader(io.BytesIO(pod_pdf(name)))
    _, _, comps = deck_components(name)
    assert len(reader.pages) == sum(2 if c.back is not None else 1 for c in comps)
    for n, page in enumerate(reader.pages, start=1):
        bleed, trim = page.bleedbox, page.trimbox
        # 3 mm default bleed = 8.5 pt on every side
        assert float(trim.left) - float(bleed.left) > 8.0, (name, n)
        assert float(bleed.right) - float(trim.right) > 8.0, (name, n)
        assert float(trim.bottom) - float(bleed.bottom) > 8.0, (name, n)
        assert float(bleed.top) - float(trim.top) > 8.0, (name, n)


def test_a_hex_tiles_bleed_carries_its_edge_colour() -> None:
    """The bleed of a tile drawn without bleed is its own colour, not white paper."""
    _, _, comps = deck_components("habitats")
    first = next(i for i, c in enumerate(comps) if c.kind == "tile")
    pdf = pdfium.PdfDocument(pod_pdf("habitats"))
    page = pdf[first]
    scale = 10.0  # 720 dpi: one pixel is 0.035 mm
    img = page.render(scale=scale).to_pil().convert("RGB")
    d = comps[first].front
    pt = 72 / 25.4 * scale
    b = 3.0
    y = (b + d.height / 2) * pt
    inside = img.getpixel((int((b + 1.0) * pt), int(y)))
    outside = img.getpixel((int((b - 2.0) * pt), int(y)))
    assert inside != (255, 255, 255)
    assert outside == inside


def _font_problems(data: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(data))
    problems: list[str] = []
    for n, page in enumerate(reader.pages, start=1):
        res = page.get("/Resources")
        fonts = res.get_object().get("/Font") if res is not None else None
        if fonts is None:
            continue
        for key, ref in fonts.get_object().items():
            font = ref.get_object()
            desc = font.get("/FontDescriptor")
            if font.get("/Subtype") == "/Type0":
                desc = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else None
            if desc is None or not any(k in desc for k in ("/FontFile", "/FontFile2",
                                                           "/FontFile3")):
                problems.append(f"page {n}: {key} {font.get('/BaseFont')} not embedded")
    return problems


@pytest.mark.parametrize("name", ["habitats", "quilts"])
def test_no_pdf_references_a_font_it_does_not_embed(name: str, tmp_path: Path) -> None:
    settings, stamp, comps = deck_components(name)
    sheets = tmp_path / "sheets.pdf"
    write_sheets_pdf(comps, settings, stamp, sheets)
    pod = tmp_path / "pod.pdf"
    pod.write_bytes(pod_pdf(name))
    for path in (sheets, pod):
        assert _font_problems(path.read_bytes()) == [], path.name
        if shutil.which("pdffonts"):
            out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True,
                                 check=True).stdout.splitlines()[2:]
            assert out, "pdffonts lists the fonts in use"
            assert all(line.split()[-5] == "yes" for line in out), out
