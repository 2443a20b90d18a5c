"""Raster exports of a built deck: one PNG per component face, and a Tabletop Simulator
saved object.

Both are rendered from ``pod.pdf`` (one face per page, in component order: front, then back)
with pypdfium2, so the pixels are exactly what the printer gets. PNG files are named by the
component's index, id and name (``008-park-08-pavilion-row.png``), the same names ``check``,
the stamp and index.html use.

Tabletop Simulator (TTS) loads custom decks from "face sheets": a grid image of at most
:data:`TTS_MAX_COLS` x :data:`TTS_MAX_ROWS` cards and at most :data:`TTS_MAX_PX` pixels on a
side, plus a back image. Grid components (cards) of one size become one ``DeckCustom`` with
as many face sheets as needed; every other component (hex tiles, boards, sheets, pieces)
becomes a ``Custom_Tile`` with its own image (hex tiles with the hex shape). The saved-object
JSON names images by local ``file://`` URLs of the output folder; see docs/export.md for how
to load it in TTS.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import UsageError
from .render.component import Component, HexNest, face_drawing, faces_of
from .units import MM_PER_PT

MIN_DPI = 36
"""Lowest --png resolution: below 36 dpi a card's text is unreadable even as a thumbnail."""
MAX_DPI = 1200
"""Highest --png resolution: a poker card at 1200 dpi is 3000 x 4200 px (50 MB in memory);
printers need 300-600."""

TTS_MAX_COLS = 10
TTS_MAX_ROWS = 7
"""Tabletop Simulator's face-sheet grid limit (10 x 7, the 70th slot may be the hidden back)."""
TTS_MAX_PX = 4096
"""Tabletop Simulator's largest image side (larger sheets are refused or downscaled)."""
TTS_CARD_PX = 750
"""Preferred card height on a TTS face sheet: sharp when a card is zoomed, and 7 rows of
750 px stay under 4096 px only after scaling, which :func:`_sheet_scale` does."""


def _pdfium() -> Any:
    try:
        import pypdfium2
    except ImportError:
        raise UsageError("--png and --tts need pypdfium2: pip install 'paperproof[export]'"
                         ) from None
    return pypdfium2


def check_dpi(dpi: int) -> int:
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise UsageError(f"--png: {dpi} dpi is out of range; give {MIN_DPI}..{MAX_DPI} "
                         "(300 for print, 150 for screens)")
    return dpi


@dataclass(frozen=True)
class Face:
    """One rendered face: the component, which face, its file slug and page in pod.pdf."""

    component: Component
    face: str
    slug: str
    page: int
    bleed: float
    """Bleed (mm) around the trim on the pod page."""


def pod_faces(components: Sequence[Component], slugs: Sequence[str],
              pod_bleed: float) -> list[Face]:
    """The faces of pod.pdf in page order (front, then back, per component)."""
    out: list[Face] = []
    page = 0
    for comp, slug in zip(components, slugs, strict=True):
        for face in faces_of(comp):
            d = face_drawing(comp, face)
            out.append(Face(comp, face, slug if face == "front" else f"{slug}-back", page,
                            max(d.bleed, pod_bleed)))
            page += 1
    return out


def _render(doc: Any, face: Face, dpi: float, trimmed: bool) -> Any:
    """The PIL image of one pod page at ``dpi``; ``trimmed`` cuts the bleed away."""
    page = doc[face.page]
    crop = (0.0, 0.0, 0.0, 0.0)
    if trimmed:
        b = face.bleed / MM_PER_PT
        crop = (b, b, b, b)
    return page.render(scale=dpi / 72.0, crop=crop).to_pil().convert("RGB")


def write_pngs(pod: Path, faces: Sequence[Face], folder: Path, dpi: int,
               bleed: bool = False) -> list[Path]:
    """``folder/<slug>.png`` for every face, trimmed (or with bleed) at ``dpi``."""
    folder.mkdir(parents=True, exist_ok=True)
    doc = _pdfium().PdfDocument(str(pod))
    written: list[Path] = []
    try:
        for face in faces:
            im = _render(doc, face, dpi, trimmed=not bleed)
            path = folder / f"{face.slug}.png"
            im.save(path, format="PNG", dpi=(dpi, dpi))
            written.append(path)
    finally:
        doc.close()
    return written


def _sheet_scale(w_px: int, h_px: int, cols: int, rows: int) -> float:
    return min(1.0, TTS_MAX_PX / (w_px * cols), TTS_MAX_PX / (h_px * rows))


def _transform(x: float, z: float) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 0.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def write_tts(pod: Path, faces: Sequence[Face], names: dict[str, str], folder: Path,
              url_root: Path, deck_name: str) -> Path:
    """Face sheets, backs and tile images in ``folder`` and ``folder/<deck>.json`` (a TTS
    saved object). Image URLs are ``file://`` URLs under ``url_root`` (the final output
    folder, as the files will lie once the build is moved into place)."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    doc = _pdfium().PdfDocument(str(pod))

    def url(name: str) -> str:
        return (url_root / name).resolve().as_uri()

    fronts = [f for f in faces if f.face == "front"]
    backs = {f.component.id: f for f in faces if f.face == "back"}
    objects: list[dict[str, Any]] = []
    try:
        cards = [f for f in fronts if f.component.imposition == "grid"]
        groups: dict[tuple[float, float], list[Face]] = {}
        for f in cards:
            groups.setdefault((f.component.front.width, f.component.front.height), []).append(f)
        deck_no = 0
        for (w_mm, h_mm), group in sorted(groups.items()):
            dpi = TTS_CARD_PX / (h_mm / 25.4)
            per_sheet = TTS_MAX_COLS * TTS_MAX_ROWS - 1  # the last slot holds the hidden back
            contained: list[dict[str, Any]] = []
            custom: dict[str, Any] = {}
            ids: list[int] = []
            for start in range(0, len(group), per_sheet):
                deck_no += 1
                chunk = group[start:start + per_sheet]
                images = [_render(doc, f, dpi, trimmed=True) for f in chunk]
                cw, ch = images[0].size
                cols = min(TTS_MAX_COLS, max(2, len(chunk) + 1))
                rows = min(TTS_MAX_ROWS, max(2, -(-(len(chunk) + 1) // cols)))
                k = _sheet_scale(cw, ch, cols, rows)
                cw, ch = max(1, int(cw * k)), max(1, int(ch * k))
                sheet = Image.new("RGB", (cw * cols, ch * rows), "white")
                for n, im in enumerate(images):
                    sheet.paste(im.resize((cw, ch)), ((n % cols) * cw, (n // cols) * ch))
                back_face = backs.get(chunk[0].component.id)
                back = (_render(doc, back_face, dpi, trimmed=True).resize((cw, ch))
                        if back_face is not None else Image.new("RGB", (cw, ch), "#404040"))
                hidden = len(chunk)
                sheet.paste(back, ((hidden % cols) * cw, (hidden // cols) * ch))
                face_name = f"{deck_name}-cards-{deck_no}.png"
                back_name = f"{deck_name}-cards-{deck_no}-back.png"
                sheet.save(folder / face_name, format="PNG")
                back.save(folder / back_name, format="PNG")
                custom[str(deck_no)] = {
                    "FaceURL": url(face_name), "BackURL": url(back_name),
                    "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
                    "UniqueBack": False, "Type": 0,
                }
                for n, f in enumerate(chunk):
                    card_id = deck_no * 100 + n
                    for _ in range(f.component.copies):
                        ids.append(card_id)
                        contained.append({
                            "Name": "Card", "Nickname": names.get(f.component.id, f.slug),
                            "Description": f.component.id, "CardID": card_id,
                            "Transform": _transform(0.0, 0.0),
                            "CustomDeck": {str(deck_no): custom[str(deck_no)]},
                        })
            objects.append({
                "Name": "DeckCustom", "Nickname": f"{deck_name} cards {w_mm:g}x{h_mm:g} mm",
                "Transform": _transform(len(objects) * 8.0, 0.0), "DeckIDs": ids,
                "CustomDeck": custom, "ContainedObjects": contained,
            })
        for n, f in enumerate(f for f in fronts if f.component.imposition != "grid"):
            comp = f.component
            dpi = min(150.0, TTS_MAX_PX / (max(comp.front.width, comp.front.height) / 25.4))
            name = f"{f.slug}.png"
            _render(doc, f, dpi, trimmed=True).save(folder / name, format="PNG")
            back_face = backs.get(comp.id)
            back_url = ""
            if back_face is not None:
                back_name = f"{back_face.slug}.png"
                _render(doc, back_face, dpi, trimmed=True).save(folder / back_name, format="PNG")
                back_url = url(back_name)
            hexagon = isinstance(comp.nest, HexNest)
            objects.append({
                "Name": "Custom_Tile", "Nickname": names.get(comp.id, f.slug),
                "Description": comp.id,
                "Transform": _transform(-8.0 - (n % 10) * 4.0, (n // 10) * 4.0),
                "CustomImage": {
                    "ImageURL": url(name), "ImageSecondaryURL": back_url,
                    "WidthScale": 0.0,
                    "CustomTile": {"Type": 1 if hexagon else 0, "Thickness": 0.1,
                                   "Stackable": hexagon, "Stretch": True},
                },
            })
    finally:
        doc.close()
    saved = {"SaveName": deck_name, "GameMode": "", "Date": "", "Table": "", "Sky": "",
             "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
             "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}
    path = folder / f"{deck_name}.json"
    path.write_text(json.dumps(saved, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
