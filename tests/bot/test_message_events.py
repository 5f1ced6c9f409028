"""The gateway's message events as the bot parses them (``bot.process.message_events``)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord.ext import commands

from bot.process import message_events
from bot.process.event_loop import loop_factory

CHANNEL, MESSAGE = 111, 222


def a_bot() -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    message_events.install(bot._connection)
    return bot


def message_payload(**extra: Any) -> dict[str, Any]:
    return {"id": str(MESSAGE), "channel_id": str(CHANNEL), "content": "", **extra}


async def test_a_new_message_is_dispatched_as_its_ids_alone() -> None:
    bot = a_bot()
    seen: asyncio.Queue[tuple[int, int]] = asyncio.Queue()
    whole: list[object] = []

    async def on_seen(channel_id: int, message_id: int) -> None:
        await seen.put((channel_id, message_id))

    async def on_message(message: object) -> None:
        whole.append(message)

    bot.add_listener(on_seen, f"on_{message_events.MESSAGE_SEEN}")
    bot.add_listener(on_message, "on_message")
    async with bot:  # the client's loop, without logging in
        # A payload a whole Message could not be built from (no author): only the ids are read.
        bot._connection.parsers["MESSAGE_CREATE"](message_payload())
        assert await asyncio.wait_for(seen.get(), 5.0) == (CHANNEL, MESSAGE)
    assert whole == []


class _Store:
    def __init__(self, tracked: set[int]) -> None:
        self.tracked = tracked
        self.updated: list[tuple[int, list[Any]]] = []

    def is_message_tracked(self, message_id: int) -> bool:
        return message_id in self.tracked

    def update_from_message(self, message_id: int, components: list[Any]) -> None:
        self.updated.append((message_id, components))


@pytest.mark.parametrize(("payload", "tracked", "updated"), [
    # A tracked message's new components reach the view store (what discord.py's parser does).
    (message_payload(components=[{"type": 1}]), {MESSAGE}, [(MESSAGE, [{"type": 1}])]),
    # An interaction's response is tracked by the interaction's id.
    (message_payload(components=[], interaction={"id": "333"}), {333}, [(333, [])]),
    (message_payload(components=[{"type": 1}]), set(), []),  # not tracked
    (message_payload(), {MESSAGE}, []),  # no components in the edit
])
def test_an_edit_only_keeps_the_view_store_in_step(
    payload: dict[str, Any], tracked: set[int], updated: list[tuple[int, list[Any]]],
) -> None:
    bot = a_bot()
    store = _Store(tracked)
    bot._connection._view_store = store  # type: ignore[assignment]
    edits: list[object] = []
    bot._connection.dispatch = lambda event, *args: edits.append(event)  # type: ignore[method-assign]
    bot._connection.parsers["MESSAGE_UPDATE"](payload)
    assert store.updated == updated
    assert edits == []


def test_the_event_loop_setting_picks_the_loop() -> None:
    assert loop_factory("asyncio") is None
    factory = loop_factory("uvloop")
    assert factory is not None  # uvloop is a dependency on Linux
    loop = factory()
    try:
        assert type(loop).__module__.startswith("uvloop")
    finally:
        loop.close()
