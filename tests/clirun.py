"""Run the ``paperproof`` command in-process, as a user would from a folder."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main


def run_cli(*args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    """``(exit code, stdout, stderr)`` of ``paperproof ARGS`` run in ``cwd``."""
    runner = CliRunner()
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = runner.invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr
