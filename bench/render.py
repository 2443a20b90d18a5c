"""Render benchmark: typical cards into an imposed sheets PDF, against bare reportlab.

    python bench/render.py            # 1,000 and 10,000 cards
    python bench/render.py 2000       # other sizes

A typical card is ``typical_card`` of tests/render_samples.py: 20 shapes (full-bleed
background, rounded frame, title band, cost circle, a 3 x 3 grid, lines, a triangle, a curve,
small boxes, a dashed rule) and 2 lines of text (a bold title and a body line with an inline
symbol), every card different, fronts only, poker size on A4 (8 per sheet), crop marks on.

"Bare reportlab" draws the same shapes and text at the same places with direct canvas calls
(same fonts, compression, clipping and crop marks, colours as ready RGB tuples), i.e. what
hand-written reportlab code costs; our pipeline adds the drawing model, text layout (wrapping
and fitting), symbol expansion and flattening. Each run is a fresh subprocess, so the peak
resident memory (ru_maxrss) is that run's own; times are the process's CPU time (best of 3),
because wall time on a shared machine mostly measures the neighbours.

What keeps the ratio near 1: reportlab formats every number with a pure-Python function here
(no _rl_accel; ~60 % of bare reportlab's time), and our PDF painter writes shape operators
itself with a cheaper formatter (``Canvas.addLiteral``). When it still went through
``canvas.rect``/``drawPath`` the same cards measured 1.53x (1,000) and 1.56x (10,000).
"""

from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # render_samples: the sample components of the tests


def _cards(n: int) -> list[object]:
    """The input: n different typical cards (what a family's layout hands over)."""
    from render_samples import typical_card

    return [typical_card(i, back=False) for i in range(n)]


def _ours(comps: list[object], out: Path) -> None:
    from generator.deck import PrintSettings
    from generator.render.impose import Stamp
    from generator.render.writers import write_sheets_pdf

    write_sheets_pdf(comps, PrintSettings(duplex="none"), Stamp("bench", "1", 1),  # type: ignore[arg-type]
                     out)


def _bare(comps: list[object], out: Path) -> None:
    """The same page content with direct reportlab calls."""
    from render_samples import PALETTE, typical_card
    from reportlab.pdfgen.canvas import Canvas

    from generator.deck import PrintSettings
    from generator.render.fonts import BOLD_STROKE_EM, ITALIC, REGULAR, register_fonts
    from generator.render.impose import impose
    from generator.render.symbols import get_symbol
    from generator.units import MM_PER_PT

    register_fonts()
    # colours as ready RGB tuples: the fastest way to set a colour in reportlab
    rgb = {h: (int(h[1:3], 16) / 255, int(h[3:5], 16) / 255, int(h[5:7], 16) / 255)
           for h in (*PALETTE, "#333333", "#ffffff", "#ffcc33", "#88aa66", "#6699cc",
                     "#ccaa66", "#aa3333", "#999999", "#000000", "#707070")}
    settings = PrintSettings(duplex="none")
    # positions only (imposition is arithmetic; both runs share it)
    n = len(comps)
    sheets = impose([typical_card(0, back=False, copies=n)], settings)
    k = 1 / MM_PER_PT
    c = Canvas(str(out), invariant=1, pageCompression=1)
    w, h, b = 63.5, 88.9, 3.0
    star = get_symbol("star")[0]
    idx = 0
    for sheet in sheets:
        c.setPageSize((sheet.width * k, sheet.height * k))
        for p in sheet.placements:
            i = idx
            idx += 1
            c.saveState()
            c.transform(k, 0, 0, -k, p.x * k, (sheet.height - p.y) * k)
            clip = c.beginPath()
            clip.rect(-b, -b, w + 2 * b, h + 2 * b)
            c.clipPath(clip, stroke=0, fill=0)
            c.setFillColorRGB(*rgb[PALETTE[i % len(PALETTE)]])
            c.rect(-b, -b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
            c.setStrokeColorRGB(*rgb["#333333"])
            c.setLineWidth(0.4)
            c.roundRect(3, 3, w - 6, h - 6, 3, stroke=1, fill=0)
            c.setFillColorRGB(*rgb["#ffffff"])
            c.roundRect(5, 5, w - 10, 11, 2, stroke=0, fill=1)
            c.setFillColorRGB(*rgb["#ffcc33"])
            c.setLineWidth(0.3)
            c.circle(w - 10, 10.5, 4, stroke=1, fill=1)
            for q in range(9):
                r, col = divmod(q, 3)
                c.setFillColorRGB(*rgb[("#88aa66", "#6699cc", "#ccaa66")[(i + q) % 3]])
                c.rect(12 + col * 13.5, 22 + r * 13.5, 12.5, 12.5, stroke=0, fill=1)
            c.setLineWidth(0.3)
            c.line(5, h - 24, w - 5, h - 24)
            c.setFillColorRGB(*rgb["#333333"])
            tri = c.beginPath()
            tri.moveTo(5, h - 8)
            tri.lineTo(9, h - 14)
            tri.lineTo(13, h - 8)
            tri.close()
            c.drawPath(tri, stroke=0, fill=1)
            c.setFillColorRGB(*rgb["#aa3333"])
            cur = c.beginPath()
            cur.moveTo(w - 14, h - 8)
            cur.curveTo(w - 12, h - 16, w - 6, h - 16, w - 5, h - 8)
            cur.close()
            c.drawPath(cur, stroke=0, fill=1)
            c.setFillColorRGB(*rgb["#333333"])
            c.circle(w / 2, h - 11, 2.5, stroke=0, fill=1)
            c.setFillColorRGB(*rgb["#ffffff"])
            c.setLineWidth(0.2)
            c.rect(16, h - 14, 10, 4, stroke=1, fill=1)
            c.rect(w - 26, h - 14, 10, 4, stroke=1, fill=1)
            c.setStrokeColorRGB(*rgb["#999999"])
            c.setDash([1, 1])
            c.line(5, 19, w - 5, 19)
            c.setDash([], 0)
            # two text lines (pre-laid-out: bare code does no fitting) + the inline star
            c.setFillColorRGB(*rgb["#000000"])
            c.setStrokeColorRGB(*rgb["#000000"])
            c.setLineWidth(11 * MM_PER_PT * BOLD_STROKE_EM)
            t = c.beginText()
            t.setTextTransform(1, 0, 0, -1, 7, 10.6)
            t.setFont(REGULAR, 11 * MM_PER_PT)
            t.setTextRenderMode(2)
            t.textOut(f"Card {i}")
            t.setTextRenderMode(0)
            c.drawText(t)
            t = c.beginText()
            t.setTextTransform(1, 0, 0, -1, 7, h - 20.4)
            t.setFont(REGULAR, 8 * MM_PER_PT)
            t.textOut("Gain")
            c.drawText(t)
            star_path = c.beginPath()
            for j, (sx, sy) in enumerate(star.points):  # type: ignore[union-attr]
                x, y = 14 + sx * 2, h - 22.4 + sy * 2
                star_path.moveTo(x, y) if j == 0 else star_path.lineTo(x, y)
            star_path.close()
            c.drawPath(star_path, stroke=0, fill=1)
            t = c.beginText()
            t.setTextTransform(1, 0, 0, -1, 16.6, h - 20.4)
            t.setFont(REGULAR, 8 * MM_PER_PT)
            t.textOut("when")
            c.drawText(t)
            t = c.beginText()
            t.setTextTransform(1, 0, 0, -1, 24.0, h - 20.4)
            t.setFont(ITALIC, 8 * MM_PER_PT)
            t.textOut(f"card {i}")
            c.drawText(t)
            t = c.beginText()
            t.setTextTransform(1, 0, 0, -1, 36.0, h - 20.4)
            t.setFont(REGULAR, 8 * MM_PER_PT)
            t.textOut("is played.")
            c.drawText(t)
            # the stamp our pipeline adds
            c.setFillColorRGB(*rgb["#707070"])
            t = c.beginText()
            t.setTextTransform(1, 0, 0, -1, 20.0, h - 0.9)
            t.setFont(REGULAR, 4.5 * MM_PER_PT)
            t.textOut(f"bench v1 · seed 1 · #{i + 1}")
            c.drawText(t)
            c.restoreState()
        # crop marks, as ours
        c.saveState()
        c.transform(k, 0, 0, -k, 0, sheet.height * k)
        c.setStrokeColorRGB(*rgb["#000000"])
        c.setLineWidth(0.1)
        for m in sheet.marks:
            c.line(m.x1, m.y1, m.x2, m.y2)  # type: ignore[union-attr]
        c.restoreState()
        c.showPage()
    c.save()


def _child(mode: str, n: int) -> None:
    # import everything first: both runs time drawing, not module loading
    import render_samples  # noqa: F401 - in tests/ (on sys.path above)

    import generator.render.writers
    from generator.render.fonts import register_fonts

    register_fonts()
    del generator
    comps = _cards(n)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{mode}.pdf"
        start, cpu = time.perf_counter(), time.process_time()
        (_ours if mode == "ours" else _bare)(comps, out)
        wall = time.perf_counter() - start
        # CPU time of this process: what the work costs, less disturbed than wall time by
        # other jobs on a shared machine
        seconds = time.process_time() - cpu
        size = out.stat().st_size
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"mode": mode, "n": n, "seconds": seconds, "wall": wall, "bytes": size,
                      "peak_mb": peak_kb / 1024}))


def _run(mode: str, n: int) -> dict[str, float]:
    proc = subprocess.run([sys.executable, __file__, "--child", mode, str(n)],
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        _child(argv[1], int(argv[2]))
        return
    sizes = [int(a) for a in argv] or [1000, 10000]
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, {platform.system()}")
    repeats = 3
    print(f"best of {repeats} interleaved runs each (the machine is shared; the minimum is the "
          "least disturbed)")
    for n in sizes:
        runs: dict[str, list[dict[str, float]]] = {"ours": [], "bare": []}
        for _ in range(repeats):
            for mode in ("ours", "bare"):
                runs[mode].append(_run(mode, n))
        ours = min(runs["ours"], key=lambda r: r["seconds"])
        bare = min(runs["bare"], key=lambda r: r["seconds"])
        for name, r in (("ours", ours), ("bare", bare)):
            print(f"{n if name == 'ours' else '':>6} cards  {name} {r['seconds']:7.2f} s cpu "
                  f"({r['wall']:6.2f} s wall) = {n / r['seconds']:6.0f} cards/s  "
                  f"peak {r['peak_mb']:5.0f} MB  pdf {r['bytes'] / 1e6:5.1f} MB")
        print(f"{'':>6}        ratio ours/bare: {ours['seconds'] / bare['seconds']:.2f}x "
              "(goal <= 1.5x)")


if __name__ == "__main__":
    main(sys.argv[1:])
