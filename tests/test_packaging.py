"""The package works installed, away from the checkout: templates and starter decks ship
inside it (the wheel itself is built and installed into a fresh venv by .ci/wheel-smoke)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import setuptools

ROOT = Path(__file__).resolve().parent.parent


def _setup_kwargs(monkeypatch: Any) -> dict[str, Any]:
    """What setup.py hands setuptools (packages, package_dir, package_data)."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: seen.update(kw))
    monkeypatch.chdir(ROOT)
    code = compile((ROOT / "setup.py").read_text(encoding="utf-8"), str(ROOT / "setup.py"), "exec")
    exec(code, {"__file__": str(ROOT / "setup.py"), "__name__": "setup"})
    return seen


def _lay_out_like_a_wheel(kw: dict[str, Any], site: Path) -> None:
    """Copy each package setup.py names, with its modules and data, where a wheel puts it."""
    mapping: dict[str, str] = kw["package_dir"]
    for package in kw["packages"]:
        source = ROOT / Path(*package.split("."))
        for prefix, folder in mapping.items():
            if package == prefix or package.startswith(prefix + "."):
                source = ROOT / folder / Path(*package.split(".")[len(prefix.split(".")):])
        target = site / Path(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        patterns = ["*.py", *kw["package_data"].get(package, [])]
        for pattern in patterns:
            for f in source.glob(pattern):
                if f.is_file():
                    shutil.copy2(f, target / f.name)


def test_installed_layout_writes_starters_and_renders_index(
        tmp_path: Path, monkeypatch: Any) -> None:
    kw = _setup_kwargs(monkeypatch)
    shipped = {p for p in kw["packages"] if p.startswith("generator.templates")}
    folders = {ROOT / "templates", *(p for p in (ROOT / "templates").rglob("*") if p.is_dir())}
    assert len(shipped) == len(folders), "every templates/ folder ships as a data package"
    site = tmp_path / "site"
    _lay_out_like_a_wheel(kw, site)
    assert (site / "generator" / "templates" / "index.html.j2").is_file()
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    probe = subprocess.run(
        [sys.executable, "-c",
         "import generator.resources as r; print(r.__file__); "
         "print(r.templates().joinpath('index.html.j2'))"],
        cwd=work, env=env, capture_output=True, text=True, check=True)
    module_file, root = probe.stdout.split("\n")[:2]
    assert module_file.startswith(str(site)), "the laid-out package is the one imported"
    assert root.startswith(str(site)), "templates come from inside the package"
    new = subprocess.run([sys.executable, "-m", "generator", "new", "cards", "mine.toml"],
                         cwd=work, env=env, capture_output=True, text=True)
    assert new.returncode == 0, new.stderr
    assert 'name = "mine"' in (work / "mine.toml").read_text(encoding="utf-8")
    index = subprocess.run(
        [sys.executable, "-c",
         "from generator.resources import template_loader; import jinja2; "
         "print(jinja2.Environment(loader=template_loader()).get_template('index.html.j2')"
         ".filename)"], cwd=work, env=env, capture_output=True, text=True)
    assert index.returncode == 0, index.stderr
