"""Issue 40's other promises, through the playground's page only (typing slash commands and
clicking, as a person would): ``/learn``'s tutor, ``/daily play``, ``/history``'s replays and
``/leaderboard``, and the texts in every language. One playground and one browser serve the
whole module; no player's private post ever shows in another player's tab."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import BrowserContext, Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from tests.playground.browser import (
    CHROMIUM,
    STEP_SECONDS,
    browser,
    open_as,
    playground,
    slash,
)
from tests.playground.test_browser_games import PrivacyWatch

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and os.environ.get("CI") != "true",
                                reason="Debian's chromium is not installed")

STEP_MS = STEP_SECONDS * 1000
SUGGESTED = re.compile(r"Suggested: (.+?) \(")


@dataclass
class Room:
    url: str
    context: BrowserContext
    pages: dict[str, Page]
    watch: PrivacyWatch
    started: float


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    data = tmp_path_factory.mktemp("playground")
    started = time.monotonic()
    with playground(data, "--players", "3", "--rate-limits", "off") as url, browser() as context:
        pages = {name: open_as(context, url, name) for name in ("Ada", "Ben", "Cleo")}
        for page in pages.values():
            page.click("#channels li[data-channel='games']")
        wait_for_the_bot(pages["Cleo"])
        yield Room(url, context, pages, PrivacyWatch(pages), started)
        for name, page in pages.items():
            assert page.errors == [], f"script errors in {name}'s tab: {page.errors}"  # type: ignore[attr-defined]
            assert page.locator("#violations").is_hidden(), page.inner_text("#violations")
    print(f"\nplayground features module: {time.monotonic() - started:.1f}s")


def wait_for_the_bot(page: Page) -> None:
    """``/history`` until it is answered: on a loaded machine a command sent right after the
    tabs opened was seen unanswered, without a word, three times (not reproduced on a quiet
    one, where the first is answered at once; the playground serves its page only after the
    bot's gateway READY and its command sync). Noted on issue 40 as not understood."""
    for _ in range(20):
        slash(page, "history")
        try:
            page.locator(".msg", has_text="used /history").last.wait_for(timeout=1500)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("the bot never answered /history")


def newest_private(page: Page, text: str) -> Locator:
    message = page.locator(".msg.ephemeral", has_text=text).last
    message.wait_for(timeout=STEP_MS)
    return message


def wait_text_change(message: Locator, before: str) -> str:
    message.page.wait_for_function(
        "([id, before]) => { const m = document.querySelector(`.msg[data-id='${id}']`);"
        " return m && m.innerText !== before; }",
        arg=[message.get_attribute("data-id"), before], timeout=STEP_MS)
    return message.inner_text()


def test_learn_shows_the_tutor_to_its_player_only_and_its_suggestion_moves_on(room: Room
                                                                               ) -> None:
    ada = room.pages["Ada"]
    slash(ada, "learn", game="split")
    tutor = newest_private(ada, "Tutor")
    tutor.locator(".row").first.wait_for(timeout=STEP_MS)
    before = tutor.inner_text()
    assert "used /learn" in before
    suggested = SUGGESTED.search(before)
    assert suggested, before
    label = suggested[1]
    button = tutor.locator(f"button.btn[data-label='{label}']")
    if button.count():
        button.click()
    else:
        select = tutor.locator("select.sel", has=ada.locator("option", has_text=label))
        value = select.locator("option", has_text=label).get_attribute("value")
        assert value, f"no control {label!r} in:\n{before}"
        select.select_option(value)
    after = wait_text_change(tutor, before)
    assert "Tutor" in after
    room.watch()
    for other in ("Ben", "Cleo"):
        assert "used /learn" not in room.pages[other].locator("#messages").inner_text()


def test_daily_play_shows_the_daily_table_to_its_player_only(room: Room) -> None:
    ben = room.pages["Ben"]
    slash(ben, "daily play", game="ten")
    table = newest_private(ben, "used /daily play")
    table.locator(".row button.btn:not(:disabled)").first.wait_for(timeout=STEP_MS)
    assert "TEN" in table.inner_text(), table.inner_text()
    room.watch()
    for other in ("Ada", "Cleo"):
        assert "used /daily" not in room.pages[other].locator("#messages").inner_text()


def test_leaderboard_and_history_answer_before_any_game(room: Room) -> None:
    cleo = room.pages["Cleo"]
    words = words_for(Language("en"))
    slash(cleo, "leaderboard", game="split")
    board = cleo.locator(".msg", has_text="used /leaderboard").last
    board.get_by_text(words.gettext("No finished games here for this period yet.")).wait_for(
        timeout=STEP_MS)
    history = newest_private(cleo, "used /history")  # the fixture's first command
    history.get_by_text(words.gettext("No finished games in this channel yet.")).wait_for(
        timeout=STEP_MS)
    room.watch()


@pytest.mark.parametrize("code", ["es", "sq", "gu"])
def test_language_changes_the_texts_a_player_sees(room: Room, code: str) -> None:
    dev = room.pages["Ben"]  # done with the daily deal
    words = words_for(Language(code))
    slash(dev, "language", language=code)
    said = words.gettext("From now on I answer you in {language}. Public messages follow the "
                         "server.", language="X").split("X")[0].strip()
    assert said
    newest_private(dev, said)
    slash(dev, "rules", game="split")
    rules = dev.locator(".msg", has_text="used /rules").last
    rules.wait_for(timeout=STEP_MS)
    for english in ("Previous", "Next"):
        label = words.pgettext("button", english)
        assert label != english, f"{english!r} is not translated to {code}"
        rules.locator(f"button.btn[data-label='{label}']").wait_for(timeout=STEP_MS)
    room.watch()
