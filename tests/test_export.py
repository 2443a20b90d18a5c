"""PNG and Tabletop Simulator exports, rendered from pod.pdf: named by card name, sized by
dpi, face sheets within TTS's limits, a saved object whose local URLs point at real files."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

from clirun import run_cli as run
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
OWN = str(ROOT / "tests" / "decks" / "own-art" / "own-art.toml")


def test_png_per_face_named_and_sized(tmp_path: Path) -> None:
    code, _, err = run("build", OWN, "-o", str(tmp_path), "--png", "100")
    assert code == 0, err
    png = tmp_path / "own-art" / "png"
    names = sorted(p.name for p in png.iterdir())
    assert names[:2] == ["001-card-01-закат-back.png", "001-card-01-закат.png"]
    assert len(names) == 8
    with Image.open(png / "003-card-03-река.png") as im:
        # a poker card, trimmed: 63.5 x 88.9 mm at 100 dpi
        assert abs(im.width - 63.5 / 25.4 * 100) <= 1 and abs(im.height - 88.9 / 25.4 * 100) <= 1
        top = im.convert("RGB").getpixel((im.width // 2, 3))
        assert top == (43, 108, 176) or sum(abs(a - b) for a, b in zip(
            top, (43, 108, 176), strict=True)) < 30  # the header band runs to the trim
    code, _, err = run("build", OWN, "-o", str(tmp_path / "b"), "--png", "100", "--png-bleed")
    with Image.open(tmp_path / "b" / "own-art" / "png" / "003-card-03-река.png") as im:
        assert abs(im.width - (63.5 + 6) / 25.4 * 100) <= 1
    code, _, err = run("build", OWN, "-o", str(tmp_path / "c"), "--png", "5")
    assert code == 2 and "--png" in err and not (tmp_path / "c" / "own-art").exists()


def test_tts_saved_object(tmp_path: Path) -> None:
    """The issue's whole deck end to end: own PNG and SVG art, an icon folder, a TTF font,
    Russian labels and a CSV -> every output, PNGs and a TTS saved object."""
    code, _, err = run("build", OWN, "-o", str(tmp_path), "--tts", "--png", "72")
    assert code == 0, err
    folder = tmp_path / "own-art"
    for name in ("sheets.pdf", "pod.pdf", "cut.svg", "report.json", "index.html",
                 "svg/card-01.svg", "svg/card-01-back.svg", "png/001-card-01-закат.png"):
        assert (folder / name).stat().st_size > 0, name
    tts = tmp_path / "own-art" / "tts"
    saved = json.loads((tts / "own-art.json").read_text(encoding="utf-8"))
    [deck] = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom"
    # 1 + 1 + 2 + 1 copies; card ids are sheet * 100 + position on the sheet
    assert deck["DeckIDs"] == [100, 101, 102, 102, 103]
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == ["Закат", "Szótár", "Река", "Река",
                                                                 "Холм"]
    sheet = deck["CustomDeck"]["1"]
    assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
    for key in ("FaceURL", "BackURL"):
        path = Path(unquote(urlparse(sheet[key]).path))
        assert path.is_file(), path
        with Image.open(path) as im:
            assert max(im.size) <= 4096
            if key == "FaceURL":
                assert im.width % sheet["NumWidth"] == 0 and im.height % sheet["NumHeight"] == 0
