"""``python -m generator`` runs the ``paperproof`` command."""

from .cli import main

main()
