"""Pictures encoded by strips (``cogs.imaging.strips``, issue 42 sixth pass) have the very
pixels of the picture painted and encoded whole: every table, hand and final picture of
seeded SPLIT and TEN games, at every player count the goldens use and more, in every
language, drawn both ways one after the other (so the strip cache hits across versions, as
in a worker) and decoded."""

from __future__ import annotations

import io
import os
import zlib
from typing import Any

import pytest
from PIL import Image, ImageChops

from bench.images import positions, renders
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.imaging import paint
from cogs.imaging.canvas import Canvas
from cogs.imaging.layout import Box, CardSlot, Icon, Label, Layout, Panel, Polyline
from cogs.imaging.shapes import MARKERS
from cogs.imaging.strips import (
    CARD_MARGIN,
    STRIP_HEIGHT,
    STRIPS,
    StripCache,
    adler32_combine,
    deflate_rows,
    item_rows,
    png_bytes,
    strip_items,
)
from cogs.imaging.words import words_in
from cogs.split.card_face import SplitPainter
from cogs.ten.card_face import TenPainter
from game.split import SplitEngine
from game.ten import TenEngine

ENGINES: dict[str, Any] = {"split": SplitEngine(), "ten": TenEngine()}
CASES = [("split", 2, 21), ("split", 3, 22), ("split", 4, 23), ("split", 6, 24),
         ("ten", 2, 31), ("ten", 3, 32), ("ten", 5, 33)]


def _pixels(data: bytes) -> bytes:
    with Image.open(io.BytesIO(data)) as image:
        return image.convert("RGB").tobytes()


@pytest.mark.parametrize("language", list(Language))
@pytest.mark.parametrize(("game", "players", "seed"), CASES)
def test_strips_paint_the_pixels_of_the_whole_picture(game: str, players: int, seed: int,
                                                       language: Language) -> None:
    engine = ENGINES[game]
    during, finals = positions(engine, players, 1, 4, seed)
    jobs = renders(game, engine, players, during, finals)
    hits_before = STRIPS.hits
    compared = 0
    with words_in(words_for(language)):
        for job in (*jobs["table"], *jobs["hand"], *jobs["final"]):
            by_strips = job()
            with paint.whole_pictures():
                whole = job()
            assert _pixels(by_strips) == _pixels(whole)
            compared += 1
    assert compared > 20
    assert STRIPS.hits > hits_before, "no strip was reused: the test proves nothing"


def test_the_png_is_what_pillow_reads_and_a_zlib_stream() -> None:
    palette = bytes(range(48)) * 16  # 256 colours
    rows = [bytes((x * 7 + y) % 256 for x in range(50)) for y in range(70)]
    segments = [deflate_rows(b"".join(rows[top:top + 32]), 50) for top in range(0, 70, 32)]
    data = png_bytes(50, 70, palette, segments)
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        assert image.mode == "P" and image.size == (50, 70)
        assert image.tobytes() == b"".join(rows)
        assert image.getpalette() == list(palette)
    idat = data[data.index(b"IDAT") + 4:data.index(b"IEND") - 8]
    assert zlib.decompress(idat) == b"".join(b"\0" + row for row in rows)


def test_adler32_combine_is_zlibs() -> None:
    for first, second in [(b"", b""), (b"a", b""), (b"", b"bc"), (os.urandom(9000),
                                                                  os.urandom(70000))]:
        assert adler32_combine(zlib.adler32(first), zlib.adler32(second),
                               len(second)) == zlib.adler32(first + second)


def test_items_go_to_the_strips_they_may_paint_on() -> None:
    panel = Panel(Box(0, STRIP_HEIGHT - 1, 10, 2), (1, 2, 3))
    card = CardSlot(Box(0, 3 * STRIP_HEIGHT + 10, 10, 10), "x", "hand")
    line = Polyline(((0, 10), (5, 10)), (0, 0, 0), width=4)
    label = Label(Box(0, 10, 100, 20), "", 20, (0, 0, 0))  # paints nothing
    strips = strip_items([panel, card, line, label], 4 * STRIP_HEIGHT)
    assert strips == [[0, 2], [0], [], [1]]
    assert item_rows(card) == (3 * STRIP_HEIGHT + 4, 3 * STRIP_HEIGHT + 26)
    assert item_rows(Icon(Box(0, 100, 10, 20), "turn")) == (74, 146)  # ICON_REACH 20 + 6


def test_a_cards_rows_are_its_tiles() -> None:
    assert CARD_MARGIN == paint.TILE_MARGIN  # a card is pasted as a tile with this margin


def test_the_cache_is_bounded_and_counts() -> None:
    cache = StripCache(max_bytes=10_000, max_entries=3)
    segment = deflate_rows(bytes(100), 10)
    for key in range(5):
        cache.put(key, segment, 1)
    assert len(cache) == 3 and cache.get(0) is None and cache.get(4) is segment
    assert (cache.hits, cache.misses) == (1, 1)
    cache.put("big", deflate_rows(os.urandom(20_000), 100), 1)
    assert len(cache) == 0 and cache.bytes == 0  # one over the budget is not kept


def test_a_layout_by_strips_matches_when_the_height_is_not_a_multiple() -> None:
    layout = Layout(120, STRIP_HEIGHT * 2 + 5, (250, 250, 250))
    layout.add(Panel(Box(4, 4, 100, STRIP_HEIGHT * 2 - 3), (200, 30, 40), (0, 0, 0)))
    layout.add(Label(Box(10, STRIP_HEIGHT - 12, 100, 24), "Águilas gy", 22, (0, 0, 0)))
    layout.add(Icon(Box(50, STRIP_HEIGHT * 2 - 10, 14, 14), "turn"))
    layout.add(Polyline(((5, 20), (60, STRIP_HEIGHT * 2 + 3)), (10, 90, 200), 3, "turn"))

    class Nothing:
        def card(self, canvas: Any, slot: Any) -> None: ...

        def icon(self, canvas: Any, icon: Any) -> bool:
            return False

    palette = bytes(v for c in range(256) for v in (c, 255 - c, (c * 5) % 256))
    by_strips = paint.render_png(layout, Nothing(), palette)
    with paint.whole_pictures():
        whole = paint.render_png(layout, Nothing(), palette)
    assert _pixels(by_strips) == _pixels(whole)


_BACKGROUND = (250, 250, 250)


def _painted_rows(item: Any, painter: Any) -> tuple[int, int] | None:
    canvas = Canvas(400, 400, _BACKGROUND)
    paint.paint_item(canvas, item, painter)
    changed = ImageChops.difference(canvas.image, Image.new("RGB", canvas.image.size,
                                                             _BACKGROUND)).getbbox()
    return None if changed is None else (changed[1], changed[3])


def _icon_kinds() -> list[tuple[Any, str, str]]:
    split_kinds = [("pile", "52"), ("pile", "8"), ("suit", "♥"), ("turn", ""),
                   *((marker, "") for marker in MARKERS)]
    ten_kinds = [("coin", "12"), ("bust", "13"), ("colour:R", ""), ("colour:B", ""),
                 ("wild", ""), ("turn", ""), *((marker, "") for marker in MARKERS)]
    return ([(SplitPainter(), kind, text) for kind, text in split_kinds]
            + [(TenPainter(), kind, text) for kind, text in ten_kinds])


@pytest.mark.parametrize(("painter", "kind", "text"), _icon_kinds(),
                         ids=lambda value: value if isinstance(value, str) else None)
def test_an_icon_of_any_size_paints_only_rows_it_claims(painter: Any, kind: str,
                                                        text: str) -> None:
    # A strip's key holds the items that may paint on it: one painting past its claimed
    # rows would let a strip drawn with other neighbours be reused (the pile's 40-row badge
    # is centred on an icon of any height).
    for width in (10, 60):
        for height in range(2, 60, 3):
            icon = Icon(Box(150, 180, width, height), kind, text)
            painted = _painted_rows(icon, painter)
            if painted is None:
                continue
            top, bottom = item_rows(icon)
            assert top <= painted[0] and painted[1] <= bottom, (kind, width, height, painted)


@pytest.mark.parametrize("size", [12, 22, 36, 48])
def test_a_label_card_and_line_paint_only_rows_they_claim(size: int) -> None:
    items: list[Any] = [
        *(Label(Box(20, 180, 340, height), text, size, (0, 0, 0), bold)
          for text in ("Águilas gy|", "ÑÇjpq É 10♥", "ગુજરાતી ક્ષ j", "—_ Šđ")
          for height in (4, 40) for bold in (False, True)),
        CardSlot(Box(150, 150, 60, 90), "7♥", "hand", highlight=True),
        *(Polyline(((40, 200), (200, 150), (300, 260)), (0, 0, 0), width, marker)
          for width in (1, 4, 9) for marker in (None, *MARKERS)),
    ]
    for item in items:
        painted = _painted_rows(item, SplitPainter())
        if painted is None:
            continue
        top, bottom = item_rows(item)
        assert top <= painted[0] and painted[1] <= bottom, (item, painted)
