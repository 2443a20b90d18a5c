"""``paperproof shapes N``: print every polyomino (or polyhex) of N cells, for designers
picking piece shapes. The logic is :func:`generator.core.shapes.shapes_text`; this module only
parses the options and prints."""

from __future__ import annotations

import click

from .core.polyomino import Symmetry
from .core.shapes import MAX_CELLS, shapes_text


@click.command("shapes")
@click.argument("n", type=click.IntRange(1, MAX_CELLS), metavar="N")
@click.option("--hex", "hex_", is_flag=True, help="Polyhexes (hex cells) instead of polyominoes.")
@click.option(
    "--free",
    "symmetry",
    flag_value="free",
    default=True,
    help="Rotations and reflections are the same shape (default).",
)
@click.option(
    "--one-sided", "symmetry", flag_value="one-sided", help="Mirror images count as different."
)
@click.option(
    "--fixed", "symmetry", flag_value="fixed", help="Every rotation and reflection counts."
)
@click.option("--count", "count_only", is_flag=True, help="Print only how many there are.")
def shapes(n: int, hex_: bool, symmetry: str, count_only: bool) -> None:
    """Print the shapes of N cells (1-12) as text art, or only their number with --count."""
    try:
        text = shapes_text(n, hex=hex_, symmetry=Symmetry(symmetry), count_only=count_only)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    click.echo(text, nl=False)
