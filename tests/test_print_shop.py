"""Print-shop grade output, checked on every default deck: bleed on every pod page, embedded
fonts only, duplex-safe sheet files, stamps clear of every other element, cut files per sheet.

The components are laid out without running the checks (an empty report: no proof pages),
which keeps the module cheap; proof pages are page components like boards and share their
code paths.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import ezdxf
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.deck import PrintSettings
from generator.deckfile import load_deck
from generator.families import FAMILIES
from generator.families.base import Report
from generator.render.component import Component, face_drawing
from generator.render.cutfiles import cut_sheets, sheet_cut_dxf, sheet_cut_svg, write_cut_files
from generator.render.drawing import Line, TextBox
from generator.render.flatten import flatten
from generator.render.impose import (
    Sheet,
    Stamp,
    impose,
    item_box,
    mirror_axis,
    plan_print_files,
    sheet_boxes,
)
from generator.render.stamp import element_boxes, place_stamp
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


@cache
def print_files(name: str) -> dict[str, list[Sheet]]:
    settings, stamp, comps = deck_components(name)
    return dict(plan_print_files(comps, settings, stamp))


def _texts(sheet: Sheet) -> list[str]:
    return [it.text for it in sheet.extras if isinstance(it, TextBox)]


@pytest.mark.parametrize("name", NAMES)
def test_sheets_pdf_is_front_back_pairs_only(name: str) -> None:
    """Printed duplex as one job, page 2k is the back of page 2k-1: every odd page is a
    front, every even page its back, holding the backs of exactly the front's components at
    the mirrored positions."""
    settings, _, comps = deck_components(name)
    files = print_files(name)
    assert settings.duplex in ("long-edge", "short-edge")
    sheets = files["sheets"]
    if all(c.back is None for c in comps):  # nothing duplex: the component sheets, fronts
        assert sheets and not any(s.back for s in sheets)
        return
    assert sheets and len(sheets) % 2 == 0
    for k in range(0, len(sheets), 2):
        front, back = sheets[k], sheets[k + 1]
        assert not front.back and back.back, (name, k + 1)
        assert (front.width, front.height) == (back.width, back.height)
        axis = mirror_axis(settings.duplex, front.width, front.height)
        want = sorted(
            (p.index, round(front.width - p.x - comps[p.index].front.width, 3) if axis == "x"
             else round(p.x, 3), round(p.y, 3) if axis == "x"
             else round(front.height - p.y - comps[p.index].front.height, 3))
            for p in front.placements if comps[p.index].back is not None)
        got = sorted((p.index, round(p.x, 3), round(p.y, 3)) for p in back.placements)
        assert got == want, (name, k + 1)
    for sheet in files["boards"]:
        assert not sheet.back
    for sheet in files["proofs"]:
        assert {comps[p.index].kind for p in sheet.placements} == {"proof"}
    assert all(comps[p.index].kind != "proof" for f in ("sheets", "boards")
               for s in files[f] for p in s.placements)


@pytest.mark.parametrize("name", NAMES)
def test_every_sheet_has_a_slug_a_scale_bar_and_registration_marks(name: str) -> None:
    files = print_files(name)
    settings, _, comps = deck_components(name)
    for fname, sheets in files.items():
        for n, sheet in enumerate(sheets, start=1):
            side = "BACK" if sheet.back else "FRONT"
            slug = [t for t in _texts(sheet) if f"{fname}.pdf {n}/{len(sheets)} · {side}" in t]
            assert len(slug) == 1, (name, fname, n, _texts(sheet))
            assert "print at 100 %" in slug[0]
            assert "10 mm" in _texts(sheet)
            bars = [it for it in sheet.extras if isinstance(it, Line)
                    and it.y1 == it.y2 and abs(abs(it.x2 - it.x1) - 10.0) < 1e-9]
            assert len(bars) == 1, (name, fname, n)
            # a page-sized board leaves the corners no room; every sheet of cards, tokens,
            # tiles and pieces carries the marks
            if not sheet.back and fname != "proofs" and sheet.cuts and sheet.kind != "page":
                assert len(sheet.registration) == 3, (name, fname, n)
            boxes = sheet_boxes(comps, sheet)
            for mark in sheet.registration:
                mb = item_box(mark)
                assert all(not (mb[0] < b[2] and b[0] < mb[2] and mb[1] < b[3] and b[1] < mb[3])
                           for b in boxes if b != mb), (name, fname, n)


def _svg_paths(svg: str, group: str) -> list[str]:
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    g = next(el for el in root.iter(f"{ns}g") if el.get("id") == group)
    return [p.get("d", "") for p in g.iter(f"{ns}path")]


def _points(d: str) -> list[tuple[float, float]]:
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(nums[0::2], nums[1::2], strict=False))


@pytest.mark.parametrize("name", NAMES)
def test_cut_files_per_sheet_carry_registration_marks_and_real_outlines(name: str) -> None:
    """One SVG and one DXF per front sheet to cut, page-sized, with the three registration
    marks exactly where the sheet prints them, and the components' own outlines."""
    _, _, comps = deck_components(name)
    files = print_files(name)
    stems = cut_sheets(files)
    assert stems
    for stem, sheet in stems:
        svg = sheet_cut_svg(sheet, stem)
        root = ET.fromstring(svg)
        assert root.get("viewBox") == f"0 0 {sheet.width:g} {sheet.height:g}", stem
        assert root.get("width") == f"{sheet.width:g}mm"
        regs = _svg_paths(svg, "registration")
        assert len(regs) == len(sheet.registration), stem
        for d, mark in zip(regs, sheet.registration, strict=True):
            x0, y0, x1, y1 = item_box(mark)
            pts = _points(d)
            assert min(p[0] for p in pts) == pytest.approx(x0, abs=1e-3)
            assert max(p[1] for p in pts) == pytest.approx(y1, abs=1e-3)
        assert _svg_paths(svg, "cut"), stem
        dxf = ezdxf.read(io.StringIO(sheet_cut_dxf(sheet)))
        layers = {e.dxf.layer for e in dxf.modelspace()}
        assert "CUT" in layers, stem
        reg = [e for e in dxf.modelspace() if e.dxf.layer == "REGISTRATION"]
        assert len(reg) == len(sheet.registration)
        if reg:  # the square at the top-left, y up: its top edge REG_INSET below the top
            ys = [v.dxf.location[1] for v in reg[0].vertices]
            assert max(ys) == pytest.approx(sheet.height - 3.0, abs=1e-3)
    kinds = {comps[p.index].kind: (stem, sheet) for stem, sheet in stems
             for p in sheet.placements}
    if name == "parks":
        _, tokens = kinds["tokens"]
        svg = sheet_cut_svg(tokens, "tokens")
        discs = _svg_paths(svg, "cut")
        assert len(discs) == 12 and all(len(_points(d)) == 72 for d in discs)
        _, die = kinds["die"]
        svg = sheet_cut_svg(die, "die")
        (outline,) = _svg_paths(svg, "cut")
        assert len(_points(outline)) == 14 + 2 * 7  # the net's corners, two per glue tab
        assert len(_svg_paths(svg, "fold")) == 5 + 7  # face edges and tab bases
        assert 'stroke-dasharray' in svg
    if name == "habitats":
        stem, hexes = kinds["tile"]
        paths = [_points(d) for d in _svg_paths(sheet_cut_svg(hexes, stem), "cut")]
        assert any(len(p) == 6 for p in paths)  # a hex cut whole, later ones share edges


def test_cut_files_are_byte_identical_twice(tmp_path: Path) -> None:
    settings, stamp, comps = deck_components("parks")
    files = print_files("parks")
    a = write_cut_files(files, "parks", tmp_path / "a")
    b = write_cut_files(files, "parks", tmp_path / "b")
    assert [p.name for p in a] == [p.name for p in b]
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("name", NAMES)
def test_no_stamp_overlaps_another_element(name: str) -> None:
    """Every default component's stamp sits inside the safe zone, at 4 pt or more, clear of
    every other element's box; one with no room on either side is named in its sheet's
    slug instead."""
    settings, stamp, comps = deck_components(name)
    safe = float(settings.safe)
    bare: set[int] = set()
    for i, c in enumerate(comps):
        number = c.index or i + 1
        spot = place_stamp(c, stamp.text(number, c.id), safe)
        if spot is None:
            bare.add(number)
            continue
        face, box = spot
        d = face_drawing(c, face)
        assert box.size >= 4.0
        sx0, sy0, sx1, sy1 = box.x, box.y, box.x + box.w, box.y + box.h
        if not d.cut:
            assert sx0 >= safe and sy0 >= safe, c.id
            assert sx1 <= d.width - safe and sy1 <= d.height - safe, c.id
        for ex0, ey0, ex1, ey1 in element_boxes(flatten(d), d):
            assert not (sx0 < ex1 and ex0 < sx1 and sy0 < ey1 and ey0 < sy1), (c.id, face)
    listed: set[int] = set()
    for sheets in print_files(name).values():
        for sheet in sheets:
            for t in _texts(sheet):
                if "print at 100 % · stamps " in t:
                    for part in t.split(" · stamps ")[1].split(", "):
                        a, _, b = part.lstrip("#").partition("-")
                        listed.update(range(int(a), int(b or a) + 1))
    assert bare <= listed, (name, sorted(bare - listed))


def _axes_at(img: Any, x_mm: float, y_mm: float, px_per_mm: float, win: float = 7.0
             ) -> tuple[float, float]:
    """Where the long horizontal and vertical lines near (x, y) are, in mm: the row and
    the column with the most dark pixels in a window around the hint."""
    x0, x1 = int((x_mm - win) * px_per_mm), int((x_mm + win) * px_per_mm)
    y0, y1 = int((y_mm - win) * px_per_mm), int((y_mm + win) * px_per_mm)
    gray = img.convert("L")
    px = gray.load()
    rows = [sum(1 for x in range(x0, x1) if px[x, y] < 128) for y in range(y0, y1)]
    cols = [sum(1 for y in range(y0, y1) if px[x, y] < 128) for x in range(x0, x1)]
    ry = max(range(len(rows)), key=lambda k: rows[k])
    cx = max(range(len(cols)), key=lambda k: cols[k])
    return ((x0 + cx + 0.5) / px_per_mm, (y0 + ry + 0.5) / px_per_mm)


@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_calibration_reads_back_on_the_sheets_paper_and_axes(orientation: str,
                                                              duplex: str) -> None:
    """The calibration pair takes the card sheets' paper and orientation; read back from
    the rendered pages, each scale on the back sits behind its front cross (through the
    paper, as the flip turns it) shifted by exactly back_offset."""
    base, _, comps = deck_components("cards")
    settings = base.model_copy(update={"calibration": True, "orientation": orientation,
                                       "duplex": duplex, "back_offset": (1.5, -1.0)})
    sheets = impose(list(comps), settings)
    front, back = sheets[0], sheets[1]
    assert front.kind == back.kind == "calibration"
    card_sheet = sheets[2]
    assert (front.width, front.height) == (card_sheet.width, card_sheet.height)
    assert (front.width > front.height) == (orientation == "landscape")
    buf = io.BytesIO()
    write_sheets_pdf(list(comps), settings, None, buf)
    pdf = pdfium.PdfDocument(buf.getvalue())
    scale = 4.0
    ppm = 72 / 25.4 * scale
    img_f = pdf[0].render(scale=scale).to_pil()
    img_b = pdf[1].render(scale=scale).to_pil()
    pw, ph = front.width, front.height
    axis = mirror_axis(duplex, pw, ph)
    for hx, hy in ((30.0, 30.0), (pw - 30.0, 30.0), (pw / 2, ph / 2), (30.0, ph - 30.0)):
        fx, fy = _axes_at(img_f, hx, hy, ppm)
        tx, ty = (pw - fx, fy) if axis == "x" else (fx, ph - fy)  # through the paper
        bx, by = _axes_at(img_b, tx + 1.5, ty - 1.0, ppm)
        assert bx - tx == pytest.approx(1.5, abs=0.3), (hx, hy)
        assert by - ty == pytest.approx(-1.0, abs=0.3), (hx, hy)
