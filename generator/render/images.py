"""A designer's own images (PNG, JPEG, SVG): decoded once, registered by key, painted by both
painters.

Drawings refer to an image by a key string (:class:`generator.render.drawing.Image`), not by
its bytes, so that drawings stay small, hashable and comparable; the deck loader (the I/O
boundary) reads each file a deck names, checks that it decodes, and registers it here under
``<deck folder>/<path as written>``. Raster images are embedded as they are (reportlab and the
SVG ``data:`` URI both carry the original PNG/JPEG bytes, so nothing is re-encoded); SVG art
stays vector: in PDF it is converted to reportlab drawing operators (svglib), in SVG output it
is embedded as an SVG document.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from ..errors import LayoutError

ImageKind = Literal["png", "jpeg", "svg"]

MAX_IMAGE_BYTES = 32 * 1024 * 1024
"""Largest image file read (32 MiB): a full-bleed poker card at 600 dpi as PNG is under
20 MiB; anything larger is almost surely a mistake (a print master of a whole sheet)."""

MAX_IMAGE_PIXELS = 64_000_000
"""Largest decoded raster (64 megapixels), so that a tiny "decompression bomb" file cannot
exhaust memory when rasterised."""

SUFFIXES: dict[str, ImageKind] = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".svg": "svg"}
"""File name endings of the image kinds PaperProof reads."""


@dataclass(frozen=True)
class ImageData:
    """A decoded image: its bytes, kind, and intrinsic size (pixels for raster images, the
    ``viewBox``/``width``/``height`` for SVG) whose ratio is the aspect ratio."""

    key: str
    kind: ImageKind
    data: bytes
    width: float
    height: float

    @property
    def aspect(self) -> float:
        """Width over height."""
        return self.width / self.height


_REGISTRY: dict[str, ImageData] = {}


def decode(key: str, data: bytes, kind: ImageKind) -> ImageData:
    """Check that ``data`` is a readable image of ``kind`` and measure it. Raises
    ``ValueError`` with a reason a designer understands (never the file's contents)."""
    if kind == "svg":
        drawing = _svg_drawing(data)
        w, h = float(drawing.width), float(drawing.height)
    else:
        from PIL import Image as PILImage

        try:
            with PILImage.open(io.BytesIO(data)) as im:
                fmt = (im.format or "").lower()
                w, h = float(im.size[0]), float(im.size[1])
                if w * h > MAX_IMAGE_PIXELS:
                    raise ValueError(f"it has {int(w * h)} pixels, more than the "
                                     f"{MAX_IMAGE_PIXELS} allowed")
                im.load()
        except ValueError:
            raise
        except Exception as exc:  # Pillow raises many kinds for a broken file
            raise ValueError(f"it is not a readable {kind.upper()} image "
                             f"({type(exc).__name__})") from None
        if fmt != kind:
            raise ValueError(f"its name says {kind.upper()} but it holds "
                             f"{fmt.upper() or 'something else'}")
    if w <= 0 or h <= 0:
        raise ValueError("it has no size (width or height is 0)")
    return ImageData(key, kind, data, w, h)


def register_image(image: ImageData) -> None:
    """Make ``image`` paintable under ``image.key`` (replacing an earlier one)."""
    _REGISTRY[image.key] = image
    _svg_cached.cache_clear()


def get_image(key: str) -> ImageData:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise LayoutError(f"image {key!r} was not loaded with the deck") from None


def image_keys() -> tuple[str, ...]:
    """Every registered image key."""
    return tuple(_REGISTRY)


def has_image(key: str) -> bool:
    return key in _REGISTRY


def _svg_drawing(data: bytes) -> Any:
    """The svglib drawing of SVG bytes, or ``ValueError``. External entities and network
    access stay off (lxml's defaults in svglib's parser)."""
    from svglib.svglib import svg2rlg

    try:
        drawing = svg2rlg(io.BytesIO(data))
    except Exception as exc:
        raise ValueError(f"it is not a readable SVG image ({type(exc).__name__})") from None
    if drawing is None:
        raise ValueError("it is not a readable SVG image")
    return drawing


@lru_cache(maxsize=64)
def _svg_cached(key: str) -> Any:
    return _svg_drawing(get_image(key).data)


def svg_drawing(key: str) -> Any:
    """The reportlab drawing of a registered SVG image (parsed once per process)."""
    return _svg_cached(key)
