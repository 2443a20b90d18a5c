"""index.html in a real browser (headless Chromium): the thumbnail grid shows, failing cards
come first and carry the NOT COMPLETABLE mark, and the verdict filter hides them.

Skips only when no ``chromium`` is installed (.ci/run installs Debian's package)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from clirun import run_cli as run
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

RED = (198, 40, 40)
"""The NOT COMPLETABLE band's #c62828."""


def _chromium(tmp: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--no-first-run", f"--user-data-dir={tmp / 'profile'}", "--window-size=1200,1100",
         "--virtual-time-budget=3000", *args, url],
        capture_output=True, text=True, timeout=120, check=False)


def _red_pixels(png: Path) -> int:
    with Image.open(png) as im:
        data = im.convert("RGB").resize((300, 275)).tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for px in pixels if all(abs(a - b) < 30 for a, b in zip(px, RED, strict=True)))


@pytest.fixture(scope="module")
def gallery(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gallery")
    code, _, err = run("build", str(ROOT / "tests/decks/parks-impossible.toml"), "-o",
                       str(out), "--keep-going", "--simulations", "2")
    assert code == 0, err
    return out / "parks-impossible" / "index.html"


def test_grid_shows_failing_first_and_filter_hides_them(gallery: Path, tmp_path: Path) -> None:
    url = gallery.resolve().as_uri()
    dom = _chromium(tmp_path, url, "--dump-dom").stdout
    cards = re.findall(r'<figure id="([^"]+)" class="card( hidden)?"[^>]*data-status="(\w+)"',
                       dom)
    assert len(cards) == 8 and not any(hidden for _, hidden, _ in cards)
    assert [s for _, _, s in cards[:2]] == ["impossible", "impossible"]
    assert "8 shown" in dom
    shot = tmp_path / "all.png"
    _chromium(tmp_path, url, f"--screenshot={shot}")
    assert _red_pixels(shot) > 150  # thumbnails drawn: the two NOT COMPLETABLE bands show

    dom = _chromium(tmp_path, url + "#filter=passing", "--dump-dom").stdout
    cards = re.findall(r'<figure id="([^"]+)" class="card( hidden)?"[^>]*data-status="(\w+)"',
                       dom)
    hidden = {cid for cid, h, _ in cards if h}
    assert hidden == {"park-01", "park-02"} and "6 shown" in dom
    shot = tmp_path / "passing.png"
    _chromium(tmp_path, url + "#filter=passing", f"--screenshot={shot}")
    assert _red_pixels(shot) < 20


def test_distinct_backs_once_and_details(gallery: Path) -> None:
    html = gallery.read_text(encoding="utf-8")
    assert html.count('alt="back 1"') == 1 and 'alt="back 2"' not in html
    assert "back 1: 3 components" in html
    assert "certificate:" in html and "replayed by the rules engine" in html
    assert 'src="svg/proof-park-03.svg" alt="proof page"' in html
    # the printed impossible cards carry the mark too (and the completable one does not)
    svg = gallery.parent / "svg"
    assert "NOT COMPLETABLE" in (svg / "park-01.svg").read_text(encoding="utf-8")
    assert "NOT COMPLETABLE" not in (svg / "park-03.svg").read_text(encoding="utf-8")
