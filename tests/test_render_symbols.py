"""The symbol library: the base set exists, draws ink inside its box, recolours, and
unknown names are errors listing the valid ones."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest

from generator.deck import PrintSettings
from generator.families.base import Component
from generator.render.drawing import Circle, Drawing, Rect, Symbol
from generator.render.flatten import bbox, flatten
from generator.render.impose import Stamp
from generator.render.symbols import (
    BASE_SYMBOLS,
    UnknownSymbolError,
    get_symbol,
    register_symbol,
    symbol_names,
)
from generator.render.writers import write_pod_pdf

REQUIRED = [
    "star", "scissors", "button", "clock", "heart", "water", "tree", "pavilion", "play",
    "wildlife", "recycling", "gardener", "extra-cut", "die", "check", "cross", "coin", "house",
    "fence", "pool", "park", "worker", "bis", "refusal",
]


def test_base_set_is_complete() -> None:
    assert set(REQUIRED) <= set(BASE_SYMBOLS)
    assert set(BASE_SYMBOLS) <= set(symbol_names())


@pytest.mark.parametrize("name", REQUIRED)
def test_symbol_stays_in_its_unit_box(name: str) -> None:
    flat = flatten(Drawing(10, 10, (Symbol(name, 0, 0, 10),)))
    assert flat
    for it in flat:
        x0, y0, x1, y1 = bbox(it)
        assert x0 >= -0.3 and x1 <= 10.3 and y0 >= -0.3 and y1 <= 10.3, (name, it)


def test_every_symbol_draws_ink_in_its_box_and_they_differ() -> None:
    """Rasterise all symbols on one card: each leaves ink in its own cell, and no two
    symbols leave the same pixels (they can be told apart)."""
    cell, size = 10.0, 8.0
    items = tuple(Symbol(n, 1 + (k % 6) * cell, 1 + (k // 6) * cell, size)
                  for k, n in enumerate(REQUIRED))
    comp = Component("s", "card", "Symbols", Drawing(63.5, 88.9, items))
    buf = io.BytesIO()
    write_pod_pdf([comp], PrintSettings(stamp=False), Stamp("s", "1", 1), buf)
    dpi = 200
    img = pdfium.PdfDocument(buf.getvalue())[0].render(scale=dpi / 72).to_pil().convert("1")
    px = dpi / 25.4
    seen: dict[bytes, str] = {}
    for k, name in enumerate(REQUIRED):
        x, y = 1 + (k % 6) * cell, 1 + (k // 6) * cell
        crop = img.crop((round(x * px), round(y * px), round((x + size) * px),
                         round((y + size) * px)))
        dark = crop.histogram()[0] / (crop.width * crop.height)
        assert 0.05 < dark < 0.9, (name, dark)
        key = crop.tobytes()
        assert key not in seen, f"{name} looks exactly like {seen.get(key)}"
        seen[key] = name


def test_recolour_keeps_paper_knockouts() -> None:
    flat = flatten(Drawing(10, 10, (Symbol("die", 0, 0, 10, "#ff0000"),)))
    fills = {getattr(it, "fill", None) for it in flat}
    assert fills == {"#ff0000", "#ffffff"}


def test_unknown_symbol_lists_valid_names() -> None:
    with pytest.raises(UnknownSymbolError) as err:
        get_symbol("unicorn")
    msg = str(err.value)
    assert "unicorn" in msg and "star" in msg and "water" in msg


def test_register_custom_symbol() -> None:
    register_symbol("test-dot", (Circle(0.5, 0.5, 0.3, fill="#000000"),))
    flat = flatten(Drawing(20, 20, (Symbol("test-dot", 5, 5, 10),)))
    (c,) = flat
    assert isinstance(c, Circle) and (c.cx, c.cy, c.r) == pytest.approx((10, 10, 3))
    with pytest.raises(ValueError):
        register_symbol("Bad Name", (Rect(0, 0, 1, 1, fill="#000000"),))
