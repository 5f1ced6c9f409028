"""Lines composed from cached glyphs (``cogs.imaging.glyphs``) are Pillow's own rendering,
byte for byte, and the glyph caches stay within their bounds."""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from cogs.imaging import glyphs
from cogs.imaging.fonts import font, is_gujarati

LOCALES = Path(glyphs.__file__).parents[1] / "locales"
SIZES = ((13, False), (24, False), (26, True), (44, True))


def pillow_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, tuple[int, int]]:
    """What ``cogs.imaging.canvas`` drew before: ``ImageDraw.text`` from ``getbbox``'s corner."""
    face = font(size, bold=bold)
    left, top, right, bottom = (int(edge) for edge in face.getbbox(text))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255)
    return mask, (left, top)


def catalog_lines() -> list[str]:
    """Every message and translation in the catalogs that Lato draws (not Gujarati script),
    with its placeholders as they are: braces, digits and punctuation are glyphs too."""
    found: set[str] = set()
    for path in LOCALES.rglob("*.po*"):
        found.update(re.findall(r'^msg(?:id|str)(?:\[\d\])? "(.+)"$',
                                path.read_text(encoding="utf-8"), re.MULTILINE))
    return sorted(line for line in found if not is_gujarati(line))


def random_lines(count: int) -> list[str]:
    rng = random.Random(42)
    alphabet = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 "
                "·–—…×+=−%()'\"ÄÖÜäöüßçñëÇØøÉé♥♦♣♠")
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60)))
            for _ in range(count)]


def test_every_catalog_line_is_pillows_own_mask() -> None:
    lines = catalog_lines()
    assert len(lines) > 500  # the catalogs were found
    different = []
    for index, line in enumerate(lines):
        size, bold = SIZES[index % len(SIZES)]
        mask, offset = glyphs.line_mask(line, size, bold)
        expected, expected_offset = pillow_mask(line, size, bold)
        if (offset, mask.size, mask.tobytes()) != (expected_offset, expected.size,
                                                   expected.tobytes()):
            different.append((line, size, bold))
    assert different == []


@pytest.mark.parametrize(("size", "bold"), SIZES)
def test_kerned_pairs_and_random_lines_are_pillows_own_mask(size: int, bold: bool) -> None:
    lines = ["AV", "Tr", "To", "Ty", "WA", "LT", "P.", "Yo", "fi", "ff", "10♦", " ", "  a  ",
             *random_lines(150)]
    for line in lines:
        mask, offset = glyphs.line_mask(line, size, bold)
        expected, expected_offset = pillow_mask(line, size, bold)
        assert offset == expected_offset, line
        assert mask.size == expected.size, line
        assert mask.tobytes() == expected.tobytes(), line


@pytest.mark.parametrize(("size", "bold"), SIZES)
def test_widths_are_pillows_lengths(size: int, bold: bool) -> None:
    for line in [*catalog_lines()[:300], *random_lines(100)]:
        assert glyphs.length(line, size, bold) == font(size, bold=bold).getlength(line)
        assert glyphs.text_width(line, size, bold=bold) == round(
            font(size, bold=bold).getlength(line))


def test_the_caches_are_bounded_least_recently_used_first() -> None:
    cache: glyphs.BoundedCache[int, str] = glyphs.BoundedCache(3)
    made: list[int] = []

    def make(key: int) -> str:
        made.append(key)
        return str(key)

    for key in (1, 2, 3, 1, 4):  # 1 is used again before 4 comes, so 2 goes
        assert cache.get(key, functools.partial(make, key)) == str(key)
    assert len(cache) == 3
    assert cache.get(1, lambda: make(1)) == "1" and cache.get(2, lambda: make(2)) == "2"
    assert made == [1, 2, 3, 4, 2]
    with pytest.raises(ValueError):
        glyphs.BoundedCache(0)


def test_the_glyph_caches_never_pass_their_bounds() -> None:
    glyphs.clear()
    for line in random_lines(200):
        for size in range(10, 40):
            glyphs.line_mask(line, size, False)
    assert len(glyphs._glyphs) <= glyphs.GLYPHS
    assert len(glyphs._pairs) <= glyphs.PAIRS
    assert len(glyphs._pairs) == glyphs.PAIRS  # it was full: entries were dropped


def test_pasting_a_glyph_blends_as_freetypes_renderer_does() -> None:
    """Where two glyphs overlap, Pillow's renderer puts ``s + t(255 - s)/255`` (its MULDIV255
    rounding) over what is there; pasting 255 through the glyph's mask gives exactly that, for
    every glyph value ``s`` over every value ``t`` already drawn."""
    under = Image.frombytes("L", (256, 256), bytes(t for t in range(256) for _ in range(256)))
    glyph = Image.frombytes("L", (256, 256), bytes(range(256)) * 256)
    under.paste(255, (0, 0, 256, 256), glyph)
    drawn = under.tobytes()

    def muldiv255(a: int, b: int) -> int:
        product = a * b + 128
        return ((product >> 8) + product) >> 8

    for t in range(256):
        for s in range(256):
            expected = t if s == 0 else (s if t == 0 else s + muldiv255(t, 255 - s))
            assert drawn[t * 256 + s] == expected, (s, t)
