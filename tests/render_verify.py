"""Proof that the PDF and the SVG painter agree: read back what each one emitted.

:func:`check_agreement` paints every face of a list of components both ways (the pod PDF and
the per-face SVGs, exactly as the build writes them), parses the PDF content streams (with
pypdf, tracking the transformation matrix) and the SVG elements, and compares both against the
flattened drawing: every shape's bounding box, fill, stroke colour and width, every clip, every
text run's baseline position, size, weight and colour (and, in SVG, its text). It returns the
differences as readable lines; an empty list means the painters agree.

Families' tests call it on their own components::

    assert check_agreement(family.layout(deck, generated, report)) == []

pypdf is a test dependency, so it is imported inside the functions.
"""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generator.deck import PrintSettings
from generator.render.component import Component, Face, faces_of
from generator.render.drawing import Circle, Path, Rect
from generator.render.flatten import Affine, ClipBegin, Flat, Text, apply, bbox, compose
from generator.render.impose import Stamp
from generator.render.pdf import PT_PER_MM
from generator.render.writers import _FaceCache, component_svg, pod_face, write_pod_pdf

TOL = 0.01
"""Agreement tolerance in mm (reportlab writes 6 significant digits, SVG 4 decimals)."""


@dataclass(frozen=True)
class Mark:
    """What a painter put on the page, in the face's trim coordinates (mm)."""

    kind: str  # "shape", "clip" or "text"
    box: tuple[float, float, float, float]
    fill: str = ""
    stroke: str = ""
    width: float = 0.0
    size: float = 0.0
    bold: bool = False
    text: str = ""

    def describe(self) -> str:
        b = ", ".join(f"{v:.3f}" for v in self.box)
        extra = f" fill={self.fill}" if self.fill else ""
        extra += f" stroke={self.stroke}/{self.width:.3f}" if self.stroke else ""
        if self.kind == "text":
            extra += f" size={self.size:.3f} bold={self.bold} {self.text!r}"
        return f"{self.kind} [{b}]{extra}"


def expected_marks(flat: list[Flat]) -> list[Mark]:
    """The marks a faithful painter makes for ``flat``."""
    out: list[Mark] = []
    for it in flat:
        if isinstance(it, ClipBegin):
            out.append(Mark("clip", bbox(it)))
        elif isinstance(it, Text):
            out.append(Mark("text", (it.x, it.y, it.x, it.y), fill=it.colour.lower(),
                            size=it.size, bold=it.bold, text=it.text))
        elif isinstance(it, Rect | Circle | Path):
            if it.fill is None and it.stroke is None:
                continue
            s = it.stroke
            out.append(Mark("shape", bbox(it), fill=(it.fill or "").lower(),
                            stroke=s.colour.lower() if s else "", width=s.width if s else 0.0))
    return out


def _match(expected: list[Mark], actual: list[Mark], where: str, check_text: bool) -> list[str]:
    problems: list[str] = []
    pool = list(actual)
    for e in expected:
        found = None
        for k, a in enumerate(pool):
            if a.kind != e.kind or a.fill != e.fill or a.stroke != e.stroke:
                continue
            if any(abs(x - y) > TOL for x, y in zip(a.box, e.box, strict=True)):
                continue
            if abs(a.width - e.width) > TOL or abs(a.size - e.size) > TOL or a.bold != e.bold:
                continue
            if check_text and a.text != e.text:
                continue
            found = k
            break
        if found is None:
            problems.append(f"{where}: missing {e.describe()}")
        else:
            pool.pop(found)
    problems += [f"{where}: unexpected {a.describe()}" for a in pool]
    return problems


# --- PDF ---------------------------------------------------------------------------------------

def _hex(vals: Sequence[Any]) -> str:
    return "#" + "".join(f"{round(float(v) * 255):02x}" for v in vals)


def pdf_marks(page: Any, bleed: float) -> list[Mark]:
    """Marks in a pod.pdf page, mapped back to the face's trim coordinates."""
    from pypdf.generic import ContentStream

    ph = float(page.mediabox.height)
    k = PT_PER_MM
    # page points -> trim mm
    to_mm: Affine = (1 / k, 0.0, 0.0, -1 / k, -bleed, ph / k - bleed)
    ctm: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    stack: list[tuple[Affine, str, str, float]] = []
    fill, stroke, lw = "#000000", "#000000", 1.0
    pts: list[tuple[float, float]] = []
    clip = False
    out: list[Mark] = []
    tm: Affine | None = None
    size = 0.0
    mode = 0
    done = False
    content = ContentStream(page.get_contents(), page.pdf)

    def scale(t: Affine) -> float:
        return math.sqrt(abs(t[0] * t[3] - t[1] * t[2]))

    def add(x: float, y: float) -> None:
        pts.append(apply(compose(to_mm, ctm), x, y))

    def box() -> tuple[float, float, float, float]:
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return (min(xs), min(ys), max(xs), max(ys))

    for operands, op in content.operations:
        o = [float(v) if isinstance(v, int | float) or hasattr(v, "as_numeric") else v
             for v in operands]
        if op == b"q":
            stack.append((ctm, fill, stroke, lw))
        elif op == b"Q":
            ctm, fill, stroke, lw = stack.pop()
        elif op == b"cm":
            ctm = compose(ctm, (o[0], o[1], o[2], o[3], o[4], o[5]))
        elif op == b"rg":
            fill = _hex(o[:3])
        elif op == b"RG":
            stroke = _hex(o[:3])
        elif op == b"g":
            fill = _hex([o[0]] * 3)
        elif op == b"G":
            stroke = _hex([o[0]] * 3)
        elif op == b"w":
            lw = float(o[0])
        elif op == b"m" or op == b"l":
            add(o[0], o[1])
        elif op == b"c":
            add(o[0], o[1])
            add(o[2], o[3])
            add(o[4], o[5])
        elif op == b"re":
            x, y, w, h = o[:4]
            add(x, y)
            add(x + w, y + h)
        elif op in (b"W", b"W*"):
            clip = True
        elif op in (b"f", b"f*", b"F", b"S", b"s", b"B", b"B*", b"b", b"b*", b"n"):
            if clip:
                out.append(Mark("clip", box()))
            elif op != b"n":
                filled = op not in (b"S", b"s")
                stroked = op in (b"S", b"s", b"B", b"B*", b"b", b"b*")
                out.append(Mark("shape", box(), fill=fill if filled else "",
                                stroke=stroke if stroked else "",
                                width=lw * scale(ctm) / k if stroked else 0.0))
            pts, clip = [], False
        elif op == b"BT":
            tm, mode, done = None, 0, False
        elif op == b"Tf":
            size = float(o[1])
        elif op == b"Tr":
            mode = int(o[0])
        elif op == b"Tm":
            tm = (o[0], o[1], o[2], o[3], o[4], o[5])
        elif op in (b"Tj", b"TJ") and tm is not None and not done:
            # one mark per BT block: a run that spans font subsets adds more Tj's
            full = compose(compose(to_mm, ctm), tm)
            x, y = full[4], full[5]
            out.append(Mark("text", (x, y, x, y), fill=fill,
                            size=size * scale(compose(ctm, tm)) / k, bold=mode == 2))
            done = True
    return out


# --- SVG ---------------------------------------------------------------------------------------

_NUM = re.compile(r"-?\d*\.?\d+(?:e-?\d+)?")
_SVG = "{http://www.w3.org/2000/svg}"


def _transform(attr: str | None) -> Affine:
    t: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    if not attr:
        return t
    for name, args in re.findall(r"(\w+)\(([^)]*)\)", attr):
        v = [float(x) for x in _NUM.findall(args)]
        if name == "translate":
            t = compose(t, (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0))
        elif name == "rotate":
            r = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) == 3 else (0.0, 0.0)
            t = compose(t, (1.0, 0.0, 0.0, 1.0, cx, cy))
            t = compose(t, (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0.0, 0.0))
            t = compose(t, (1.0, 0.0, 0.0, 1.0, -cx, -cy))
    return t


def _path_box(d: str, t: Affine) -> tuple[float, float, float, float]:
    nums = [float(x) for x in _NUM.findall(d)]
    pts = [apply(t, nums[i], nums[i + 1]) for i in range(0, len(nums) - 1, 2)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def svg_marks(svg: str) -> list[Mark]:
    """Marks in one of our SVG files (absolute commands only, as the painter writes them)."""
    root = ET.fromstring(svg)
    out: list[Mark] = []

    def paint(el: ET.Element) -> tuple[str, str, float]:
        fill = el.get("fill", "#000000")
        stroke = el.get("stroke", "")
        return ("" if fill == "none" else fill.lower(), stroke.lower(),
                float(el.get("stroke-width", "0")) if stroke else 0.0)

    def walk(el: ET.Element, t: Affine, in_clip: bool) -> None:
        tag = el.tag.replace(_SVG, "")
        t = compose(t, _transform(el.get("transform"))) if tag != "text" else t
        if tag == "clipPath":
            in_clip = True
        if tag == "rect":
            x, y = float(el.get("x", "0")), float(el.get("y", "0"))
            w, h = float(el.get("width", "0")), float(el.get("height", "0"))
            x0, y0 = apply(t, x, y)
            x1, y1 = apply(t, x + w, y + h)
            f, s, sw = paint(el)
            out.append(Mark("shape", (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)),
                            fill=f, stroke=s, width=sw))
        elif tag == "circle":
            cx, cy = apply(t, float(el.get("cx", "0")), float(el.get("cy", "0")))
            r = float(el.get("r", "0"))
            f, s, sw = paint(el)
            out.append(Mark("shape", (cx - r, cy - r, cx + r, cy + r), fill=f, stroke=s,
                            width=sw))
        elif tag == "path":
            b = _path_box(el.get("d", ""), t)
            if in_clip:
                out.append(Mark("clip", b))
            else:
                f, s, sw = paint(el)
                out.append(Mark("shape", b, fill=f, stroke=s, width=sw))
        elif tag == "text":
            x, y = apply(t, float(el.get("x", "0")), float(el.get("y", "0")))
            out.append(Mark("text", (x, y, x, y), fill=el.get("fill", "#000000").lower(),
                            size=float(el.get("font-size", "0")),
                            bold=el.get("stroke") is not None, text=el.text or ""))
        for child in el:
            walk(child, t, in_clip)

    walk(root, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), False)
    return out


def check_agreement(components: Sequence[Component], settings: PrintSettings | None = None,
                    stamp: Stamp | None = None) -> list[str]:
    """Differences between the flattened drawings, the PDF and the SVG of every face."""
    from pypdf import PdfReader

    settings = settings or PrintSettings()
    stamp = stamp or Stamp("check", "1", 1)
    buf = io.BytesIO()
    write_pod_pdf(components, settings, stamp, buf)
    reader = PdfReader(io.BytesIO(buf.getvalue()))
    faces = _FaceCache(components, settings, stamp)
    problems: list[str] = []
    page_no = 0
    for i, comp in enumerate(components):
        for face in faces_of(comp):
            face_t: Face = face
            d = comp.front if face_t == "front" else comp.back
            assert d is not None
            where = f"{comp.id} {face_t}"
            b = max(d.bleed, settings.bleed)
            expected = expected_marks(pod_face(faces.get(i, face_t), d, b))
            got_pdf = pdf_marks(reader.pages[page_no], b)
            problems += _match(expected, got_pdf, where + " (pdf)", check_text=False)
            svg_expected = expected_marks(faces.get(i, face_t))
            svg = component_svg(comp, face_t, settings, stamp, i + 1)
            problems += _match(svg_expected, svg_marks(svg), where + " (svg)", check_text=True)
            page_no += 1
    return problems
