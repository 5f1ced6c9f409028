"""The layout model: what sits where in an image, computed before anything is painted.

A renderer turns a view model into a :class:`Layout` (pure data, easy to test: every card of a
hand has a :class:`CardSlot`, every discard-row card its position number), then
:func:`cogs.imaging.paint.paint` draws it. Coordinates are output pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

RGB = tuple[int, int, int]
Align = Literal["left", "center", "right"]


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def centre(self) -> tuple[int, int]:
        return self.x + self.w // 2, self.y + self.h // 2

    def inside(self, other: Box) -> bool:
        return (
            other.x <= self.x
            and other.y <= self.y
            and self.right <= other.right
            and self.bottom <= other.bottom
        )

    def overlaps(self, other: Box) -> bool:
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def inset(self, by: int) -> Box:
        return Box(self.x + by, self.y + by, self.w - 2 * by, self.h - 2 * by)


@dataclass(frozen=True)
class Panel:
    """A filled (rounded) rectangle behind other items."""

    box: Box
    fill: RGB
    outline: RGB | None = None
    width: int = 2
    radius: int = 12


@dataclass(frozen=True)
class Label:
    """One line of text, already fitted to its box (see ``cogs.imaging.text_fit``)."""

    box: Box
    text: str
    size: int
    colour: RGB
    bold: bool = False
    align: Align = "left"


@dataclass(frozen=True)
class CardSlot:
    """A card face. ``card`` is the game's notation (what the controls call the card);
    ``group`` says which part of the image it belongs to (``"hand"``, ``"row"``…);
    ``number`` is the position the controls use, when they number cards."""

    box: Box
    card: str
    group: str
    number: int | None = None
    owner: str | None = None
    caption: str | None = None  # e.g. a wild's assigned place (its Label is laid out too)
    side: Literal["left", "right"] = "left"
    highlight: bool = False
    dimmed: bool = False


@dataclass(frozen=True)
class Icon:
    """A small drawn symbol (a turn marker, a token, a card back…), named by ``kind``."""

    box: Box
    kind: str
    text: str = ""
    colour: RGB | None = None


@dataclass(frozen=True)
class Polyline:
    points: tuple[tuple[int, int], ...]
    colour: RGB
    width: int = 4
    marker: str | None = None  # an Icon kind drawn at every point


Item = Panel | Label | CardSlot | Icon | Polyline


@dataclass
class Layout:
    width: int
    height: int
    background: RGB
    items: list[Item] = field(default_factory=list)

    def add(self, item: Item) -> Item:
        self.items.append(item)
        return item

    def cards(self, group: str | None = None) -> list[CardSlot]:
        return [
            item
            for item in self.items
            if isinstance(item, CardSlot) and (group is None or item.group == group)
        ]

    def labels(self) -> list[Label]:
        return [item for item in self.items if isinstance(item, Label)]

    def icons(self, kind: str | None = None) -> list[Icon]:
        return [
            item
            for item in self.items
            if isinstance(item, Icon) and (kind is None or item.kind == kind)
        ]

    def texts(self) -> list[str]:
        return [label.text for label in self.labels()]


def flow(
    count: int, item_w: int, item_h: int, *, x: int, y: int, width: int, gap: int, line_gap: int
) -> list[Box]:
    """Boxes for ``count`` items of one size, left to right, wrapping at ``width``."""
    per_line = max(1, (width + gap) // (item_w + gap))
    return [
        Box(
            x + (index % per_line) * (item_w + gap),
            y + (index // per_line) * (item_h + line_gap),
            item_w,
            item_h,
        )
        for index in range(count)
    ]


def flow_height(count: int, item_w: int, item_h: int, *, width: int, gap: int,
                line_gap: int) -> int:
    """The height :func:`flow` uses for ``count`` items (0 for none)."""
    if count == 0:
        return 0
    per_line = max(1, (width + gap) // (item_w + gap))
    lines = (count + per_line - 1) // per_line
    return lines * item_h + (lines - 1) * line_gap
