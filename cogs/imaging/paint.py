"""Painting a :class:`~cogs.imaging.layout.Layout`: the toolkit draws panels, labels, lines
and its own markers; a game's :class:`CardPainter` draws its cards and icons."""

from __future__ import annotations

from typing import Protocol

from cogs.imaging.canvas import Canvas
from cogs.imaging.layout import Box, CardSlot, Icon, Label, Layout, Panel, Polyline
from cogs.imaging.png import check_attachment, encode
from cogs.imaging.shapes import MARKERS, marker_drawer

TEXT_DARK = (30, 32, 36)


class CardPainter(Protocol):
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
            painter.card(canvas, item)
        elif isinstance(item, Icon):
            if not painter.icon(canvas, item):
                _toolkit_icon(canvas, item)
        else:
            _polyline(canvas, item)
    return canvas


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


def render_png(layout: Layout, painter: CardPainter) -> bytes:
    """Paint and encode; refuses (ImageTooLarge) an image Discord would not take."""
    data = encode(paint(layout, painter).image)
    check_attachment(data, layout.width, layout.height)
    return data
