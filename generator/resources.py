"""The files the package ships beside its code: the Jinja2 templates (``index.html.j2`` and
the starter decks of ``paperproof new``).

They live in the repository's top-level ``templates/`` folder; the wheel ships that folder as
the data package ``generator.templates`` (see ``setup.py``), and they are always read through
:mod:`importlib.resources`, so an installed wheel (pip, pipx) finds them wherever it lives.
A source checkout run without installing (``PYTHONPATH=.``) has no ``generator.templates``
package, or an editable install's one pointing at another checkout: there the checkout's own
``templates/`` folder is used, recognised by the ``pyproject.toml`` beside it.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import jinja2

_CHECKOUT = Path(__file__).resolve().parent.parent
"""The folder holding the ``generator`` package: a source checkout when it has the project
file, site-packages when installed."""


def templates() -> Traversable:
    """The root of the shipped templates (``index.html.j2``, ``new/<family>.toml.j2``)."""
    source = _CHECKOUT / "templates"
    if (_CHECKOUT / "pyproject.toml").is_file() and source.is_dir():
        return source
    return resources.files("generator.templates")


def _load(name: str) -> str | None:
    """Jinja2's loader callback: a template's text, or ``None`` when it is not shipped."""
    node = templates()
    for part in name.split("/"):
        node = node.joinpath(part)
    return node.read_text(encoding="utf-8") if node.is_file() else None


def template_loader() -> jinja2.BaseLoader:
    """A Jinja2 loader over :func:`templates` (works inside a zip or wheel, too)."""
    return jinja2.FunctionLoader(_load)
