"""Safe file access: every file a deck names stays inside the deck's folder.

A deck is input from anyone (a shared folder, a download), so a path written in it is
untrusted: ``csv = "/etc/passwd"``, ``csv = "../../../../etc/passwd"``, a symlink in the deck
folder pointing out of it, ``/proc/self/environ``, ``/dev/zero`` or a FIFO must not be read.
The rules, the same for every path a deck names (card CSVs now; images, fonts and icon
folders too):

- the path is relative and, after resolving every symlink, lies inside the deck's folder;
- it is a regular file (not a device, FIFO, socket or folder) - checked on the opened file
  descriptor, which is opened non-blocking so a FIFO can never hang the open;
- it is at most ``max_bytes`` long (read stops one byte past the cap, so ``/proc`` files that
  report size 0 cannot exhaust memory either);
- its contents are never echoed in an error: messages name the path as the deck wrote it.

Files named on the command line (the deck file itself, a ``score`` source file) are the
user's own choice and need not sit in any folder, but they too must be regular files under a
cap: :func:`read_regular_file`. Every failure is a :class:`DeckError` (exit 2) carrying the
deck key that named the file, so the loader can add ``file:line``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import DeckError, Problem

KeyPath = tuple[str | int, ...]

MAX_DECK_BYTES = 4 * 1024 * 1024
"""Largest deck file read (4 MiB): the biggest default deck is under 20 KiB, so this leaves
room for huge hand-written decks while a stray multi-gigabyte file is refused at once."""

MAX_CSV_BYTES = 4 * 1024 * 1024
"""Largest card CSV (4 MiB): tens of thousands of rows, far past any printable deck."""

MAX_SCORE_BYTES = 1024 * 1024
"""Largest ``score`` source file (1 MiB): a filled map or sheet is a few KiB."""

_SHOWN_NAME_CHARS = 120
"""A path longer than this is cut in messages (it came from the deck, but a 10,000-character
name would drown the rest of the report)."""

_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _shown(name: str) -> str:
    """The path as written in the deck, quoted, cut, with control characters escaped."""
    cut = name if len(name) <= _SHOWN_NAME_CHARS else name[:_SHOWN_NAME_CHARS] + "..."
    return repr(cut)


def _fail(code: str, key: KeyPath, message: str, hint: str, file: str = "") -> DeckError:
    return DeckError([Problem(code, key, message, hint, file)])


def resolve_inside(base_dir: Path, relative: str, *, what: str, max_bytes: int | None,
                   key: KeyPath = (), directory: bool = False) -> Path:
    """The real path of ``relative`` (a path the deck wrote) inside ``base_dir``.

    ``what`` names the file in messages ("the CSV file", "the image"); ``key`` is the deck
    key that named it (``("cards", "csv")``) so the loader can locate the problem. Raises
    :class:`DeckError` if the path is absolute, leaves the folder (also through a symlink),
    does not exist, is not a regular file (or, with ``directory=True``, not a folder), or is
    larger than ``max_bytes`` (``None``: no size check, used for folders).
    """
    shown = _shown(relative)
    hint = "give a path relative to the deck file's folder, to a file inside it"
    if not relative or "\x00" in relative:
        raise _fail("E-PATH-INVALID", key, f"{what} path {shown} is not a valid file name", hint)
    given = Path(relative)
    if given.is_absolute() or given.drive or given.anchor:
        raise _fail("E-PATH-OUTSIDE", key,
                    f"{what} path {shown} is absolute: a deck may only name files in its "
                    "own folder", hint)
    try:
        base = base_dir.resolve(strict=True)
        target = (base / given).resolve(strict=False)
    except (OSError, RuntimeError, ValueError):
        raise _fail("E-PATH-INVALID", key, f"{what} path {shown} cannot be resolved",
                    hint) from None
    if target != base and not target.is_relative_to(base):
        raise _fail("E-PATH-OUTSIDE", key,
                    f"{what} path {shown} leads outside the deck's folder", hint)
    try:
        info = target.stat()
    except FileNotFoundError:
        raise _fail("E-PATH-MISSING", key, f"{what} {shown} does not exist",
                    "check the spelling; paths are relative to the deck file") from None
    except OSError as exc:
        raise _fail("E-PATH-UNREADABLE", key,
                    f"cannot read {what} {shown}: {exc.strerror or 'error'}", hint) from None
    if directory:
        if not stat.S_ISDIR(info.st_mode):
            raise _fail("E-PATH-NOT-FOLDER", key, f"{what} {shown} is not a folder", hint)
        return target
    _check_regular(info, shown, what, max_bytes, key)
    return target


def _check_regular(info: os.stat_result, shown: str, what: str, max_bytes: int | None,
                   key: KeyPath, file: str = "") -> None:
    if not stat.S_ISREG(info.st_mode):
        kind = ("a folder" if stat.S_ISDIR(info.st_mode) else
                "a FIFO" if stat.S_ISFIFO(info.st_mode) else
                "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else
                "a socket" if stat.S_ISSOCK(info.st_mode) else "not a file")
        raise _fail("E-PATH-NOT-FILE", key, f"{what} {shown} is {kind}, not a regular file",
                    "give the path of an ordinary file", file)
    if max_bytes is not None and info.st_size > max_bytes:
        raise _fail("E-PATH-TOO-BIG", key,
                    f"{what} {shown} is {info.st_size} bytes, more than the {max_bytes} "
                    "allowed", "split it or make it smaller", file)


def _read_capped(path: Path, shown: str, what: str, max_bytes: int, key: KeyPath,
                 file: str = "") -> bytes:
    """Open without following a final symlink and without blocking, check the descriptor is
    a regular file, read at most ``max_bytes`` (one more to detect an overlong file)."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise _fail("E-PATH-MISSING", key, f"{what} {shown} does not exist",
                    "check the path", file) from None
    except OSError as exc:
        raise _fail("E-PATH-UNREADABLE", key,
                    f"cannot read {what} {shown}: {exc.strerror or 'error'}",
                    "check that it is a readable file", file) from None
    try:
        _check_regular(os.fstat(fd), shown, what, max_bytes, key, file)
        chunks: list[bytes] = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise _fail("E-PATH-UNREADABLE", key,
                    f"cannot read {what} {shown}: {exc.strerror or 'error'}",
                    "check that it is a readable file", file) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise _fail("E-PATH-TOO-BIG", key, f"{what} {shown} is more than the {max_bytes} "
                    "bytes allowed", "split it or make it smaller", file)
    return data


def read_bytes_inside(base_dir: Path, relative: str, *, what: str, max_bytes: int,
                      key: KeyPath = ()) -> bytes:
    """The contents of ``relative`` inside ``base_dir``, under the rules of
    :func:`resolve_inside` (checked again on the opened file)."""
    target = resolve_inside(base_dir, relative, what=what, max_bytes=max_bytes, key=key)
    return _read_capped(target, _shown(relative), what, max_bytes, key)


def read_text_inside(base_dir: Path, relative: str, *, what: str, max_bytes: int,
                     key: KeyPath = ()) -> tuple[Path, str]:
    """The real path and UTF-8 text (:func:`decode_utf8`) of ``relative`` inside
    ``base_dir``; the problem of a bad byte names the file itself and its line."""
    target = resolve_inside(base_dir, relative, what=what, max_bytes=max_bytes, key=key)
    data = _read_capped(target, _shown(relative), what, max_bytes, key)
    return target, decode_utf8(data, file=str(target), what=what, key=key)


def read_regular_file(path: Path, *, what: str, max_bytes: int, key: KeyPath = ()) -> bytes:
    """The contents of a file named on the command line (a deck, a score source): it must be
    a regular file of at most ``max_bytes``; a FIFO or ``/dev/zero`` is refused, not read."""
    shown = str(path)
    if "\x00" in shown:
        raise _fail("E-PATH-INVALID", key, f"{what} path {_shown(shown)} is not a valid name",
                    "give the path of an ordinary file")
    try:
        info = path.stat()
    except FileNotFoundError:
        raise _fail("E-PATH-MISSING", key, f"no such {what}", "check the path", shown) from None
    except OSError as exc:
        raise _fail("E-PATH-UNREADABLE", key, f"cannot read the {what}: "
                    f"{exc.strerror or 'error'}", "check the path", shown) from None
    _check_regular(info, f"at {_shown(shown)}", what, max_bytes, key, shown)
    return _read_capped(path.resolve(), f"at {_shown(shown)}", what, max_bytes, key, shown)


def decode_utf8(data: bytes, *, file: str, what: str = "the file", key: KeyPath = ()) -> str:
    """UTF-8 text of ``data`` with a leading byte-order mark dropped (editors on Windows
    write one). A bad byte is reported at its line (never echoing the text)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DeckError([Problem(
            "E-FILE-ENCODING", key,
            f"{what} is not UTF-8: byte 0x{data[exc.start]:02x} at column {column} "
            "cannot be decoded",
            "save the file as UTF-8 (most editors: Save As, Encoding: UTF-8)", file, line,
        )]) from None
