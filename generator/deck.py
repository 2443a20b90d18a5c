"""The deck model: frozen, validated pydantic models for what every deck file shares.

A deck file names its ``family``, ``name``, ``version`` and ``seed``, has a ``[print]`` table
and a ``[check]`` table common to all families, and one table named after its family with
that family's parameters (``[parks]``, ``[cards]`` ...). Each family supplies the model of its
own table as ``Family.Params``; :func:`deck_model` joins the two.

Field descriptions here are the deck reference: ``docs/decks.md`` and ``paperproof schema``
are generated from them.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PrivateAttr,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic import create_model as _create_model

from .core.stats import DEFAULT_MAX_GAMES, DEFAULT_MEAN_PRECISION, DEFAULT_RATE_PRECISION
from .render.colour import COLOUR_PATTERN, is_colour
from .units import CARD_PRESETS, PAGE_PRESETS, parse_length

_LENGTH_SCHEMA = {
    "anyOf": [
        {"type": "number", "minimum": 0, "description": "millimetres"},
        {"type": "string", "pattern": r"^\s*[0-9]*\.?[0-9]+\s*(mm|cm|in|pt)\s*$"},
    ]
}

Length = Annotated[
    float,
    BeforeValidator(parse_length),
    WithJsonSchema(_LENGTH_SCHEMA),
    PlainSerializer(lambda v: v, return_type=float),
]
"""A length: a number of millimetres or a string with a unit (``63mm``, ``2.5in``, ``9pt``)."""


def _colour(value: object) -> object:
    if isinstance(value, str) and not is_colour(value):
        raise ValueError(f"expected a colour like '#2b6cb0', got {value!r}")
    return value


Colour = Annotated[
    str,
    BeforeValidator(_colour),
    WithJsonSchema({"type": "string", "pattern": COLOUR_PATTERN}),
]
"""A colour as ``#rrggbb``."""


def _signed_length(value: object) -> float:
    if isinstance(value, str) and value.strip().startswith("-"):
        return -parse_length(value.strip()[1:])
    if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
        return -parse_length(-value)
    return parse_length(value)


SignedLength = Annotated[
    float,
    BeforeValidator(_signed_length),
    WithJsonSchema({"anyOf": [
        {"type": "number", "description": "millimetres"},
        {"type": "string", "pattern": r"^\s*-?[0-9]*\.?[0-9]+\s*(mm|cm|in|pt)\s*$"},
    ]}),
    PlainSerializer(lambda v: v, return_type=float),
]
"""A length that may be negative (offsets): ``"-0.5mm"``."""


class Frozen(BaseModel):
    """Base of every deck model: immutable, unknown keys rejected, NaN and infinity refused
    (see also :mod:`generator.limits`, which checks every value before the models do)."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False,
                              allow_inf_nan=False)


class Size(Frozen):
    """A width and height."""

    width: Length = Field(description="Width (mm, or with a unit).")
    height: Length = Field(description="Height (mm, or with a unit).")


def _size_or_preset(presets: dict[str, tuple[float, float]], what: str) -> Any:
    def parse(value: object) -> object:
        if isinstance(value, str):
            if value in presets:
                w, h = presets[value]
                return {"width": w, "height": h}
            names = ", ".join(presets)
            raise ValueError(f"unknown {what} preset {value!r}; valid: {names}, or a table "
                             "{{ width = ..., height = ... }}")
        return value

    return BeforeValidator(parse)


_SIZE_SCHEMA = {
    "type": "object",
    "properties": {"width": _LENGTH_SCHEMA, "height": _LENGTH_SCHEMA},
    "required": ["width", "height"],
    "additionalProperties": False,
}

CardSize = Annotated[
    Size,
    _size_or_preset(CARD_PRESETS, "card"),
    WithJsonSchema({"anyOf": [{"enum": list(CARD_PRESETS)}, _SIZE_SCHEMA]}),
]
PageSize = Annotated[
    Size,
    _size_or_preset(PAGE_PRESETS, "page"),
    WithJsonSchema({"anyOf": [{"enum": list(PAGE_PRESETS)}, _SIZE_SCHEMA]}),
]


class PrintSettings(Frozen):
    """How components are printed: sizes, bleed, marks, imposition, backs."""

    card: CardSize = Field(
        default=Size(width=63.5, height=88.9),
        description="Card size: a preset (poker 63.5x88.9, standard 63x88, bridge 57.15x88.9, "
        "tarot 70x120, mini 44x63, square 70x70) or { width, height }. Default poker.",
    )
    page: PageSize = Field(
        default=Size(width=210.0, height=297.0),
        description="Sheet size: A4, Letter, A3, Tabloid or { width, height }. Default A4.",
    )
    orientation: Literal["auto", "portrait", "landscape"] = Field(
        default="auto", description="Sheet orientation; auto picks the one that fits more."
    )
    bleed: Length = Field(default=3.0, description="Bleed around each component. Default 3mm.")
    safe: Length = Field(
        default=3.0, description="Safe zone inside the trim: text stays inside it. Default 3mm."
    )
    margin: Length = Field(
        default=8.0, description="Minimum page margin around the imposed grid. Default 8mm."
    )
    gutter: Length = Field(
        default=0.0,
        description="Space between neighbouring components' bleed boxes. Default 0mm.",
    )
    crop_marks: bool = Field(default=True, description="Hairline crop marks outside the bleed.")
    duplex: Literal["none", "long-edge", "short-edge", "gutter-fold"] = Field(
        default="long-edge",
        description="Backs: none; duplex sheets mirrored for long-edge or short-edge flip; "
        "or a gutter-fold layout (fronts and backs side by side, fold down the middle).",
    )
    back_offset: tuple[SignedLength, SignedLength] = Field(
        default=(0.0, 0.0),
        description="Shift of back pages (x, y) to correct a printer's duplex misalignment; "
        "measure it with the calibration page.",
    )
    calibration: bool = Field(
        default=False, description="Add a duplex calibration page to sheets.pdf."
    )
    cut_contour: bool = Field(
        default=False,
        description="Also draw trim paths in sheets.pdf as a CutContour spot colour.",
    )
    stamp: bool = Field(
        default=True, description="Small stamp on every component: deck, version, seed, index."
    )


DEFAULT_BAND = (0.2, 0.9)
"""Completion rates outside which a card is flagged: a card fewer than one game in five
completes is a wall for most tables; one that nine in ten complete offers no decision."""

MAX_BUDGET_NODES = 100_000_000
"""Most search nodes per card: about a minute of search per card on a laptop; a deck asking
for more is a typo (and a build that could not finish in a working day)."""

MAX_SIMULATIONS = 100_000
"""Most simulated games per figure (``simulations``, ``max_games``, ``--simulations``): an
interval at 100,000 games is already +/-0.3 percentage points wide."""


class CheckSettings(Frozen):
    """Search budgets and simulation sizes for the checks. Budgets count search nodes only:
    a verdict never depends on how fast the machine is (``--time-limit`` stops a whole
    command instead)."""

    @model_validator(mode="before")
    @classmethod
    def _no_seconds_budget(cls, data: Any) -> Any:
        if isinstance(data, dict) and "budget_seconds" in data:
            raise ValueError(
                "budget_seconds is gone: verdicts count search nodes only (budget_nodes), so "
                "a loaded machine cannot turn 'completable' into 'unknown'; delete the key, "
                "and give `paperproof check --time-limit SECONDS` to stop a whole command")
        return data

    budget_nodes: int = Field(
        default=200_000, ge=1, le=MAX_BUDGET_NODES,
        description=f"Search nodes per card before 'unknown'. At most {MAX_BUDGET_NODES:,}.",
    )
    simulations: int = Field(
        default=200, ge=0, le=MAX_SIMULATIONS,
        description="Seeded simulated games for figures a family samples at a fixed count. "
        f"At most {MAX_SIMULATIONS:,}.",
    )
    precision: float = Field(
        default=DEFAULT_RATE_PRECISION, gt=0, le=0.5,
        description="Half-width of every simulated rate's 95% interval, as a fraction: games "
        "are added in seeded batches until every interval is this narrow or max_games is "
        "reached. Default 0.05 (+/-5 percentage points).",
    )
    mean_precision: float = Field(
        default=DEFAULT_MEAN_PRECISION, gt=0, le=10,
        description="Half-width of every simulated mean's 95% interval, relative to the mean. "
        "Default 0.05 (+/-5% of the mean).",
    )
    band: tuple[float, float] = Field(
        default=DEFAULT_BAND,
        description="The completion rates a card should fall between, [low, high]: the "
        "deck-wide ranking flags a card 'too hard' when its whole 95% interval is below low "
        "and 'too easy' when it is above high. Default [0.2, 0.9].",
    )
    max_games: int = Field(
        default=DEFAULT_MAX_GAMES, ge=0, le=MAX_SIMULATIONS,
        description="Cap on simulated games per card (or per figure) when sampling to a "
        "precision; the report says when the cap stopped a sample. Default 2000, at most "
        f"{MAX_SIMULATIONS:,}.",
    )

    @field_validator("band")
    @classmethod
    def _band_in_order(cls, v: tuple[float, float]) -> tuple[float, float]:
        if not 0.0 <= v[0] < v[1] <= 1.0:
            raise ValueError(f"band needs 0 <= low < high <= 1, got {list(v)}")
        return v


_SLUG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _slug(value: str) -> str:
    if not _SLUG.match(value):
        raise ValueError(
            f"{value!r} is not a usable deck name; use letters, digits, '-', '_' or '.'"
        )
    return value


ImageFit = Literal["contain", "cover", "stretch"]
ImageAnchor = Literal["center", "top", "bottom", "left", "right", "top-left", "top-right",
                      "bottom-left", "bottom-right"]


class ArtImage(Frozen):
    """One image placed on components of any family (a ``[[art.images]]`` table)."""

    image: str = Field(description="PNG, JPEG or SVG file, relative to the deck file (it may "
                       "not leave the deck's folder).")
    on: tuple[str, ...] = Field(
        default=("*",),
        description="Which components: ids, names, component kinds (park-card, tile ...) or "
        "\"*\" for every one. Default every component.",
    )
    face: Literal["front", "back"] = Field(default="front", description="Front or back face.")
    frame: tuple[SignedLength, SignedLength, Length, Length] | None = Field(
        default=None,
        description="[x, y, width, height] of the frame from the trim's top-left corner; "
        "default the whole face with its bleed (full-bleed art).",
    )
    fit: ImageFit = Field(
        default="cover",
        description="contain (whole image, may leave margins), cover (fills the frame, "
        "crops), stretch (fills it exactly). Default cover.",
    )
    anchor: ImageAnchor = Field(
        default="center", description="Which part is kept (cover) or where it sits (contain)."
    )
    layer: Literal["under", "over"] = Field(
        default="over",
        description="under: drawn before the family's own design (a background); over: on "
        "top of it. Default over.",
    )


class ArtSettings(Frozen):
    """The designer's own art: an icon folder, a back image, images on any component."""

    icons: str | None = Field(
        default=None,
        description="A folder (relative to the deck) of PNG/JPEG/SVG files; each file "
        "becomes a symbol named by its file name (icons/tree-big.svg -> :tree-big:), "
        "usable in icons lists and inline text beside the built-in symbols.",
    )
    back: str | None = Field(
        default=None,
        description="An image drawn full-bleed on the back of every component that has a "
        "back (it replaces the family's back design).",
    )
    images: tuple[ArtImage, ...] = Field(
        default=(), description="Images placed on components, as [[art.images]] tables."
    )


class FontSettings(Frozen):
    """The deck's own fonts (TrueType .ttf, or .otf with TrueType outlines), relative to the
    deck file; embedded (subset) in the PDFs, named in the SVGs."""

    title: str | None = Field(default=None,
                              description="Font of titles; default Noto Sans.")
    body: str | None = Field(default=None, description="Font of body text; default Noto Sans.")
    fallback: tuple[str, ...] = Field(
        default=(),
        description="Fonts tried, in order, after the title/body font and Noto Sans for a "
        "text with characters those lack (a CJK font, say). A text no font covers is an "
        "error naming the card.",
    )


class DeckBase(Frozen):
    """Keys every deck file has."""

    family: str = Field(description="Which family this deck belongs to (paperproof families).")
    name: Annotated[str, BeforeValidator(lambda v: _slug(v) if isinstance(v, str) else v)] = (
        Field(description="Deck name; printed in every component's stamp.")
    )
    version: str = Field(default="1", description="Deck version; printed in the stamp.")
    seed: int = Field(default=1, description="Seed of every generator and simulation.")
    description: str = Field(default="", description="Free text shown in index.html.")
    print: PrintSettings = Field(default_factory=PrintSettings, description="Print settings.")
    check: CheckSettings = Field(default_factory=CheckSettings, description="Check budgets.")
    art: ArtSettings = Field(default_factory=ArtSettings,
                             description="The designer's own images and icons.")
    fonts: FontSettings = Field(default_factory=FontSettings,
                                description="The designer's own fonts.")
    language: Literal["en", "es", "ru", "it", "hu", "fr"] = Field(
        default="en",
        description="Language of the labels PaperProof prints (stamp, NOT COMPLETABLE mark, "
        "family labels such as 'Park sheet'): en, es, ru, it, hu or fr. Default en.",
    )
    labels: dict[str, str] = Field(
        default_factory=dict,
        description="Your own text for any printed label, by key (\"parks.sheet\" = "
        "\"Mi parque\"); the keys and their English defaults are listed in docs/art.md.",
    )

    @field_validator("labels")
    @classmethod
    def _known_labels(cls, value: dict[str, str]) -> dict[str, str]:
        from .labels import LABELS

        for key in value:
            if key not in LABELS:
                raise ValueError(f"unknown label {key!r}; valid: {', '.join(sorted(LABELS))}")
        return value

    def label(self, key: str, **values: object) -> str:
        """The printed text of label ``key`` in the deck's language (see generator/labels)."""
        from .labels import label

        return label(self.language, self.labels, key, **values)

    _folder: str = PrivateAttr(default=".")

    def image_ref(self, relative: str) -> str:
        """The key under which the loader registered the image the deck names as
        ``relative`` (see :mod:`generator.render.images`)."""
        return f"{self._folder}/{relative}"

    def font_chain(self, role: Literal["title", "body"]) -> str:
        """The font chain of a text box for ``role`` (TextBox.font): the deck's font for the
        role, then Noto Sans, then the fallbacks."""
        own = self.fonts.title if role == "title" else self.fonts.body
        keys = ([self.image_ref(own)] if own else []) + [""] + \
            [self.image_ref(f) for f in self.fonts.fallback]
        return "" if keys == [""] else "|".join(keys)

    def in_folder(self, folder: str) -> DeckBase:
        """This deck, its file paths read relative to ``folder`` (set by the loader)."""
        self._folder = folder
        return self

    @property
    def params(self) -> Any:
        """The family's own table (``[parks]`` for a parks deck)."""
        return getattr(self, self.family)

    def with_seed(self, seed: int) -> DeckBase:
        return self.model_copy(update={"seed": seed})


_MODELS: dict[tuple[str, type[BaseModel]], type[DeckBase]] = {}


def deck_model(family: str, params: type[BaseModel]) -> type[DeckBase]:
    """The full deck model of one family: the shared keys plus ``[<family>]``."""
    key = (family, params)
    if key not in _MODELS:
        fields: Any = {
            family: (params, Field(default_factory=params, description=params.__doc__ or ""))
        }
        name = f"{family.title()}Deck"
        model = _create_model(name, __base__=DeckBase, __module__=__name__, **fields)
        # Named in this module so that pickle finds it: decks travel to worker processes
        # and cluster workers (--jobs, --cluster).
        globals().setdefault(name, model)
        _MODELS[key] = model
    return _MODELS[key]


def __getattr__(name: str) -> Any:
    """A family's deck model by its class name (``ParksDeck``), made on first use: how a
    fresh worker process unpickles a deck before anything there has loaded one."""
    if name.endswith("Deck") and len(name) > 4:
        from .families import all_families

        for fam in all_families():
            if f"{fam.name.title()}Deck" == name:
                return deck_model(fam.name, fam.Params)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


Deck = DeckBase
"""The type families receive: a validated deck (an instance of ``deck_model(...)``)."""
