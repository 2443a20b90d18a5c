"""Cut files a machine can use: one per printed sheet, aligned to that page.

For every front sheet with something to cut in ``sheets.pdf`` and ``boards.pdf``,
``cut/<file>-<NN>.svg`` and ``cut/<file>-<NN>.dxf`` (NN: the page number in that PDF) have the
page's own size and origin, so the file lines up with the printed sheet 1:1. Each holds three
layers:

- ``registration``: the print-and-cut registration marks, at the positions printed on the
  sheet (:func:`generator.render.impose.registration_marks`);
- ``cut``: the components' real outlines (cards, hexes, pieces, token discs, a die net with
  its glue tabs), edges shared by neighbours cut once (:func:`merge_outlines`);
- ``fold``: fold lines (die nets), dashed; score or crease them, do not cut.

SVG is in mm (viewBox = the page, y down, as printed); DXF (R12, 1 unit = 1 mm) has y
up with the origin at the page's bottom-left corner, as laser-cutter software expects.
Both are deterministic: no dates, no random ids.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from pathlib import Path

from ezdxf import options as ezdxf_options  # type: ignore[attr-defined]
from ezdxf.document import Drawing as DxfDocument
from ezdxf.filemanagement import new as new_dxf

from .cutlines import merge_outlines
from .drawing import Item, Point, Polygon, Rect
from .flatten import polygon_ops
from .impose import PrintFile, Sheet
from .svg import new_svg, path_d

CUT_FILES: tuple[PrintFile, ...] = ("sheets", "boards")
"""The print files whose sheets get cut files (proof pages are not cut)."""
CUT_STROKE = "#ff0000"
"""Cut lines in the SVG: pure red hairlines, the colour cutter and laser software map to
"cut" by default."""
FOLD_STROKE = "#0000ff"
"""Fold lines in the SVG: blue dashed (score / crease)."""
FOLD_DASH = "2 1.5"
_FIXED_GUID = "{00000000-0000-0000-0000-000000000000}"
_FIXED_DATE = 2451545.0
"""A fixed Julian date (2000-01-01) for the DXF header's creation and update times: the
same deck gives the same bytes."""


def mark_outline(item: Item) -> tuple[Point, ...]:
    """A registration mark (filled square or corner polygon) as its closed outline."""
    if isinstance(item, Rect):
        x, y, w, h = item.x, item.y, item.w, item.h
        return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    if isinstance(item, Polygon):
        return item.points
    raise TypeError(f"not a registration mark: {item!r}")


def cut_sheets(files: dict[PrintFile, list[Sheet]]) -> list[tuple[str, Sheet]]:
    """(file stem, sheet) for every front sheet to cut: ``sheets-03`` is page 3 of
    sheets.pdf."""
    out: list[tuple[str, Sheet]] = []
    for name in CUT_FILES:
        for n, sheet in enumerate(files.get(name, []), start=1):
            if sheet.cuts and not sheet.back and sheet.kind != "calibration":
                out.append((f"{name}-{n:02d}", sheet))
    return out


def sheet_cut_svg(sheet: Sheet, title: str) -> str:
    """The SVG cut file of one sheet (see the module docstring)."""
    dwg = new_svg(sheet.width, sheet.height)
    dwg.set_desc(title=title)
    reg = dwg.g(id="registration")
    for k, m in enumerate(sheet.registration, start=1):
        reg.add(dwg.path(d=path_d(polygon_ops(mark_outline(m))), id=f"reg{k}",
                         fill="#000000"))
    dwg.add(reg)
    cut = dwg.g(id="cut", fill="none", stroke=CUT_STROKE, **{"stroke-width": "0.1"})
    for k, cp in enumerate(merge_outlines(sheet.cuts), start=1):
        d = " ".join(path_d(polygon_ops(line, cp.closed)) for line in cp.polylines)
        cut.add(dwg.path(d=d, id=f"cut{k}"))
    dwg.add(cut)
    fold = dwg.g(id="fold", fill="none", stroke=FOLD_STROKE,
                 **{"stroke-width": "0.1", "stroke-dasharray": FOLD_DASH})
    for k, line in enumerate(sheet.folds, start=1):
        fold.add(dwg.path(d=path_d(polygon_ops(line, False)), id=f"fold{k}"))
    dwg.add(fold)
    text: str = dwg.tostring()
    return text


def _fixed_header(doc: DxfDocument) -> None:
    if "$INSUNITS" in doc.header:  # not an R12 variable; ezdxf would log a warning
        del doc.header["$INSUNITS"]
    for key in ("$TDCREATE", "$TDUPDATE"):
        if key in doc.header:
            doc.header[key] = _FIXED_DATE


def sheet_cut_dxf(sheet: Sheet) -> str:
    """The DXF cut file of one sheet: layers REGISTRATION, CUT and FOLD (dashed), y up,
    written by ezdxf with its fixed-metadata switch on (no save time, no ezdxf version)."""
    # R12: the DXF every laser and cutter program reads, and one with no object table
    # (ezdxf orders R2000+ objects differently from run to run)
    before = ezdxf_options.write_fixed_meta_data_for_testing
    ezdxf_options.write_fixed_meta_data_for_testing = True
    try:
        return _dxf_text(sheet)
    finally:
        ezdxf_options.write_fixed_meta_data_for_testing = before


def _dxf_text(sheet: Sheet) -> str:
    # R12 has no unit field (1 drawing unit = 1 mm); ezdxf's new() still sets one and logs
    # a warning about it, which must not reach the user's terminal
    log = logging.getLogger("ezdxf")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        doc = new_dxf("R12", setup=True)
    finally:
        log.setLevel(level)
    doc.layers.add("REGISTRATION", color=7)
    doc.layers.add("CUT", color=1)
    doc.layers.add("FOLD", color=5, linetype="DASHED")
    msp = doc.modelspace()
    h = sheet.height

    def up(points: Sequence[Point]) -> list[tuple[float, float]]:
        return [(round(x, 4), round(h - y, 4)) for x, y in points]

    for m in sheet.registration:
        msp.add_polyline2d(up(mark_outline(m)), close=True,
                           dxfattribs={"layer": "REGISTRATION"})
    for cp in merge_outlines(sheet.cuts):
        for line in cp.polylines:
            msp.add_polyline2d(up(line), close=cp.closed, dxfattribs={"layer": "CUT"})
    for line in sheet.folds:
        msp.add_polyline2d(up(line), dxfattribs={"layer": "FOLD"})
    _fixed_header(doc)
    buf = io.StringIO()
    doc.write(buf)
    # ezdxf stamps the save time into the header on write; pin it (same deck, same bytes)
    return _pin_dates(buf.getvalue())


def _pin_dates(text: str) -> str:
    lines = text.split("\n")
    for i, line in enumerate(lines[:-2]):
        if line.strip() in ("$TDUPDATE", "$TDUUPDATE", "$TDCREATE", "$TDUCREATE"):
            lines[i + 2] = f"{_FIXED_DATE}"
        elif line.strip() == "$TDINDWG":
            lines[i + 2] = "0.0"
        elif line.strip() in ("$FINGERPRINTGUID", "$VERSIONGUID"):
            lines[i + 2] = _FIXED_GUID
    return "\n".join(lines)


def write_cut_files(files: dict[PrintFile, list[Sheet]], deck: str, folder: Path) -> list[Path]:
    """``folder/<file>-<NN>.svg`` and ``.dxf`` for every sheet of :func:`cut_sheets`;
    returns the paths written (none, and no folder, when nothing is cut)."""
    written: list[Path] = []
    for stem, sheet in cut_sheets(files):
        folder.mkdir(parents=True, exist_ok=True)
        svg = folder / f"{stem}.svg"
        svg.write_text(sheet_cut_svg(sheet, f"{deck}: cut file of {stem.replace('-', ' page ')}"),
                       encoding="utf-8")
        dxf = folder / f"{stem}.dxf"
        dxf.write_text(sheet_cut_dxf(sheet), encoding="utf-8", newline="\n")
        written += [svg, dxf]
    return written


__all__ = ["cut_sheets", "mark_outline", "sheet_cut_dxf", "sheet_cut_svg", "write_cut_files"]
