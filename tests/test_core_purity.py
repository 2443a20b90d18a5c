"""The rules core stays pure: importing it pulls in no renderer, CLI, template engine or
any other part of PaperProof (checked in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CORE_DIR = Path(__file__).resolve().parent.parent / "generator" / "core"
# Every module in the folder, so a new core module is checked without editing this list.
CORE_MODULES = sorted(p.stem for p in CORE_DIR.glob("*.py") if p.stem != "__init__")


def test_core_imports_nothing_impure() -> None:
    code = (
        "import json, sys\n"
        + "".join(f"import generator.core.{m}\n" for m in CORE_MODULES)
        + "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(json.loads(out))
    for banned in ("reportlab", "svgwrite", "click", "jinja2", "pydantic"):
        assert not any(m == banned or m.startswith(banned + ".") for m in loaded), banned
    ours = {m for m in loaded if m.startswith("generator.")}
    assert ours and all(m.startswith("generator.core") for m in ours), sorted(ours)


def test_the_checked_modules_are_the_imported_package() -> None:
    import generator.core

    # The folder scanned above is the package Python imports (not a stale copy elsewhere).
    assert Path(generator.core.__file__).resolve().parent == CORE_DIR
    assert {"budget", "exactcover", "tiling", "stats"} <= set(CORE_MODULES)
