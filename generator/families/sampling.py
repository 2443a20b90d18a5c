"""How many simulated games a family's sampled figures get, from the deck and the command line.

Sampled figures (means and rates with intervals) follow ``[check] precision`` /
``mean_precision`` up to ``max_games`` (:class:`generator.core.stats.Precision`, resolved in
:class:`generator.families.base.Settings`). A deck that fixes ``[check] simulations`` and sets
no ``max_games`` keeps exactly that many games (``simulations = 0``: none), as
``--simulations N`` does on the command line: older decks and quick test decks then play what
they always played instead of sampling up to the 2,000-game cap.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.stats import Precision
from ..deck import Deck
from .base import Settings


def deck_sampling(deck: Deck, settings: Settings) -> Precision:
    """The sampling of this run (see the module docstring)."""
    s = settings.sampling
    fixed_on_cli = s.min_games == s.max_games
    chosen = deck.check.model_fields_set
    if not fixed_on_cli and "simulations" in chosen and "max_games" not in chosen:
        return replace(Precision.fixed(deck.check.simulations), rate=s.rate, mean=s.mean)
    return s
