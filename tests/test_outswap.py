"""The output swap is atomic: whatever stops a build (Ctrl-C, SIGTERM, SIGKILL, a fault
between the two renames, a later deck of a multi-deck build failing), each deck folder is
wholly the previous output or wholly the new one, and the next build leaves no litter."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from generator import cli, outswap
from generator.build import build_deck
from generator.deckfile import load_deck
from generator.errors import UsageError
from tests.clirun import run_cli

DECK = 'family = "cards"\nname = "c"\n[print]\nduplex = "none"\n[[cards.rows]]\ntitle = "{}"\n'

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _litter(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name.startswith("."))


@pytest.fixture
def built(tmp_path: Path) -> Iterator[tuple[Path, Path, dict[str, bytes]]]:
    """A deck built once into ``out/c`` (the previous output), then edited so a second build
    would change the files; yields (deck path, output root, snapshot of the old output)."""
    deck = tmp_path / "c.toml"
    deck.write_text(DECK.format("Old title"), encoding="utf-8")
    out = tmp_path / "out"
    build_deck(load_deck(deck), out)
    old = _snapshot(out / "c")
    assert old and _litter(out) == []
    deck.write_text(DECK.format("New title"), encoding="utf-8")
    yield deck, out, old
    outswap.between_steps = None
    outswap.force_two_renames = False


def _stop_at(stage: str, action: Callable[[], None]) -> Callable[[str, int, int], None]:
    def progress(label: str, done: int, total: int) -> None:
        if label == stage:
            action()
    return progress


def _interrupt() -> None:
    raise KeyboardInterrupt


def test_sigint_mid_build_keeps_the_old_output(built: tuple[Path, Path, dict[str, bytes]]
                                               ) -> None:
    deck, out, old = built
    with pytest.raises(KeyboardInterrupt):
        build_deck(load_deck(deck), out, progress=_stop_at("index.html", _interrupt))
    assert _snapshot(out / "c") == old and _litter(out) == []


def test_sigterm_is_treated_like_sigint(built: tuple[Path, Path, dict[str, bytes]]) -> None:
    deck, out, old = built
    with pytest.raises(KeyboardInterrupt), cli._terminate_as_interrupt():
        build_deck(load_deck(deck), out,
                   progress=_stop_at("index.html", lambda: os.kill(os.getpid(), signal.SIGTERM)))
    assert _snapshot(out / "c") == old and _litter(out) == []
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def _killed_child(deck: Path, out: Path, stage: str | None, two_renames: bool) -> None:
    """Fork; the child builds and SIGKILLs itself at ``stage`` (or between the renames)."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            outswap.force_two_renames = two_renames
            die = lambda *_: os.kill(os.getpid(), signal.SIGKILL)  # noqa: E731
            if stage is None:
                outswap.between_steps = die
                build_deck(load_deck(deck), out)
            else:
                build_deck(load_deck(deck), out, progress=_stop_at(stage, die))
        finally:
            os._exit(7)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


@needs_fork
def test_sigkill_mid_write_keeps_the_old_output_and_the_next_build_sweeps(
        built: tuple[Path, Path, dict[str, bytes]]) -> None:
    deck, out, old = built
    _killed_child(deck, out, "index.html", two_renames=False)
    assert _snapshot(out / "c") == old
    assert [n for n in _litter(out) if n.endswith(".tmp")]  # the dead build's staging folder
    build_deck(load_deck(deck), out)
    assert _litter(out) == [] and _snapshot(out / "c") != old


@needs_fork
def test_sigkill_right_after_the_exchange_leaves_the_new_output_whole(
        built: tuple[Path, Path, dict[str, bytes]]) -> None:
    deck, out, old = built
    _killed_child(deck, out, None, two_renames=False)
    new = _snapshot(out / "c")
    assert new != old and b"New title" in b"".join(new.values())
    build_deck(load_deck(deck), out)
    assert _litter(out) == [] and _snapshot(out / "c") == new


@needs_fork
def test_sigkill_between_two_renames_is_restored_by_the_next_build(
        built: tuple[Path, Path, dict[str, bytes]]) -> None:
    deck, out, old = built
    _killed_child(deck, out, None, two_renames=True)
    # the old output survives whole under its old name; any later build puts it back first
    olds = [n for n in _litter(out) if ".old." in n]
    assert olds and _snapshot(out / olds[0]) == old
    outswap.sweep(out, "c")
    assert _snapshot(out / "c") == old and _litter(out) == []
    build_deck(load_deck(deck), out)
    assert _litter(out) == [] and _snapshot(out / "c") != old


def test_a_fault_between_the_renames_restores_the_old_output(
        built: tuple[Path, Path, dict[str, bytes]]) -> None:
    deck, out, old = built
    outswap.force_two_renames = True

    def fault(step: str) -> None:
        raise OSError(28, "No space left on device")

    outswap.between_steps = fault
    status, _, err = run_cli("build", str(deck), "-o", str(out))
    assert status == 3 and "No space left" in err
    assert _snapshot(out / "c") == old and _litter(out) == []


def test_a_later_deck_failing_names_it_and_leaves_each_folder_whole(tmp_path: Path) -> None:
    out = tmp_path / "out"
    good, bad = tmp_path / "a.toml", tmp_path / "b.toml"
    good.write_text(DECK.format("A1").replace('name = "c"', 'name = "a"'), encoding="utf-8")
    bad.write_text(DECK.format("B1").replace('name = "c"', 'name = "b"'), encoding="utf-8")
    assert run_cli("build", str(good), str(bad), "-o", str(out))[0] == 0
    old_b = _snapshot(out / "b")
    good.write_text(DECK.format("A2").replace('name = "c"', 'name = "a"'), encoding="utf-8")
    # b's text now cannot fit its card at the minimum size: build fails for b only
    bad.write_text(DECK.format("B " * 3000).replace('name = "c"', 'name = "b"'),
                   encoding="utf-8")
    status, _, err = run_cli("build", str(good), str(bad), "-o", str(out))
    assert status != 0 and f"{bad}" in err and "1 of 2 decks failed" in err, err
    assert b"A2" in b"".join(_snapshot(out / "a").values())
    assert _snapshot(out / "b") == old_b and _litter(out) == []


def test_dot_and_empty_folder_names_are_refused(tmp_path: Path) -> None:
    for name in ("", ".", "..", ".hidden", "a/b", "../x"):
        with pytest.raises(UsageError):
            outswap.check_folder_name(name)
    # a deck file called ..toml builds into its deck name, never into the output root
    (tmp_path / "out" / "other").mkdir(parents=True)
    (tmp_path / "out" / "other" / "keep.txt").write_text("x", encoding="utf-8")
    deck = tmp_path / "..toml"
    deck.write_text(DECK.format("T"), encoding="utf-8")
    assert run_cli("build", str(deck), "-o", str(tmp_path / "out"))[0] == 0
    assert (tmp_path / "out" / "other" / "keep.txt").exists()
    assert (tmp_path / "out" / "c" / "index.html").exists()


def test_only_dead_builds_litter_is_swept(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    dead = out / ".c.999999999.0123abcd.tmp"
    legacy = out / ".c.k3j2h1g0.tmp"
    mine = out / f".c.{os.getpid()}.89abcdef.tmp"
    other = out / ".d.999999999.0123abcd.tmp"
    for folder in (dead, legacy, mine, other):
        folder.mkdir()
    outswap.sweep(out, "c")
    assert sorted(p.name for p in out.iterdir()) == sorted([mine.name, other.name])
