"""Safe file access: every path a deck names stays in the deck's folder, is a regular file
under a size cap, and its contents never reach an error message. Each probe an attacker (or
a careless copy-paste) tries is refused with a located exit-2 error, never read."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from generator.errors import DeckError
from generator.safepath import (
    decode_utf8,
    read_bytes_inside,
    read_regular_file,
    resolve_inside,
)
from tests.clirun import run_cli

SECRET = "TOP-SECRET-LINE-1,title"
"""The first line of every file outside the deck folder the probes point at: it must never
appear in any output (the old loader echoed a CSV's header as an 'unknown column')."""


def _cards_deck(folder: Path, csv_path: str) -> Path:
    deck = folder / "d.toml"
    deck.write_text(f'family = "cards"\nname = "c"\n\n[cards]\ncsv = {csv_path!r}\n'
                    .replace("'", '"'), encoding="utf-8")
    return deck


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """A deck folder ``deck/`` and, beside it, a secret file outside it."""
    deck_dir = tmp_path / "deck"
    deck_dir.mkdir()
    secret = tmp_path / "secret.csv"
    secret.write_text(SECRET + "\n1,x\n", encoding="utf-8")
    return deck_dir, secret


def _refused(deck: Path, code: str) -> str:
    status, out, err = run_cli("check", str(deck))
    assert status == 2, (out, err)
    assert "Traceback" not in err
    assert SECRET not in out + err and "root:" not in err
    # located at the deck's csv = line, with the stable code
    assert f"{deck}:5: cards.csv:" in err, err
    assert f"[{code}]" in err, err
    return err


def test_absolute_path_is_refused(layout: tuple[Path, Path]) -> None:
    deck_dir, secret = layout
    _refused(_cards_deck(deck_dir, str(secret)), "E-PATH-OUTSIDE")
    _refused(_cards_deck(deck_dir, "/etc/passwd"), "E-PATH-OUTSIDE")


def test_dot_dot_path_is_refused(layout: tuple[Path, Path]) -> None:
    deck_dir, _ = layout
    _refused(_cards_deck(deck_dir, "../secret.csv"), "E-PATH-OUTSIDE")
    _refused(_cards_deck(deck_dir, "../../../../etc/passwd"), "E-PATH-OUTSIDE")
    # going out and back in is fine: the real path is inside
    (deck_dir / "rows.csv").write_text("title\nA\n", encoding="utf-8")
    status, _, err = run_cli("check", str(_cards_deck(deck_dir, "../deck/rows.csv")))
    assert status == 0, err


def test_symlink_out_of_the_folder_is_refused(layout: tuple[Path, Path]) -> None:
    deck_dir, secret = layout
    (deck_dir / "rows.csv").symlink_to(secret)
    _refused(_cards_deck(deck_dir, "rows.csv"), "E-PATH-OUTSIDE")
    # a symlinked folder pointing out is refused the same way
    (deck_dir / "sub").symlink_to(secret.parent)
    _refused(_cards_deck(deck_dir, "sub/secret.csv"), "E-PATH-OUTSIDE")


def test_proc_self_environ_is_refused(layout: tuple[Path, Path]) -> None:
    deck_dir, _ = layout
    os.environ["PAPERPROOF_PROBE"] = SECRET
    try:
        _refused(_cards_deck(deck_dir, "/proc/self/environ"), "E-PATH-OUTSIDE")
        (deck_dir / "env.csv").symlink_to("/proc/self/environ")
        _refused(_cards_deck(deck_dir, "env.csv"), "E-PATH-OUTSIDE")
    finally:
        del os.environ["PAPERPROOF_PROBE"]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_dev_zero_is_refused_not_read(layout: tuple[Path, Path]) -> None:
    deck_dir, _ = layout
    _refused(_cards_deck(deck_dir, "/dev/zero"), "E-PATH-OUTSIDE")
    # even inside the folder (a device node reached by a name in it) it is not a file:
    # resolve_inside judges the real path, so test the descriptor check directly too
    with pytest.raises(DeckError) as info:
        read_regular_file(Path("/dev/zero"), what="deck file", max_bytes=1000)
    assert info.value.problems[0].code == "E-PATH-NOT-FILE"
    assert "a device" in info.value.problems[0].message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_inside_the_folder_is_refused_without_blocking(layout: tuple[Path, Path]) -> None:
    deck_dir, _ = layout
    os.mkfifo(deck_dir / "rows.csv")
    err = _refused(_cards_deck(deck_dir, "rows.csv"), "E-PATH-NOT-FILE")
    assert "a FIFO" in err


def test_a_folder_and_a_missing_file_are_located(layout: tuple[Path, Path]) -> None:
    deck_dir, _ = layout
    (deck_dir / "rows").mkdir()
    _refused(_cards_deck(deck_dir, "rows"), "E-PATH-NOT-FILE")
    _refused(_cards_deck(deck_dir, "nosuch.csv"), "E-PATH-MISSING")


def test_size_cap_is_enforced(tmp_path: Path) -> None:
    (tmp_path / "big.csv").write_bytes(b"x" * 101)
    with pytest.raises(DeckError) as info:
        read_bytes_inside(tmp_path, "big.csv", what="the CSV file", max_bytes=100,
                          key=("cards", "csv"))
    [p] = info.value.problems
    assert p.code == "E-PATH-TOO-BIG" and p.path == ("cards", "csv")
    assert read_bytes_inside(tmp_path, "big.csv", what="x", max_bytes=101) == b"x" * 101


def test_folders_resolve_inside_only(tmp_path: Path) -> None:
    (tmp_path / "icons").mkdir()
    assert resolve_inside(tmp_path, "icons", what="the icon folder", max_bytes=None,
                          directory=True) == (tmp_path / "icons").resolve()
    with pytest.raises(DeckError):
        resolve_inside(tmp_path / "icons", "..", what="the icon folder", max_bytes=None,
                       directory=True)


class _Hung(Exception):
    pass


def _run_bounded(*args: str, cwd: Path) -> tuple[int, str]:
    """Run the CLI in-process under a 20 s alarm: a FIFO opened for reading would block
    forever, and the alarm turns that hang into a test failure instead of a stuck suite."""
    def on_alarm(signum: int, frame: object) -> None:
        raise _Hung(f"paperproof {' '.join(args)} blocked")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(20)
    try:
        status, _, err = run_cli(*args, cwd=cwd)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return status, err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_or_dev_zero_as_deck_or_score_file_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "deck.toml")
    status, err = _run_bounded("check", "deck.toml", cwd=tmp_path)
    assert status == 2 and "a FIFO, not a regular file" in err, err
    status, err = _run_bounded("check", "/dev/zero", cwd=tmp_path)
    assert status == 2 and "a device, not a regular file" in err, err
    deck = tmp_path / "good.toml"
    deck.write_text('family = "cards"\nname = "c"\n[[cards.rows]]\ntitle = "A"\n',
                    encoding="utf-8")
    status, err = _run_bounded("score", "good.toml", "deck.toml", cwd=tmp_path)
    assert status == 2 and "score file" in err and "FIFO" in err, err


def test_deck_file_encoding_bad_byte_is_located_and_bom_accepted(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    body = 'family = "cards"\nname = "c"\n[[cards.rows]]\ntitle = "A\xe9"\n'
    deck.write_bytes(b"\xef\xbb\xbf" + body.encode("utf-8"))
    status, _, err = run_cli("check", str(deck))
    assert status == 0, err
    deck.write_bytes(body.encode("latin-1"))
    status, _, err = run_cli("check", str(deck))
    assert status == 2 and f"{deck}:4:" in err and "not UTF-8" in err, err
    assert "[E-FILE-ENCODING]" in err


def test_csv_encoding_and_bom(tmp_path: Path) -> None:
    (tmp_path / "rows.csv").write_bytes(b"\xef\xbb\xbftitle,text\nA,ok\nB,caf\xe9\n")
    status, _, err = run_cli("check", str(_cards_deck(tmp_path, "rows.csv")))
    assert status == 2 and "rows.csv:3:" in err and "not UTF-8" in err, err
    (tmp_path / "rows.csv").write_bytes(b"\xef\xbb\xbftitle,text\nA,ok\n")
    status, _, err = run_cli("check", str(_cards_deck(tmp_path, "rows.csv")))
    assert status == 0, err


def test_csv_unknown_column_is_named_by_position_not_echoed(tmp_path: Path) -> None:
    (tmp_path / "rows.csv").write_text("title,titel\nA,B\n", encoding="utf-8")
    status, _, err = run_cli("check", str(_cards_deck(tmp_path, "rows.csv")))
    assert status == 2 and "rows.csv:1:" in err and "column 2 of the header" in err
    assert "did you mean 'title'" in err and "titel" not in err


def test_decode_reports_line_and_column() -> None:
    with pytest.raises(DeckError) as info:
        decode_utf8(b"a\nbb\nc\xffd\n", file="f.txt")
    [p] = info.value.problems
    assert (p.file, p.line) == ("f.txt", 3) and "column 2" in p.message
