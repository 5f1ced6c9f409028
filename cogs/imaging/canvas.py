"""A thin drawing surface over Pillow: rounded boxes, fitted text and anti-aliased shapes.

Pillow draws polygons without anti-aliasing, so shapes (suits, symbols, markers) are drawn
four times larger into a mask, shrunk, and the colour is pasted through it. Masks are cached
by the caller's key: the same suit at the same size is drawn once per process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from cogs.imaging.cache import DRAWING_CACHE
from cogs.imaging.fonts import font, is_gujarati, runs
from cogs.imaging.glyphs import line_mask
from cogs.imaging.layout import RGB, Align, Box

SUPERSAMPLE = 4
Point = tuple[float, float]
# Draws a shape in white on a black mask of the given width and height (in mask pixels).
ShapeDrawer = Callable[[ImageDraw.ImageDraw, int, int], None]


class Canvas:
    def __init__(self, width: int, height: int, background: RGB | None) -> None:
        """An RGB surface, or a transparent RGBA one when ``background`` is None (a tile
        to paste elsewhere)."""
        if background is None:
            self.image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
        else:
            self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)

    def rect(
        self,
        box: Box,
        fill: RGB | None,
        outline: RGB | None = None,
        *,
        width: int = 2,
        radius: int = 0,
        corners: tuple[bool, bool, bool, bool] | None = None,
    ) -> None:
        shape = (box.x, box.y, box.right - 1, box.bottom - 1)
        if radius:
            self.draw.rounded_rectangle(shape, radius=radius, fill=fill, outline=outline,
                                        width=width, corners=corners)
        else:
            self.draw.rectangle(shape, fill=fill, outline=outline, width=width)

    def text(
        self,
        box: Box,
        text: str,
        size: int,
        colour: RGB,
        *,
        bold: bool = False,
        align: Align = "left",
    ) -> None:
        """One line in ``box``, vertically centred on the font's cap height."""
        if not text:
            return
        mask, x, y = _placed_text(box, text, size, bold, align)
        self.image.paste(colour, (x, y, x + mask.width, y + mask.height), mask)

    def line(self, points: Sequence[Point], colour: RGB, width: int) -> None:
        self.draw.line(list(points), fill=colour, width=width, joint="curve")

    def shape(self, key: str, box: Box, colour: RGB, drawer: ShapeDrawer) -> None:
        """Paste ``colour`` through the anti-aliased mask of ``drawer`` drawn at ``box``'s size.
        ``key`` names the drawer: one key, one drawing."""
        mask = _mask(key, box.w, box.h, drawer)
        self.image.paste(colour, (box.x, box.y, box.right, box.bottom), mask)


def text_rows(box: Box, text: str, size: int, bold: bool) -> tuple[int, int]:
    """The rows (top, bottom exclusive) that :meth:`Canvas.text` paints ``text`` on in
    ``box``: a line's mask may reach above or below its box (accents, descenders)."""
    if not text:
        return box.y, box.y
    mask, _, y = _placed_text(box, text, size, bold, "left")
    return y, y + mask.height


def _placed_text(box: Box, text: str, size: int, bold: bool,
                 align: Align) -> tuple[Image.Image, int, int]:
    """The mask of ``text`` and the corner where :meth:`Canvas.text` pastes it."""
    mask, (left, top) = _text_mask(text, size, bold)
    width = mask.width
    if align == "center":
        x = box.x + (box.w - width) // 2
    elif align == "right":
        x = box.right - width
    else:
        x = box.x
    cap_top, cap_bottom = _cap(size, bold)
    y = box.y + (box.h - (cap_bottom - cap_top)) // 2 - cap_top + top
    return mask, x + left, y


@lru_cache(maxsize=DRAWING_CACHE)  # a few MiB at most: masks are one byte a pixel
def _text_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, tuple[int, int]]:
    """The anti-aliased mask of a line of text and its offset from the pen position. Card
    ranks, numbers, names and headings repeat across renders, so they are drawn once; a new
    line is composed from cached glyphs (``cogs.imaging.glyphs``: the same mask as
    ``ImageDraw.text`` on ``getbbox``'s corner, without FreeType's work per glyph)."""
    if is_gujarati(text):
        return _runs_mask(text, size, bold)
    return line_mask(text, size, bold)


def _runs_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, tuple[int, int]]:
    """A line mixing scripts (``fonts.runs``): each run in its font on one baseline; the
    offset is Lato's, as for a line in Lato alone."""
    placed = []
    pen = 0.0
    for run, face in runs(text, size, bold=bold):
        placed.append((run, face, pen, face.getbbox(run, anchor="ls")))
        pen += face.getlength(run)
    left = min(at + bbox[0] for _, _, at, bbox in placed)
    right = max(at + bbox[2] for _, _, at, bbox in placed)
    top = min(bbox[1] for *_, bbox in placed)
    bottom = max(bbox[3] for *_, bbox in placed)
    mask = Image.new("L", (max(1, round(right - left)), max(1, round(bottom - top))), 0)
    draw = ImageDraw.Draw(mask)
    for run, face, at, _ in placed:
        draw.text((at - left, -top), run, font=face, fill=255, anchor="ls")
    ascender = font(size, bold=bold).getmetrics()[0]
    return mask, (round(left), round(top) + ascender)


@lru_cache(maxsize=256)
def _cap(size: int, bold: bool) -> tuple[int, int]:
    """Top and bottom of a capital letter at ``size``, to centre text on its cap height."""
    _, top, _, bottom = font(size, bold=bold).getbbox("H")
    return int(top), int(bottom)


_DRAWERS: dict[str, ShapeDrawer] = {}


def _mask(key: str, w: int, h: int, drawer: ShapeDrawer) -> Image.Image:
    _DRAWERS.setdefault(key, drawer)
    return _cached_mask(key, w, h)


@lru_cache(maxsize=DRAWING_CACHE)
def _cached_mask(key: str, w: int, h: int) -> Image.Image:
    big = Image.new("L", (w * SUPERSAMPLE, h * SUPERSAMPLE), 0)
    draw = ImageDraw.Draw(big)
    _DRAWERS[key](draw, w * SUPERSAMPLE, h * SUPERSAMPLE)
    return big.resize((w, h), Image.Resampling.LANCZOS)


def fitted(points: Sequence[Point], w: int, h: int, margin: float = 0.0) -> list[Point]:
    """Unit-square points (0..1) placed in a ``w`` × ``h`` area, keeping the aspect ratio."""
    side = min(w, h) * (1 - 2 * margin)
    dx, dy = (w - side) / 2, (h - side) / 2
    return [(dx + x * side, dy + y * side) for x, y in points]
