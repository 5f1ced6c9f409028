"""Game-agnostic drawn symbols: turn marker and chart markers (distinct shapes, so a series
is told apart without its colour)."""

from __future__ import annotations

import math

from PIL import ImageDraw

from cogs.imaging.canvas import Point, ShapeDrawer, fitted

MARKERS: tuple[str, ...] = ("circle", "square", "triangle", "diamond", "cross", "star")


def star_points(tips: int, inner: float) -> list[Point]:
    """A star in the unit square: ``tips`` points, ``inner`` the inner radius (0..0.5)."""
    points = []
    for index in range(tips * 2):
        radius = 0.5 if index % 2 == 0 else inner
        angle = -math.pi / 2 + index * math.pi / tips
        points.append((0.5 + radius * math.cos(angle), 0.5 + radius * math.sin(angle)))
    return points


_UNIT: dict[str, list[Point]] = {
    "square": [(0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9)],
    "triangle": [(0.5, 0.05), (0.95, 0.9), (0.05, 0.9)],
    "diamond": [(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)],
    "cross": [
        (0.35, 0.0), (0.65, 0.0), (0.65, 0.35), (1.0, 0.35), (1.0, 0.65), (0.65, 0.65),
        (0.65, 1.0), (0.35, 1.0), (0.35, 0.65), (0.0, 0.65), (0.0, 0.35), (0.35, 0.35),
    ],
    "star": star_points(5, 0.22),
    "turn": [(0.15, 0.05), (0.95, 0.5), (0.15, 0.95)],
}


def marker_drawer(kind: str) -> ShapeDrawer:
    """A ``ShapeDrawer`` for one of :data:`MARKERS` (or ``"turn"``)."""

    def draw(surface: ImageDraw.ImageDraw, w: int, h: int) -> None:
        if kind == "circle":
            side = min(w, h) * 0.85
            x, y = (w - side) / 2, (h - side) / 2
            surface.ellipse((x, y, x + side, y + side), fill=255)
            return
        surface.polygon(fitted(_UNIT[kind], w, h), fill=255)

    return draw
