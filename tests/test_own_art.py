"""A designer's own art: PNG and SVG images on cards and backs, an icon folder whose files
become :name: symbols, CSV rows as designers write them, and every bad file a located error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdfium2
import pytest
from clirun import run_cli as run
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent
OWN = ROOT / "tests" / "decks" / "own-art"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("own")
    code, _, err = run("build", str(OWN / "own-art.toml"), "-o", str(out))
    assert code == 0, err
    return out / "own-art"


def _page_rgb(pdf: Path, page: int, u: float, v: float) -> tuple[int, int, int]:
    doc = pypdfium2.PdfDocument(str(pdf))
    im = doc[page].render(scale=2).to_pil().convert("RGB")
    px = im.getpixel((int(u * (im.width - 1)), int(v * (im.height - 1))))
    assert isinstance(px, tuple)
    return (int(px[0]), int(px[1]), int(px[2]))


def _near(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def test_png_back_and_cover_art_print(built: Path) -> None:
    pod = built / "pod.pdf"
    assert len(PdfReader(str(pod)).pages) == 8  # 4 fronts + 4 backs
    # the back image's dark squares fill the whole back, into the bleed
    assert _near(_page_rgb(pod, 1, 0.02, 0.02), (30, 50, 80)) or \
        _near(_page_rgb(pod, 1, 0.02, 0.02), (60, 90, 130))
    # card-03's picture covers its frame: the sun's yellow sits in the frame's middle
    doc = pypdfium2.PdfDocument(str(pod))
    im = doc[6].render(scale=2).to_pil().convert("RGB")
    yellow = sum(1 for x in range(0, im.width, 4) for y in range(0, im.height // 2, 4)
                 if _near(im.getpixel((x, y)), (255, 230, 90), 30))  # type: ignore[arg-type]
    assert yellow > 50


def test_svg_art_stays_vector(built: Path) -> None:
    reader = PdfReader(str(built / "pod.pdf"))
    page = reader.pages[4]  # card-03 front: the SVG tower, :leaf: (SVG) and :sun: (PNG)
    content = page.get_contents().get_data().decode("latin-1")
    assert ".690196 .227451 .180392 rg" in content  # the tower roof #b03a2e, a vector fill
    xobjects = page["/Resources"].get("/XObject", {})
    images = [k for k, v in xobjects.items() if v.get_object()["/Subtype"] == "/Image"]
    assert len(images) == 1  # only the PNG icon is a raster image
    svg = (built / "svg" / "card-03.svg").read_text(encoding="utf-8")
    assert "data:image/svg+xml;base64," in svg and "data:image/png;base64," in svg


def test_icons_and_csv_line_breaks(built: Path) -> None:
    report = json.loads((built / "report.json").read_text(encoding="utf-8"))
    assert [c["name"] for c in report["components"]] == ["Закат", "Szótár", "Река", "Холм"]
    # language = "ru": the stamp speaks Russian
    assert "own-art v1 · сид 3 · #1 card-01" in (built / "svg" / "card-01.svg").read_text(
        encoding="utf-8")
    from generator.build import check_deck, laid_out
    from generator.deckfile import load_deck
    from generator.render.flatten import Text, flatten

    comps = laid_out(check_deck(load_deck(OWN / "own-art.toml")))
    runs = [t for t in flatten(comps[2].front) if isinstance(t, Text)]
    lines = {round(t.y, 2): t.text for t in runs}
    # "Первая строка\nвторая строка" from the CSV: two lines, no literal backslash
    assert not any("\\" in t.text for t in runs)
    assert len({y for y, text in lines.items() if "строка" in text}) == 2


def _deck(tmp_path: Path, body: str, csv: str | None = None) -> Path:
    shutil.copytree(OWN / "art", tmp_path / "art")
    shutil.copytree(OWN / "icons", tmp_path / "icons")
    if csv is not None:
        (tmp_path / "rows.csv").write_text(csv, encoding="utf-8")
    deck = tmp_path / "d.toml"
    deck.write_text('family = "cards"\nname = "d"\n' + body, encoding="utf-8")
    return deck


def test_bad_images_are_located_errors(tmp_path: Path) -> None:
    deck = _deck(tmp_path, '[art]\nicons = "icons"\nback = "../outside.png"\n'
                 '[[cards.rows]]\ntitle = "a"\nimage = "art/none.png"\n'
                 '[[cards.rows]]\ntitle = "b"\nimage = "art/broken.png"\n'
                 '[[cards.rows]]\ntitle = "c"\ntext = ":leaf: :sun: :nosuch:"\n')
    (tmp_path / "art" / "broken.png").write_bytes(b"not a png at all")
    code, _, err = run("check", str(deck))
    assert code == 2
    assert "d.toml:5: art.back: the image path '../outside.png' leads outside" in err
    assert "d.toml:8: cards.rows[0].image: the image 'art/none.png' does not exist" in err
    assert "d.toml:11: cards.rows[1].image: the image 'art/broken.png' cannot be used: " \
        "it is not a readable PNG image" in err
    assert "d.toml:14: cards.rows[2].text: unknown inline symbol :nosuch:" in err
    assert ":leaf:" not in err.split("nosuch")[0]  # the folder's icons are known symbols
    assert "4 problems found" in err


def test_csv_problems_all_at_their_lines(tmp_path: Path) -> None:
    deck = _deck(tmp_path, '[cards]\ncsv = "rows.csv"\n',
                 'count,title,text,icons,image\n'
                 '1,A,"one\\ntwo",leaf,art/tower.svg\n'
                 '2,B\n'
                 '1,C,"two\nlines",nosuch,\n'
                 'many,D,x,,\n'
                 '1,E,x,,art/gone.svg\n')
    code, _, err = run("check", str(deck))
    assert code == 2
    assert "rows.csv:3: cards.csv: this row has 2 field(s) of 5; column 'text' is missing" \
        in err
    assert "rows.csv:4: cards.csv.icons: unknown symbol 'nosuch'" in err
    assert "rows.csv:6: cards.csv.count:" in err
    assert "rows.csv:7: cards.csv.image: the image 'art/gone.svg' does not exist" in err
    assert "4 problems found" in err


def test_deck_font_embedded_and_fallback(built: Path) -> None:
    reader = PdfReader(str(built / "pod.pdf"))

    def fonts(page: int) -> set[str]:
        res = reader.pages[page]["/Resources"]["/Font"]
        return {str(f.get_object()["/BaseFont"]).split("+")[-1] for f in res.values()}

    # card-01 (Russian): set in the deck's own font, embedded as a subset
    assert "OwnArtDisplay-ExtraBoldCondensed" in fonts(0)
    svg = (built / "svg" / "card-01.svg").read_text(encoding="utf-8")
    assert "font-family=\"'Own Art Display', 'Noto Sans', sans-serif\"" in svg
    # card-02 (Hungarian ó, ő, ű): the deck font lacks them, Noto Sans sets those texts
    svg = (built / "svg" / "card-02.svg").read_text(encoding="utf-8")
    assert "Own Art Display" not in svg and ">Szótár<" in svg


def test_glyph_no_font_has_is_an_error_naming_the_card(tmp_path: Path) -> None:
    shutil.copytree(OWN / "fonts", tmp_path / "fonts")
    deck = _deck(tmp_path, '[fonts]\nbody = "fonts/OwnArtDisplay.ttf"\n'
                 '[[cards.rows]]\ntitle = "ok"\ntext = "漢字"\n')
    code, _, err = run("check", str(deck))
    assert code == 1
    out = run("check", str(deck))[1]
    assert "card-01 text: no font of the chain has a glyph for '字漢'" in out
    deck = _deck(tmp_path / "b", '[fonts]\ntitle = "fonts/none.ttf"\n'
                 '[[cards.rows]]\ntitle = "ok"\n')
    code, _, err = run("check", str(deck))
    assert code == 2 and "d.toml:4: fonts.title: the font 'fonts/none.ttf' does not exist" in err
