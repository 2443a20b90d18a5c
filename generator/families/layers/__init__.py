"""The ``layers`` family: stacked landscape cards and objective cards, with achievability.

Players take cards of one colour or one value from face-up piles and stack them in a 3x3
landscape (one colour per stack, values rising); objective cards ask for shapes of stacks
whose tops meet a condition, or counts of tops. ``check`` proves each objective achievable
with the deck's cards (a certificate landscape replayed through the rules engine) or gives the
reason it is not, and measures with seeded bot games how often each one is taken.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from ...core.answer import Answer
from ...core.budget import Budget
from ...deck import Deck
from ...errors import Problem
from ..base import CheckOptions, Component, Family, Question, Report, ScoreResult
from . import check as check_mod
from . import layout as layout_mod
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

    def questions(self, deck: Deck, generated: LayersSet) -> tuple[Question, ...]:
        return check_mod.questions(generated)

    def solve(self, deck: Deck, generated: LayersSet, question: Question,
              budget: Budget) -> Answer:
        return check_mod.solve(generated, question, budget)

    def replay(self, deck: Deck, generated: LayersSet, question: Question,
               certificate: Any) -> None:
        check_mod.replay_certificate(generated, question, certificate)

    def check(self, deck: Deck, generated: LayersSet, options: CheckOptions) -> Report:
        return check_mod.check(deck, generated, options)

    def layout(self, deck: Deck, generated: LayersSet, report: Report) -> list[Component]:
        return layout_mod.layout(deck, generated, report)

    def score(self, deck: Deck, generated: LayersSet, source: Path, text: str) -> ScoreResult:
        return score_mod.score(deck.params, generated, source, text)
