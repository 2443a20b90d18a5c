"""The PDF painter: flat primitives onto a reportlab canvas.

A face is painted under one transform that maps millimetres with y down (the drawing model)
onto the page, so every coordinate in the content stream is the drawing's own number in mm:
``1 0 0 -1`` flipped and scaled by 72/25.4. Text is set with a text matrix that flips glyphs
upright again. Colour, line width and dash are only emitted when they change, because
reportlab's per-operator cost dominates a page of cards (see bench/render.py).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import IO, Any

from reportlab.lib.colors import CMYKColorSep
from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFInfo, PDFName, PDFString
from reportlab.pdfgen.canvas import Canvas

from ..units import MM_PER_PT
from .colour import rgb
from .cutlines import CutPath
from .drawing import Circle, Colour, Path, PathOp, Rect, Stroke
from .flatten import KAPPA, ClipBegin, ClipEnd, Flat, Picture, Text, rect_ops
from .fonts import BOLD_STROKE_EM, ITALIC, REGULAR, face_of, register_fonts

PT_PER_MM = 1.0 / MM_PER_PT
CUT_CONTOUR_PT = 0.25
"""Line width of CutContour paths (pt): thin enough that a RIP reads it as a path, not art."""


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
    # reportlab's page preamble selects an initial font (Helvetica unless told otherwise):
    # a non-embedded font reference a print shop's preflight rejects, so start in ours
    c = Canvas(path, pagesize=page, invariant=1, pageCompression=1, initialFontName=REGULAR)
    info = _UndatedInfo()
    info.producer = "PaperProof (reportlab)"
    c._doc.info = info
    c.setTitle(title)
    c.setAuthor("PaperProof")
    c.setSubject(subject)
    c.setCreator("PaperProof")
    return c


def _rgb(colour: Colour) -> tuple[float, float, float]:
    r, g, b = rgb(colour)
    return r / 255.0, g / 255.0, b / 255.0


def num(v: float) -> str:
    """A number as written into the content stream: rounded to 1e-4 (0.1 micrometre in mm
    units), shortest form. reportlab's own formatter runs in pure Python here (no
    _rl_accel) and costs about 15 us per call; this is what lets the painter keep up with
    hand-written reportlab code (bench/render.py)."""
    r = round(v, 4)
    if r == int(r):
        return str(int(r))
    return repr(r)


@lru_cache(maxsize=1024)
def _colour_op(colour: Colour, op: str) -> str:
    r, g, b = _rgb(colour)
    return f"{num(r)} {num(g)} {num(b)} {op}"


def _ops(ops: tuple[PathOp, ...]) -> str:
    out: list[str] = []
    for op in ops:
        if op[0] == "M":
            out.append(f"{num(op[1])} {num(op[2])} m")
        elif op[0] == "L":
            out.append(f"{num(op[1])} {num(op[2])} l")
        elif op[0] == "C":
            out.append(f"{num(op[1])} {num(op[2])} {num(op[3])} {num(op[4])} "
                       f"{num(op[5])} {num(op[6])} c")
        else:
            out.append("h")
    return " ".join(out)


def _circle_ops(cx: float, cy: float, r: float) -> tuple[PathOp, ...]:
    k = r * KAPPA
    return (
        ("M", cx + r, cy),
        ("C", cx + r, cy + k, cx + k, cy + r, cx, cy + r),
        ("C", cx - k, cy + r, cx - r, cy + k, cx - r, cy),
        ("C", cx - r, cy - k, cx - k, cy - r, cx, cy - r),
        ("C", cx + k, cy - r, cx + r, cy - k, cx + r, cy),
        ("Z",),
    )


# painting operator by (fill, stroke); paths fill with the even-odd rule (holes)
_PAINT = {(True, False): "f*", (False, True): "S", (True, True): "B*"}


class PdfPainter:
    """Paints flat primitives onto ``canvas``; tracks graphics state to skip redundant ops.

    Shapes, colours and line styles are written as content-stream operators
    (``Canvas.addLiteral``); text goes through reportlab's text objects, which handle font
    subsetting and encoding.
    """

    def __init__(self, canvas: Canvas) -> None:
        self.c = canvas
        self._lit = canvas.addLiteral
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
            self._lit(_colour_op(colour, "rg"))
            self._fill = colour

    def _set_stroke(self, s: Stroke) -> None:
        if s.colour != self._stroke:
            self._lit(_colour_op(s.colour, "RG"))
            self._stroke = s.colour
        if s.width != self._lw:
            self._lit(f"{num(s.width)} w")
            self._lw = s.width
        if s.dash != self._dash:
            self._lit(f"[{' '.join(num(d) for d in s.dash)}] 0 d")
            self._dash = s.dash

    def _paint_op(self, fill: Colour | None, stroke: Stroke | None) -> str | None:
        if fill is not None:
            self._set_fill(fill)
        if stroke is not None:
            self._set_stroke(stroke)
        return _PAINT.get((fill is not None, stroke is not None))

    def paint(self, items: list[Flat], x_mm: float, y_mm: float, page_h_mm: float) -> None:
        """Paint ``items`` with the drawing's origin (trim top-left) at (x_mm, y_mm) from the
        page's top-left corner; ``page_h_mm`` is the page height."""
        self._push()
        self._reset()
        k = PT_PER_MM
        self._lit(f"{num(k)} 0 0 {num(-k)} {num(x_mm * k)} {num((page_h_mm - y_mm) * k)} cm")
        lit = self._lit
        for it in items:
            if isinstance(it, Rect):
                op = self._paint_op(it.fill, it.stroke)
                if op is None:
                    continue
                if it.radius > 0:
                    lit(f"{_ops(rect_ops(it.x, it.y, it.w, it.h, it.radius))} {op}")
                else:
                    lit(f"{num(it.x)} {num(it.y)} {num(it.w)} {num(it.h)} re {op}")
            elif isinstance(it, Text):
                self._text(it)
            elif isinstance(it, Path):
                op = self._paint_op(it.fill, it.stroke)
                if op is not None:
                    lit(f"{_ops(it.ops)} {op}")
            elif isinstance(it, Circle):
                op = self._paint_op(it.fill, it.stroke)
                if op is not None:
                    lit(f"{_ops(_circle_ops(it.cx, it.cy, it.r))} {op}")
            elif isinstance(it, ClipBegin):
                self._push()
                if it.rect is not None:
                    x, y, w, h = it.rect
                    lit(f"{num(x)} {num(y)} {num(w)} {num(h)} re W n")
                else:
                    lit(f"{_ops(it.ops)} W* n")
            elif isinstance(it, ClipEnd):
                self._pop()
            elif isinstance(it, Picture):
                self._picture(it)
        self._pop()

    def _picture(self, p: Picture) -> None:
        """An image through its matrix. The unit square is flipped (v down in the drawing,
        up in PDF image space), so raster images are drawn at (0, 0, 1, 1) under
        ``a b c d e f`` composed with a flip; SVG art is drawn as vector operators."""
        from .images import get_image, svg_drawing

        img = get_image(p.ref)
        a, b, c, d, e, f = p.matrix
        self._push()
        # map PDF unit square (y up) -> drawing unit square (v down): v = 1 - y
        self._lit(f"{num(a)} {num(b)} {num(-c)} {num(-d)} {num(c + e)} {num(d + f)} cm")
        if img.kind == "svg":
            from reportlab.graphics import renderPDF

            drawing = svg_drawing(p.ref)
            self._lit(f"{num(1.0 / img.width)} 0 0 {num(1.0 / img.height)} 0 0 cm")
            renderPDF.draw(drawing, self.c, 0, 0, showBoundary=False)
        else:
            self.c.drawImage(_reader(p.ref), 0, 0, 1, 1, mask="auto")
        self._pop()
        self._reset()

    def cut_contour(self, paths: list[CutPath], page_h_mm: float) -> None:
        """Trim paths as the ``CutContour`` spot colour (100 % magenta), overprinting,
        0.25 pt: the convention of print-and-cut RIPs (Roland, Summa, Mimaki)."""
        c = self.c
        c.saveState()
        k = PT_PER_MM
        c.transform(k, 0, 0, -k, 0, page_h_mm * k)
        c.setStrokeColor(CMYKColorSep(0, 1, 0, 0, spotName="CutContour"))
        c.setStrokeOverprint(1)
        c.setLineWidth(CUT_CONTOUR_PT / k)
        for cp in paths:
            for line in cp.polylines:
                p = c.beginPath()
                p.moveTo(*line[0])
                for pt in line[1:]:
                    p.lineTo(*pt)
                if cp.closed:
                    p.close()
                c.drawPath(p, stroke=1, fill=0)
        c.restoreState()

    def _text(self, t: Text) -> None:
        self._set_fill(t.colour)
        if t.bold:
            self._set_stroke(_bold_stroke(t.colour, t.size))
        tx = self.c.beginText()
        if t.angle:
            r = math.radians(t.angle)
            cos, sin = math.cos(r), math.sin(r)
            tx.setTextTransform(cos, sin, sin, -cos, t.x, t.y)
        else:
            tx.setTextTransform(1, 0, 0, -1, t.x, t.y)
        tx.setFont(face_of(t.font, t.italic) if t.font else ITALIC if t.italic else REGULAR,
                   t.size)
        if t.bold:
            tx.setTextRenderMode(2)
        tx.textOut(t.text)
        if t.bold:
            tx.setTextRenderMode(0)
        self.c.drawText(tx)


@lru_cache(maxsize=64)
def _reader(ref: str) -> Any:
    import io

    from reportlab.lib.utils import ImageReader

    from .images import get_image

    return ImageReader(io.BytesIO(get_image(ref).data))


@lru_cache(maxsize=256)
def _bold_stroke(colour: Colour, size: float) -> Stroke:
    return Stroke(colour, size * BOLD_STROKE_EM)
