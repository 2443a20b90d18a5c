"""Imposition and the print outputs: n-up grids, crop marks outside the bleed (looked at
in pixels), duplex backs mirrored, gutter fold, calibration, nests with shared cut lines,
TrimBox/BleedBox, CutContour, stamps, and byte-identical output."""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from render_samples import PIECES, board, hex_tile, poly_piece, typical_card

from generator.deck import PrintSettings, Size
from generator.errors import LayoutError
from generator.render.component import Component
from generator.render.drawing import Drawing, Rect, TextBox
from generator.render.impose import Sheet, Stamp, impose, mirror_axis, plan_grid
from generator.render.writers import (
    component_svg,
    cut_svg,
    write_component_svgs,
    write_cut_svg,
    write_pod_pdf,
    write_sheets_pdf,
)

STAMP = Stamp("demo", "1", 7)
DPI = 100
PX = DPI / 25.4


def _sheets(comps: list[Component], s: PrintSettings) -> bytes:
    buf = io.BytesIO()
    write_sheets_pdf(comps, s, STAMP, buf)
    return buf.getvalue()


def _raster(data: bytes, page: int) -> Any:
    return pdfium.PdfDocument(data)[page].render(scale=DPI / 72).to_pil().convert("RGB")


def _px(img: Any, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    v = img.getpixel((int(x_mm * PX), int(y_mm * PX)))
    return (int(v[0]), int(v[1]), int(v[2]))


def _hex(c: str) -> tuple[int, int, int]:
    return (int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16))


def _near(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def _dark_near(img: Any, x_mm: float, y_mm: float, r_px: int = 1) -> bool:
    x, y = int(x_mm * PX), int(y_mm * PX)
    for dx in range(-r_px, r_px + 1):
        for dy in range(-r_px, r_px + 1):
            if sum(img.getpixel((x + dx, y + dy))[:3]) < 3 * 160:
                return True
    return False


def coloured_card(i: int, colour: str, back: str | None = None) -> Component:
    w, h, b = 63.5, 88.9, 3.0
    front = Drawing(w, h, (Rect(-b, -b, w + 2 * b, h + 2 * b, fill=colour),), bleed=b)
    bk = None
    if back:
        bk = Drawing(w, h, (Rect(-b, -b, w + 2 * b, h + 2 * b, fill=back),), bleed=b)
    return Component(f"c{i}", "card", f"C{i}", front, bk)


# --- grid ----------------------------------------------------------------------------------

def test_grid_counts_and_auto_orientation() -> None:
    a4 = PrintSettings()
    plan = plan_grid(63.5, 88.9, 3.0, a4)
    # 3 x 69.5 mm cells need 208.5 mm: only 2 fit across A4 portrait within 8 mm margins,
    # landscape fits 4 x 2 = 8 > 6
    assert (plan.cols, plan.rows, plan.page) == (4, 2, (297.0, 210.0))
    tight = PrintSettings(margin=5.0)
    plan = plan_grid(63.5, 88.9, 0.0, tight)
    assert (plan.cols, plan.rows, plan.page) == (3, 3, (210.0, 297.0))
    portrait = PrintSettings(orientation="portrait")
    plan = plan_grid(63.5, 88.9, 3.0, portrait)
    assert (plan.cols, plan.rows) == (2, 2)  # 3 x 94.9 mm > 281 mm
    gutter = PrintSettings(margin=5.0, gutter=4.0, page=Size(width=215.9, height=279.4))
    plan = plan_grid(63.5, 88.9, 0.0, gutter)
    assert plan.cols * 63.5 + (plan.cols - 1) * 4 <= plan.page[0] - 10
    assert (plan.cols, plan.rows, plan.page) == (4, 2, (279.4, 215.9))


def test_too_big_for_the_page_is_an_error() -> None:
    with pytest.raises(LayoutError) as err:
        plan_grid(300, 400, 3.0, PrintSettings())
    assert "does not fit" in str(err.value)


def test_copies_are_expanded_and_pages_follow() -> None:
    comps = [typical_card(i, back=False, copies=3) for i in range(4)]  # 12 faces, 8 per page
    sheets = impose(comps, PrintSettings(duplex="none"))
    assert [len(s.placements) for s in sheets] == [8, 4]
    assert [p.index for p in sheets[0].placements] == [0, 0, 0, 1, 1, 1, 2, 2]


def test_crop_marks_outside_bleed_and_art_in_bleed() -> None:
    colour = "#3366cc"
    comps = [coloured_card(i, colour) for i in range(8)]
    s = PrintSettings(duplex="none", stamp=False)
    (sheet,) = impose(comps, s)
    data = _sheets(comps, s)
    img = _raster(data, 0)
    b = 3.0
    boxes = [(p.x - b, p.y - b, p.x + 63.5 + b, p.y + 88.9 + b) for p in sheet.placements]
    gx0, gy0 = min(x[0] for x in boxes), min(x[1] for x in boxes)
    gx1, gy1 = max(x[2] for x in boxes), max(x[3] for x in boxes)
    assert sheet.marks
    for m in sheet.marks:
        x1, y1, x2, y2 = m.x1, m.y1, m.x2, m.y2  # type: ignore[union-attr]
        # geometrically outside every bleed box
        for bx0, by0, bx1, by1 in boxes:
            assert max(x1, x2) < bx0 or min(x1, x2) > bx1 or max(y1, y2) < by0 or \
                min(y1, y2) > by1
        # and visibly there: ink at the mark's middle
        assert _dark_near(img, (x1 + x2) / 2, (y1 + y2) / 2), m
    # every trim line has a mark above the grid
    xs = sorted({round(p.x, 3) for p in sheet.placements} |
                {round(p.x + 63.5, 3) for p in sheet.placements})
    top = sorted(round(m.x1, 3) for m in sheet.marks  # type: ignore[union-attr]
                 if m.y2 < gy0)  # type: ignore[union-attr]
    assert top == xs
    # art runs into the bleed: between trim and bleed edge the card colour shows
    p0 = sheet.placements[0]
    assert _near(_px(img, p0.x - 1.5, p0.y + 40), _hex(colour))
    assert _near(_px(img, p0.x + 30, p0.y - 1.5), _hex(colour))
    # outside the grid's bleed (and away from marks): paper
    assert _px(img, gx0 - 0.7, gy0 + 40) == (255, 255, 255)
    assert _px(img, gx1 + 0.7, gy1 - 40) == (255, 255, 255)


def test_no_crop_marks_when_off() -> None:
    (sheet,) = impose([typical_card(0, back=False)], PrintSettings(crop_marks=False))
    assert sheet.marks == []


# --- duplex --------------------------------------------------------------------------------

@pytest.mark.parametrize("duplex,orientation,axis", [
    ("long-edge", "portrait", "x"), ("short-edge", "portrait", "y"),
    ("long-edge", "landscape", "y"), ("short-edge", "landscape", "x"),
])
def test_duplex_backs_mirrored(duplex: str, orientation: str, axis: str) -> None:
    fronts = ["#cc3333", "#33cc33", "#3333cc", "#cccc33", "#33cccc", "#cc33cc"]
    backs = ["#661111", "#116611", "#111166", "#666611", "#116666", "#661166"]
    comps = [coloured_card(i, fronts[i], backs[i]) for i in range(6)]
    s = PrintSettings.model_validate({"duplex": duplex, "orientation": orientation,
                                      "margin": 5.0, "stamp": False,
                                      "back_offset": (1.5, 1.0)})
    sheets = impose(comps, s)
    front, back = sheets[0], sheets[1]
    assert not front.back and back.back
    assert mirror_axis(duplex, front.width, front.height) == axis
    data = _sheets(comps, s)
    img = _raster(data, 1)
    for p in front.placements:
        q = next(q for q in back.placements if q.index == p.index)
        if axis == "x":
            expect = (front.width - p.x - 63.5 + 1.5, p.y + 1.0)
        else:
            expect = (p.x + 1.5, front.height - p.y - 88.9 + 1.0)
        assert (q.x, q.y) == pytest.approx(expect)
        # the back's colour is printed there, i.e. behind its front after the flip
        assert _near(_px(img, q.x + 31.75, q.y + 44.45), _hex(backs[p.index]))


def test_gutter_fold_puts_backs_beside_fronts() -> None:
    comps = [coloured_card(i, "#cc3333", "#333366") for i in range(2)]
    s = PrintSettings(duplex="gutter-fold", stamp=False)
    (sheet,) = impose(comps, s)  # poker + bleed: 1 column x 2 rows per half of A4
    fronts = [p for p in sheet.placements if p.face == "front"]
    backs = [p for p in sheet.placements if p.face == "back"]
    assert len(fronts) == len(backs) == 2
    mid = sheet.width / 2
    for f in fronts:
        b = next(b for b in backs if b.index == f.index)
        assert f.x + 63.5 + 3.0 <= mid - 5.0 + 1e-6  # 5 mm from fold to bleed
        assert b.x - 3.0 >= mid + 5.0 - 1e-6
        assert b.x + 63.5 / 2 == pytest.approx(sheet.width - (f.x + 63.5 / 2))
        assert b.y == f.y
    fold = [m for m in sheet.marks if getattr(m, "x1", None) == mid]
    assert fold


def test_calibration_page_comes_first_with_scales_at_the_mirror() -> None:
    s = PrintSettings(calibration=True, back_offset=(0.5, 0.0))
    sheets = impose([typical_card(0)], s)
    assert sheets[0].kind == sheets[1].kind == "calibration"
    assert not sheets[0].back and sheets[1].back
    data = _sheets([typical_card(0)], s)
    reader = PdfReader(io.BytesIO(data))
    assert "calibration" in reader.pages[0].extract_text().lower()
    assert "back_offset" in reader.pages[0].extract_text()
    img = _raster(data, 1)
    # the scale centred behind the top-left front cross (mirrored to the right) + offset
    assert _dark_near(img, sheets[1].width - 30.0 + 0.5, 30.0)
    s2 = PrintSettings(calibration=False)
    assert impose([typical_card(0)], s2)[0].kind == "grid"


# --- nests and pages -----------------------------------------------------------------------

def _segments_of_cut_svg(svg: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    root = ET.fromstring(svg)
    segs = []
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        dx = float(re.findall(r"translate\(([-\d.]+)", g.get("transform", "translate(0"))[0])
        for path in g.iter("{http://www.w3.org/2000/svg}path"):
            for sub in re.findall(r"M[^M]*", path.get("d", "")):
                nums = [float(v) for v in re.findall(r"-?\d*\.?\d+", sub)]
                pts = [(nums[i] + dx, nums[i + 1]) for i in range(0, len(nums), 2)]
                if sub.strip().endswith("Z"):
                    pts.append(pts[0])
                segs += list(zip(pts, pts[1:], strict=False))
    return segs


def _overlapping(segs: list[tuple[tuple[float, float], tuple[float, float]]]) -> list[Any]:
    """Pairs of collinear segments sharing more than a point (brute force)."""
    bad = []
    for i, (a, b) in enumerate(segs):
        for c, d in segs[i + 1:]:
            ux, uy = b[0] - a[0], b[1] - a[1]
            n = math.hypot(ux, uy)
            ux, uy = ux / n, uy / n
            # c and d on the line through a, b?
            if abs(ux * (c[1] - a[1]) - uy * (c[0] - a[0])) > 1e-3:
                continue
            if abs(ux * (d[1] - a[1]) - uy * (d[0] - a[0])) > 1e-3:
                continue
            t = sorted([(c[0] - a[0]) * ux + (c[1] - a[1]) * uy,
                        (d[0] - a[0]) * ux + (d[1] - a[1]) * uy])
            if min(n, t[1]) - max(0.0, t[0]) > 1e-3:
                bad.append(((a, b), (c, d)))
    return bad


def test_hex_nest_honeycomb_and_cut_svg_without_doubles() -> None:
    comps = [hex_tile(i, 30.0) for i in range(14)]
    s = PrintSettings()
    sheets = [sh for sh in impose(comps, s) if not sh.back]
    assert len(sheets) == 1 and len(sheets[0].placements) == 14
    centres = [(p.x + 15.0, p.y + 30 / math.sqrt(3)) for p in sheets[0].placements]
    # every tile touches a neighbour at exactly the flat-to-flat distance
    for c in centres:
        assert min(math.dist(c, d) for d in centres if d != c) == pytest.approx(30.0)
    svg = cut_svg(comps, s)
    segs = _segments_of_cut_svg(svg)
    assert _overlapping(segs) == []
    # total cut length = union of all hex edges: 14 * 6 edges minus the shared ones
    edge = 30 / math.sqrt(3)
    shared = sum(1 for i, c in enumerate(centres) for d in centres[i + 1:]
                 if abs(math.dist(c, d) - 30.0) < 1e-6)
    assert sum(math.dist(a, b) for a, b in segs) == pytest.approx((14 * 6 - shared) * edge)
    assert svg.count("<path") == 14  # one path per tile


def test_poly_nest_shares_edges_in_cut_svg() -> None:
    comps = [poly_piece(i, PIECES[i % len(PIECES)], cell=10.0, copies=2) for i in range(6)]
    s = PrintSettings()
    sheets = [sh for sh in impose(comps, s) if not sh.back]
    assert sum(len(sh.placements) for sh in sheets) == 12
    for sh in sheets:
        for p in sh.placements:
            assert p.clip == "outline"
    svg = cut_svg(comps, s)
    segs = _segments_of_cut_svg(svg)
    assert _overlapping(segs) == []
    # pieces were packed against each other: some edges are shared, so the cut is shorter
    # than the sum of the perimeters
    perimeter = 0.0
    for c in comps:
        pts = c.front.outline()
        perimeter += c.copies * sum(math.dist(a, b) for a, b in zip(pts, pts[1:] + pts[:1],
                                                                    strict=True))
    assert sum(math.dist(a, b) for a, b in segs) < perimeter - 50.0


def test_zero_gutter_zero_bleed_grid_merges_shared_trim_lines() -> None:
    w, h = 63.5, 88.9
    comps = [Component(f"z{i}", "card", "z", Drawing(w, h, (Rect(0, 0, w, h, fill="#cccccc"),)))
             for i in range(4)]
    s = PrintSettings(margin=5.0)
    segs = _segments_of_cut_svg(cut_svg(comps, s))
    assert _overlapping(segs) == []
    # 2 x 2 block -> 3 horizontal lines of 2 w and 3 vertical lines of 2 h... within 3x3 grid
    # the block holds 4 cards on one row of 3 and one more; just check total length
    (sheet,) = [sh for sh in impose(comps, s) if not sh.back]
    total = sum(math.dist(a, b) for a, b in segs)
    assert total < 4 * 2 * (w + h)


def test_page_components_get_their_own_page() -> None:
    comps = [typical_card(0, back=False), board(0), board(1, 400, 500)]
    sheets = impose(comps, PrintSettings())
    pages = [sh for sh in sheets if sh.kind == "page"]
    assert len(pages) == 2
    assert (pages[0].width, pages[0].height) == (210.0, 297.0)
    p = pages[0].placements[0]
    assert p.x == pytest.approx((210 - 180) / 2) and p.y == pytest.approx((297 - 250) / 2)
    assert pages[1].width >= 406 and pages[1].height >= 506  # larger than A4: own size


# --- files ---------------------------------------------------------------------------------

def _all_outputs(tmp: Path, comps: list[Component], s: PrintSettings) -> dict[str, bytes]:
    tmp.mkdir(parents=True, exist_ok=True)
    write_sheets_pdf(comps, s, STAMP, tmp / "sheets.pdf")
    write_pod_pdf(comps, s, STAMP, tmp / "pod.pdf")
    write_component_svgs(comps, s, STAMP, tmp / "svg")
    write_cut_svg(comps, s, tmp / "cut.svg")
    return {str(p.relative_to(tmp)): p.read_bytes() for p in sorted(tmp.rglob("*"))
            if p.is_file()}


def test_byte_identical_twice(tmp_path: Path) -> None:
    comps = [typical_card(i, copies=2) for i in range(5)] + [hex_tile(0), board()]
    s = PrintSettings(cut_contour=True, calibration=True)
    a = _all_outputs(tmp_path / "a", comps, s)
    b = _all_outputs(tmp_path / "b", comps, s)
    assert a.keys() == b.keys()
    assert "svg/card-0.svg" in a and "svg/card-0-back.svg" in a
    for name in a:
        assert a[name] == b[name], name
    assert b"CreationDate" not in a["sheets.pdf"] and b"ModDate" not in a["pod.pdf"]


def test_pod_pdf_boxes() -> None:
    comps = [typical_card(0), hex_tile(1)]
    buf = io.BytesIO()
    pages = write_pod_pdf(comps, PrintSettings(), STAMP, buf)
    reader = PdfReader(io.BytesIO(buf.getvalue()))
    assert pages == len(reader.pages) == 4  # card front+back, tile front+back
    k = 72 / 25.4
    page = reader.pages[0]
    assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 69.5 * k, 94.9 * k])
    assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, 69.5 * k, 94.9 * k])
    assert [float(v) for v in page.trimbox] == pytest.approx(
        [3 * k, 3 * k, 66.5 * k, 91.9 * k])
    # the tile is drawn without bleed (it shares cut lines on sheets); its pod page still
    # gets print.bleed on every side, its art extended outward
    tile = reader.pages[2]
    x0, y0, x1, y1 = (float(v) for v in tile.mediabox)
    assert [float(v) for v in tile.trimbox] == pytest.approx(
        [x0 + 3 * k, y0 + 3 * k, x1 - 3 * k, y1 - 3 * k])


def test_cut_contour_spot_colour() -> None:
    comps = [typical_card(0, back=False)]
    on = _sheets(comps, PrintSettings(cut_contour=True))
    off = _sheets(comps, PrintSettings(cut_contour=False))
    assert b"/CutContour" in on and b"/Separation" in on
    assert b"/CutContour" not in off


def test_stamp_on_every_component_and_off() -> None:
    comps = [typical_card(i, back=False) for i in range(3)]
    text = PdfReader(io.BytesIO(_sheets(comps, PrintSettings()))).pages[0].extract_text()
    for i in range(1, 4):
        assert f"demo v1 · seed 7 · #{i}" in text
    off = PdfReader(io.BytesIO(_sheets(comps, PrintSettings(stamp=False)))).pages[0]
    assert "seed 7" not in off.extract_text()
    assert "seed 7 · #2" in component_svg(comps[1], "front", PrintSettings(), STAMP, 2)


def test_stamp_stays_inside_the_trim() -> None:
    from generator.render.flatten import stamp_box

    for comp in (typical_card(0), hex_tile(0), poly_piece(0, PIECES[1])):
        d = comp.front
        box = stamp_box(d, "demo v1 · seed 7 · #1")
        assert box.x >= 0 and box.x + box.w <= d.width and box.y >= 0
        assert box.y + box.h <= d.height


def test_text_overflow_names_the_component() -> None:
    bad = Component("card-9", "card", "Bad", Drawing(63.5, 88.9, (
        TextBox(3, 3, 20, 4, "much too long a text for this little box " * 4, size=9,
                min_size=7),), bleed=3))
    with pytest.raises(LayoutError) as err:
        _sheets([bad], PrintSettings())
    assert "card-9" in str(err.value)


def test_svg_units_and_ids(tmp_path: Path) -> None:
    comp = typical_card(3)
    svg = component_svg(comp, "front", PrintSettings(), STAMP, 4)
    root = ET.fromstring(svg)
    assert root.get("width") == "69.5mm" and root.get("height") == "94.9mm"
    assert root.get("viewBox") == "-3 -3 69.5 94.9"
    ids = [el.get("id") or "" for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids)) and all(i.startswith("card-3") for i in ids)
    back = component_svg(comp, "back", PrintSettings(), STAMP, 4)
    assert "card-3-back-e1" in back


def test_empty_deck_still_writes_valid_files() -> None:
    data = _sheets([], PrintSettings())
    assert len(PdfReader(io.BytesIO(data)).pages) == 1
    assert "<svg" in cut_svg([], PrintSettings())


def _unused(_: Sheet) -> None:  # keep the import used for type readers
    return None
