"""The channel flow (issue 15) with the COUNT game: the one live turn ping and its controls,
the table moved to the bottom, the final post and Rematch, and the refusals of bad clicks."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import discord
import pytest

from bot.records import errors
from bot.records.session import Session, Status
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from cogs.clicks.table_clicks import WRONG_TABLE
from cogs.commands.game_commands import GameCog
from cogs.game_ui import PINGS_CONTROLS
from cogs.i18n.words import Words
from cogs.kit.custom_ids import ActButton, HandButton, Item
from cogs.listeners.final_post import FinalPost
from cogs.listeners.table_publisher import TablePublisher
from cogs.listeners.table_watch import BURIED_AFTER, TableWatch
from cogs.listeners.turn_ping import TurnPing
from game.base import PlayerId
from tests.cogs.conftest import ANA, BEN, CY, DEE
from tests.fakes import (
    FakeChannel,
    FakeClient,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    Sent,
    invoke,
)
from tests.fakes import click as fake_click
from tests.testgame import Add, CountEngine, CountUI

CHANNEL = 100
OTHER_CHANNEL = 200


class PingingCountUI(CountUI):
    """COUNT whose ping carries the moves (``cogs.game_ui.PingsControls``)."""

    capabilities = CountUI.capabilities | {PINGS_CONTROLS}

    def ping_controls(self, session: Session, players: Sequence[PlayerId],
                      words: Words) -> list[Item]:
        return [ActButton(session.id, session.version, "add1", label="+1"),
                HandButton(session.id)]


class Flow:
    def __init__(self, manager: SessionManager, *, pinging: bool = False) -> None:
        engine = CountEngine()
        self.manager = manager
        ui = PingingCountUI(engine) if pinging else CountUI(engine)
        self.client = FakeClient(manager, {"count": ui})
        self.channel: FakeChannel = self.client.channel(CHANNEL)
        self.watch = TableWatch(manager)
        self.publisher = TablePublisher(self.client, self.client.services, watch=self.watch)  # type: ignore[arg-type]
        self.turn_ping = TurnPing(self.client, self.client.services)  # type: ignore[arg-type]
        self.publisher.on_moved = self.turn_ping.relink
        self.client.cog.services.publisher = self.publisher
        manager.subscribe(self.publisher.on_change)
        manager.subscribe(self.turn_ping.on_change)
        manager.subscribe(FinalPost(self.client, self.client.services).on_change)

    def interaction(self, user: FakeUser, message: FakeMessage | None = None, *,
                    channel: int = CHANNEL) -> FakeInteraction:
        return FakeInteraction(self.client, user=user, channel=self.client.channel(channel),
                               message=message)  # type: ignore[arg-type]

    async def press(self, user: FakeUser, message: FakeMessage | None, custom_id: str, *,
                    channel: int = CHANNEL) -> Sent:
        ia = self.interaction(user, message, channel=channel)
        await fake_click(ia, custom_id)
        assert len(ia.sent) == 1
        return ia.last

    async def new(self, user: FakeUser = ANA, *, channel: int = CHANNEL) -> Session:
        ia = self.interaction(user, channel=channel)
        await invoke(GameCog.new, self.client.cog, ia, game="count")
        session = self.manager.in_channel(channel)
        assert session is not None
        return session

    async def started(self, *players: FakeUser) -> Session:
        session = await self.new(players[0])
        table = self.table_message(session)
        for user in players[1:]:
            await self.press(user, table, f"tb:lobby:join:{session.id}")
        await self.press(players[0], table, f"tb:lobby:start:{session.id}")
        return self.session()

    def session(self) -> Session:
        session = self.manager.in_channel(CHANNEL)
        assert session is not None
        return session

    def table_message(self, session: Session) -> FakeMessage:
        assert session.table_message_id is not None
        return self.channel.get_partial_message(session.table_message_id)

    def pings(self) -> list[Sent]:
        return [s for s in self.channel.live() if "your turn in" in (s.content or "")]

    def user_to_move(self) -> FakeUser:
        to_move = self.session().state.players[self.session().state.turn]
        return next(u for u in (ANA, BEN, CY) if str(u.id) == to_move)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(tmp_path / "flow.sqlite3")
    yield opened
    await opened.close()


@pytest.fixture
async def flow(store: Store) -> Flow:
    return Flow(SessionManager(store, {"count": CountEngine()}, seed_source=lambda: 7))


@pytest.fixture
async def pinging(store: Store) -> Flow:
    manager = SessionManager(store, {"count": CountEngine()}, seed_source=lambda: 7)
    return Flow(manager, pinging=True)


async def play_one(flow: Flow) -> None:
    """The player to move adds 2 from their private view."""
    user = flow.user_to_move()
    session = flow.session()
    ia = flow.interaction(user)
    await invoke(GameCog.hand, flow.client.cog, ia)
    await flow.press(user, ia.last.message, f"tb:act:{session.id}:{session.version}:add2")


async def test_one_live_ping_follows_the_turn_and_goes_with_the_game(flow: Flow) -> None:
    session = await flow.started(ANA, BEN, CY)
    sid = session.id
    while session.status is Status.ACTIVE:
        [ping] = flow.pings()
        awaited = session.state.players[session.state.turn]
        assert ping.content.startswith(f"<@{awaited}> — your turn in COUNT. The table: ")
        assert str(session.table_message_id) in ping.content
        assert ping.custom_ids == [f"tb:hand:{sid}"]  # no hook: My hand only
        mentions = discord.AllowedMentions.none().merge(ping.allowed_mentions).to_dict()
        assert mentions == {"parse": [], "users": [int(awaited)]}
        assert flow.manager.get(sid).ping_message_id == ping.message.id
        await play_one(flow)
        live = flow.manager.get(sid)
        if live is None:
            break
        session = live
    assert flow.pings() == []  # the last ping went with the game
    every_ping = [s for s in flow.channel.sent if "your turn in" in (s.content or "")]
    assert sorted(flow.channel.deleted) == sorted(p.message.id for p in every_ping)
    final = flow.channel.sent[-1]
    assert final.custom_ids == [f"tb:rematch:{sid}", f"tb:rv:{sid}:0:o"]
    assert "COUNT: final standings" in final.text
    assert "1. Ana" in final.text or "1. Ben" in final.text or "1. Cy" in final.text
    # Nothing is kept for a finished game.
    assert len(flow.turn_ping) == 0 and len(flow.watch) == 0


async def test_a_ping_my_hand_opens_the_private_view(flow: Flow) -> None:
    session = await flow.started(ANA, BEN)
    [ping] = flow.pings()
    user = flow.user_to_move()
    shown = await flow.press(user, ping.message, f"tb:hand:{session.id}")
    assert shown.ephemeral and "Secret:" in shown.text


async def test_moves_on_the_ping_and_its_bad_clicks(pinging: Flow) -> None:
    flow = pinging
    session = await flow.started(ANA, BEN)
    sid, version = session.id, session.version
    [ping] = flow.pings()
    assert ping.custom_ids == [f"tb:act:{sid}:{version}:add1", f"tb:hand:{sid}"]
    mover = flow.user_to_move()
    other = BEN if mover is ANA else ANA
    # Not their turn, a stranger, a stale version, another table's control: refused, no change.
    assert (await flow.press(other, ping.message, ping.custom_ids[0])).content == \
        errors.NOT_YOUR_TURN
    assert (await flow.press(DEE, ping.message, ping.custom_ids[0])).content == errors.NOT_SEATED
    stale = await flow.press(mover, ping.message, f"tb:act:{sid}:{version - 1}:add1")
    assert stale.ephemeral and "Secret:" in stale.text  # the current view, with a note
    elsewhere = await flow.new(CY, channel=OTHER_CHANNEL)
    forged = await flow.press(mover, ping.message, f"tb:act:{elsewhere.id}:1:add1")
    assert forged.ephemeral and forged.content == WRONG_TABLE
    foreign = await flow.press(mover, ping.message, f"tb:hand:{elsewhere.id}")
    assert foreign.ephemeral and foreign.content == WRONG_TABLE
    assert flow.session().version == version and flow.session().state.total == 0
    assert flow.pings()[0].message is ping.message
    # The move itself: acknowledged only (the turn passed), the ping replaced by the next.
    moved = await flow.press(mover, ping.message, ping.custom_ids[0])
    assert moved.kind == "defer"
    assert flow.session().state.total == 1 and ping.message.deleted
    [after] = flow.pings()
    assert after.content.startswith(f"<@{other.id}>")


async def test_a_restarted_bot_still_deletes_the_stored_ping(store: Store) -> None:
    first = Flow(SessionManager(store, {"count": CountEngine()}, seed_source=lambda: 7))
    session = await first.started(ANA, BEN)
    [ping] = first.pings()
    stored = await store.load_session(session.id)
    assert stored is not None and stored.ping_message_id == ping.message.id
    again = SessionManager(store, {"count": CountEngine()}, seed_source=lambda: 7)
    await again.restore()
    second = Flow(again)
    await play_one(second)
    assert ping.message.id in second.channel.deleted
    [new_ping] = second.pings()
    assert (await store.load_session(session.id)).ping_message_id == new_ping.message.id


async def test_a_buried_table_moves_to_the_bottom(flow: Flow) -> None:
    session = await flow.started(ANA, BEN)
    old = flow.table_message(session)
    for _ in range(BURIED_AFTER - 1):
        flow.watch.seen(CHANNEL, FakeMessage(flow.channel).id)
    chat = FakeMessage(flow.channel).id
    flow.watch.seen(CHANNEL, chat)
    flow.watch.gone(CHANNEL, [chat])  # a deleted message no longer counts
    assert not flow.watch.buried(flow.session())
    flow.watch.seen(CHANNEL, FakeMessage(flow.channel).id)
    flow.watch.seen(CHANNEL, old.id - 1)  # older than the table: not below it
    assert not flow.watch.buried(flow.session()) and flow.watch.below(CHANNEL) == BURIED_AFTER
    flow.watch.seen(CHANNEL, FakeMessage(flow.channel).id)
    assert flow.watch.buried(flow.session())
    await play_one(flow)
    moved = flow.session()
    assert moved.table_message_id != old.id and old.deleted
    reposted = next(s for s in flow.channel.sent if s.message.id == moved.table_message_id)
    assert reposted.custom_ids == [f"tb:hand:{moved.id}"] and "Total: 2" in reposted.text
    assert not flow.watch.buried(moved) and flow.watch.below(CHANNEL) == 0
    [new_ping] = flow.pings()
    assert str(moved.table_message_id) in new_ping.content
    # The moved table's controls keep working.
    user = flow.user_to_move()
    shown = await flow.press(user, reposted.message, f"tb:hand:{moved.id}")
    assert shown.ephemeral


async def test_game_status_moves_the_table_and_relinks_the_ping(flow: Flow) -> None:
    session = await flow.started(ANA, BEN)
    old = flow.table_message(session)
    ia = flow.interaction(CY)
    await invoke(GameCog.status, flow.client.cog, ia)
    copy = ia.last
    assert not copy.ephemeral and copy.message is not None
    assert flow.session().table_message_id == copy.message.id and old.deleted
    [ping] = flow.pings()
    assert str(copy.message.id) in (ping.message.edits[-1].content or "")


async def finish(flow: Flow, session: Session) -> Session:
    """Play COUNT to its end (the seats by their players, a bot seat by the machine)."""
    manager = flow.manager
    while (live := manager.get(session.id)) is not None:
        player = live.state.players[live.state.turn]
        seat = live.seat_of(player)
        assert seat is not None
        await manager.act(live.id, player, live.version, Add(add=2), autopilot=seat.is_bot)
        await manager.settle()
    stored = await manager.store.load_session(session.id)
    assert stored is not None and stored.status is Status.FINISHED
    return stored


async def test_rematch_same_seats_bots_and_options(flow: Flow) -> None:
    session = await flow.new(ANA)
    table = flow.table_message(session)
    await flow.press(BEN, table, f"tb:lobby:join:{session.id}")
    await flow.press(ANA, table, f"tb:lobby:bot-easy:{session.id}")
    await flow.press(ANA, table, f"tb:lobby:start:{session.id}")
    old = await finish(flow, flow.session())
    final = flow.channel.sent[-1]
    rematch = f"tb:rematch:{old.id}"
    assert final.custom_ids == [rematch, f"tb:rv:{old.id}:0:o"]

    stranger = await flow.press(DEE, final.message, rematch)
    assert stranger.ephemeral and "Only the players" in (stranger.content or "")
    bot_id = next(s.player_id for s in old.seats if s.is_bot)
    assert flow.manager.in_channel(CHANNEL) is None  # nothing was opened

    opened = await flow.press(BEN, final.message, rematch)
    assert not opened.ephemeral and "COUNT — lobby" in opened.text
    lobby = flow.session()
    assert lobby.status is Status.LOBBY and lobby.host_id == str(BEN.id)
    assert lobby.table_message_id == opened.message.id
    assert [(s.display_name, s.is_bot, s.bot_level) for s in lobby.seats] == [
        ("Ben", False, None), (old.seat_of(bot_id).display_name, True, "easy")]
    assert lobby.options == old.options and lobby.turn_minutes == old.turn_minutes

    again = await flow.press(BEN, final.message, rematch)
    assert again.ephemeral and flow.session().version == lobby.version
    joined = await flow.press(ANA, final.message, rematch)
    assert joined.ephemeral and "seat" in (joined.content or "")
    assert {s.player_id for s in flow.session().seats if not s.is_bot} == {str(ANA.id),
                                                                          str(BEN.id)}
    await flow.press(BEN, opened.message, f"tb:lobby:start:{lobby.id}")
    running = flow.session()
    assert running.status is Status.ACTIVE and len(running.seats) == 3
    # While that game runs, Rematch opens nothing.
    busy = await flow.press(ANA, final.message, rematch)
    assert busy.ephemeral and "Another game" in (busy.content or "")
    # A Rematch id of a game that is not over, or of another channel's, is refused.
    live_id = await flow.press(ANA, final.message, f"tb:rematch:{running.id}")
    assert live_id.ephemeral and "no finished game" in (live_id.content or "")
    other = await flow.press(ANA, final.message, rematch, channel=OTHER_CHANNEL)
    assert other.ephemeral and "no finished game" in (other.content or "")
    assert flow.session().version == running.version
