"""The print writers: imposed sheets and components painted into a deck's print files.

- :func:`write_sheets_pdf`  imposed sheets (see :mod:`generator.render.impose`) as PDF, with
  the optional CutContour spot colour;
- :func:`write_pod_pdf`     one face per page at trim+bleed, TrimBox and BleedBox set;
- :func:`write_component_svgs` / :func:`component_svg`  one SVG per face;
- :func:`write_cut_svg`     trim paths only, as imposed, shared edges cut once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

from ..deck import PrintSettings
from ..errors import LayoutError
from .bleed import bleed_underlay
from .component import Component, Face, face_drawing, faces_of
from .cutfiles import write_cut_files
from .cutlines import merge_outlines
from .drawing import Drawing
from .flatten import ClipBegin, ClipEnd, Flat, clip_rect, flatten, flatten_items, polygon_ops
from .impose import PrintFile, Sheet, Stamp, cut_paths, impose, plan_print_files
from .pdf import PT_PER_MM, PdfPainter, new_canvas
from .stamp import place_stamp
from .svg import drawing_svg, new_svg, num, path_d

# --- painting ----------------------------------------------------------------------------------

class _FaceCache:
    """Flattened faces, computed once per component face (copies reuse them)."""

    KEEP = 512

    def __init__(self, components: Sequence[Component], settings: PrintSettings,
                 stamp: Stamp | None) -> None:
        self.components = components
        self.settings = settings
        self.stamp = stamp
        self._cache: dict[tuple[int, Face, str], list[Flat]] = {}

    def stamp_text(self, index: int) -> str:
        if self.stamp is None or not self.settings.stamp:
            return ""
        comp = self.components[index]
        return self.stamp.text(comp.index or index + 1, comp.id)

    def get(self, index: int, face: Face, clip: str = "none") -> list[Flat]:
        """The flat primitives of one face, clipped to its bleed box or outline."""
        key = (index, face, clip)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        c = self.components[index]
        d = face_drawing(c, face)
        flat = stamped_face(c, face, self.stamp_text(index), float(self.settings.safe))
        if clip == "bleed":
            b = d.bleed
            flat = [clip_rect(-b, -b, d.width + 2 * b, d.height + 2 * b), *flat, ClipEnd()]
        elif clip == "outline":
            flat = [ClipBegin(polygon_ops(d.outline())), *flat, ClipEnd()]
        self._cache[key] = flat
        if len(self._cache) > self.KEEP:
            # copies of a component are imposed together and backs one sheet later, so a
            # few hundred recent faces serve every reuse; 10,000 distinct cards stay flat
            # in memory only briefly (bench/render.py measures the peak)
            del self._cache[next(iter(self._cache))]
        return flat


def stamped_face(c: Component, face: Face, text: str, safe: float) -> list[Flat]:
    """One face flattened, with the stamp ``text`` if the stamp zone puts it on this face
    (:func:`generator.render.stamp.place_stamp`: the front if room, else the back)."""
    flat = _flatten_face(c, face, "")
    spot = place_stamp(c, text, safe) if text else None
    if spot is not None and spot[0] == face:
        flat = [*flat, *flatten_items((spot[1],))]
    return flat


def _flatten_face(c: Component, face: Face, stamp: str) -> list[Flat]:
    d = face_drawing(c, face)
    try:
        return flatten(d, stamp)
    except LayoutError as e:
        msg = str(e)
        if c.id not in msg:
            raise LayoutError(f"{c.id} ({face}): {msg}") from None
        raise


def _paint_sheet(painter: PdfPainter, sheet: Sheet, faces: _FaceCache,
                 cut_contour: bool) -> int:
    c = painter.c
    c.setPageSize((sheet.width * PT_PER_MM, sheet.height * PT_PER_MM))
    if sheet.extras:
        painter.paint(flatten_items(tuple(sheet.extras)), 0.0, 0.0, sheet.height)
    for p in sheet.placements:
        painter.paint(faces.get(p.index, p.face, p.clip), p.x, p.y, sheet.height)
    if sheet.marks:
        painter.paint(flatten_items(tuple(sheet.marks)), 0.0, 0.0, sheet.height)
    if cut_contour and sheet.cuts and not sheet.back:
        painter.cut_contour(merge_outlines(sheet.cuts), sheet.height)
    c.showPage()
    return len(sheet.placements)


def write_sheets_pdf(components: Sequence[Component], settings: PrintSettings,
                     stamp: Stamp | None, path: Path | str | IO[bytes],
                     progress: Callable[[int], None] | None = None) -> int:
    """Write every imposed sheet into one PDF (no split into sheets/boards/proofs, no
    slugs); returns the number of pages. ``progress`` is called with the number of faces
    painted on each page. A build writes :func:`write_print_files` instead."""
    return write_sheet_list(impose(components, settings), components, settings, stamp, path,
                            "print sheets", progress)


def write_sheet_list(sheets: Sequence[Sheet], components: Sequence[Component],
                     settings: PrintSettings, stamp: Stamp | None,
                     path: Path | str | IO[bytes], what: str,
                     progress: Callable[[int], None] | None = None) -> int:
    """Paint ``sheets`` into one PDF; returns the number of pages (an empty list gives one
    blank page of the configured paper)."""
    deck = stamp.deck if stamp else "deck"
    c = new_canvas(_target(path), f"{deck}: {what}", _subject(stamp))
    painter = PdfPainter(c)
    faces = _FaceCache(components, settings, stamp)
    for sheet in sheets:
        n = _paint_sheet(painter, sheet, faces, settings.cut_contour)
        if progress is not None:
            progress(n)
    if not sheets:
        c.setPageSize((settings.page.width * PT_PER_MM, settings.page.height * PT_PER_MM))
        c.showPage()
    c.save()
    return max(len(sheets), 1)


PRINT_FILE_TITLES: dict[PrintFile, str] = {
    "sheets": "print sheets (front/back pairs)",
    "boards": "single-sided sheets and boards",
    "proofs": "proof pages",
}


def write_print_files(components: Sequence[Component], settings: PrintSettings,
                      stamp: Stamp | None, folder: Path) -> dict[str, int]:
    """``sheets.pdf`` (always), ``boards.pdf`` and ``proofs.pdf`` (when they have pages),
    split and slugged by :func:`generator.render.impose.plan_print_files`, and the cut files
    of their sheets; returns pages per file written."""
    files = plan_print_files(components, settings, stamp)
    out: dict[str, int] = {}
    for name, sheets in files.items():
        if not sheets and name != "sheets":
            continue
        out[f"{name}.pdf"] = write_sheet_list(sheets, components, settings, stamp,
                                              folder / f"{name}.pdf", PRINT_FILE_TITLES[name])
    cut = write_cut_files(files, stamp.deck if stamp else "deck", folder / "cut")
    if cut:
        out["cut/"] = len(cut)
    return out


def _target(path: Path | str | IO[bytes]) -> str | IO[bytes]:
    return str(path) if isinstance(path, str | Path) else path


def _subject(stamp: Stamp | None) -> str:
    if stamp is None:
        return "PaperProof print"
    return f"{stamp.deck} version {stamp.version}, seed {stamp.seed}"


def pod_face(flat: list[Flat], d: Drawing, bleed: float) -> list[Flat]:
    """A face for its pod page with ``bleed`` on every side: a face drawn with that bleed
    as it is; a shaped face (hex, piece, disc) or one drawn with less bleed gets its edge
    colours extended outward (:func:`generator.render.bleed.bleed_underlay`) under its art,
    which is clipped to its outline (shaped) or to the bleed it drew."""
    shaped = bool(d.cut)
    if not shaped and d.bleed >= bleed - 1e-9:
        return [clip_rect(-bleed, -bleed, d.width + 2 * bleed, d.height + 2 * bleed), *flat,
                ClipEnd()]
    under = bleed_underlay(flat, d.outline(), bleed)
    if shaped:
        art = [ClipBegin(polygon_ops(d.outline())), *flat, ClipEnd()]
    else:
        e = d.bleed
        art = [clip_rect(-e, -e, d.width + 2 * e, d.height + 2 * e), *flat, ClipEnd()]
    return [clip_rect(-bleed, -bleed, d.width + 2 * bleed, d.height + 2 * bleed), *under,
            *art, ClipEnd()]


def write_pod_pdf(components: Sequence[Component], settings: PrintSettings,
                  stamp: Stamp | None, path: Path | str | IO[bytes]) -> int:
    """One face per page at trim + bleed, TrimBox and BleedBox set (print-on-demand).
    The bleed is ``settings.bleed`` or the face's own, whichever is larger, so a shop's
    preflight finds BleedBox > TrimBox on every page (:func:`pod_face`).
    Each component appears once (front, then back); copies are the printer's order quantity.
    Returns the number of pages."""
    deck = stamp.deck if stamp else "deck"
    c = new_canvas(_target(path), f"{deck}: print-on-demand", _subject(stamp))
    painter = PdfPainter(c)
    faces = _FaceCache(components, settings, stamp)
    pages = 0
    k = PT_PER_MM
    for i, comp in enumerate(components):
        for face in faces_of(comp):
            d = face_drawing(comp, face)
            b = max(d.bleed, settings.bleed)
            pw, ph = d.width + 2 * b, d.height + 2 * b
            c.setPageSize((pw * k, ph * k))
            c.setBleedBox((0, 0, pw * k, ph * k))
            c.setTrimBox((b * k, b * k, (b + d.width) * k, (b + d.height) * k))
            painter.paint(pod_face(faces.get(i, face), d, b), b, b, ph)
            c.showPage()
            pages += 1
    if not pages:
        c.showPage()
    c.save()
    return max(pages, 1)


def component_svg(component: Component, face: Face = "front",
                  settings: PrintSettings | None = None, stamp: Stamp | None = None,
                  index: int = 0) -> str:
    """The SVG of one face (bleed box as viewBox, mm units). ``index`` is the component's
    1-based position in its deck, shown in the stamp (0 leaves it out)."""
    settings = settings or PrintSettings()
    d = face_drawing(component, face)
    text = ""
    if stamp is not None and settings.stamp:
        text = stamp.text(index, component.id)
    flat = stamped_face(component, face, text, float(settings.safe))
    prefix = _svg_id(component.id) + ("-back" if face == "back" else "")
    return drawing_svg(flat, d.width, d.height, d.bleed, prefix, title=component.title)


def _svg_id(cid: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in cid)
    return safe if safe[:1].isalpha() else f"c{safe}"


def write_component_svgs(components: Sequence[Component], settings: PrintSettings,
                         stamp: Stamp | None, folder: Path | str) -> list[Path]:
    """``<folder>/<id>.svg`` and ``<id>-back.svg`` for every component; returns the paths."""
    out_dir = Path(folder)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for i, comp in enumerate(components):
        for face in faces_of(comp):
            name = f"{comp.id}-back.svg" if face == "back" else f"{comp.id}.svg"
            p = out_dir / name
            p.write_text(component_svg(comp, face, settings, stamp, comp.index or i + 1),
                         encoding="utf-8")
            written.append(p)
    return written


CUT_PAGE_GAP = 10.0
"""cut.svg: gap between sheets laid side by side (mm)."""


def cut_svg(components: Sequence[Component], settings: PrintSettings) -> str:
    """cut.svg as a string: sheets side by side, one group per sheet, one path per
    component, shared edges once."""
    sheets = cut_paths(components, settings)
    total_w = sum(s.width for s, _ in sheets) + CUT_PAGE_GAP * max(len(sheets) - 1, 0)
    total_h = max((s.height for s, _ in sheets), default=0.0)
    dwg = new_svg(max(total_w, 1.0), max(total_h, 1.0))
    x = 0.0
    for n, (sheet, paths) in enumerate(sheets, start=1):
        g = dwg.g(id=f"sheet-{n}", transform=f"translate({num(x)} 0)")
        for k, cp in enumerate(paths, start=1):
            d = " ".join(path_d(polygon_ops(line, cp.closed)) for line in cp.polylines)
            g.add(dwg.path(d=d, id=f"s{n}-cut{k}-{_svg_id(cp.owner)}", fill="none",
                           stroke="#000000", **{"stroke-width": "0.1"}))
        dwg.add(g)
        x += sheet.width + CUT_PAGE_GAP
    text: str = dwg.tostring()
    return text


def write_cut_svg(components: Sequence[Component], settings: PrintSettings,
                  path: Path | str) -> Path:
    """Write cut.svg (see :func:`cut_svg`)."""
    p = Path(path)
    p.write_text(cut_svg(components, settings), encoding="utf-8")
    return p




__all__ = [
    "component_svg",
    "cut_svg",
    "write_component_svgs",
    "write_cut_svg",
    "write_pod_pdf",
    "write_print_files",
    "write_sheet_list",
    "write_sheets_pdf",
]
