"""The SVG painter: flat primitives into a deterministic SVG document (svgwrite).

Determinism: every element gets an explicit id (``c<component>-e<n>``), every number is
written by :func:`num` (at most 4 decimals, no trailing zeros, no ``-0``), and nothing depends
on time or on dict order. User units are millimetres: the ``viewBox`` spans the bleed box and
``width``/``height`` carry ``mm`` units, so the file prints at 1:1.

Text runs carry ``textLength`` (with ``lengthAdjust="spacingAndGlyphs"``) equal to the width
the layout measured with the embedded font, so a viewer that substitutes another sans-serif
still puts every word where the PDF has it.
"""

from __future__ import annotations

from typing import Any

import svgwrite

from .drawing import Circle, Colour, Path, PathOp, Rect, Stroke
from .flatten import ClipBegin, ClipEnd, Flat, Picture, Text
from .fonts import BOLD_STROKE_EM, SVG_FAMILY, svg_family


def num(v: float) -> str:
    """A number as written into SVG: fixed 4 decimals, trailing zeros dropped."""
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def path_d(ops: tuple[PathOp, ...]) -> str:
    parts: list[str] = []
    for op in ops:
        if op[0] == "Z":
            parts.append("Z")
        else:
            parts.append(op[0] + " " + " ".join(num(float(v)) for v in op[1:]))
    return " ".join(parts)


def _stroke_attrs(s: Stroke | None) -> dict[str, str]:
    if s is None:
        return {}
    out = {"stroke": s.colour, "stroke-width": num(s.width)}
    if s.dash:
        out["stroke-dasharray"] = " ".join(num(d) for d in s.dash)
    return out


class SvgPainter:
    """Adds flat primitives to an svgwrite container, with ids ``<prefix>-e<n>``."""

    def __init__(self, dwg: svgwrite.Drawing, prefix: str) -> None:
        self.dwg = dwg
        self.prefix = prefix
        self.n = 0

    def _id(self) -> str:
        self.n += 1
        return f"{self.prefix}-e{self.n}"

    def paint(self, items: list[Flat], parent: Any) -> None:
        stack = [parent]
        for it in items:
            target = stack[-1]
            if isinstance(it, ClipBegin):
                cid = self._id()
                clip = self.dwg.clipPath(id=cid)
                clip.add(self.dwg.path(d=path_d(it.ops), id=self._id()))
                self.dwg.defs.add(clip)
                g = self.dwg.g(id=self._id(), **{"clip-path": f"url(#{cid})"})
                target.add(g)
                stack.append(g)
            elif isinstance(it, ClipEnd):
                stack.pop()
            else:
                el = self.element(it)
                if el is not None:
                    target.add(el)

    def _paint_attrs(self, fill: Colour | None, stroke: Stroke | None) -> dict[str, str]:
        out = {"fill": fill if fill is not None else "none"}
        out.update(_stroke_attrs(stroke))
        return out

    def element(self, it: Flat) -> Any:
        d = self.dwg
        if isinstance(it, Rect):
            if it.fill is None and it.stroke is None:
                return None
            attrs = self._paint_attrs(it.fill, it.stroke)
            if it.radius > 0:
                r = num(min(it.radius, it.w / 2, it.h / 2))
                attrs["rx"] = r
                attrs["ry"] = r
            return d.rect(insert=(num(it.x), num(it.y)), size=(num(it.w), num(it.h)),
                          id=self._id(), **attrs)
        if isinstance(it, Circle):
            if it.fill is None and it.stroke is None:
                return None
            return d.circle(center=(num(it.cx), num(it.cy)), r=num(it.r), id=self._id(),
                            **self._paint_attrs(it.fill, it.stroke))
        if isinstance(it, Path):
            if it.fill is None and it.stroke is None:
                return None
            attrs = self._paint_attrs(it.fill, it.stroke)
            if it.fill is not None:
                attrs["fill-rule"] = "evenodd"
            return d.path(d=path_d(it.ops), id=self._id(), **attrs)
        if isinstance(it, Picture):
            return self._picture(it)
        if isinstance(it, Text):
            attrs = {
                "font-family": svg_family(it.font) if it.font else SVG_FAMILY,
                "font-size": num(it.size),
                "fill": it.colour,
                "textLength": num(it.width),
                "lengthAdjust": "spacingAndGlyphs",
            }
            if it.italic:
                attrs["font-style"] = "italic"
            if it.bold:
                attrs["stroke"] = it.colour
                attrs["stroke-width"] = num(it.size * BOLD_STROKE_EM)
            if it.angle:
                attrs["transform"] = f"rotate({num(it.angle)} {num(it.x)} {num(it.y)})"
            return d.text(it.text, insert=(num(it.x), num(it.y)), id=self._id(), **attrs)
        return None


    def _picture(self, p: Picture) -> Any:
        """An ``<image>`` over the unit square under the picture's matrix; the file's own
        bytes travel as a ``data:`` URI, so SVG art stays vector and raster art unchanged."""
        from .images import get_image

        img = get_image(p.ref)
        el = self.dwg.image(href=_data_uri(img.kind, img.data), insert=(0, 0), size=(1, 1),
                            id=self._id())
        el["preserveAspectRatio"] = "none"
        el["transform"] = "matrix(" + " ".join(num(v) for v in p.matrix) + ")"
        return el


_MIME = {"png": "image/png", "jpeg": "image/jpeg", "svg": "image/svg+xml"}


def _data_uri(kind: str, data: bytes) -> str:
    import base64

    return f"data:{_MIME[kind]};base64,{base64.b64encode(data).decode('ascii')}"


def new_svg(width: float, height: float, x0: float = 0.0, y0: float = 0.0) -> svgwrite.Drawing:
    """An SVG document whose user unit is 1 mm: the viewBox (x0, y0, width, height) mm."""
    return svgwrite.Drawing(
        size=(f"{num(width)}mm", f"{num(height)}mm"),
        viewBox=f"{num(x0)} {num(y0)} {num(width)} {num(height)}",
        profile="full",
        debug=False,
    )


def drawing_svg(items: list[Flat], width: float, height: float, bleed: float, prefix: str,
                title: str = "") -> str:
    """A complete SVG of one face: viewBox = bleed box in mm."""
    dwg = new_svg(width + 2 * bleed, height + 2 * bleed, -bleed, -bleed)
    if title:
        dwg.set_desc(title=title)
    g = dwg.g(id=f"{prefix}-art")
    dwg.add(g)
    SvgPainter(dwg, prefix).paint(items, g)
    text: str = dwg.tostring()
    return text

