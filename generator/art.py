"""Reading a deck's own art at load time: every image it names and its icon folder.

This is part of the deck loader's I/O boundary: every path goes through
:mod:`generator.safepath` (inside the deck's folder, regular file, size cap), every file is
decoded once here (so a missing or broken image is a located error in ``check``, never a
crash at print time), and is registered with :mod:`generator.render.images`; icon files are
registered as symbols, so ``:name:`` works in any text and in icon lists.

Applying ``[[art.images]]`` and ``art.back`` to laid-out components also lives here: it is
family-independent and runs in the build pipeline after a family's layout.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from .deck import ArtImage, Deck
from .errors import DeckError, Problem
from .families.base import ImageRef
from .render.component import Component
from .render.drawing import Drawing, Image, Item
from .render.images import MAX_IMAGE_BYTES, SUFFIXES, decode, register_image
from .render.symbols import register_symbol
from .safepath import KeyPath, read_bytes_inside, resolve_inside

MAX_ICONS = 500
"""Most files an icon folder may hold: a symbol set of a few dozen is usual; hundreds of
files is a wrong folder (a photo library)."""

_ICON_NAME = re.compile(r"[^a-z0-9]+")


def icon_name(stem: str) -> str:
    """A file name -> its symbol name: lower case, runs of other characters as ``-``
    (``Tree Big.svg`` -> ``tree-big``)."""
    return _ICON_NAME.sub("-", stem.lower()).strip("-")


def load_image(deck: Deck, base_dir: Path, relative: str, key: KeyPath) -> str:
    """Read, decode and register the image ``relative`` names; returns its key. Raises
    :class:`DeckError` at ``key`` for a path outside the folder, a missing, unreadable or
    undecodable file, or an unknown kind."""
    kind = SUFFIXES.get(Path(relative).suffix.lower())
    if kind is None:
        raise DeckError([Problem("E-ART-KIND", key,
                                 f"{relative!r} is not a PNG, JPEG or SVG file name",
                                 "name a .png, .jpg, .jpeg or .svg file")])
    data = read_bytes_inside(base_dir, relative, what="the image", max_bytes=MAX_IMAGE_BYTES,
                             key=key)
    ref = deck.image_ref(relative)
    try:
        register_image(decode(ref, data, kind))
    except ValueError as exc:
        raise DeckError([Problem("E-ART-UNREADABLE", key,
                                 f"the image {relative!r} cannot be used: {exc}",
                                 "export it again as PNG, JPEG or SVG")]) from None
    return ref


def load_art(deck: Deck, base_dir: Path, extra: Sequence[ImageRef] = ()) -> list[Problem]:
    """Load every image of ``[art]`` and the ``extra`` images a family names; register the
    icon folder's symbols. Returns every problem (nothing raised)."""
    problems: list[Problem] = []
    art = deck.art
    wanted: list[ImageRef] = []
    if art.back is not None:
        wanted.append(ImageRef(("art", "back"), art.back))
    wanted += [ImageRef(("art", "images", i, "image"), im.image)
               for i, im in enumerate(art.images)]
    wanted += list(extra)
    for ref in wanted:
        try:
            load_image(deck, base_dir, ref.path, ref.key)
        except DeckError as exc:
            problems.extend(Problem(p.code, p.path, p.message, p.hint, ref.file, ref.line)
                            if ref.file and not p.file else p for p in exc.problems)
    if art.icons is not None:
        problems += _load_icons(deck, base_dir, art.icons)
    fonts = deck.fonts
    wanted_fonts: list[tuple[KeyPath, str]] = []
    if fonts.title:
        wanted_fonts.append((("fonts", "title"), fonts.title))
    if fonts.body:
        wanted_fonts.append((("fonts", "body"), fonts.body))
    wanted_fonts += [(("fonts", "fallback", i), f) for i, f in enumerate(fonts.fallback)]
    for key, relative in wanted_fonts:
        try:
            _load_font(deck, base_dir, relative, key)
        except DeckError as exc:
            problems.extend(exc.problems)
    return problems


MAX_FONT_BYTES = 64 * 1024 * 1024
"""Largest font file (64 MiB): a full CJK font is 20-30 MiB."""


def _load_font(deck: Deck, base_dir: Path, relative: str, key: KeyPath) -> None:
    from .render.fonts import register_font_file

    if Path(relative).suffix.lower() not in (".ttf", ".otf"):
        raise DeckError([Problem("E-FONT-KIND", key, f"{relative!r} is not a .ttf or .otf "
                                 "font file", "name a TrueType font file")])
    data = read_bytes_inside(base_dir, relative, what="the font", max_bytes=MAX_FONT_BYTES,
                             key=key)
    try:
        register_font_file(deck.image_ref(relative), data)
    except ValueError as exc:
        raise DeckError([Problem("E-FONT-UNREADABLE", key,
                                 f"the font {relative!r} cannot be used: {exc}",
                                 "use a TrueType (.ttf) font")]) from None


def _load_icons(deck: Deck, base_dir: Path, folder: str) -> list[Problem]:
    key: KeyPath = ("art", "icons")
    try:
        real = resolve_inside(base_dir, folder, what="the icon folder", max_bytes=None,
                              key=key, directory=True)
    except DeckError as exc:
        return list(exc.problems)
    files = sorted(p for p in real.iterdir() if p.suffix.lower() in SUFFIXES)
    if not files:
        return [Problem("E-ART-ICONS-EMPTY", key, f"the icon folder {folder!r} holds no "
                        "PNG, JPEG or SVG files", "put one file per icon in it")]
    if len(files) > MAX_ICONS:
        return [Problem("E-ART-ICONS-MANY", key, f"the icon folder {folder!r} holds "
                        f"{len(files)} images, more than {MAX_ICONS}", "give a folder of icons")]
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for path in files:
        name = icon_name(path.stem)
        if not name or name[0].isdigit() and not name.replace("-", "").isdigit():
            problems.append(Problem("E-ART-ICON-NAME", key, f"{path.name!r} gives no usable "
                                    "symbol name", "name icon files with letters, e.g. "
                                    "tree.svg"))
            continue
        if name in seen:
            problems.append(Problem("E-ART-ICON-NAME", key, f"{path.name!r} and "
                                    f"{seen[name]!r} both become :{name}:",
                                    "rename one of them"))
            continue
        seen[name] = path.name
        relative = f"{folder.rstrip('/')}/{path.name}"
        try:
            ref = load_image(deck, base_dir, relative, key)
        except DeckError as exc:
            problems.extend(exc.problems)
            continue
        register_symbol(name, (Image(0.0, 0.0, 1.0, 1.0, ref, fit="contain"),))
    return problems


def _matches(comp: Component, names: dict[str, str], on: tuple[str, ...]) -> bool:
    keys = {comp.id.lower(), comp.kind.lower(), names.get(comp.id, "").lower()}
    return any(o == "*" or o.lower() in keys for o in on)


def _placed(deck: Deck, d: Drawing, im: ArtImage) -> Drawing:
    if im.frame is None:
        b = d.bleed
        frame: tuple[float, float, float, float] = (-b, -b, d.width + 2 * b, d.height + 2 * b)
    else:
        frame = im.frame
    item = Image(*frame, ref=deck.image_ref(im.image), fit=im.fit, anchor=im.anchor)
    items: tuple[Item, ...] = (item, *d.items) if im.layer == "under" else (*d.items, item)
    return replace(d, items=items)


def apply_art(deck: Deck, components: Sequence[Component], names: dict[str, str]
              ) -> list[Component]:
    """``components`` with ``art.back`` on every back and each ``[[art.images]]`` on the
    faces it names. A table whose ``on`` names no component is an error (a typo would
    otherwise print nothing)."""
    art = deck.art
    if art.back is None and not art.images:
        return list(components)
    problems: list[Problem] = []
    for i, im in enumerate(art.images):
        for j, on in enumerate(im.on):
            if on != "*" and not any(_matches(c, names, (on,)) for c in components):
                problems.append(Problem("E-ART-ON", ("art", "images", i, "on", j),
                                        f"no component is called {on!r}",
                                        "give component ids, names or kinds, or \"*\""))
    if problems:
        raise DeckError(problems)
    out: list[Component] = []
    for comp in components:
        front, back = comp.front, comp.back
        if art.back is not None and back is not None:
            b = back.bleed
            back = Drawing(back.width, back.height,
                           (Image(-b, -b, back.width + 2 * b, back.height + 2 * b,
                                  deck.image_ref(art.back), fit="cover"),),
                           bleed=b, cut=back.cut, background="#ffffff")
        for im in art.images:
            if not _matches(comp, names, im.on):
                continue
            if im.face == "front":
                front = _placed(deck, front, im)
            elif back is not None:
                back = _placed(deck, back, im)
        out.append(replace(comp, front=front, back=back))
    return out
