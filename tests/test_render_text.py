"""Text layout: markup, wrapping, shrink-to-fit on both axes, errors naming the owner,
inline symbols on the baseline."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import LayoutError
from generator.render.drawing import TextBox
from generator.render.fonts import metrics, text_width
from generator.render.symbols import UnknownSymbolError
from generator.render.text import STEP, layout_text, parse_markup, plain_text
from generator.units import MM_PER_PT


def test_markup_styles_icons_and_breaks() -> None:
    paras = parse_markup("a **b*c*** :water: d\\*e\nnext")
    assert len(paras) == 2
    words = paras[0]
    assert [p.text for p in words[0]] == ["a"]
    assert [(p.text, p.bold, p.italic) for p in words[1]] == [("b", True, False),
                                                               ("c", True, True)]
    assert words[2][0].icon == "water"
    assert [p.text for p in words[3]] == ["d*e"]
    assert plain_text("**Hello** *big* :star: world") == "Hello big world"


def test_unknown_symbol_lists_valid_names() -> None:
    with pytest.raises(UnknownSymbolError) as err:
        parse_markup("take :wombat: now")
    assert "wombat" in str(err.value) and "water" in str(err.value)
    # a time of day is not a symbol
    assert plain_text("at 10:30: go") == "at 10:30: go"


def test_text_that_fits_keeps_its_size_and_wraps_to_width() -> None:
    box = TextBox(0, 0, 40, 30, "one two three four five six seven eight nine ten", size=10)
    lay = layout_text(box)
    assert lay.size == 10
    assert lay.lines > 1
    for run in lay.runs:
        assert run.x >= -1e-9 and run.x + run.width <= 40 + 1e-6
    # the widths are the font's: the first run measures exactly like the font says
    first = lay.runs[0]
    assert first.width == pytest.approx(text_width(first.text, 10 * MM_PER_PT))


def test_shrinks_on_width_for_a_long_word() -> None:
    box = TextBox(0, 0, 20, 30, "Incomprehensibilities", size=12, min_size=4)
    lay = layout_text(box)
    assert lay.size < 12
    assert lay.size * 4 == int(lay.size * 4)  # 0.25 pt steps
    assert lay.runs[0].width <= 20 + 1e-6
    # one step larger would not fit
    bigger = (lay.size + STEP) * MM_PER_PT
    assert text_width("Incomprehensibilities", bigger) > 20


def test_shrinks_on_height() -> None:
    text = "\n".join(["line"] * 6)
    box = TextBox(0, 0, 50, 20, text, size=12, min_size=4, line_height=1.2)
    lay = layout_text(box)
    assert lay.lines == 6
    assert 6 * 1.2 * lay.size * MM_PER_PT <= 20 + 1e-6
    assert 6 * 1.2 * (lay.size + STEP) * MM_PER_PT > 20


def test_error_names_the_owner_when_it_cannot_fit() -> None:
    box = TextBox(0, 0, 10, 3, "far too much text for a tiny box " * 3, size=9, min_size=6,
                  owner="card 7 (Harbour)")
    with pytest.raises(LayoutError) as err:
        layout_text(box)
    assert "card 7 (Harbour)" in str(err.value)
    assert "6 pt" in str(err.value)


def test_missing_glyph_is_an_error() -> None:
    with pytest.raises(LayoutError) as err:
        layout_text(TextBox(0, 0, 50, 10, "emoji \U0001F600", owner="card 1"))
    assert "card 1" in str(err.value) and "glyph" in str(err.value)


def test_inline_symbol_sits_on_the_baseline_at_cap_height() -> None:
    box = TextBox(0, 0, 60, 10, "pay :coin: now", size=10)
    lay = layout_text(box)
    (sym,) = lay.symbols
    base = lay.runs[0].y
    cap = metrics().cap_height * 10 * MM_PER_PT
    assert sym.y + sym.size == pytest.approx(base)
    assert sym.size == pytest.approx(cap)
    # the symbol sits between "pay" and "now"
    pay, now = lay.runs
    assert pay.x + pay.width < sym.x < sym.x + sym.size < now.x


@pytest.mark.parametrize("align", ["left", "center", "right"])
@pytest.mark.parametrize("valign", ["top", "middle", "bottom"])
def test_alignment(align: str, valign: str) -> None:
    box = TextBox(10, 20, 50, 30, "word", size=10, align=align,  # type: ignore[arg-type]
                  valign=valign)  # type: ignore[arg-type]
    run = layout_text(box).runs[0]
    left, right = run.x - 10, 60 - (run.x + run.width)
    if align == "left":
        assert left == pytest.approx(0)
    elif align == "right":
        assert right == pytest.approx(0)
    else:
        assert left == pytest.approx(right)
    line = 1.2 * 10 * MM_PER_PT
    top_gap = run.y - 20
    if valign == "top":
        assert top_gap < line
    elif valign == "bottom":
        assert 50 - run.y < line
    else:
        assert 20 + 15 - line < run.y < 20 + 15 + line


WORDS = st.lists(st.text(alphabet="abcdefghij őűжя", min_size=1, max_size=9).filter(
    lambda s: s.strip() != ""), min_size=1, max_size=25)


@settings(max_examples=60, deadline=None)
@given(words=WORDS, w=st.floats(15, 80), h=st.floats(5, 60))
def test_laid_out_text_always_inside_its_box(words: list[str], w: float, h: float) -> None:
    """Whatever the text and box, a successful layout keeps every run inside the box and
    keeps the words in order; a failure is a LayoutError, never anything else."""
    text = " ".join(words)
    box = TextBox(5, 5, w, h, text, size=14, min_size=3)
    try:
        lay = layout_text(box)
    except LayoutError:
        return
    em = lay.size * MM_PER_PT
    for run in lay.runs:
        assert run.x >= 5 - 1e-6 and run.x + run.width <= 5 + w + 1e-6
        assert run.y - em * metrics().ascent / (metrics().ascent + metrics().descent) >= 5 - 1e-6
        assert run.y <= 5 + h
    assert " ".join(r.text for r in lay.runs).split() == text.split()
