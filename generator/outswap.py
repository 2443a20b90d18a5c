"""Atomic output folders: a deck's output folder is always wholly old or wholly new.

A build writes into a staging folder beside the target, ``.<name>.<pid>.<random>.tmp``, and
swaps it in only when every file is complete:

- on Linux the swap is one ``renameat2(RENAME_EXCHANGE)`` call: the target and the staging
  folder trade places atomically, so there is no moment without an output folder, whatever
  signal arrives; the old output (now in the staging folder) is then deleted;
- elsewhere (or on a file system without exchange) the old folder is renamed to
  ``.<name>.old.<pid>`` and the new one renamed in; if the second rename fails the old one is
  renamed back, and if the process dies between the two, the next build restores it.

Every build first sweeps what dead builds left behind (staging folders and old folders whose
process is gone), restoring an orphaned old folder when the target is missing. Folder names
are checked: an empty name, ``.``, ``..``, a hidden name or one with a path separator would
turn the output root itself (or a folder outside it) into the target.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import secrets
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from .errors import OutputError, UsageError

_STAGING = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp$")
_OLD = re.compile(r"^\.(?P<name>.+)\.old\.(?P<pid>\d+)$")
_LEGACY = re.compile(r"^\.(?P<name>.+)\.(old-(?P<pid>\d+)|[A-Za-z0-9_]{8}\.tmp)$")
"""Litter of builds before this module (``.deck.old-PID``, mkdtemp's ``.deck.XXXXXXXX.tmp``)."""

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100

between_steps: Callable[[str], None] | None = None
"""Test hook: called with ``"exchanged"`` or ``"moved-away"`` right after the first step of
a swap, so a test can inject a fault (or a SIGKILL) exactly between the two renames."""

force_two_renames = False
"""Test switch: use the portable two-rename swap even where the exchange is available."""


def check_folder_name(name: str) -> str:
    """``name`` if it can be an output folder inside the output root, else a UsageError."""
    if (not name or name in (".", "..") or name.startswith(".") or "/" in name
            or "\\" in name or "\x00" in name or name != name.strip()):
        raise UsageError(f"{name!r} cannot name an output folder (it is empty, hidden or a "
                         "path); name the deck with letters, digits, '-' or '_'")
    return name


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's live process (or we cannot tell): leave it alone
    return True


def sweep(out_root: Path, name: str) -> None:
    """Remove the staging and old folders of ``name`` left by builds that died; when the
    target is missing and a dead build's old folder survives, put it back first."""
    if not out_root.is_dir():
        return
    target = out_root / name
    for entry in sorted(out_root.iterdir()):
        for pattern in (_OLD, _STAGING, _LEGACY):
            m = pattern.match(entry.name)
            if m is None or m.group("name") != name:
                continue
            pid = m.group("pid") if "pid" in m.groupdict() else None
            if pid is not None and _alive(int(pid)):
                break
            is_old = pattern is _OLD or (pattern is _LEGACY and entry.name.endswith(
                f".old-{pid}"))
            if is_old and not target.exists():
                try:
                    entry.rename(target)
                    break
                except OSError:
                    pass
            shutil.rmtree(entry, ignore_errors=True)
            break


def staging_folder(out_root: Path, name: str) -> Path:
    """A fresh, empty staging folder for ``name`` (after sweeping dead builds' litter)."""
    check_folder_name(name)
    try:
        out_root.mkdir(parents=True, exist_ok=True)
        sweep(out_root, name)
        while True:
            tmp = out_root / f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
            try:
                tmp.mkdir()
                return tmp
            except FileExistsError:
                continue
    except OSError as exc:
        raise OutputError(f"cannot create the output folder {out_root}: {exc}") from None


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux ``renameat2``); False where it is not available."""
    if force_two_renames or not sys.platform.startswith("linux"):
        return False
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return False
    libc = ctypes.CDLL(libc_name, use_errno=True)
    func = getattr(libc, "renameat2", None)
    if func is None:
        return False
    func.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                     ctypes.c_uint]
    func.restype = ctypes.c_int
    rc = func(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: this file system cannot exchange
        return False
    raise OSError(err, os.strerror(err), str(b))


def swap_into_place(tmp: Path, target: Path) -> None:
    """Make the finished ``tmp`` the ``target`` folder: the old output survives, whole,
    until the new one is in place; on any failure the old output is what remains."""
    umask = os.umask(0)
    os.umask(umask)
    tmp.chmod(0o777 & ~umask)  # a fresh folder is the user's ordinary folder, not 0700
    if not target.exists():
        tmp.rename(target)
        return
    if _exchange(tmp, target):
        if between_steps is not None:
            between_steps("exchanged")
        shutil.rmtree(tmp, ignore_errors=True)  # tmp now holds the old output
        return
    old = target.with_name(f".{target.name}.old.{os.getpid()}")
    if old.exists():
        shutil.rmtree(old)
    target.rename(old)
    try:
        if between_steps is not None:
            between_steps("moved-away")
        tmp.rename(target)
    except BaseException:
        if not target.exists():
            old.rename(target)
        raise
    shutil.rmtree(old, ignore_errors=True)
