"""The ``paperproof`` command line. The only module that prints and exits.

Exit codes: 0 all good; 1 some card or component fails a check; 2 invalid input (deck
files, arguments); 3 writing output failed; 4 stopped by ``--time-limit``.
"""

from __future__ import annotations

import contextlib
import functools
import json
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import click

from . import __version__
from .commands_shapes import shapes
from .deck import MAX_SIMULATIONS
from .errors import DeckError, PaperProofError, TimeLimitError, UsageError

DECKS_DIR = Path("decks")


def _fail(exc: PaperProofError) -> NoReturn:
    if isinstance(exc, DeckError):
        for problem in exc.problems:
            click.echo(f"error: {problem.format()}", err=True)
        n = len(exc.problems)
        click.echo(f"{n} problem{'s' if n != 1 else ''} found; nothing was written.", err=True)
    else:
        click.echo(f"error: {exc}", err=True)
    sys.exit(exc.exit_code)


_TIME_LIMIT_HELP = ("Stop the whole command with an error (exit 4) after this many seconds "
                    "of wall clock. Verdicts never depend on the clock: budgets count nodes.")


@contextlib.contextmanager
def _time_limit(seconds: float | None, command: str) -> Iterator[None]:
    """Stop ``command`` with :class:`TimeLimitError` once ``seconds`` of wall clock pass.

    The only use of the clock that can end a check: it stops the command (nothing of an
    unfinished deck is written: builds swap their output in only when complete), it never
    turns a verdict into ``unknown``."""
    if seconds is None:
        yield
        return
    if seconds <= 0:
        raise UsageError(f"--time-limit: {seconds:g} is not a positive number of seconds")
    if not hasattr(signal, "setitimer"):
        raise UsageError("--time-limit needs a system with interval timers (SIGALRM)")

    def _alarm(signum: int, frame: object) -> None:
        raise TimeLimitError(
            f"{command} stopped after {seconds:g} s (--time-limit): the unfinished deck got "
            "no verdicts and nothing of it was written (the clock never decides a verdict). "
            "Raise the limit, or lower [check] budget_nodes or the simulated games")

    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _with_time_limit(command: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Give a command ``--time-limit SECONDS`` (see :func:`_time_limit`)."""

    def wrap(fn: Callable[..., None]) -> Callable[..., None]:
        @click.option("--time-limit", "time_limit", type=float, default=None,
                      help=_TIME_LIMIT_HELP)
        @functools.wraps(fn)
        def run(*args: Any, time_limit: float | None, **kwargs: Any) -> None:
            try:
                with _time_limit(time_limit, command):
                    fn(*args, **kwargs)
            except PaperProofError as exc:
                _fail(exc)

        return run

    return wrap


def _deck_paths(decks: tuple[str, ...]) -> list[Path]:
    if decks:
        return [Path(d) for d in decks]
    if not DECKS_DIR.is_dir():
        raise UsageError("no DECK given and no decks/ folder here; give a deck file")
    found = sorted(DECKS_DIR.glob("*.toml"))
    if not found:
        raise UsageError("no DECK given and decks/ holds no .toml files")
    return found


def _load_all(paths: list[Path]) -> list[Any]:
    """Load every deck, reporting the problems of all of them before exiting."""
    from .deckfile import load_deck

    loaded: list[Any] = []
    problems: list[Any] = []
    for path in paths:
        try:
            loaded.append(load_deck(path))
        except DeckError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DeckError(problems)
    return loaded


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Treat SIGTERM (``kill``, a CI timeout, a closing terminal) like Ctrl-C while a build
    runs, so the same cleanup runs: the staging folder goes, the old output stays."""
    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: signals cannot be handled here
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="paperproof")
def main() -> None:
    """PaperProof: print-ready prototypes of paper games, every card proven completable."""


class _Bar:
    """A progress bar on stderr (a terminal only), shown from the first second of a build:
    a ticker thread redraws it with the elapsed time while a long stage (the checks) runs,
    so the bar does not sit still until painting starts."""

    TICK_SECONDS = 0.5
    """How often the bar is redrawn while a stage runs."""

    def __init__(self, label: str) -> None:
        import threading

        self.label = label
        self.start = time.perf_counter()
        self.shown = False
        self.state = ("generate and check", 0, 1)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if sys.stderr.isatty():
            self._thread = threading.Thread(target=self._tick, daemon=True)
            self._thread.start()

    def _tick(self) -> None:
        while not self._stop.wait(self.TICK_SECONDS):
            self._draw()

    def _draw(self) -> None:
        elapsed = time.perf_counter() - self.start
        if elapsed < 1.0 or not sys.stderr.isatty():
            return
        with self._lock:
            if self._stop.is_set():
                return
            stage, done, total = self.state
            self.shown = True
            width = 24
            filled = int(width * done / max(total, 1))
            bar = "#" * filled + "-" * (width - filled)
            click.echo(f"\r{self.label} [{bar}] {stage:<22} {elapsed:5.0f} s", nl=False,
                       err=True)

    def __call__(self, stage: str, done: int, total: int) -> None:
        self.state = (stage, done, total)
        self._draw()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.shown:
            click.echo("", err=True)


def _run_options(fn: Any) -> Any:
    """``--jobs``, ``--cluster``, ``--precision``, ``--max-games`` (check, build, sweep)."""
    fn = click.option("--max-games", type=click.IntRange(min=0), default=None,
                      help="Override [check] max_games (games cap per card).")(fn)
    fn = click.option("--precision", type=click.FloatRange(0, 0.5, min_open=True),
                      default=None,
                      help="Override [check] precision (rate half-width, 0.05 = +/-5 points).")(fn)
    fn = click.option("--cluster", default=None, metavar="tcp://HOST:PORT",
                      help="Run checks on a Dask cluster (pip install 'paperproof[cluster]').")(fn)
    fn = click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
                      help="Worker processes for checks and simulations (default: all "
                      "cores); the report is the same for every value.")(fn)
    return fn


@main.command()
@click.argument("decks", nargs=-1, type=click.Path(dir_okay=False))
@click.option("-o", "--output", "output", type=click.Path(file_okay=False), default="output",
              show_default=True, help="Folder that receives <deck>/ per deck.")
@click.option("--seed", type=int, default=None, help="Override the deck's seed.")
@click.option("--only", default=None,
              help="Components to print: 1-based numbers, ranges, ids or names: "
              "1-5,9,park-08,\"Pavilion Row\". Written to OUTPUT/<deck>-only-<what>/.")
@click.option("--into", default=None,
              help="With --only: the folder name (inside OUTPUT) for the partial build.")
@click.option("--keep-going", is_flag=True, help="Print even if some card is not completable.")
@click.option("--simulations", type=click.IntRange(0, MAX_SIMULATIONS), default=None,
              help="Override [check] simulations.")
@click.option("--png", "png", type=int, default=None, metavar="DPI",
              help="Also write png/<index>-<id>-<name>.png for every face at DPI (trimmed).")
@click.option("--png-bleed", is_flag=True, help="With --png: keep the bleed around each face.")
@click.option("--tts", is_flag=True,
              help="Also write tts/: Tabletop Simulator face sheets and a saved object.")
@_run_options
@_with_time_limit("build")
def build(decks: tuple[str, ...], output: str, seed: int | None, only: str | None,
          into: str | None, keep_going: bool, simulations: int | None, png: int | None,
          png_bleed: bool, tts: bool, jobs: int | None, cluster: str | None,
          precision: float | None, max_games: int | None) -> None:
    """Build DECKs (default: every deck in decks/) into OUTPUT/<deck name>/."""
    from .build import build_deck, parse_only, prefetch_checks, slugify
    from .families.base import CheckOptions
    from .parallel import make_pool

    try:
        selection = parse_only(only)
        if into is not None and (selection is None or slugify(into, 200) != into.lower()
                                 or into.startswith(".")):
            raise UsageError("--into: give it with --only, as a plain folder name "
                             "(letters, digits, '-'), e.g. --into proofs")
        loaded = _load_all(_deck_paths(decks))
        _distinct_names(loaded)
        failed: list[str] = []
        worst = 0
        with make_pool(jobs, cluster) as pool:
            options = CheckOptions(simulations=simulations, precision=precision,
                                   max_games=max_games, pool=pool)
            # several decks on several workers: check them all at once, then print
            prechecked = (prefetch_checks(loaded, seed=seed, options=options)
                          if len(loaded) > 1 and pool.workers > 1 else [None] * len(loaded))
            for item, pre in zip(loaded, prechecked, strict=True):
                bar = _Bar(item.deck.name)
                try:
                    with _terminate_as_interrupt():
                        result = build_deck(item, Path(output), seed=seed, only=selection,
                                            into=into, keep_going=keep_going, progress=bar,
                                            png=png, png_bleed=png_bleed, tts=tts,
                                            options=options, checked=pre)
                except KeyboardInterrupt:
                    bar.close()
                    click.echo(f"interrupted while building {item.path}; its previous output "
                               "is left as it was", err=True)
                    sys.exit(130)
                except PaperProofError as exc:
                    bar.close()
                    if len(loaded) == 1 or isinstance(exc, TimeLimitError):
                        raise
                    texts = ([p.format() for p in exc.problems] if isinstance(exc, DeckError)
                             else [str(exc)])
                    for text in texts:
                        click.echo(f"error: {item.path}: {text}", err=True)
                    failed.append(f"{item.path} (exit {exc.exit_code})")
                    worst = max(worst, exc.exit_code)
                    continue
                bar.close()
                counts = result.checked.report.counts()
                verdicts = ", ".join(f"{n} {s}" for s, n in counts.items()) or "no checks"
                sheets = " + ".join(f"{n} {name}" for name, n in result.pages.items())
                click.echo(f"{item.deck.name}: {result.components} components, {verdicts}, "
                           f"{len(result.files)} files in {result.folder} "
                           f"({result.seconds:.1f} s)"
                           + (f"; pages: {sheets}" if sheets else ""))
            if failed:
                click.echo(f"{len(failed)} of {len(loaded)} decks failed and kept their "
                           "previous output: " + ", ".join(failed), err=True)
                sys.exit(worst)
    except PaperProofError as exc:
        _fail(exc)


def _distinct_names(loaded: list[Any]) -> None:
    """Two decks of one build may not share a ``name``: their output folders would clash."""
    seen: dict[str, Any] = {}
    for item in loaded:
        other = seen.setdefault(item.deck.name, item)
        if other is not item:
            raise UsageError(f"{other.path} and {item.path} are both named "
                             f"{item.deck.name!r}; each deck's output folder is its name, "
                             "so give one of them another name")


@main.command()
@click.argument("decks", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--seed", type=int, default=None, help="Override the deck's seed.")
@click.option("--count-solutions", is_flag=True,
              help="Also count solutions where the family supports it (quilts).")
@click.option("--simulations", type=click.IntRange(0, MAX_SIMULATIONS), default=None,
              help="Override [check] simulations.")
@click.option("--card", "cards", multiple=True,
              help="Show only these cards: numbers, ids or names (repeatable, or 1-5,park-08).")
@_run_options
@_with_time_limit("check")
def check(decks: tuple[str, ...], fmt: str, seed: int | None, count_solutions: bool,
          simulations: int | None, cards: tuple[str, ...], jobs: int | None,
          cluster: str | None, precision: float | None, max_games: int | None) -> None:
    """Validate DECKs and run every check; exit 0 if all pass, 1 if not, 2 if invalid.

    Text output puts the verdict first, then the card as ``#index id name``."""
    from .build import (
        check_decks,
        laid_out,
        parse_only,
        ranking,
        report_json,
        select,
        subject_names,
    )
    from .families.base import CheckOptions
    from .parallel import make_pool
    from .ranking import ranking_lines

    try:
        wanted = parse_only(",".join(cards), "--card") if cards else None
        loaded = _load_all(_deck_paths(decks))
        with make_pool(jobs, cluster) as pool:
            options = CheckOptions(count_solutions=count_solutions, simulations=simulations,
                                   precision=precision, max_games=max_games, pool=pool)
            results = check_decks(loaded, seed=seed, options=options)
        shown: list[tuple[Any, dict[str, Any], list[Any]]] = []
        for r in results:
            comps = laid_out(r)
            names = subject_names(comps)
            entries = list(r.report.entries)
            if wanted is not None:
                ids = {c.id for c in select(comps, wanted, "--card")}
                entries = [e for e in entries
                           if e.subject in names and names[e.subject].id in ids]
            shown.append((r, {"comps": comps, "names": names}, entries))
    except PaperProofError as exc:
        _fail(exc)
    ok = all(not e.failing for _, _, entries in shown for e in entries)
    if fmt == "json":
        payload: Any = []
        for r, info, entries in shown:
            data = report_json(r, info["comps"])
            if wanted is not None:
                keep = {id(e) for e in entries}
                data["entries"] = [j for e, j in zip(r.report.entries, data["entries"],
                                                     strict=True) if id(e) in keep]
            payload.append(data)
        if len(payload) == 1:
            payload = payload[0]
        click.echo(json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        for r, info, entries in shown:
            click.echo(f"{r.loaded.path} ({r.loaded.family.name}, seed {r.deck.seed})")
            names = info["names"]
            labels = [names[e.subject].label() if e.subject in names else e.subject
                      for e in entries]
            width = max((len(label) for label in labels), default=8)
            for e, label in zip(entries, labels, strict=True):
                click.echo(f"  {e.status:<11}  {label:<{width}}  {e.check:<14} {e.message}")
            counts: dict[str, int] = {}
            for e in entries:
                counts[e.status] = counts.get(e.status, 0) + 1
            ranked = ranking(r)
            if ranked is not None:
                labelled = {k: n.label() for k, n in names.items()}
                for line in ranking_lines(ranked, labelled):
                    click.echo(f"  {line}")
            summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
            good = not any(e.failing for e in entries)
            click.echo(f"  -> {'ok' if good else 'NOT OK'}: {summary}")
    sys.exit(0 if ok else 1)


@main.command()
@click.argument("deck", type=click.Path(dir_okay=False))
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
              help="A deck key and a TOML value, e.g. parks.rounds=6; repeat a key for "
              "several values; several keys give every combination.")
@click.option("--table", "table", type=click.Path(dir_okay=False), default=None,
              help="A sweep table file: [[variant]] tables of deck keys.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--seed", type=int, default=None, help="Override the deck's seed.")
@click.option("--simulations", type=int, default=None,
              help="Override [check] simulations.")
@_run_options
def sweep(deck: str, sets: tuple[str, ...], table: str | None, fmt: str, seed: int | None,
          simulations: int | None, jobs: int | None, cluster: str | None,
          precision: float | None, max_games: int | None) -> None:
    """Check variants of DECK and print their balance figures side by side."""
    from .families.base import CheckOptions
    from .parallel import make_pool
    from .sweep import combine, set_variants, sweep, table_variants

    try:
        variants = combine(table_variants(Path(table)) if table else [], set_variants(sets))
        with make_pool(jobs, cluster) as pool:
            options = CheckOptions(simulations=simulations, precision=precision,
                                   max_games=max_games, pool=pool)
            result = sweep(Path(deck), variants, seed=seed, options=options)
    except PaperProofError as exc:
        _fail(exc)
    if fmt == "json":
        click.echo(json.dumps(result.to_json(), indent=2, sort_keys=True, ensure_ascii=False))
    else:
        click.echo(f"{deck}: {len(result.labels) - 1} variant(s) beside the deck as written")
        for line in result.table_lines():
            click.echo(line)


@main.command()
@click.argument("deck", type=click.Path(dir_okay=False))
@click.argument("source", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def score(deck: str, source: str, fmt: str) -> None:
    """Score a filled map / sheet / landscape SOURCE (TOML) against DECK."""
    from .deckfile import load_deck
    from .safepath import MAX_SCORE_BYTES, decode_utf8, read_regular_file

    try:
        loaded = load_deck(Path(deck))
        src = Path(source)
        data = read_regular_file(src, what="score file", max_bytes=MAX_SCORE_BYTES)
        text = decode_utf8(data, file=source, what="the score file")
        generated = loaded.family.generate(loaded.deck)
        result = loaded.family.score(loaded.deck, generated, src, text)
    except PaperProofError as exc:
        _fail(exc)
    if fmt == "json":
        click.echo(json.dumps(result.to_json(), indent=2, sort_keys=True, ensure_ascii=False))
    else:
        width = max((len(line.label) for line in result.lines), default=5)
        for line in result.lines:
            detail = f"  {line.detail}" if line.detail else ""
            click.echo(f"{line.label:<{width}}  {line.points:>4}{detail}")
        click.echo(f"{'total':<{width}}  {result.total:>4}")


@main.command()
@click.argument("family")
@click.argument("path", required=False, type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def new(family: str, path: str | None, force: bool) -> None:
    """Write a commented starter deck of FAMILY to PATH (default: <family>.toml)."""
    from .build import render_starter, write_atomic
    from .families import find_family

    try:
        fam = find_family(family)
        target = Path(path or f"{fam.name}.toml")
        if target.exists() and not force:
            raise UsageError(f"{target} exists; use --force to overwrite it")
        name = target.stem if target.stem else fam.name
        text = render_starter(fam.name, name)
        write_atomic(target, text)
    except PaperProofError as exc:
        _fail(exc)
    click.echo(f"wrote {target}: build it with  paperproof build {target}")


@main.command()
def families() -> None:
    """List the families and the components each prints."""
    from .families import all_families

    for fam in all_families():
        click.echo(f"{fam.name:<9} {fam.summary}")
        for comp in fam.components:
            click.echo(f"{'':<9}   - {comp}")


@main.command()
@click.argument("family", required=False)
def schema(family: str | None) -> None:
    """Print the JSON Schema of the deck format (of one FAMILY, or all)."""
    from .schema import deck_schema

    try:
        click.echo(json.dumps(deck_schema(family), indent=2, sort_keys=True))
    except PaperProofError as exc:
        _fail(exc)


def _svg_digests(folder: Path) -> dict[str, str]:
    import hashlib

    if not folder.is_dir():
        return {}
    return {p.stem: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.glob("*.svg"))}


def _rebuild(path: Path, out: Path, simulations: int | None) -> None:
    """One round of ``watch``: load, check (cached), build with --keep-going, say what
    changed. Problems are printed, never fatal: the loop goes on to the next save."""
    from .build import build_deck
    from .deckfile import load_deck
    from .families.base import CheckOptions

    try:
        loaded = load_deck(path)
        before = _svg_digests(out / loaded.deck.name / "svg")
        bar = _Bar(loaded.deck.name)
        result = build_deck(loaded, out, keep_going=True, progress=bar,
                            cache=out / ".paperproof-cache",
                            options=CheckOptions(simulations=simulations))
        bar.close()
    except PaperProofError as exc:
        if isinstance(exc, DeckError):
            for problem in exc.problems:
                click.echo(f"error: {problem.format()}", err=True)
        else:
            click.echo(f"error: {exc}", err=True)
        return
    after = _svg_digests(result.folder / "svg")
    changed = sorted(k for k in after if before.get(k) != after[k])
    counts = ", ".join(f"{n} {s}" for s, n in result.checked.report.counts().items())
    what = ("nothing changed" if not changed else
            f"changed: {', '.join(changed[:12])}" + (" ..." if len(changed) > 12 else ""))
    click.echo(f"{time.strftime('%H:%M:%S')} {loaded.deck.name}: {counts}; {what} "
               f"({result.seconds:.1f} s)")


@main.command()
@click.argument("deck", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "output", type=click.Path(file_okay=False), default="output",
              show_default=True, help="Folder that receives <deck>/.")
@click.option("--simulations", type=int, default=None, help="Override [check] simulations.")
def watch(deck: str, output: str, simulations: int | None) -> None:
    """Rebuild DECK on every save of it or of a file in its folder (Ctrl-C stops).

    Checks are cached by a content hash of the deck, the files it names, the options and
    the program version (OUTPUT/.paperproof-cache/), so a change that leaves the rules
    alone rebuilds without checking again. Cards failing a check are printed (with their
    NOT COMPLETABLE mark), as with --keep-going."""
    from watchfiles import watch as watch_files

    path = Path(deck)
    out = Path(output)
    _rebuild(path, out, simulations)
    folder = path.resolve().parent
    skip = out.resolve()
    try:
        for changes in watch_files(folder, debounce=300, raise_interrupt=False):
            names = sorted({Path(p).name for _, p in changes
                            if not Path(p).resolve().is_relative_to(skip)})
            if not names:
                continue
            click.echo(f"saved: {', '.join(names)}")
            _rebuild(path, out, simulations)
    except KeyboardInterrupt:
        pass


main.add_command(shapes)
