"""Issue 34's races: concurrent /game status calls leave one live table; players clicking
Rematch together all get their seats."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.records.session import Status
from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.commands.game_commands import GameCog
from tests.cogs.conftest import ANA, BEN, CY
from tests.cogs.test_channel_flow import Flow, finish
from tests.fakes import FakeMessage, click
from tests.testgame import CountEngine


@pytest.fixture
async def flow(tmp_path: Path) -> AsyncIterator[Flow]:
    store = await open_store(tmp_path / "flow.sqlite3")
    yield Flow(SessionManager(store, {"count": CountEngine()}, seed_source=lambda: 7))
    await store.close()


def live_tables(flow: Flow, session_id: int) -> list[FakeMessage]:
    """The public messages of the channel, not deleted, that carry the table's controls (the
    turn ping aside)."""
    control = f"tb:hand:{session_id}"
    ping = flow.session().ping_message_id
    return [
        message for message in flow.channel.messages.values()
        if not message.deleted and not message.flags.ephemeral and message.view is not None
        and message.id != ping
        and any(getattr(item, "custom_id", None) == control for item in message.view.children)
    ]


async def test_concurrent_status_calls_leave_exactly_one_live_table(flow: Flow) -> None:
    session = await flow.started(ANA, BEN)
    for count in (2, 10):
        calls = [flow.interaction((ANA, BEN, CY)[n % 3]) for n in range(count)]
        for ia in calls:
            await flow.client.cog.interaction_check(ia)  # type: ignore[arg-type]
        await asyncio.gather(*(GameCog.status.callback(flow.client.cog, ia) for ia in calls))
        await flow.manager.settle()
        assert all(not ia.last.ephemeral for ia in calls)
        [live] = live_tables(flow, session.id)
        assert flow.session().table_message_id == live.id


async def test_players_clicking_rematch_together_are_all_seated(flow: Flow) -> None:
    session = await flow.new(ANA)
    table = flow.table_message(session)
    for user in (BEN, CY):
        await flow.press(user, table, f"tb:lobby:join:{session.id}")
    await flow.press(ANA, table, f"tb:lobby:start:{session.id}")
    old = await finish(flow, flow.session())
    final = flow.channel.sent[-1].message
    assert final is not None
    clicks = [flow.interaction(user, final) for user in (ANA, BEN, CY)]
    await asyncio.gather(*(click(ia, f"tb:rematch:{old.id}") for ia in clicks))
    lobby = flow.session()
    assert lobby.status is Status.LOBBY
    assert {seat.player_id for seat in lobby.seats} == {str(u.id) for u in (ANA, BEN, CY)}
    opened = [ia for ia in clicks if not ia.last.ephemeral]
    assert len(opened) == 1 and lobby.table_message_id == opened[0].last.message.id  # type: ignore[union-attr]
    for ia in clicks:
        if ia.last.ephemeral:
            assert ia.last.content == "You have your seat in the rematch."


