"""Painting a :class:`~cogs.imaging.layout.Layout`: the toolkit draws panels, labels, lines
and its own markers; a game's :class:`CardPainter` draws its cards and icons.

A card is drawn once per look (card, size, side, highlight, dimmed) into a transparent tile
that later renders paste: a table shows the same faces again and again.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Protocol

from PIL import Image

from cogs.imaging.cache import DRAWING_CACHE
from cogs.imaging.canvas import Canvas
from cogs.imaging.layout import Box, CardSlot, Icon, Label, Layout, Panel, Polyline
from cogs.imaging.png import check_attachment, encode, fixed_palette
from cogs.imaging.shapes import MARKERS, marker_drawer

TEXT_DARK = (30, 32, 36)
TILE_MARGIN = 6  # room around a card tile for a highlight ring drawn outside the card
TILE_CACHE = DRAWING_CACHE  # tiles of a few KiB to a few tens of KiB each


class CardPainter(Protocol):
    """Draws a game's cards and icons; stateless and built without arguments (card tiles
    are cached per painter class)."""

    def card(self, canvas: Canvas, slot: CardSlot) -> None: ...

    def icon(self, canvas: Canvas, icon: Icon) -> bool:
        """Draw ``icon`` if it is one of the game's; False leaves it to the toolkit."""
        ...


def paint(layout: Layout, painter: CardPainter) -> Canvas:
    canvas = Canvas(layout.width, layout.height, layout.background)
    for item in layout.items:
        if isinstance(item, Panel):
            canvas.rect(item.box, item.fill, item.outline, width=item.width, radius=item.radius)
        elif isinstance(item, Label):
            canvas.text(item.box, item.text, item.size, item.colour, bold=item.bold,
                        align=item.align)
        elif isinstance(item, CardSlot):
            tile = _card_tile(type(painter), replace(item, box=Box(TILE_MARGIN, TILE_MARGIN,
                                                                    item.box.w, item.box.h),
                                                      group="", number=None, owner=None,
                                                      caption=None))
            canvas.image.paste(tile, (item.box.x - TILE_MARGIN, item.box.y - TILE_MARGIN), tile)
        elif isinstance(item, Icon):
            if not painter.icon(canvas, item):
                _toolkit_icon(canvas, item)
        else:
            _polyline(canvas, item)
    return canvas


@lru_cache(maxsize=TILE_CACHE)
def _card_tile(painter: type[CardPainter], slot: CardSlot) -> Image.Image:
    """The card of ``slot`` (placed at the tile's margin) on a transparent tile."""
    tile = Canvas(slot.box.w + 2 * TILE_MARGIN, slot.box.h + 2 * TILE_MARGIN, None)
    painter().card(tile, slot)
    return tile.image


def _toolkit_icon(canvas: Canvas, icon: Icon) -> None:
    if icon.kind not in (*MARKERS, "turn"):
        raise ValueError(f"no painter draws the icon {icon.kind!r}")
    colour = icon.colour if icon.colour is not None else TEXT_DARK
    canvas.shape(f"marker:{icon.kind}", icon.box, colour, marker_drawer(icon.kind))


def _polyline(canvas: Canvas, line: Polyline) -> None:
    canvas.line(line.points, line.colour, line.width)
    if line.marker is None:
        return
    side = line.width * 4
    for x, y in line.points:
        box = Box(x - side // 2, y - side // 2, side, side)
        canvas.shape(f"marker:{line.marker}", box, line.colour, marker_drawer(line.marker))


def render_png(layout: Layout, painter: CardPainter, palette: bytes | None = None) -> bytes:
    """Paint and encode (onto ``palette``, the game's RGB triples, when given: see
    :func:`cogs.imaging.png.encode`); refuses (ImageTooLarge) an image Discord would not
    take."""
    data = encode(paint(layout, painter).image,
                  None if palette is None else fixed_palette(palette))
    check_attachment(data, layout.width, layout.height)
    return data
