"""SPLIT half-cards as drawings: rank, a suit drawn as a vector shape, red or black.

Colour is never the only signal: black suits (♠ ♣) are solid shapes, red suits (♥ ♦) are
outlined shapes on a pale fill, and the four suit shapes differ. A half-card has rounded
corners on its outer side and a dashed cut edge, so the two halves of a match drawn side by
side read as one card.
"""

from __future__ import annotations

import functools
import math

from PIL import ImageDraw

from cogs.imaging.canvas import Canvas, Point, ShapeDrawer, fitted
from cogs.imaging.emoji_face import emoji_png
from cogs.imaging.layout import RGB, Box, CardSlot, Icon
from cogs.kit.card_emojis import Face
from game.split import FACE_NAMES, RANKS, SUIT_COLOUR, SUIT_LETTERS, SUITS

BLACK_INK: RGB = (22, 24, 28)
RED_INK: RGB = (200, 16, 46)
RED_FILL: RGB = (253, 222, 226)
CARD_FACE: RGB = (255, 255, 255)
CARD_EDGE: RGB = (120, 126, 136)
CUT_EDGE: RGB = (170, 176, 186)
HIGHLIGHT: RGB = (240, 170, 0)
DIM_FACE: RGB = (226, 229, 234)
DIM_INK: RGB = (120, 124, 132)
BACK_FILL: RGB = (20, 110, 118)
BACK_LINE: RGB = (70, 160, 166)


def parse(card: str) -> tuple[str, str]:
    """``"10♥"`` -> ``("10", "♥")``."""
    rank, suit = card[:-1], card[-1]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"{card!r} is not a SPLIT card")
    return rank, suit


def is_red(suit: str) -> bool:
    return SUIT_COLOUR[SUITS.index(suit)] == 1


def _heart(count: int = 48) -> list[Point]:
    raw = []
    for index in range(count):
        t = 2 * math.pi * index / count
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        raw.append((x, -y))
    return _unit(raw)


def _unit(points: list[Point]) -> list[Point]:
    """Points scaled into the unit square (aspect kept, centred)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    side = max(max(xs) - min(xs), max(ys) - min(ys))
    ox = min(xs) - (side - (max(xs) - min(xs))) / 2
    oy = min(ys) - (side - (max(ys) - min(ys))) / 2
    return [((x - ox) / side, (y - oy) / side) for x, y in points]


_HEART = _heart()
_DIAMOND: list[Point] = [(0.5, 0.0), (0.88, 0.5), (0.5, 1.0), (0.12, 0.5)]
# A spade: an upside-down heart over a flared stem.
_SPADE_BODY: list[Point] = [(x * 0.9 + 0.05, (1 - y) * 0.8) for x, y in _HEART]
_STEM: list[Point] = [(0.5, 0.55), (0.66, 1.0), (0.34, 1.0)]


def _suit_drawer(suit: str, part: str) -> ShapeDrawer:
    """``part``: ``"fill"`` (the whole shape) or ``"ring"`` (its outline, for red suits)."""

    def draw(surface: ImageDraw.ImageDraw, w: int, h: int) -> None:
        ring = max(2, round(min(w, h) * 0.11))
        if suit == "♣":
            side = min(w, h)
            dx, dy = (w - side) / 2, (h - side) / 2
            r = side * 0.24
            for cx, cy in ((0.5, 0.27), (0.26, 0.58), (0.74, 0.58)):
                x, y = dx + cx * side, dy + cy * side
                surface.ellipse((x - r, y - r, x + r, y + r), fill=255)
            surface.polygon(fitted(_STEM, w, h), fill=255)
            return
        if suit == "♠":
            surface.polygon(fitted(_SPADE_BODY, w, h), fill=255)
            surface.polygon(fitted(_STEM, w, h), fill=255)
            return
        shape = _HEART if suit == "♥" else _DIAMOND
        points = fitted(shape, w, h, margin=0.06)
        if part == "fill":
            surface.polygon(points, fill=255)
        else:
            surface.polygon(points, outline=255, width=ring)

    return draw


def draw_suit(canvas: Canvas, box: Box, suit: str, *, dimmed: bool = False) -> None:
    """The suit shape in ``box``: solid for black suits, outlined on a pale fill for red."""
    if is_red(suit):
        canvas.shape(f"suit:{suit}:fill", box, DIM_FACE if dimmed else RED_FILL,
                     _suit_drawer(suit, "fill"))
        canvas.shape(f"suit:{suit}:ring", box, DIM_INK if dimmed else RED_INK,
                     _suit_drawer(suit, "ring"))
    else:
        canvas.shape(f"suit:{suit}:fill", box, DIM_INK if dimmed else BLACK_INK,
                     _suit_drawer(suit, "fill"))


def draw_half(
    canvas: Canvas,
    box: Box,
    card: str,
    *,
    side: str = "left",
    highlight: bool = False,
    dimmed: bool = False,
) -> None:
    rank, suit = parse(card)
    radius = max(4, box.w // 6)
    outer_left = side == "left"
    corners = (outer_left, not outer_left, not outer_left, outer_left)  # tl, tr, br, bl
    face = DIM_FACE if dimmed else CARD_FACE
    edge = HIGHLIGHT if highlight else CARD_EDGE
    canvas.rect(box, face, edge, width=5 if highlight else 2, radius=radius, corners=corners)
    cut_x = box.right - 1 if outer_left else box.x
    for y in range(box.y + 4, box.bottom - 4, 10):
        canvas.line([(cut_x, y), (cut_x, min(y + 5, box.bottom - 4))], CUT_EDGE, 2)
    ink = DIM_INK if dimmed else (RED_INK if is_red(suit) else BLACK_INK)
    rank_size = max(12, round(box.h * 0.3))
    canvas.text(Box(box.x, box.y + box.h // 12, box.w, round(box.h * 0.34)), rank, rank_size,
                ink, bold=True, align="center")
    suit_side = round(min(box.w * 0.7, box.h * 0.44))
    canvas_box = Box(box.x + (box.w - suit_side) // 2, box.bottom - suit_side - box.h // 10,
                     suit_side, suit_side)
    draw_suit(canvas, canvas_box, suit, dimmed=dimmed)


def draw_back(canvas: Canvas, box: Box, count: str) -> None:
    """The face-down draw pile: a patterned back with the number of cards left."""
    canvas.rect(box, BACK_FILL, CARD_EDGE, width=2, radius=max(4, box.w // 8))
    inner = box.inset(6)
    step = 12
    for offset in range(-inner.h, inner.w, step):
        x0, y0 = inner.x + max(offset, 0), inner.y + max(-offset, 0)
        length = min(inner.w - max(offset, 0), inner.h - max(-offset, 0))
        if length > 0:
            canvas.line([(x0, y0), (x0 + length, y0 + length)], BACK_LINE, 2)
    if count:
        badge = Box(box.x + box.w // 2 - 30, box.y + box.h // 2 - 20, 60, 40)
        canvas.rect(badge, CARD_FACE, None, radius=12)
        canvas.text(badge, count, 28, BLACK_INK, bold=True, align="center")


class SplitPainter:
    """Draws SPLIT's card slots and icons for :func:`cogs.imaging.paint.paint`."""

    def card(self, canvas: Canvas, slot: CardSlot) -> None:
        draw_half(canvas, slot.box, slot.card, side=slot.side, highlight=slot.highlight,
                  dimmed=slot.dimmed)

    def icon(self, canvas: Canvas, icon: Icon) -> bool:
        if icon.kind == "pile":
            draw_back(canvas, icon.box, icon.text)
            return True
        if icon.kind.startswith("suit"):
            draw_suit(canvas, icon.box, icon.text)
            return True
        return False


# The emoji of each face (issue 41): a half-card as the pictures draw it. A new design of the
# faces takes a new version, so its emojis get new names (``cogs.kit.card_emojis``).
EMOJI_VERSION = 1
EMOJI_CARD = (84, 124)  # px, a half-card's proportions on the 128 px square


def emoji_name(card: str) -> str:
    """``"10♥"`` -> ``"split_10h_v1"``."""
    rank, suit = parse(card)
    return f"split_{rank.lower()}{SUIT_LETTERS[SUITS.index(suit)].lower()}_v{EMOJI_VERSION}"


def emoji_image(card: str) -> bytes:
    """The face of ``card`` as a 128 px emoji (PNG)."""
    return emoji_png(lambda canvas, box: draw_half(canvas, box, card), *EMOJI_CARD)


def emoji_faces() -> list[Face]:
    """Every face of the deck as an emoji, named by the cards' own text (``7♥``)."""
    return [Face(card, emoji_name(card), functools.partial(emoji_image, card))
            for card in FACE_NAMES]
