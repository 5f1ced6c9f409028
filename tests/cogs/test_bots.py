"""Bot seat buttons, the turn clock on the table, timeouts, away and I'm back, through the cogs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
from discord import app_commands

from bot.automation.autoplay import Autoplay
from bot.automation.turn_clock import TurnClock
from bot.records import errors
from bot.sessions.manager import BOT_LEVELS, SessionManager
from bot.store import open_store
from cogs.commands.game_commands import GameCog
from cogs.listeners.table_publisher import TablePublisher
from tests.bot.conftest import FakeClock
from tests.bot.recorder import no_sleep
from tests.cogs.conftest import ANA, BEN, Table
from tests.cogs.test_lobby import assert_refused, open_lobby, press
from tests.fakes import FakeMessage, invoke
from tests.testgame import Add, CountEngine


class ClockedTable(Table):
    """The COUNT table with a fake clock, a 5-minute turn clock and the machine players."""

    def __init__(self, manager: SessionManager, clock: FakeClock) -> None:
        super().__init__(manager)
        self.clock = clock
        notifier = TablePublisher(self.client, self.client.services)
        self.autoplay = Autoplay(manager, notifier=notifier, sleep=no_sleep)
        self.turn_clock = TurnClock(manager, notifier=notifier)
        manager.subscribe(self.autoplay.on_change)
        manager.subscribe(self.turn_clock.on_change)


@pytest.fixture
async def clocked(tmp_path: Path) -> AsyncIterator[ClockedTable]:
    store = await open_store(tmp_path / "bots.sqlite3")
    clock = FakeClock()
    manager = SessionManager(store, {"count": CountEngine()}, clock=clock,
                             seed_source=lambda: 7, turn_minutes=5)
    yield ClockedTable(manager, clock)
    await store.close()


async def test_host_adds_and_removes_bots_from_the_lobby(clocked: ClockedTable) -> None:
    sid, message = await open_lobby(clocked)
    lobby = await press(clocked, ANA, message, f"tb:lobby:bot-easy:{sid}")
    assert lobby.kind == "edit_message" and "Bot 1 (bot, easy)" in lobby.text
    lobby = await press(clocked, ANA, message, f"tb:lobby:bot-normal:{sid}")
    assert "Bot 2 (bot, normal)" in lobby.text
    remove = next(item for item in lobby.view.children
                  if getattr(item, "custom_id", "") == f"tb:lobby:unbot:{sid}")
    assert not remove.disabled
    assert_refused(await press(clocked, BEN, message, f"tb:lobby:bot-easy:{sid}"),
                   errors.NOT_HOST)
    lobby = await press(clocked, ANA, message, f"tb:lobby:unbot:{sid}")
    assert "Bot 2" not in lobby.text and "Bot 1" in lobby.text
    assert [s.player_id for s in clocked.manager.get(sid).seats] == ["1", "bot:1"]


async def test_expert_button_and_the_offered_levels(clocked: ClockedTable) -> None:
    sid, message = await open_lobby(clocked)
    lobby = await press(clocked, ANA, message, f"tb:lobby:bot-expert:{sid}")
    assert "Bot 1 (bot, expert)" in lobby.text
    clocked.cog.services.bot_levels = ("normal",)  # BOT_LEVELS=normal
    lobby = await press(clocked, ANA, message, f"tb:lobby:bot-normal:{sid}")
    bot_ids = [c for c in lobby.custom_ids if c.startswith("tb:lobby:bot-")]
    assert bot_ids == [f"tb:lobby:bot-normal:{sid}"]
    # A button from before the change: refused, nothing seated.
    assert_refused(await press(clocked, ANA, message, f"tb:lobby:bot-expert:{sid}"),
                   errors.bad_bot_level(("normal",)).message)
    assert len(clocked.manager.get(sid).seats) == 3


async def test_new_game_level_seats_that_bot_at_once(clocked: ClockedTable) -> None:
    ia = clocked.interaction(ANA)
    await invoke(GameCog.new, clocked.cog, ia, game="count",
                 level=app_commands.Choice(name="expert", value="expert"))
    assert "Bot 1 (bot, expert)" in ia.last.text and not ia.last.ephemeral
    session = clocked.manager.in_channel(100)
    assert [(s.player_id, s.bot_level) for s in session.seats] == [("1", None),
                                                                   ("bot:1", "expert")]
    assert session.table_message_id == ia.last.message.id


async def test_new_game_level_not_offered_is_refused(clocked: ClockedTable) -> None:
    clocked.cog.services.bot_levels = ("easy", "normal")
    ia = clocked.interaction(ANA)
    await invoke(GameCog.new, clocked.cog, ia, game="count",
                 level=app_commands.Choice(name="expert", value="expert"))
    assert_refused(ia.last, errors.bad_bot_level(("easy", "normal")).message)
    assert clocked.manager.in_channel(100) is None


async def test_new_game_bot_the_manager_refuses_leaves_no_lobby(clocked: ClockedTable) -> None:
    clocked.cog.services.bot_levels = ("normal", "grand")  # offered, unknown to the manager
    ia = clocked.interaction(ANA)
    await invoke(GameCog.new, clocked.cog, ia, game="count",
                 level=app_commands.Choice(name="grand", value="grand"))
    assert_refused(ia.last, errors.bad_bot_level(BOT_LEVELS).message)
    assert clocked.manager.in_channel(100) is None


async def test_turn_limit_option_shows_in_the_lobby(clocked: ClockedTable) -> None:
    ia = clocked.interaction(ANA)
    await invoke(GameCog.new, clocked.cog, ia, game="count", turn_minutes=2)
    assert "**Turn limit**\n2 min per move" in ia.last.text
    assert clocked.manager.in_channel(100).turn_minutes == 2


async def start_with_ben(table: ClockedTable) -> tuple[int, FakeMessage]:
    sid, message = await open_lobby(table)
    await press(table, BEN, message, f"tb:lobby:join:{sid}")
    started = await press(table, ANA, message, f"tb:lobby:start:{sid}")
    due = table.clock.now + timedelta(minutes=5)
    assert f"⏳ Ana: time runs out <t:{int(due.timestamp())}:R>" in started.text
    return sid, message


async def test_reminder_pings_and_expiry_is_announced_once(clocked: ClockedTable) -> None:
    _, message = await start_with_ben(clocked)
    edits = len(message.edits)
    clocked.clock.advance(minutes=4)
    await clocked.turn_clock.tick()
    await clocked.turn_clock.idle()
    ping = clocked.channel.sent[-1]
    assert ping.content.startswith("⏳ <@1>, your move in COUNT")
    clocked.clock.advance(minutes=1)
    await clocked.turn_clock.tick()
    await clocked.turn_clock.tick()
    await clocked.turn_clock.idle()
    texts = [sent.content for sent in clocked.channel.sent]
    assert texts.count("⏰ Ana ran out of time: Ana adds 1 (total 1).") == 1
    assert len(message.edits) == edits + 1  # one redraw for the timeout
    assert "Total: 1" in message.edits[-1].text and "⏳ Ben" in message.edits[-1].text


async def test_two_timeouts_then_im_back(clocked: ClockedTable) -> None:
    sid, message = await start_with_ben(clocked)
    manager = clocked.manager
    for _ in range(2):
        clocked.clock.advance(minutes=5)
        await clocked.turn_clock.tick()  # Ana's default move
        await clocked.turn_clock.idle()
        now = manager.get(sid)
        await manager.act(sid, "2", now.version, Add(add=1))  # Ben moves
        await clocked.autoplay.idle()
    assert "Ana is away — a bot plays for them" in clocked.channel.sent[-1].content
    table = message.edits[-1]
    assert "💤 Ana is away" in table.text and f"tb:back:{sid}" in table.custom_ids
    assert manager.get(sid).seat_of("1").away
    # While Ana is away, the bot played her turn after Ben's move.
    actions = await manager.store.actions(sid)
    assert [a.user_id for a in actions] == ["1", "2", "1", "2", "1"]
    assert_refused(await press(clocked, BEN, message, f"tb:back:{sid}"), errors.NOT_AWAY)
    back = await press(clocked, ANA, message, f"tb:back:{sid}")
    assert back.kind == "edit_message" and f"tb:back:{sid}" not in back.custom_ids
    assert "away" not in back.text
    assert not manager.get(sid).seat_of("1").away


async def test_bot_turns_redraw_the_table_once_each(clocked: ClockedTable) -> None:
    sid, message = await open_lobby(clocked)
    await press(clocked, ANA, message, f"tb:lobby:bot-easy:{sid}")
    await press(clocked, ANA, message, f"tb:lobby:bot-normal:{sid}")
    await press(clocked, ANA, message, f"tb:lobby:start:{sid}")
    edits = len(message.edits)
    session = clocked.manager.get(sid)
    await clocked.manager.act(sid, "1", session.version, Add(add=2))
    await clocked.autoplay.idle()
    # Ana's move (the publisher), then once per bot turn.
    assert len(message.edits) == edits + 3
    total = clocked.manager.get(sid).state.total
    assert f"Total: {total}" in message.edits[-1].text

