"""Checks every layout must pass: inside the image, text at the readable size and fitting
its box, cards not overlapping one another within a group, size limits."""

from __future__ import annotations

import io

from PIL import Image

from cogs.imaging.glyphs import text_width
from cogs.imaging.layout import Box, Layout
from cogs.imaging.png import ATTACHMENT_LIMIT_BYTES, MAX_HEIGHT, MAX_WIDTH

MIN_TEXT = 24  # px at 2x: 12 px on a phone showing the image 400 px wide


def check_layout(layout: Layout) -> None:
    assert layout.width <= MAX_WIDTH and 0 < layout.height <= MAX_HEIGHT
    frame = Box(0, 0, layout.width, layout.height)
    for label in layout.labels():
        assert label.size >= MIN_TEXT, f"{label.text!r} is drawn at {label.size}px"
        assert label.box.inside(frame), f"{label.text!r} leaves the image"
        assert text_width(label.text, label.size, bold=label.bold) <= label.box.w, (
            f"{label.text!r} overflows its box"
        )
    by_group: dict[str, list[Box]] = {}
    for slot in layout.cards():
        assert slot.box.inside(frame), f"{slot.card} in {slot.group} leaves the image"
        by_group.setdefault(slot.group, []).append(slot.box)
    for group, boxes in by_group.items():
        for index, box in enumerate(boxes):
            for other in boxes[index + 1 :]:
                assert not box.overlaps(other), f"two {group} cards overlap"


def check_png(data: bytes, layout: Layout) -> None:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) < ATTACHMENT_LIMIT_BYTES
    image = Image.open(io.BytesIO(data))
    assert image.size == (layout.width, layout.height)
