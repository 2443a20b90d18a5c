"""The PDF painter: flat primitives onto a reportlab canvas.

A face is painted under one transform that maps millimetres with y down (the drawing model)
onto the page, so every coordinate in the content stream is the drawing's own number in mm:
``1 0 0 -1`` flipped and scaled by 72/25.4. Text is set with a text matrix that flips glyphs
upright again. Colour, line width and dash are only emitted when they change, because
reportlab's per-operator cost dominates a page of cards (see bench/render.py).
"""

from __future__ import annotations

import math
from typing import IO, Any

from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFInfo, PDFName, PDFString
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from ..units import MM_PER_PT
from .drawing import Circle, Colour, Path, PathOp, Rect, Stroke
from .flatten import ClipBegin, ClipEnd, Flat, Text
from .fonts import BOLD_STROKE_EM, face_name, register_fonts

PT_PER_MM = 1.0 / MM_PER_PT


class _UndatedInfo(PDFInfo):  # type: ignore[misc]
    """Document information without CreationDate/ModDate: identical input, identical bytes,
    and no misleading 2000-01-01 date from reportlab's invariant mode."""

    def format(self, document: Any) -> Any:
        d = {
            "Title": PDFString(self.title),
            "Author": PDFString(self.author),
            "Producer": PDFString(self.producer),
            "Creator": PDFString(self.creator),
            "Subject": PDFString(self.subject),
            "Keywords": PDFString(self.keywords),
            "Trapped": PDFName(self.trapped),
        }
        return PDFDictionary(d).format(document)


def new_canvas(path: str | IO[bytes], title: str, subject: str,
               page: tuple[float, float] = (595.0, 842.0)) -> Canvas:
    """A deterministic canvas: invariant mode, compressed pages, fonts registered,
    metadata without dates."""
    register_fonts()
    c = Canvas(path, pagesize=page, invariant=1, pageCompression=1)
    info = _UndatedInfo()
    info.producer = "PaperProof (reportlab)"
    c._doc.info = info
    c.setTitle(title)
    c.setAuthor("PaperProof")
    c.setSubject(subject)
    c.setCreator("PaperProof")
    return c


def _rgb(colour: Colour) -> tuple[float, float, float]:
    h = colour.lstrip("#")
    return (int(h[0:2], 16) / 255.0, int(h[2:4], 16) / 255.0, int(h[4:6], 16) / 255.0)


class PdfPainter:
    """Paints flat primitives onto ``canvas``; tracks graphics state to skip redundant ops."""

    def __init__(self, canvas: Canvas) -> None:
        self.c = canvas
        self._state: list[tuple[str | None, str | None, float | None, tuple[float, ...]]] = []
        self._reset()

    def _reset(self) -> None:
        self._fill: str | None = None
        self._stroke: str | None = None
        self._lw: float | None = None
        self._dash: tuple[float, ...] = ()

    def _push(self) -> None:
        self.c.saveState()
        self._state.append((self._fill, self._stroke, self._lw, self._dash))

    def _pop(self) -> None:
        self.c.restoreState()
        self._fill, self._stroke, self._lw, self._dash = self._state.pop()

    def _set_fill(self, colour: Colour) -> None:
        if colour != self._fill:
            self.c.setFillColorRGB(*_rgb(colour))
            self._fill = colour

    def _set_stroke(self, s: Stroke) -> None:
        if s.colour != self._stroke:
            self.c.setStrokeColorRGB(*_rgb(s.colour))
            self._stroke = s.colour
        if s.width != self._lw:
            self.c.setLineWidth(s.width)
            self._lw = s.width
        if s.dash != self._dash:
            if s.dash:
                self.c.setDash(list(s.dash))
            else:
                self.c.setDash([], 0)
            self._dash = s.dash

    def paint(self, items: list[Flat], x_mm: float, y_mm: float, page_h_mm: float) -> None:
        """Paint ``items`` with the drawing's origin (trim top-left) at (x_mm, y_mm) from the
        page's top-left corner; ``page_h_mm`` is the page height."""
        c = self.c
        self._push()
        self._reset()
        k = PT_PER_MM
        c.transform(k, 0, 0, -k, x_mm * k, (page_h_mm - y_mm) * k)
        for it in items:
            if isinstance(it, Rect):
                self._rect(it)
            elif isinstance(it, Text):
                self._text(it)
            elif isinstance(it, Path):
                self._path(it.ops, it.fill, it.stroke)
            elif isinstance(it, Circle):
                fill, stroke = it.fill is not None, it.stroke is not None
                if not (fill or stroke):
                    continue
                if it.fill is not None:
                    self._set_fill(it.fill)
                if it.stroke is not None:
                    self._set_stroke(it.stroke)
                c.circle(it.cx, it.cy, it.r, stroke=int(stroke), fill=int(fill))
            elif isinstance(it, ClipBegin):
                self._push()
                p = c.beginPath()
                if it.rect is not None:
                    p.rect(*it.rect)
                else:
                    _trace(p, it.ops)
                c.clipPath(p, stroke=0, fill=0)
            elif isinstance(it, ClipEnd):
                self._pop()
        self._pop()

    def _rect(self, r: Rect) -> None:
        fill, stroke = r.fill is not None, r.stroke is not None
        if not (fill or stroke):
            return
        if r.fill is not None:
            self._set_fill(r.fill)
        if r.stroke is not None:
            self._set_stroke(r.stroke)
        if r.radius > 0:
            self.c.roundRect(r.x, r.y, r.w, r.h, min(r.radius, r.w / 2, r.h / 2),
                             stroke=int(stroke), fill=int(fill))
        else:
            self.c.rect(r.x, r.y, r.w, r.h, stroke=int(stroke), fill=int(fill))

    def _path(self, ops: tuple[PathOp, ...], fill: Colour | None, stroke: Stroke | None) -> None:
        if fill is None and stroke is None:
            return
        if fill is not None:
            self._set_fill(fill)
        if stroke is not None:
            self._set_stroke(stroke)
        p = self.c.beginPath()
        _trace(p, ops)
        self.c.drawPath(p, stroke=int(stroke is not None), fill=int(fill is not None),
                        fillMode=FILL_EVEN_ODD)

    def _text(self, t: Text) -> None:
        self._set_fill(t.colour)
        if t.bold:
            self._set_stroke(Stroke(t.colour, t.size * BOLD_STROKE_EM))
        tx = self.c.beginText()
        if t.angle:
            r = math.radians(t.angle)
            cos, sin = math.cos(r), math.sin(r)
            tx.setTextTransform(cos, sin, sin, -cos, t.x, t.y)
        else:
            tx.setTextTransform(1, 0, 0, -1, t.x, t.y)
        tx.setFont(face_name(t.italic), t.size)
        if t.bold:
            tx.setTextRenderMode(2)
        tx.textOut(t.text)
        if t.bold:
            tx.setTextRenderMode(0)
        self.c.drawText(tx)


def _trace(p: Any, ops: tuple[PathOp, ...]) -> None:
    for op in ops:
        if op[0] == "M":
            p.moveTo(op[1], op[2])
        elif op[0] == "L":
            p.lineTo(op[1], op[2])
        elif op[0] == "C":
            p.curveTo(op[1], op[2], op[3], op[4], op[5], op[6])
        else:
            p.close()
