"""Lines of Lato text composed from cached glyphs instead of rasterised anew (issue 42).

Pillow's ``FreeTypeFont`` keeps no glyph cache: drawing a line loads every glyph four times
(layout, bounding box, offset, render), each time running the font's TrueType hinting
program, and measuring it (``getbbox``, ``getlength``) loads them again. That was a fifth
of a picture worker's CPU (callgrind: ``TT_RunIns`` alone 16 % of a TEN run), as numbers,
names and scores make most lines new. Here each glyph is drawn once per (character, size,
weight), and a line is its glyphs pasted at the pen positions Pillow's basic layout gives
them: the hinted advance of each glyph plus Pillow's kerning term for each pair (both read
back through ``getlength``). The result is the same mask, byte for byte, with the same
offset, as ``ImageDraw.text`` on Pillow's own rendering (``tests/images/test_glyphs.py``
checks every catalog string); the glyphs are pasted in order with the same "over" blend
FreeType's renderer uses where two glyphs overlap.

Only for Lato's basic layout: Gujarati script needs shaping (Raqm), which places glyphs by
cluster, so those lines stay with Pillow (``cogs.imaging.canvas``).

Memory: two bounded least-recently-used maps per process, :data:`GLYPHS` glyphs (a small
mask each) and :data:`PAIRS` kerning terms (an integer each); safe from threads (a lock
around each map).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, TypeVar

from PIL import Image, ImageDraw

from cogs.imaging.cache import DRAWING_CACHE
from cogs.imaging.fonts import font, is_gujarati, runs

# Bounds (issue 42): the pictures of three SPLIT and three TEN games in English use 355
# glyphs and 1,075 pairs; other languages and players' names add more. At the bound the
# glyphs take at most ~7 MB (36 sizes x 2 weights x 100 characters: 3.3 KB each, measured
# by RSS), the pairs ~1.6 MB.
GLYPHS = 2048  # glyphs kept
PAIRS = 8192  # kerning terms kept (one per neighbouring pair, size and weight)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """A least-recently-used map of at most ``capacity`` entries, safe from threads; a miss
    computes the value outside the lock (two threads may both compute it: same result)."""

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("a bounded cache holds at least one entry")
        self.capacity = capacity
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = make()
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


@dataclass(frozen=True)
class Glyph:
    """One character as Pillow draws it alone: its advance (26.6 fixed point, hinted), its
    bounding box relative to the pen and the baseline as ``getbbox(anchor="ls")`` gives it
    (the pen line from 0 to the advance included), and its ink: the non-zero part of its
    mask and where that sits relative to the pen and the baseline."""

    advance: int
    box: tuple[int, int, int, int]
    ink: Image.Image | None
    ink_x: int
    ink_y: int


_glyphs: BoundedCache[tuple[str, int, bool], Glyph] = BoundedCache(GLYPHS)
_pairs: BoundedCache[tuple[str, str, int, bool], int] = BoundedCache(PAIRS)


def _draw_glyph(char: str, size: int, bold: bool) -> Glyph:
    face = font(size, bold=bold)
    advance = round(face.getlength(char) * 64)
    left, top, right, bottom = (int(edge) for edge in face.getbbox(char, anchor="ls"))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), char, font=face, fill=255, anchor="ls")
    ink = mask.getbbox()
    if ink is None:  # a space
        return Glyph(advance, (left, top, right, bottom), None, 0, 0)
    return Glyph(advance, (left, top, right, bottom), mask.crop(ink), left + ink[0],
                 top + ink[1])


def glyph(char: str, size: int, bold: bool) -> Glyph:
    return _glyphs.get((char, size, bold), lambda: _draw_glyph(char, size, bold))


def _kerning(first: str, second: str, size: int, bold: bool) -> int:
    """What Pillow's basic layout adds to ``first``'s advance before ``second`` (26.6 units;
    it adds FreeType's kerning in whole pixels there, so this is a few 64ths at most)."""
    whole = round(font(size, bold=bold).getlength(first + second) * 64)
    return whole - glyph(first, size, bold).advance - glyph(second, size, bold).advance


def kerning(first: str, second: str, size: int, bold: bool) -> int:
    return _pairs.get((first, second, size, bold), lambda: _kerning(first, second, size, bold))


def _pens(text: str, size: int, bold: bool) -> tuple[list[tuple[int, Glyph]], int]:
    """Each glyph with its pen position in pixels (rounded as Pillow rounds it), and the
    pen's end in 26.6 units."""
    pen = 0
    previous: str | None = None
    placed: list[tuple[int, Glyph]] = []
    for char in text:
        if previous is not None:
            pen += kerning(previous, char, size, bold)
        drawn = glyph(char, size, bold)
        placed.append(((pen + 32) >> 6, drawn))
        pen += drawn.advance
        previous = char
    return placed, pen


def length(text: str, size: int, bold: bool) -> float:
    """``font(size, bold).getlength(text)``, from the cached glyphs."""
    return _pens(text, size, bold)[1] / 64


@lru_cache(maxsize=DRAWING_CACHE)  # labels, names and numbers repeat across renders
def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """The width a line takes (its advance, rounded): Lato from the cached glyphs, a line
    with Gujarati script by its runs (``fonts.runs``)."""
    if not is_gujarati(text):
        return round(length(text, size, bold))
    return round(sum(face.getlength(run) for run, face in runs(text, size, bold=bold)))


def line_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, tuple[int, int]]:
    """The mask of a line of Lato text and its offset from the pen position, as
    ``ImageDraw.text`` draws it from ``getbbox``'s corner (``cogs.imaging.canvas``)."""
    placed, pen = _pens(text, size, bold)
    left = top = right = bottom = 0
    for x, drawn in placed:
        box_left, box_top, box_right, box_bottom = drawn.box
        left = min(left, x + box_left)
        right = max(right, x + box_right)
        top = min(top, box_top)
        bottom = max(bottom, box_bottom)
    right = max(right, (pen + 32) >> 6)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    for x, drawn in placed:
        if drawn.ink is not None:
            mask.paste(255, (x + drawn.ink_x - left, drawn.ink_y - top), drawn.ink)
    ascender = font(size, bold=bold).getmetrics()[0]
    return mask, (left, top + ascender)


def clear() -> None:
    """Forget every glyph and kerning term (tests)."""
    _glyphs.clear()
    _pairs.clear()
