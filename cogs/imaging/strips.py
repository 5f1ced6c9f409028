"""Pictures encoded by horizontal strips, each strip kept once encoded (issue 42, sixth pass).

No two whole pictures repeat, but most of their rows do: a TEN hand's header, a SPLIT hand's
cards, the players' panels of a table barely change from one version to the next. So a
picture mapped onto a game's fixed palette is cut into strips of :data:`STRIP_HEIGHT` rows;
a strip is known by what can paint on it (the picture's width and background, the strip's
rows, the painter, the palette and the layout items whose painted rows touch it, in layout
order: :func:`item_rows`). A strip seen before is reused as it was encoded: its PNG
scanlines (filter byte 0, then a palette index per pixel) as a raw deflate segment ended by a
sync flush, with its Adler-32 and length. Segments of fresh compressors concatenate into one
valid deflate stream, so a picture is its strips' segments behind a zlib header, then a final
empty block and the Adler-32 of the whole (:func:`adler32_combine`), in a PNG written here
(:func:`png_bytes`).

This is exact because what is painted on a row depends only on the items that touch it, and
Pillow's drawing is the same shifted by a whole number of rows (rectangles, masks pasted at
any row, lines; strip tops are multiples of :data:`STRIP_HEIGHT`, an even number, so even a
half-to-even rounding shifts alike), and the palette mapping (no dither) is per pixel.
``tests/images/test_strips.py`` proves it on every table and hand of seeded games in every
language: the decoded pixels are those of the whole picture drawn at once.

The cache is bounded (:class:`StripCache`: bytes and entries, least recently used out first).
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

from cogs.imaging.canvas import text_rows
from cogs.imaging.layout import Box, CardSlot, Icon, Item, Label, Panel, Polyline

STRIP_HEIGHT = 32  # rows per strip (bench/strips.py under callgrind: 32, 48 and 64 compared)
# Room around a card (its tile's margin: a highlight ring) and around a game's icon (a painter
# may draw a little past an icon's box: a badge's text); the test fails if it is too small.
CARD_MARGIN = 6
ICON_MARGIN = 6
# Half the tallest thing a painter centres on an icon whatever the icon's height (SPLIT's pile
# badge is 40 rows): a small icon still claims these rows (tests/images/test_strips.py).
ICON_REACH = 20
CACHE_BYTES = 16 * 1024 * 1024  # segments plus ITEM_BYTES per item held in the keys
CACHE_ENTRIES = 8192
ITEM_BYTES = 256  # a rough bound of what one layout item held by a key costs
_ADLER_BASE = 65521


def item_rows(item: Item) -> tuple[int, int]:
    """The rows (top, bottom exclusive) ``item`` may paint on, never fewer than it does."""
    if isinstance(item, Panel):
        return item.box.y, item.box.bottom
    if isinstance(item, Label):
        return text_rows(item.box, item.text, item.size, item.bold)
    if isinstance(item, CardSlot):
        return item.box.y - CARD_MARGIN, item.box.bottom + CARD_MARGIN
    if isinstance(item, Icon):
        grow = ICON_MARGIN + max(item.box.h // 2, ICON_REACH)
        return item.box.y - grow, item.box.bottom + grow
    ys = [y for _, y in item.points]
    reach = 2 * item.width + 2  # half the line's width, or half a marker's side (4 widths)
    return min(ys) - reach, max(ys) + reach + 1


def shifted(item: Item, dy: int) -> Item:
    """``item`` moved ``dy`` rows down."""
    if isinstance(item, Polyline):
        return replace(item, points=tuple((x, y + dy) for x, y in item.points))
    box = item.box
    return replace(item, box=Box(box.x, box.y + dy, box.w, box.h))


def strip_items(items: Sequence[Item], height: int,
                strip_height: int = STRIP_HEIGHT) -> list[list[int]]:
    """For each strip of a picture ``height`` rows high, the indices of the items that may
    paint on it, in layout order."""
    count = (height + strip_height - 1) // strip_height
    strips: list[list[int]] = [[] for _ in range(count)]
    for position, item in enumerate(items):
        top, bottom = item_rows(item)
        if bottom <= top:
            continue
        first = max(0, top // strip_height)
        last = min(count - 1, (bottom - 1) // strip_height)
        for index in range(first, last + 1):
            strips[index].append(position)
    return strips


@dataclass(frozen=True)
class Segment:
    """A strip's scanlines as a raw deflate segment (sync-flushed), their Adler-32 and
    length."""

    data: bytes
    adler: int
    length: int


def deflate_rows(indices: bytes, width: int) -> Segment:
    """``indices`` (one palette index per pixel, row after row) as PNG scanlines, filter 0."""
    raw = b"\0" + b"\0".join([indices[at:at + width] for at in range(0, len(indices), width)])
    compressor = zlib.compressobj(1, zlib.DEFLATED, -15)
    data = compressor.compress(raw) + compressor.flush(zlib.Z_SYNC_FLUSH)
    return Segment(data, zlib.adler32(raw), len(raw))


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's and the second's length
    (zlib's ``adler32_combine``)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += (first >> 16) + (second >> 16) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return (struct.pack("!I", len(body)) + kind + body
            + struct.pack("!I", zlib.crc32(body, zlib.crc32(kind))))


_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KiB window, fastest level (header check: % 31 == 0)
_FINAL_BLOCK = b"\x03\x00"  # an empty fixed-Huffman block marked last


def png_bytes(width: int, height: int, palette: bytes, segments: Sequence[Segment]) -> bytes:
    """A palette PNG (8 bits, ``palette``: RGB triples) whose image data is ``segments``."""
    adler = 1
    for segment in segments:
        adler = adler32_combine(adler, segment.adler, segment.length)
    stream = b"".join((_ZLIB_HEADER, *(s.data for s in segments), _FINAL_BLOCK,
                       struct.pack("!I", adler)))
    header = struct.pack("!IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", stream), _chunk(b"IEND", b"")))


class StripCache:
    """Encoded strips by key, bounded by :data:`CACHE_BYTES` and :data:`CACHE_ENTRIES`
    (least recently used out first); counts its hits and misses. Thread-safe."""

    def __init__(self, max_bytes: int = CACHE_BYTES, max_entries: int = CACHE_ENTRIES) -> None:
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self._entries: OrderedDict[Hashable, tuple[Segment, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> Segment | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[0]

    def put(self, key: Hashable, segment: Segment, items: int) -> None:
        cost = len(segment.data) + ITEM_BYTES * (items + 1)
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._entries[key] = (segment, cost)
            self.bytes += cost
            while self._entries and (self.bytes > self.max_bytes
                                     or len(self._entries) > self.max_entries):
                _, (_, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._entries)


STRIPS = StripCache()  # one per process (a picture worker's, or the bot's render threads')
