"""Issue 40: the playground's page draws messages as Discord does (markdown, mentions,
timestamps, command mentions, embeds, buttons, selects, threads), shows an ephemeral message
to its member alone, and shows a violation of Discord's specification when the stand-in
records one. The stand-in and the page's server run here without a bot; messages are stored
in the stand-in directly."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from aiohttp import web

from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.discord_limits import FieldError
from bot.playground.fakediscord.model import FakeChannel, Violation
from bot.playground.web import Playground
from tests.playground.browser import CHROMIUM, browser, open_as

pytestmark = pytest.mark.skipif(not CHROMIUM.exists() and os.environ.get("CI") != "true",
                                reason="Debian's chromium is not installed")

RICH = ("**Bold** and *italic* ~~gone~~ ||secret|| for <@{ben}> in <#{channel}>: "
        "ends <t:2000000000:R>, try </rules:1>\n> quoted\n```\ncode **not bold**\n```")


class Served:
    """The stand-in and the page's server on a loop of their own (Playwright's sync API
    runs in this thread)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.fd = FakeDiscord()
        self.ada = self.fd.add_user("Ada", admin=True)
        self.ben = self.fd.add_user("Ben")
        self.url = ""
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def __enter__(self) -> Served:
        self._thread.start()

        async def start() -> web.AppRunner:
            await self.fd.start()
            runner = web.AppRunner(Playground(self.fd, [self.ada, self.ben]).app())
            await runner.setup()
            await web.TCPSite(runner, "127.0.0.1", 0).start()
            self.url = f"http://127.0.0.1:{runner.addresses[0][1]}/"
            return runner

        self.runner = self.run(start())
        return self

    def __exit__(self, *exc: object) -> None:
        async def stop() -> None:
            await self.runner.cleanup()
            await self.fd.stop()

        self.run(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)


@pytest.fixture
def served() -> Iterator[Served]:
    with Served() as running:
        yield running


def store(served: Served, body: dict[str, Any], **kwargs: Any) -> None:
    async def create() -> None:
        served.fd.world.create_message(served.fd.general.id, body, [], **kwargs)
        served.fd.world.notify()

    served.run(create())


def test_messages_are_drawn_as_discord_draws_them(served: Served) -> None:
    fd = served.fd
    thread = FakeChannel(fd.world.ids.next(), "split-game", parent_id=fd.general.id)
    fd.world.channels[thread.id] = thread
    store(served, {
        "content": RICH.format(ben=served.ben.id, channel=fd.general.id),
        "embeds": [{"title": "SPLIT · round 1", "description": "**Ada** to play",
                    "color": 0x2E8B57, "fields": [{"name": "Pile", "value": "85", "inline": True}],
                    "footer": {"text": "P perfect"}}],
        "components": [
            {"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Join", "custom_id": "join"},
                {"type": 2, "style": 4, "label": "Cancel", "custom_id": "cancel",
                 "disabled": True}]},
            {"type": 1, "components": [{"type": 3, "custom_id": "pick", "placeholder": "Pick",
                                        "options": [{"label": "A♠", "value": "a"},
                                                    {"label": "K♥", "value": "k"}]}]},
        ],
    })
    store(served, {"content": "Your hand: A♠ K♥"}, ephemeral_for=served.ada.id)
    with browser() as context:
        ada, ben = open_as(context, served.url, "Ada"), open_as(context, served.url, "Ben")
        for page in (ada, ben):
            page.locator(".msg").first.wait_for()
        content = ben.locator(".msg .content").first
        assert content.locator("b").first.inner_text() == "Bold"
        assert content.locator("i").first.inner_text() == "italic"
        assert content.locator("s").inner_text() == "gone"
        assert content.locator(".spoiler").inner_text() == "secret"
        assert content.locator(".mention.me").inner_text() == "@Ben"  # Ben's own mention
        assert ada.locator(".msg .content .mention").first.inner_text() == "@Ben"
        assert content.locator(".channel-link").inner_text() == "#general"
        assert "year" in content.locator(".stamp").inner_text()  # <t:...:R>: in N years
        assert content.locator(".cmd").inner_text() == "/rules"
        assert content.locator("blockquote").inner_text() == "quoted"
        assert "**not bold**" in content.locator("pre").inner_text()
        assert ben.locator(".msg.mentioned").count() == 1
        assert ada.locator(".msg.mentioned").count() == 0
        embed = ben.locator(".embed")
        assert embed.locator(".e-title").inner_text() == "SPLIT · round 1"
        assert embed.locator(".e-field.inline .fname").inner_text() == "Pile"
        assert embed.locator(".e-footer").inner_text() == "P perfect"
        assert ben.locator("button[data-custom-id=join]").is_enabled()
        assert ben.locator("button[data-custom-id=cancel]").is_disabled()
        assert ben.locator("select[data-custom-id=pick] option").all_inner_texts() == [
            "Pick", "A♠", "K♥"]
        assert [t.strip() for t in ben.locator("#channels li").all_inner_texts()] == [
            "# general", "🧵 split-game"]
        # The ephemeral message: Ada alone sees it.
        assert "Your hand: A♠ K♥" in ada.locator(".msg.ephemeral").inner_text()
        assert "Only you can see this" in ada.locator(".msg.ephemeral").inner_text()
        assert ben.locator(".msg.ephemeral").count() == 0
        assert "Your hand" not in ben.locator("#messages").inner_text()
        assert ben.locator("#violations").is_hidden()

        async def violate() -> None:
            fd.world.violations.append(Violation(
                "POST", "/api/v10/channels/1/messages", "create_message",
                (FieldError(("content",), "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer"),)))
            fd.world.notify()

        served.run(violate())
        banner = ben.locator("#violations")
        banner.wait_for()
        assert "broke Discord's specification 1 time" in banner.inner_text()
        assert "content: BASE_TYPE_MAX_LENGTH" in banner.inner_text()
