"""TEN cards as drawings. A colour is never shown by colour alone: each has a symbol, a
pattern on the card's frame and a letter (R ● plain, B ■ stripes, O ▲ diagonals, G ◆ dots).
Wilds: a colour wild shows a big star in its colour's frame; a number wild its number in a
four-colour frame; the full wild a star on black in a four-colour frame. Currency cards are
gold with a coin.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from PIL import Image, ImageDraw

from cogs.imaging.canvas import Canvas, ShapeDrawer, fitted
from cogs.imaging.emoji_face import emoji_png
from cogs.imaging.layout import RGB, Box, CardSlot, Icon
from cogs.imaging.shapes import marker_drawer, star_points
from cogs.kit.card_emojis import Face
from game.ten import COLOURS, KNOWN_NOTATIONS, sort_key

FILL: dict[str, RGB] = {
    "R": (196, 30, 45),
    "B": (0, 98, 178),
    "O": (238, 148, 0),
    "G": (0, 140, 92),
}
# Darker ink of each colour for the number on the white face.
INK: dict[str, RGB] = {"R": (170, 20, 36), "B": (0, 78, 150), "O": (176, 96, 0),
                       "G": (0, 110, 70)}
SYMBOL: dict[str, str] = {"R": "circle", "B": "square", "O": "triangle", "G": "diamond"}
PATTERN: dict[str, str] = {"R": "plain", "B": "stripes", "O": "diagonals", "G": "dots"}
FACE: RGB = (255, 255, 255)
EDGE: RGB = (90, 96, 104)
DARK: RGB = (28, 30, 36)
GOLD: RGB = (236, 196, 70)
GOLD_DARK: RGB = (150, 110, 10)
GOLD_FACE: RGB = (255, 244, 204)
HIGHLIGHT: RGB = (28, 30, 36)
DIM_ALPHA = 120  # of 255: how much white covers a dimmed card
BUST: RGB = (72, 76, 84)


def _pattern_drawer(pattern: str) -> ShapeDrawer:
    def draw(surface: ImageDraw.ImageDraw, w: int, h: int) -> None:
        step = max(8, w // 5)
        line = max(2, step // 3)
        if pattern == "stripes":
            for y in range(0, h, step):
                surface.rectangle((0, y, w, y + line), fill=255)
        elif pattern == "diagonals":
            for offset in range(-h, w, step):
                surface.line((offset, h, offset + h, 0), fill=255, width=line)
        elif pattern == "dots":
            radius = line * 0.8
            for row, y in enumerate(range(step // 2, h, step)):
                shift = step // 2 if row % 2 else 0
                for x in range(step // 2 + shift, w, step):
                    surface.ellipse((x - radius, y - radius, x + radius, y + radius), fill=255)

    return draw


def _tint(colour: RGB, amount: float) -> RGB:
    r, g, b = colour
    return (round(r + (255 - r) * amount), round(g + (255 - g) * amount),
            round(b + (255 - b) * amount))


def _frame(canvas: Canvas, box: Box, colour: str, radius: int) -> None:
    canvas.rect(box, FILL[colour], EDGE, width=2, radius=radius)
    if PATTERN[colour] != "plain":
        canvas.shape(f"pattern:{colour}:{box.w}x{box.h}", box.inset(3), _tint(FILL[colour], 0.4),
                     _pattern_drawer(PATTERN[colour]))


def _rainbow_frame(canvas: Canvas, box: Box, radius: int) -> None:
    """Four quadrants, one per colour with its pattern: "any colour"."""
    canvas.rect(box, FILL["R"], EDGE, width=2, radius=radius)
    half_w, half_h = box.w // 2, box.h // 2
    quads = [
        Box(box.x, box.y, half_w, half_h),
        Box(box.x + half_w, box.y, box.w - half_w, half_h),
        Box(box.x, box.y + half_h, half_w, box.h - half_h),
        Box(box.x + half_w, box.y + half_h, box.w - half_w, box.h - half_h),
    ]
    corners = [(True, False, False, False), (False, True, False, False),
               (False, False, False, True), (False, False, True, False)]
    for quad, colour, corner in zip(quads, COLOURS, corners, strict=True):
        canvas.rect(quad, FILL[colour], None, radius=radius, corners=corner)
        if PATTERN[colour] != "plain":
            canvas.shape(f"pattern:{colour}:{quad.w}x{quad.h}", quad.inset(2),
                         _tint(FILL[colour], 0.4), _pattern_drawer(PATTERN[colour]))
    canvas.rect(box, None, EDGE, width=2, radius=radius)


def draw_symbol(canvas: Canvas, box: Box, colour: str, *, ink: RGB | None = None) -> None:
    kind = SYMBOL[colour]
    canvas.shape(f"marker:{kind}", box, ink or FILL[colour], marker_drawer(kind))


def _star(canvas: Canvas, box: Box, colour: RGB) -> None:
    def draw(surface: ImageDraw.ImageDraw, w: int, h: int) -> None:
        surface.polygon(fitted(star_points(5, 0.2), w, h), fill=255)

    canvas.shape("wild-star", box, colour, draw)


def _coin(canvas: Canvas, box: Box, value: str, size: int) -> None:
    canvas.draw.ellipse((box.x, box.y, box.right - 1, box.bottom - 1), fill=GOLD,
                        outline=GOLD_DARK, width=max(2, box.w // 12))
    canvas.text(box, value, size, DARK, bold=True, align="center")


def draw_card(canvas: Canvas, box: Box, note: str, *, highlight: bool = False,
              dimmed: bool = False) -> None:
    """One TEN card. Small boxes (under 60 px wide) leave out the corner letter: the rows
    they sit in are headed by the colour's letter and symbol."""
    radius = max(5, box.w // 7)
    kind, value = note[0], note[1]
    large = box.w >= 60
    inner = box.inset(max(5, box.w // 7))
    if kind == "$":
        canvas.rect(box, GOLD_FACE, GOLD_DARK, width=3, radius=radius)
        side = min(box.w, box.h) - max(10, box.w // 5)
        coin = Box(box.x + (box.w - side) // 2, box.y + (box.h - side) // 2 + box.h // 12,
                   side, side)
        canvas.text(Box(box.x, box.y + 3, box.w, box.h // 5), "$", max(14, box.h // 5),
                    GOLD_DARK, bold=True, align="center")
        _coin(canvas, coin, value, round(side * 0.55))
    elif kind == "W":
        _rainbow_frame(canvas, box, radius)
        full = value == "#"
        canvas.rect(inner, DARK if full else FACE, None, radius=max(3, radius - 2))
        if full:
            side = min(inner.w, inner.h) - 8
            _star(canvas, Box(inner.x + (inner.w - side) // 2, inner.y + (inner.h - side) // 2,
                              side, side), GOLD)
        else:
            canvas.text(inner, value, round(inner.h * 0.55), DARK, bold=True, align="center")
            star = max(12, inner.w // 3)
            _star(canvas, Box(inner.x + 2, inner.y + 2, star, star), DARK)
    else:
        _frame(canvas, box, kind, radius)
        canvas.rect(inner, FACE, None, radius=max(3, radius - 2))
        top = inner.y + 3
        if large:
            symbol = max(14, inner.w // 3)
            canvas.text(Box(inner.x + 3, top, inner.w // 2, symbol), kind, max(24, symbol),
                        INK[kind], bold=True)
            draw_symbol(canvas, Box(inner.right - symbol - 3, top, symbol, symbol), kind)
            body = Box(inner.x, top + symbol, inner.w, inner.bottom - top - symbol)
        else:  # a small corner symbol leaves the number most of the face
            symbol = max(10, inner.w // 4)
            draw_symbol(canvas, Box(inner.x + 2, top - 1, symbol, symbol), kind)
            body = Box(inner.x, top + symbol // 2, inner.w, inner.bottom - top - symbol // 2)
        if value == "#":
            side = min(body.w, body.h) - 6
            _star(canvas, Box(body.x + (body.w - side) // 2, body.y + (body.h - side) // 2,
                              side, side), INK[kind])
        else:
            canvas.text(body, value, round(min(body.h * 0.75, body.w * 1.0)), INK[kind],
                        bold=True, align="center")
    if dimmed:  # washed out: a card that scores nothing
        canvas.image.paste(FACE, (box.x, box.y, box.right, box.bottom),
                           Image.new("L", (box.w, box.h), DIM_ALPHA))
    if highlight:
        canvas.rect(Box(box.x - 4, box.y - 4, box.w + 8, box.h + 8), None, HIGHLIGHT, width=4,
                    radius=radius + 3)


def draw_bust(canvas: Canvas, box: Box, count: str) -> None:
    """A bust token: a dark burst (worth 3)."""

    def draw(surface: ImageDraw.ImageDraw, w: int, h: int) -> None:
        surface.polygon(fitted(star_points(10, 0.34), w, h), fill=255)

    canvas.shape("bust-burst", box, BUST, draw)
    canvas.text(box, count, round(box.h * 0.45), FACE, bold=True, align="center")


class TenPainter:
    """Draws TEN's card slots and icons for :func:`cogs.imaging.paint.paint`."""

    def card(self, canvas: Canvas, slot: CardSlot) -> None:
        draw_card(canvas, slot.box, slot.card, highlight=slot.highlight, dimmed=slot.dimmed)

    def icon(self, canvas: Canvas, icon: Icon) -> bool:
        if icon.kind == "coin":
            _coin(canvas, icon.box, icon.text, round(icon.box.h * 0.55))
            return True
        if icon.kind == "bust":
            draw_bust(canvas, icon.box, icon.text)
            return True
        if icon.kind.startswith("colour:"):
            draw_symbol(canvas, icon.box, icon.kind.split(":", 1)[1])
            return True
        if icon.kind == "wild":
            _star(canvas, icon.box, DARK)
            return True
        return False



# The emoji of each card (issue 41): the card as the pictures draw it (its colour's letter,
# symbol and frame pattern included). A new design takes a new version, so its emojis get new
# names (``cogs.kit.card_emojis``).
EMOJI_VERSION = 1
EMOJI_CARD = (96, 124)  # px on the 128 px square
_EMOJI_KIND = {"#": "w"}  # a wild's place in a name: ``ten_rw_v1`` (red wild), ``ten_ww_v1``


def emoji_name(note: str) -> str:
    """``R5`` -> ``ten_r5_v1``, ``B#`` -> ``ten_bw_v1``, ``W7`` -> ``ten_w7_v1``, ``W#`` ->
    ``ten_ww_v1``, ``$3`` -> ``ten_c3_v1``."""
    kind = "c" if note[0] == "$" else note[0].lower()
    value = _EMOJI_KIND.get(note[1], note[1])
    return f"ten_{kind}{value}_v{EMOJI_VERSION}"


def emoji_image(note: str) -> bytes:
    """``note`` as a 128 px emoji (PNG)."""
    return emoji_png(lambda canvas, box: draw_card(canvas, box, note), *EMOJI_CARD)


def emoji_faces(token: Callable[[str], str]) -> list[Face]:
    """Every card of the deck as an emoji, named by the text that writes it (``token``)."""
    notes = sorted(KNOWN_NOTATIONS, key=sort_key)
    return [Face(token(note), emoji_name(note), functools.partial(emoji_image, note))
            for note in notes]
