"""The one place fonts are loaded: Lato (OFL, shipped in ``fonts/``) at any pixel size, and
Lohit Gujarati (OFL, shipped too) for text in Gujarati script, which needs shaping (Raqm).

Font objects are cached per thread: a FreeType face is not meant to be shared by threads that
render at the same time, and loading one is cheap enough to do once per thread and size.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from cogs.imaging.cache import DRAWING_CACHE

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "Lato-Regular.ttf"
BOLD = FONT_DIR / "Lato-Bold.ttf"
GUJARATI = FONT_DIR / "Lohit-Gujarati.ttf"
GUJARATI_BLOCK = ("\u0a80", "\u0aff")
REPLACEMENT = "?"
_NOT_A_GLYPH = "\ue000"  # a private-use code point: Lato draws its missing-glyph box for it

_local = threading.local()


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Lato at ``size`` pixels (bold or regular), cached for the calling thread."""
    cache: dict[tuple[int, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (size, bold)
    loaded = cache.get(key)
    if loaded is None:
        # The basic layout engine: Latin text needs no shaping, and it is several times
        # faster than Raqm where that is installed.
        loaded = cache[key] = ImageFont.truetype(
            str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC
        )
    return loaded


def is_gujarati(text: str) -> bool:
    low, high = GUJARATI_BLOCK
    return any(low <= char <= high for char in text)


def gujarati_font(size: int) -> ImageFont.FreeTypeFont:
    """Lohit Gujarati at ``size`` pixels with Raqm's shaping, cached for the calling thread."""
    cache: dict[int, ImageFont.FreeTypeFont] | None = getattr(_local, "gujarati", None)
    if cache is None:
        cache = _local.gujarati = {}
    loaded = cache.get(size)
    if loaded is None:
        loaded = cache[size] = ImageFont.truetype(str(GUJARATI), size,
                                                  layout_engine=ImageFont.Layout.RAQM)
    return loaded


def runs(text: str, size: int, *, bold: bool = False) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """``text`` cut into runs that one font draws: Gujarati script in Lohit (which has no
    Latin letters), everything else (names, digits, signs) in Lato; a space stays with the
    run before it."""
    found: list[tuple[str, bool]] = []
    for char in text:
        gujarati = found[-1][1] if char.isspace() and found else is_gujarati(char)
        if found and found[-1][1] == gujarati:
            found[-1] = (found[-1][0] + char, gujarati)
        else:
            found.append((char, gujarati))
    return [(run, gujarati_font(size) if gujarati else font(size, bold=bold))
            for run, gujarati in found]


@lru_cache(maxsize=DRAWING_CACHE)
def has_glyph(char: str) -> bool:
    """Whether Lato draws ``char`` (rather than its missing-glyph box)."""
    if char.isspace() or is_gujarati(char):
        return True
    probe = font(40)
    missing = (bytes(probe.getmask(_NOT_A_GLYPH)), probe.getbbox(_NOT_A_GLYPH))
    return (bytes(probe.getmask(char)), probe.getbbox(char)) != missing


def printable(text: str) -> str:
    """``text`` without the characters the font cannot draw (emoji, CJK…), so a player's
    name never shows boxes; ``?`` when nothing drawable is left."""
    kept = "".join(char for char in text if has_glyph(char))
    cleaned = " ".join(kept.split())
    return cleaned if cleaned or not text.strip() else REPLACEMENT
