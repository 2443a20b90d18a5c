"""The build pipeline: a loaded deck -> generate -> check -> layout -> files.

Outputs are written to a staging folder beside the target and swapped into place
(:mod:`generator.outswap`) only when every file is complete, so a failed, interrupted or
killed build leaves the previous output intact.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import jinja2

from . import __version__, outswap
from .deck import Deck
from .deckfile import LoadedDeck
from .errors import OutputError, PaperProofError, UsageError
from .families.base import CheckOptions, Component, Report
from .parallel import SERIAL
from .resources import template_loader

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
    pages: dict[str, int] = field(default_factory=dict)
    """Pages per imposed PDF (``sheets.pdf``, ``boards.pdf``, ``proofs.pdf``): the sheets of
    paper the deck takes, shown after a build."""


def check_deck(
    loaded: LoadedDeck, *, seed: int | None = None, options: CheckOptions | None = None,
    cache: Path | None = None,
) -> Checked:
    """Generate and check one deck (no files written). With ``cache`` (a folder), a report
    computed before for exactly this deck (every key, every file it names), these options and
    this program version is reused instead of checking again (``paperproof watch``)."""
    deck = loaded.deck if seed is None else loaded.deck.with_seed(seed)
    generated = loaded.family.generate(deck)
    opts = options or CheckOptions()
    key = _check_key(deck, opts) if cache is not None else ""
    path = cache / f"{deck.name}.check.json" if cache is not None else None
    if path is not None and path.is_file():
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
            if saved.get("key") == key:
                return Checked(loaded, deck, generated, report_from_json(saved["report"]))
        except (OSError, ValueError, KeyError, TypeError):
            pass  # a damaged cache is only a miss
    report = loaded.family.check(deck, generated, opts.resolve(deck))
    if path is not None:
        import contextlib

        # the cache is an optimisation: failing to write it is not an error
        with contextlib.suppress(OSError):
            write_atomic(path, json.dumps({"key": key, "report": report.to_json()},
                                          sort_keys=True, ensure_ascii=False))
    return Checked(loaded, deck, generated, report)


def _check_key(deck: Deck, options: CheckOptions) -> str:
    """Content hash of everything a check can depend on: the whole validated deck (rows
    read from CSV files included), the bytes of every image and font it names, the check
    options and the program version."""
    import hashlib

    from .render.fonts import face_of, family_keys
    from .render.images import get_image, has_image, image_keys

    h = hashlib.sha256()
    h.update(__version__.encode())
    h.update(json.dumps(deck.model_dump(mode="json"), sort_keys=True).encode())
    h.update(repr((options.count_solutions, options.simulations, options.precision,
                   options.max_games)).encode())
    prefix = deck.image_ref("")
    for key in sorted(family_keys()):
        if key.startswith(prefix):
            h.update(key.encode())  # a font's bytes are in its registered face name
            h.update(face_of(key, False).encode())
    for ref in sorted(image_keys()):
        if ref.startswith(prefix) and has_image(ref):
            h.update(ref.encode())
            h.update(hashlib.sha256(get_image(ref).data).digest())
    return h.hexdigest()


def report_from_json(data: dict[str, Any]) -> Report:
    """A report back from :meth:`Report.to_json` (the check cache)."""
    from .families.base import CheckEntry

    entries = tuple(CheckEntry(e["subject"], e["check"], e["status"], e["message"],
                               e.get("code", ""), e.get("details", {}))
                    for e in data["entries"])
    return Report(data["deck"], data["family"], data["seed"], entries, data.get("figures", {}))


def _check_one(loaded: LoadedDeck, seed: int | None, options: CheckOptions) -> Checked | None:
    """One deck's check in a worker; None when it raised (the parent re-runs that deck to
    raise the real error: exceptions do not always survive pickling)."""
    try:
        return check_deck(loaded, seed=seed, options=options)
    except PaperProofError:
        return None


def check_decks(
    loaded: Sequence[LoadedDeck], *, seed: int | None = None, options: CheckOptions | None = None
) -> list[Checked]:
    """Check several decks, in order. With a pool of several workers and several decks, each
    deck runs in a worker (its own work then runs inline there); otherwise the decks run one
    after another and each passes the pool on to its family's per-card work. Either way the
    reports are the same."""
    opts = options or CheckOptions()
    pool = opts.pool
    if len(loaded) < 2 or pool.workers < 2:
        return [check_deck(item, seed=seed, options=opts) for item in loaded]
    done = prefetch_checks(loaded, seed=seed, options=opts)
    return [c if c is not None else check_deck(item, seed=seed, options=opts)
            for item, c in zip(loaded, done, strict=True)]


def prefetch_checks(
    loaded: Sequence[LoadedDeck], *, seed: int | None = None, options: CheckOptions
) -> list[Checked | None]:
    """Every deck's check, one deck per worker of ``options.pool``; None for a deck whose
    check raised (run it again in this process to get its error)."""
    inner = replace(options, pool=SERIAL)
    return options.pool.map(partial(_check_one, seed=seed, options=inner), list(loaded))


@dataclass(frozen=True)
class Named:
    """How a component is called everywhere (check output, stamp, index.html, report.json,
    export file names): its 1-based ``index`` in the deck's full component list, its ``id``
    and its ``name`` (the title without a repeated id)."""

    index: int
    id: str
    name: str
    kind: str

    def label(self) -> str:
        """``#8 park-08 Pavilion Row`` (the name left out when it is the id)."""
        return f"#{self.index} {self.id}" + (f" {self.name}" if self.name != self.id else "")

    def slug(self) -> str:
        """A file-name form: ``008-park-08-pavilion-row``."""
        words = f"{self.id} {self.name}" if self.name != self.id else self.id
        return f"{self.index:03d}-{slugify(words)}"

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "id": self.id, "name": self.name, "kind": self.kind}


def slugify(text: str, limit: int = 60) -> str:
    """Lower-case letters and digits joined by ``-`` (any script; accents kept)."""
    out = re.sub(r"[^\w]+", "-", text.lower(), flags=re.UNICODE).strip("-_")
    return out[:limit].rstrip("-") or "x"


def component_name(comp: Component) -> str:
    """The component's name: its title, without a leading ``<id>:`` some layouts repeat."""
    title = comp.title.strip() or comp.id
    if title != comp.id and title.startswith(comp.id):
        rest = title[len(comp.id):].lstrip(" :-—").strip()
        title = rest or comp.id
    return title


def named(components: Sequence[Component]) -> list[Named]:
    return [Named(c.index or i, c.id, component_name(c), c.kind)
            for i, c in enumerate(components, start=1)]


def subject_names(components: Sequence[Component]) -> dict[str, Named]:
    """Report subject -> the component it belongs to: the component with that id, else the
    first one listing it in ``subjects`` (a proof page of a card without a card face)."""
    out: dict[str, Named] = {}
    names = named(components)
    for c, n in zip(components, names, strict=True):
        out[c.id] = n
    for c, n in zip(components, names, strict=True):
        for s in c.subjects:
            out.setdefault(s, n)
    return out


def laid_out(checked: Checked) -> list[Component]:
    """The deck's full component list, each with its 1-based ``index`` and the deck's own
    art (``[art]``) applied."""
    from .art import apply_art

    comps = checked.loaded.family.layout(checked.deck, checked.generated, checked.report)
    comps = [replace(c, index=i) for i, c in enumerate(comps, start=1)]
    names = {n.id: n.name for n in named(comps)}
    return apply_art(checked.deck, comps, names)


NOT_COMPLETABLE = "NOT COMPLETABLE"
"""The mark printed across an impossible card's front when ``--keep-going`` prints it, so a
play-tester cannot mistake it for a finished card."""


def mark_impossible(components: Sequence[Component], report: Report,
                    text: str = NOT_COMPLETABLE) -> list[Component]:
    """``components`` with a red :data:`NOT_COMPLETABLE` band across the front of every one
    whose verdict is ``impossible`` (proof pages excepted: they explain it)."""
    from .render.drawing import Group, Rect, Stroke, TextBox

    bad = {e.subject for e in report.entries if e.status == "impossible"}
    out: list[Component] = []
    for c in components:
        if c.id.startswith("proof") or not ({c.id, *c.subjects} & bad):
            out.append(c)
            continue
        d = c.front
        band = max(6.0, min(d.width, d.height) * 0.14)
        length = (d.width ** 2 + d.height ** 2) ** 0.5
        angle = -57.0 if d.height > d.width else -33.0
        mark = Group((
            Rect(-length / 2, -band / 2, length, band, fill="#c62828",
                 stroke=Stroke("#ffffff", 0.4)),
            TextBox(-length / 2, -band / 2, length, band, text, size=band * 1.6,
                    min_size=2.0, align="center", valign="middle", colour="#ffffff",
                    bold=True, owner=f"{c.id} mark"),
        ), dx=d.width / 2, dy=d.height / 2, rotate=angle)
        out.append(replace(c, front=replace(d, items=(*d.items, mark))))
    return out


@dataclass(frozen=True)
class OnlySpec:
    """``--only`` / ``check --card``: 1-based numbers, ranges, ids and names, comma-separated.
    ``text`` is what the user wrote (it names the output folder of a partial build)."""

    text: str
    numbers: frozenset[int]
    names: tuple[str, ...]


_RANGE = re.compile(r"^\s*(\d{1,9})\s*-\s*(\d{1,9})\s*$")

MAX_COMPONENTS = 10_000
"""Most components one deck may print (every copy counted): 10,000 cards is a pallet of
paper; a deck above it is a typo (``count = 99999``) that would otherwise run for hours."""


def parse_only(spec: str | None, option: str = "--only") -> OnlySpec | None:
    """``"1-5,9,park-08,Pavilion Row"`` -> numbers {1..5, 9} and names (matched later against
    the components' ids and names, case-insensitively)."""
    if spec is None:
        return None
    numbers: set[int] = set()
    names: list[str] = []
    for raw in spec.split(","):
        part = raw.strip()
        m = _RANGE.match(part)
        if part.isascii() and part.isdigit():
            if len(part) > len(str(MAX_COMPONENTS)):
                raise UsageError(f"{option}: {part[:12]!r}... is larger than any component "
                                 "number")
            if int(part) < 1:
                raise UsageError(f"{option}: component numbers start at 1, got {part!r}")
            numbers.add(int(part))
        elif m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo < 1 or hi < lo:
                raise UsageError(f"{option}: {part!r} is not a range; write e.g. 1-5,9")
            if hi > MAX_COMPONENTS:
                raise UsageError(f"{option}: {part!r} goes past {MAX_COMPONENTS}, more "
                                 "components than any deck may print")
            numbers.update(range(lo, hi + 1))
        elif part and (part[0].isalnum()):
            names.append(part)
        else:
            raise UsageError(f"{option}: {part!r} is not a component number, range, id or "
                             "name; write e.g. 1-5,9,park-08")
    return OnlySpec(spec, frozenset(numbers), tuple(names))


def select(components: Sequence[Component], spec: OnlySpec, option: str = "--only"
           ) -> list[Component]:
    """The components ``spec`` names, in deck order; a number past the end or a name no
    component has is a :class:`UsageError` (with the closest names)."""
    import difflib

    names = named(components)
    total = max((n.index for n in names), default=0)
    too_big = sorted(i for i in spec.numbers if i > total)
    if too_big:
        raise UsageError(f"{option}: the deck has {total} components; no component "
                         f"{too_big[0]}")
    keys: dict[str, set[int]] = {}
    for n in names:
        for key in {n.id.lower(), n.name.lower(), slugify(n.name)}:
            keys.setdefault(key, set()).add(n.index)
    chosen = set(spec.numbers)
    for wanted in spec.names:
        hits = keys.get(wanted.lower()) or keys.get(slugify(wanted))
        if not hits:
            close = difflib.get_close_matches(wanted.lower(), list(keys), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise UsageError(f"{option}: no component is called {wanted!r}{hint}")
        chosen |= hits
    return [c for c, n in zip(components, names, strict=True) if n.index in chosen]


def only_folder(deck_name: str, spec: OnlySpec) -> str:
    """The folder a partial build writes into: ``<deck>-only-<what was asked>``, so that it
    never replaces the full build in ``<deck>/``."""
    return f"{deck_name}-only-{slugify(spec.text, 40)}"


def build_deck(
    loaded: LoadedDeck,
    out_root: Path,
    *,
    seed: int | None = None,
    only: OnlySpec | None = None,
    into: str | None = None,
    keep_going: bool = False,
    options: CheckOptions | None = None,
    progress: Progress | None = None,
    cache: Path | None = None,
    png: int | None = None,
    png_bleed: bool = False,
    tts: bool = False,
    checked: Checked | None = None,
) -> BuildResult:
    """Build one deck into ``out_root/<deck name>/`` (a partial ``only`` build into
    ``out_root/<deck name>-only-<spec>/``, or ``out_root/<into>/`` when given). ``png``:
    also ``png/<index>-<id>-<name>.png`` per face at that dpi (``png_bleed``: with bleed);
    ``tts``: also ``tts/`` face sheets and a Tabletop Simulator saved object. ``checked``:
    the deck's check when already run (:func:`check_decks` on a pool)."""
    import time

    from .render import impose, writers

    start = time.perf_counter()
    tick: Progress = progress or (lambda stage, done, total: None)
    tick("generate and check", 0, 1)
    if checked is None:
        checked = check_deck(loaded, seed=seed, options=options, cache=cache)
    if not checked.report.ok and not keep_going:
        raise ChecksFailed(checked.report)
    tick("layout", 0, 1)
    every = laid_out(checked)
    if keep_going:
        every = mark_impossible(every, checked.report,
                                checked.deck.label("mark.not_completable"))
    components = every if only is None else select(every, only)
    deck = checked.deck
    stamp = impose.Stamp(deck.name, deck.version, deck.seed, deck.label("stamp.seed"))
    settings = deck.print
    folder = into or (deck.name if only is None else only_folder(deck.name, only))
    target = out_root / outswap.check_folder_name(folder)
    tmp = outswap.staging_folder(out_root, folder)
    try:
        pages: dict[str, int] = {}
        steps: list[tuple[str, Callable[[], object]]] = [
            ("sheets.pdf, boards.pdf, proofs.pdf",
             lambda: pages.update(writers.write_print_files(components, settings, stamp,
                                                            tmp))),
            ("pod.pdf", lambda: writers.write_pod_pdf(components, settings, stamp,
                                                     tmp / "pod.pdf")),
            ("svg/", lambda: writers.write_component_svgs(components, settings, stamp,
                                                         tmp / "svg")),
            ("cut.svg", lambda: writers.write_cut_svg(components, settings, tmp / "cut.svg")),
            ("report.json", lambda: write_report(checked, tmp / "report.json", every)),
            ("index.html", lambda: write_index(checked, components, tmp / "index.html")),
        ]
        if png is not None or tts:
            from . import export

            slugs = [n.slug() for n in named(components)]
            faces = export.pod_faces(components, slugs, settings.bleed)
            names = {n.id: n.name for n in named(components)}
            if png is not None:
                dpi = export.check_dpi(png)
                steps.append(("png/", lambda: export.write_pngs(
                    tmp / "pod.pdf", faces, tmp / "png", dpi, bleed=png_bleed)))
            if tts:
                steps.append(("tts/", lambda: export.write_tts(
                    tmp / "pod.pdf", faces, names, tmp / "tts", target / "tts", deck.name)))
        for n, (label, step) in enumerate(steps):
            tick(label, n, len(steps))
            step()
        tick("done", len(steps), len(steps))
        outswap.swap_into_place(tmp, target)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError):
            raise OutputError(f"writing {target} failed: {exc}") from None
        raise
    files = tuple(sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file()))
    return BuildResult(checked, target, len(components), files, time.perf_counter() - start,
                       {k: v for k, v in pages.items() if k.endswith(".pdf")})


def ranking(checked: Checked) -> dict[str, Any] | None:
    """The deck-wide ranking of cards by difficulty (None when the family gives none)."""
    from .ranking import rank_report

    return rank_report(checked.report.entries, checked.deck.check.band)


def report_json(checked: Checked, components: Sequence[Component] | None = None
                ) -> dict[str, Any]:
    """The report as JSON: every entry carries the ``name`` and ``index`` of the component
    it belongs to (when it belongs to one), and ``components`` lists them all."""
    deck = checked.deck
    out = checked.report.to_json()
    ranked = ranking(checked)
    if ranked is not None:
        out["ranking"] = ranked
    out["version"] = deck.version
    out["paperproof"] = __version__
    comps = laid_out(checked) if components is None else components
    names = subject_names(comps)
    for entry in out["entries"]:
        n = names.get(entry["subject"])
        if n is not None:
            entry["name"] = n.name
            entry["index"] = n.index
    out["components"] = [n.to_json() for n in named(comps)]
    return out


def write_report(checked: Checked, path: Path,
                 components: Sequence[Component] | None = None) -> None:
    text = json.dumps(report_json(checked, components), indent=2, sort_keys=True,
                      ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=template_loader(),
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "html.j2"],
                                            default_for_string=True, default=True),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )


STATUS_ORDER = ("impossible", "fail", "unknown", "warn", "completable", "pass", "info", "none")
"""Worst first: a component's badge is its worst verdict, and the gallery lists failing and
unknown components before the rest."""


def _worst(entries: Sequence[Any]) -> str:
    for status in STATUS_ORDER:
        if any(e.status == status for e in entries):
            return status
    return "none"


def _detail_lines(e: Any) -> list[str]:
    """A few lines summarising an entry's details for the gallery (the full certificate is
    in report.json): the certificate's size, then scalar figures."""
    out: list[str] = []
    for key, value in sorted(e.details.items()):
        if key == "certificate":
            size = ""
            if isinstance(value, dict):
                steps = next((v for v in value.values() if isinstance(v, list)), None)
                size = f"{len(steps)} steps" if steps is not None else f"{len(value)} fields"
            elif isinstance(value, list):
                size = f"{len(value)} steps"
            out.append(f"certificate: {size}, replayed by the rules engine (report.json)")
        elif isinstance(value, str | int | float | bool):
            out.append(f"{key}: {value}")
        elif isinstance(value, dict) and all(isinstance(v, str | int | float | bool)
                                             for v in value.values()):
            out.append(f"{key}: " + ", ".join(f"{k} {v}" for k, v in sorted(value.items())))
    return out[:8]


def write_index(checked: Checked, components: Sequence[Component], path: Path) -> None:
    """index.html, the gallery (templates/index.html.j2): a thumbnail grid with one verdict
    badge per component, failing and unknown ones first, filters by verdict and kind, sort by
    difficulty, each distinct back once, details and proof pages on click."""
    report = checked.report
    ranked = ranking(checked)
    rank_of: dict[str, tuple[int, str]] = {}
    if ranked:
        from .core.stats import Rate

        for i, c in enumerate(ranked["cards"], start=1):
            rank_of[c["subject"]] = (i, Rate.from_json(c["casual"]).text())
    proofs: dict[str, list[str]] = {}
    for comp in components:
        if comp.id.startswith("proof"):
            for s in comp.subjects:
                proofs.setdefault(s, []).append(comp.id)
    backs: dict[Any, dict[str, Any]] = {}
    rows: list[dict[str, Any]] = []
    for comp, n in zip(components, named(components), strict=True):
        entries = [e for s in (comp.id, *comp.subjects) for e in report.for_subject(s)]
        back_no = 0
        if comp.back is not None:
            group = backs.setdefault(comp.back, {"svg": f"svg/{comp.id}-back.svg",
                                                 "labels": [], "no": len(backs) + 1})
            group["labels"].append(n.label())
            back_no = int(group["no"])
        rank, difficulty = min((rank_of[s] for s in (comp.id, *comp.subjects)
                                if s in rank_of), default=(0, ""))
        rows.append({
            "index": n.index, "id": comp.id, "name": n.name, "label": n.label(),
            "title": comp.title, "kind": comp.kind,
            "copies": comp.copies, "svg": f"svg/{comp.id}.svg", "back_no": back_no,
            "entries": [{"e": e, "lines": _detail_lines(e)} for e in entries],
            "status": _worst(entries), "rank": rank, "difficulty": difficulty,
            "proofs": [f"svg/{p}.svg" for s in (comp.id, *comp.subjects)
                       for p in proofs.get(s, []) if p != comp.id],
        })
    rows.sort(key=lambda r: (STATUS_ORDER.index(str(r["status"])) > 2, int(r["index"])))
    deck_entries = [e for e in report.entries
                    if e.subject not in {s for c in components for s in (c.id, *c.subjects)}]
    kinds = sorted({str(r["kind"]) for r in rows})
    statuses = [s for s in STATUS_ORDER if any(r["status"] == s for r in rows)]
    html = _env().get_template("index.html.j2").render(
        deck=checked.deck, report=report, rows=rows, deck_entries=deck_entries,
        figures=json.dumps(report.figures, indent=2, sort_keys=True, ensure_ascii=False),
        ranking=ranking_rows(checked), backs=list(backs.values()), kinds=kinds,
        statuses=statuses, version=__version__,
    )
    path.write_text(html, encoding="utf-8")


def ranking_rows(checked: Checked) -> list[dict[str, str]]:
    """The ranking as table rows for index.html (strings: the template only prints them)."""
    from .core.stats import Rate
    from .ranking import Ranked

    ranked = ranking(checked)
    rows = []
    for i, c in enumerate(ranked["cards"] if ranked else [], start=1):
        r = Ranked(c["subject"], Rate.from_json(c["casual"]),
                   Rate.from_json(c["planning"]) if "planning" in c else None, c.get("reward"))
        rows.append({"rank": str(i), "subject": r.subject, "casual": r.casual.text(),
                     "planning": r.planning.text() if r.planning else "",
                     "reward": f"{r.reward:g}" if r.reward is not None else "",
                     "flags": ", ".join(c["flags"])})
    return rows


def render_starter(family: str, name: str) -> str:
    """The commented starter deck of a family (``paperproof new``)."""
    template = f"new/{family}.toml.j2"
    env = jinja2.Environment(
        loader=template_loader(), autoescape=False,
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
