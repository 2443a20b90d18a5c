"""The house rules that tools can check: mypy --strict on generator/, ruff clean, and a pure
rules core (no renderer, CLI or template engine imported by generator.core)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    result = run("mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"), "generator")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_is_clean() -> None:
    result = run("ruff", "check", "generator", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_family_module_stays_off_the_cli() -> None:
    """Only generator/cli.py (and the command modules it mounts) may import click."""
    offenders = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        if path.name in {"cli.py", "commands_shapes.py"}:
            continue
        text = path.read_text(encoding="utf-8")
        if "import click" in text or "from click" in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_render_imports_nothing_of_the_families() -> None:
    """families -> render, never back: importing the painter and the imposition loads no
    family module (checked in a fresh interpreter, so nothing earlier imported them)."""
    code = (
        "import sys\n"
        "import generator.render.writers, generator.render.impose\n"
        "print(sorted(m for m in sys.modules if m.startswith('generator.families')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    offenders = []
    for path in sorted((ROOT / "generator" / "render").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and "families" in (node.module or ""):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []
