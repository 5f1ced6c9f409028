"""Painting a :class:`~cogs.imaging.layout.Layout`: the toolkit draws panels, labels, lines
and its own markers; a game's :class:`CardPainter` draws its cards and icons.

A card is drawn once per look (card, size, side, highlight, dimmed) into a transparent tile
that later renders paste: a table shows the same faces again and again.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache
from typing import Protocol, cast

from PIL import Image

from cogs.imaging.cache import DRAWING_CACHE
from cogs.imaging.canvas import Canvas
from cogs.imaging.layout import Box, CardSlot, Icon, Item, Label, Layout, Panel, Polyline
from cogs.imaging.png import check_attachment, encode, fixed_palette
from cogs.imaging.shapes import MARKERS, marker_drawer
from cogs.imaging.strips import (
    STRIP_HEIGHT,
    STRIPS,
    Segment,
    deflate_rows,
    png_bytes,
    shifted,
    strip_items,
)

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
        paint_item(canvas, item, painter)
    return canvas


def paint_item(canvas: Canvas, item: Item, painter: CardPainter) -> None:
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
    take. With a palette, the picture is encoded by strips, those seen before reused
    (:mod:`cogs.imaging.strips`): the same pixels."""
    if palette is None or not _by_strips:
        data = encode(paint(layout, painter).image,
                      None if palette is None else fixed_palette(palette))
    else:
        data = _render_strips(layout, painter, palette)
    check_attachment(data, layout.width, layout.height)
    return data


_by_strips = True


@contextmanager
def whole_pictures() -> Iterator[None]:
    """Within it, :func:`render_png` paints and encodes every picture whole (through
    :func:`encode`: what the benches and tests that look at the painted picture patch).
    Not for use while other threads render."""
    global _by_strips
    before, _by_strips = _by_strips, False
    try:
        yield
    finally:
        _by_strips = before


def _render_strips(layout: Layout, painter: CardPainter, palette: bytes) -> bytes:
    """The PNG of ``layout`` from its strips: those seen before as they were encoded, the
    others painted (each run of consecutive new strips at once, with the items that may paint
    on it, moved up to the run's top), mapped and encoded, then kept."""
    width, height, background, items = layout.width, layout.height, layout.background, \
        layout.items
    kind, cache, strip = type(painter), STRIPS, STRIP_HEIGHT  # read per call: a bench sets them
    placed = strip_items(items, height, strip)
    keys = [(width, index * strip, min(strip, height - index * strip), background, kind,
             palette, tuple([items[at] for at in on])) for index, on in enumerate(placed)]
    segments = [cache.get(key) for key in keys]
    index = 0
    while index < len(keys):
        if segments[index] is not None:
            index += 1
            continue
        end = index
        while end + 1 < len(keys) and segments[end + 1] is None:
            end += 1
        top, bottom = index * strip, min((end + 1) * strip, height)
        canvas = Canvas(width, bottom - top, background)
        for at in sorted(set().union(*placed[index:end + 1])):
            paint_item(canvas, shifted(items[at], -top) if top else items[at], painter)
        mapped = canvas.image.quantize(palette=fixed_palette(palette),
                                       dither=Image.Dither.NONE).tobytes()
        for run in range(index, end + 1):
            start = (run - index) * strip * width
            segment = deflate_rows(mapped[start:start + strip * width], width)
            cache.put(keys[run], segment, len(placed[run]))
            segments[run] = segment
        index = end + 1
    return png_bytes(width, height, palette, cast(list[Segment], segments))
