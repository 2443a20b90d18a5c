"""Shared test fixtures: golden files that regenerate with ``pytest --update-goldens``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent


# No per-example deadline: the suite shares 2 cores (CI and developers' machines alike), and a
# loaded machine made 200 ms deadlines flaky (a 1.6 s grid property test was seen at 4x under
# load). Tests that need a bound set one themselves.
# For the same reason the too_slow health check is off: under a load of 9 on 2 cores a
# polyomino strategy took 30 s for 3 inputs (seen 2026-12-02); slowness is not a defect there.
settings.register_profile("paperproof", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("paperproof")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true",
                     help="rewrite golden files from the current output")


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Callable[[Path, str], None]:
    """``golden(path, text)``: compare ``text`` with the golden file at ``path`` (relative to
    the repository root), or rewrite it under ``--update-goldens``."""
    update = bool(request.config.getoption("--update-goldens"))

    def compare(path: Path, text: str) -> None:
        target = ROOT / path
        if update or not target.exists():
            if not update:
                pytest.fail(f"golden file {path} is missing; run pytest --update-goldens")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            return
        expected = target.read_text(encoding="utf-8")
        assert text == expected, f"{path} is out of date; run pytest --update-goldens"

    return compare


@pytest.fixture
def root() -> Path:
    return ROOT
