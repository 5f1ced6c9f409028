"""A card face as an emoji picture (issue 41, ``cogs.kit.card_emojis``): the game's own card
drawing on a transparent square of Discord's recommended 128x128 px, as PNG (well under
the 256 KiB an emoji may weigh)."""

from __future__ import annotations

import io
from collections.abc import Callable

from cogs.imaging.canvas import Canvas
from cogs.imaging.layout import Box

SIDE = 128


def emoji_png(draw: Callable[[Canvas, Box], None], width: int, height: int) -> bytes:
    """``draw`` (a game's card drawing: canvas, box) of a ``width`` x ``height`` card,
    centred on a transparent square, as PNG bytes."""
    canvas = Canvas(SIDE, SIDE, None)
    box = Box((SIDE - width) // 2, (SIDE - height) // 2, width, height)
    draw(canvas, box)
    out = io.BytesIO()
    canvas.image.save(out, format="PNG", optimize=True)
    return out.getvalue()
