"""The rules core stays pure: importing it pulls in no renderer, CLI, template engine or
any other part of PaperProof (checked in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys

CORE_MODULES = [
    "budget", "exactcover", "grid", "hexgrid", "lattice", "polyomino", "rng", "shapes", "stats",
    "tiling", "verdict",
]  # fmt: skip


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


def test_every_core_module_is_checked() -> None:
    from pathlib import Path

    import generator.core

    here = Path(generator.core.__file__).parent
    found = {p.stem for p in here.glob("*.py") if p.stem != "__init__"}
    assert found == set(CORE_MODULES)
