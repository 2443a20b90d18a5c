"""The build pipeline: a loaded deck -> generate -> check -> layout -> files.

Outputs are written to a temporary folder beside the target and moved into place only when
every file is complete, so a failed or interrupted build leaves the previous output intact.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import jinja2

from . import __version__
from .deck import Deck
from .deckfile import LoadedDeck
from .errors import OutputError, PaperProofError, UsageError
from .families.base import CheckOptions, Component, Report

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: called as a build advances (the CLI draws a bar)."""


class ChecksFailed(PaperProofError):
    """The deck has a card that is not completable; ``build`` refuses to print it."""

    exit_code = 1

    def __init__(self, report: Report) -> None:
        self.report = report
        bad = [e for e in report.entries if e.failing]
        lines = [f"  {e.subject}: {e.check}: {e.status}: {e.message}" for e in bad]
        super().__init__(
            f"{report.deck}: {len(bad)} check(s) not passing; not printing "
            "(use --keep-going to print anyway):\n" + "\n".join(lines)
        )


@dataclass(frozen=True)
class Checked:
    """A deck with its generated components and check report."""

    loaded: LoadedDeck
    deck: Deck
    generated: Any
    report: Report


@dataclass(frozen=True)
class BuildResult:
    checked: Checked
    folder: Path
    components: int
    files: tuple[str, ...]
    seconds: float


def check_deck(
    loaded: LoadedDeck, *, seed: int | None = None, options: CheckOptions | None = None
) -> Checked:
    """Generate and check one deck (no files written)."""
    deck = loaded.deck if seed is None else loaded.deck.with_seed(seed)
    generated = loaded.family.generate(deck)
    report = loaded.family.check(deck, generated, (options or CheckOptions()).resolve(deck))
    return Checked(loaded, deck, generated, report)


def parse_only(spec: str | None) -> frozenset[int] | None:
    """``"1-5,9"`` -> {1, 2, 3, 4, 5, 9} (1-based component indices)."""
    if spec is None:
        return None
    chosen: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo_text, hi_text = part.split("-", 1)
                lo, hi = int(lo_text), int(hi_text)
                if lo < 1 or hi < lo:
                    raise ValueError
                chosen.update(range(lo, hi + 1))
            else:
                n = int(part)
                if n < 1:
                    raise ValueError
                chosen.add(n)
        except ValueError:
            raise UsageError(
                f"--only: {part!r} is not a component number or range; write e.g. 1-5,9"
            ) from None
    return frozenset(chosen)


def build_deck(
    loaded: LoadedDeck,
    out_root: Path,
    *,
    seed: int | None = None,
    only: frozenset[int] | None = None,
    keep_going: bool = False,
    options: CheckOptions | None = None,
    progress: Progress | None = None,
) -> BuildResult:
    """Build one deck into ``out_root/<deck>/``."""
    import time

    from .render import impose, writers

    start = time.perf_counter()
    tick: Progress = progress or (lambda stage, done, total: None)
    tick("generate and check", 0, 1)
    checked = check_deck(loaded, seed=seed, options=options)
    if not checked.report.ok and not keep_going:
        raise ChecksFailed(checked.report)
    tick("layout", 0, 1)
    components = [
        replace(c, index=i)
        for i, c in enumerate(
            loaded.family.layout(checked.deck, checked.generated, checked.report), start=1)
    ]
    if only is not None:
        too_big = sorted(i for i in only if i > len(components))
        if too_big:
            raise UsageError(
                f"--only: the deck has {len(components)} components; no component {too_big[0]}"
            )
        components = [c for i, c in enumerate(components, start=1) if i in only]
    deck = checked.deck
    stamp = impose.Stamp(deck.name, deck.version, deck.seed)
    settings = deck.print
    target = out_root / loaded.stem
    try:
        out_root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{loaded.stem}.", suffix=".tmp", dir=out_root))
    except OSError as exc:
        raise OutputError(f"cannot create the output folder {out_root}: {exc}") from None
    try:
        steps: list[tuple[str, Callable[[], object]]] = [
            ("sheets.pdf", lambda: writers.write_sheets_pdf(components, settings, stamp,
                                                           tmp / "sheets.pdf")),
            ("pod.pdf", lambda: writers.write_pod_pdf(components, settings, stamp,
                                                     tmp / "pod.pdf")),
            ("svg/", lambda: writers.write_component_svgs(components, settings, stamp,
                                                         tmp / "svg")),
            ("cut.svg", lambda: writers.write_cut_svg(components, settings, tmp / "cut.svg")),
            ("report.json", lambda: write_report(checked, tmp / "report.json")),
            ("index.html", lambda: write_index(checked, components, tmp / "index.html")),
        ]
        for n, (label, step) in enumerate(steps):
            tick(label, n, len(steps))
            step()
        tick("done", len(steps), len(steps))
        _move_into_place(tmp, target)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError):
            raise OutputError(f"writing {target} failed: {exc}") from None
        raise
    files = tuple(sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file()))
    return BuildResult(checked, target, len(components), files, time.perf_counter() - start)


def _move_into_place(tmp: Path, target: Path) -> None:
    """Swap the finished folder in: the old output survives until the new one is complete."""
    umask = os.umask(0)
    os.umask(umask)
    tmp.chmod(0o777 & ~umask)  # mkdtemp makes it 0700; the output is the user's ordinary folder
    old: Path | None = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        if old.exists():
            shutil.rmtree(old)
        target.rename(old)
    tmp.rename(target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def report_json(checked: Checked) -> dict[str, Any]:
    deck = checked.deck
    out = checked.report.to_json()
    out["version"] = deck.version
    out["paperproof"] = __version__
    return out


def write_report(checked: Checked, path: Path) -> None:
    text = json.dumps(report_json(checked), indent=2, sort_keys=True, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "html.j2"],
                                            default_for_string=True, default=True),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


def write_index(checked: Checked, components: Sequence[Component], path: Path) -> None:
    """index.html: every component's SVG with its verdicts, from templates/index.html.j2."""
    report = checked.report
    rows = []
    for i, comp in enumerate(components, start=1):
        entries = [e for s in (comp.id, *comp.subjects) for e in report.for_subject(s)]
        worst = "none"
        for status in ("impossible", "fail", "unknown", "warn", "completable", "pass", "info"):
            if any(e.status == status for e in entries):
                worst = status
                break
        rows.append({
            "index": i, "id": comp.id, "title": comp.title, "kind": comp.kind,
            "copies": comp.copies, "svg": f"svg/{comp.id}.svg",
            "back": f"svg/{comp.id}-back.svg" if comp.back is not None else None,
            "entries": entries, "status": worst,
        })
    deck_entries = [e for e in report.entries
                    if e.subject not in {s for c in components for s in (c.id, *c.subjects)}]
    html = _env().get_template("index.html.j2").render(
        deck=checked.deck, report=report, rows=rows, deck_entries=deck_entries,
        figures=json.dumps(report.figures, indent=2, sort_keys=True, ensure_ascii=False),
        version=__version__,
    )
    path.write_text(html, encoding="utf-8")


def render_starter(family: str, name: str) -> str:
    """The commented starter deck of a family (``paperproof new``)."""
    template = f"new/{family}.toml.j2"
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=False,
        undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
    )
    try:
        return env.get_template(template).render(name=name)
    except jinja2.TemplateNotFound:
        raise UsageError(f"the {family} family has no starter template ({template})") from None


def write_atomic(path: Path, text: str) -> None:
    """Write a file via a temporary file in the same folder, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
