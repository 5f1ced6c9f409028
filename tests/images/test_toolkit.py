"""The drawing toolkit: fonts shipped with the package, text fitting, the render cache, the
attachment limits, renders usable from a thread pool, and the one wild notation."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from cogs.imaging import fonts, glyphs
from cogs.imaging.cache import RenderCache
from cogs.imaging.layout import Box, flow, flow_height
from cogs.imaging.png import ATTACHMENT_LIMIT_BYTES, ImageTooLarge, check_attachment
from cogs.imaging.text_fit import ELLIPSIS, fit, shorten
from cogs.split.table_image import render_table
from cogs.ten.wild_notation import card_text, card_words, placed_text
from game.split import SplitEngine
from tests.images import samples


def test_the_fonts_are_files_in_the_package_with_their_licence() -> None:
    assert fonts.REGULAR.is_file() and fonts.BOLD.is_file()
    assert "SIL OPEN FONT LICENSE" in (fonts.FONT_DIR / "OFL.txt").read_text()
    assert fonts.font(30).getname() == ("Lato", "Regular")
    assert fonts.font(30, bold=True).getname() == ("Lato", "Bold")


def test_printable_leaves_out_what_the_font_cannot_draw() -> None:
    assert fonts.printable("Émile Øster") == "Émile Øster"
    assert fonts.printable("Dora 🎲") == "Dora"
    assert fonts.printable("🎲🎲") == "?"
    assert fonts.has_glyph("A") and not fonts.has_glyph("漢")


def test_fit_shrinks_then_shortens() -> None:
    text, size = fit("Ana", 200, 30, min_size=24)
    assert (text, size) == ("Ana", 30)
    long = "Benedikt Kowalczyk-Øster the Magnificent"
    text, size = fit(long, 300, 30, min_size=24)
    assert size == 24 and text.endswith(ELLIPSIS)
    assert glyphs.text_width(text, 24) <= 300
    assert shorten("abc", 1, 24) == ELLIPSIS


def test_flow_wraps_at_the_width() -> None:
    boxes = flow(5, 50, 70, x=10, y=0, width=170, gap=10, line_gap=5)
    assert [b.x for b in boxes] == [10, 70, 130, 10, 70]
    assert boxes[3].y == 75
    assert flow_height(5, 50, 70, width=170, gap=10, line_gap=5) == 145
    assert flow_height(0, 50, 70, width=170, gap=10, line_gap=5) == 0
    assert Box(0, 0, 10, 10).overlaps(Box(5, 5, 10, 10))
    assert not Box(0, 0, 10, 10).overlaps(Box(10, 0, 10, 10))


def test_the_cache_is_bounded_and_least_recently_used_goes_first() -> None:
    cache = RenderCache(capacity=2)
    calls: list[str] = []

    def render(name: str) -> bytes:
        calls.append(name)
        return name.encode()

    assert cache.get_or_render((1, 1, None), lambda: render("a")) == b"a"
    assert cache.get_or_render((1, 1, None), lambda: render("again")) == b"a"
    cache.put((1, 2, None), b"b")
    cache.get((1, 1, None))  # a is now the most recent
    cache.put((2, 1, "p1"), b"c")
    assert len(cache) == 2
    assert cache.get((1, 2, None)) is None  # b fell out
    assert cache.get((1, 1, None)) == b"a" and cache.get((2, 1, "p1")) == b"c"
    assert calls == ["a"]
    with pytest.raises(ValueError):
        RenderCache(capacity=0)


def test_attachment_limits_are_enforced() -> None:
    check_attachment(b"x" * 100, 800, 1200)
    with pytest.raises(ImageTooLarge):
        check_attachment(b"x" * ATTACHMENT_LIMIT_BYTES, 800, 1200)
    with pytest.raises(ImageTooLarge):
        check_attachment(b"x", 801, 100)
    with pytest.raises(ImageTooLarge):
        check_attachment(b"x", 800, 4001)


def test_renders_in_a_thread_pool_equal_the_same_render_in_one_thread() -> None:
    engine = SplitEngine()
    states = [samples.split_state(count, 7, 40) for count in (2, 4, 6)]
    views = [engine.view(state, None) for state in states]
    alone = [render_table(view, {}) for view in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda v: render_table(v, {}), views * 3))
    assert together == alone * 3


@pytest.mark.parametrize(
    ("note", "shown", "words"),
    [
        ("R5", "R5", "red 5"),
        ("B#", "B*", "blue wild (any number)"),
        ("W7", "*7", "number wild 7 (any colour)"),
        ("W#", "**", "full wild (any colour, any number)"),
        ("$3", "$3", "currency 3"),
    ],
)
def test_one_notation_for_every_card(note: str, shown: str, words: str) -> None:
    assert card_text(note) == shown
    assert card_words(note) == words


def test_a_placed_wild_names_its_place() -> None:
    assert placed_text("R#", "R5") == "R*=R5"
    assert placed_text("W7", "B7") == "*7=B7"
    assert placed_text("W#", "G7") == "**=G7"
