"""The ``layers`` family: stacked landscape cards and objective cards, with achievability.

Players take cards of one colour or one value from face-up piles and stack them in a 3x3
landscape (one colour per stack, values rising); objective cards ask for shapes of stacks
whose tops meet a condition, or counts of tops. ``check`` proves each objective achievable
with the deck's cards (a certificate landscape replayed through the rules engine) or gives the
reason it is not, and measures with seeded bot games how often each one is taken.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel

from ...deck import Deck
from ...errors import Problem
from ..base import Family, ScoreResult
from . import score as score_mod
from .generate import generate, validate_params
from .model import LayersParams, LayersSet


class LayersFamily(Family[LayersParams, LayersSet]):
    name: ClassVar[str] = "layers"
    title: ClassVar[str] = "Stacked landscapes"
    summary: ClassVar[str] = (
        "landscape cards stacked in a 3x3 by colour and rising value, objective cards with "
        "achievability proofs"
    )
    components: ClassVar[tuple[str, ...]] = (
        "landscape cards (colour + pattern, value, stars, scissors logo)",
        "starting cards",
        "objective cards with a 3x3 diagram",
        "score tokens",
        "scissors token",
        "proof pages of each objective's certificate landscape",
    )
    Params: ClassVar[type[BaseModel]] = LayersParams

    def validate(self, deck: Deck) -> list[Problem]:
        return validate_params(deck.params)

    def generate(self, deck: Deck) -> LayersSet:
        return generate(deck.params, deck.seed)

    def score(self, deck: Deck, generated: LayersSet, source: Path, text: str) -> ScoreResult:
        return score_mod.score(deck.params, generated, source, text)
