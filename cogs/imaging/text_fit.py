"""Fitting a line of text into a width: shrink to a minimum size, then shorten with ``…``."""

from __future__ import annotations

from collections.abc import Mapping

from cogs.imaging.fonts import printable
from cogs.imaging.glyphs import text_width
from cogs.imaging.layout import RGB, Align, Box, Label

ELLIPSIS = "…"


def shorten(text: str, width: int, size: int, *, bold: bool = False) -> str:
    """The longest prefix of ``text`` (plus ``…`` when cut) that fits ``width`` at ``size``."""
    if text_width(text, size, bold=bold) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix whose shortened form fits
        middle = (low + high + 1) // 2
        if text_width(text[:middle].rstrip() + ELLIPSIS, size, bold=bold) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS if low else ELLIPSIS


def fit(
    text: str, width: int, size: int, *, min_size: int, bold: bool = False
) -> tuple[str, int]:
    """(text to draw, size): ``text`` made printable, at the largest size from ``size`` down to
    ``min_size`` at which it fits ``width``, else shortened at ``min_size``."""
    clean = printable(text)
    for candidate in range(size, min_size - 1, -2):
        if text_width(clean, candidate, bold=bold) <= width:
            return clean, candidate
    return shorten(clean, width, min_size, bold=bold), min_size


def fitted_label(
    box: Box,
    words: str,
    size: int,
    colour: RGB,
    *,
    min_size: int,
    bold: bool = False,
    align: Align = "left",
) -> Label:
    """A :class:`Label` of ``words`` fitted to ``box`` (see :func:`fit`)."""
    text, fitted_size = fit(words, box.w, size, min_size=min(min_size, size), bold=bold)
    return Label(box, text, fitted_size, colour, bold=bold, align=align)


def display_name(names: Mapping[str, str], player: str | None) -> str:
    """A player's display name (their id when unnamed) without what the font cannot draw."""
    if player is None:
        return "nobody"
    return printable(names.get(player, player))


def signed(value: int) -> str:
    """An integer with a true minus sign (a hyphen reads as a dash at small sizes)."""
    return f"−{-value}" if value < 0 else str(value)
