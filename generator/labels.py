"""Printed labels in the deck's language: the words PaperProof itself prints on components.

A deck picks a label set with ``language`` (en, es, ru, it, hu, fr) and may override any
label with ``[labels]`` (``"parks.sheet" = "Mi parque"``); the English text is the default of
every key. Labels may hold ``{n}`` where a number goes in. Keys are ``<area>.<name>``: shared
ones (``stamp.seed``, ``mark.not_completable``) and per family (``parks.*``).

Translations are plain and short on purpose: they print in small boxes that shrink to fit.
"""

from __future__ import annotations

from typing import Literal

Language = Literal["en", "es", "ru", "it", "hu", "fr"]

LABELS: dict[str, dict[str, str]] = {
    "stamp.seed": {"en": "seed", "es": "semilla", "ru": "сид", "it": "seme", "hu": "mag",
                   "fr": "graine"},
    "mark.not_completable": {"en": "NOT COMPLETABLE", "es": "NO COMPLETABLE",
                             "ru": "НЕВЫПОЛНИМО", "it": "NON COMPLETABILE",
                             "hu": "NEM TELJESÍTHETŐ", "fr": "NON RÉALISABLE"},
    "parks.sheet": {"en": "Park sheet", "es": "Hoja de parque", "ru": "Лист парка",
                    "it": "Foglio del parco", "hu": "Parklap", "fr": "Feuille de parc"},
    "parks.cut_note": {"en": "cut along the grey lines", "es": "corta por las líneas grises",
                       "ru": "режьте по серым линиям", "it": "taglia lungo le linee grigie",
                       "hu": "vágd a szürke vonalak mentén",
                       "fr": "découpez le long des lignes grises"},
    "parks.back": {"en": "PARK", "es": "PARQUE", "ru": "ПАРК", "it": "PARCO", "hu": "PARK",
                   "fr": "PARC"},
    "parks.grand": {"en": "GRAND PARK", "es": "GRAN PARQUE", "ru": "БОЛЬШОЙ ПАРК",
                    "it": "GRANDE PARCO", "hu": "NAGY PARK", "fr": "GRAND PARC"},
    "parks.die": {"en": "Park die", "es": "Dado del parque", "ru": "Кубик парка",
                  "it": "Dado del parco", "hu": "Parkkocka", "fr": "Dé du parc"},
    "parks.tokens": {"en": "Bonus tokens", "es": "Fichas de bonificación",
                     "ru": "Бонусные жетоны", "it": "Segnalini bonus", "hu": "Bónuszjelzők",
                     "fr": "Jetons bonus"},
    "parks.score_pad": {"en": "Solo score pad", "es": "Hoja de puntuación en solitario",
                        "ru": "Бланк очков (соло)", "it": "Segnapunti in solitario",
                        "hu": "Egyszemélyes pontozólap", "fr": "Feuille de score solo"},
    "parks.game": {"en": "Game {n}", "es": "Partida {n}", "ru": "Игра {n}",
                   "it": "Partita {n}", "hu": "{n}. játék", "fr": "Partie {n}"},
}
"""Every label: key -> language -> text. ``en`` is the default of each key."""

LANGUAGES: tuple[str, ...] = ("en", "es", "ru", "it", "hu", "fr")


def label(language: str, overrides: dict[str, str], key: str, **values: object) -> str:
    """The text of label ``key`` in ``language`` (a deck's ``[labels]`` override first),
    with ``{name}`` placeholders filled from ``values``."""
    text = overrides.get(key) or LABELS[key].get(language) or LABELS[key]["en"]
    return text.format(**values) if values else text
