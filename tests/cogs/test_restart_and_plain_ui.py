from __future__ import annotations

from pathlib import Path

from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from cogs.commands.game_commands import GameCog
from cogs.listeners.table_publisher import TablePublisher
from cogs.listeners.turn_ping import TurnPing
from cogs.plain_ui import PlainUI
from tests.cogs.conftest import ANA, BEN, Table
from tests.cogs.test_lobby import press
from tests.fakes import FakeClient, FakeInteraction, click, invoke
from tests.testgame import CountEngine


async def test_buttons_keep_working_after_restart(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    store = await open_store(path)
    table = Table(SessionManager(store, {"count": CountEngine()}, seed_source=lambda: 7))
    ia = table.interaction(ANA)
    await invoke(GameCog.new, table.cog, ia, game="count")
    message = ia.last.message
    sid = table.manager.in_channel(100).id
    await store.close()

    store = await open_store(path)
    try:
        manager = SessionManager(store, {"count": CountEngine()})
        await manager.restore()
        table = Table(manager)
        joined = await press(table, BEN, message, f"tb:lobby:join:{sid}")
        assert "Ben" in joined.text
        started = await press(table, ANA, message, f"tb:lobby:start:{sid}")
        assert "Total: 0" in started.text
    finally:
        await store.close()


async def test_plain_ui_plays_through_a_select(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "plain.sqlite3")
    try:
        engine = CountEngine()
        manager = SessionManager(store, {"count": engine}, seed_source=lambda: 7)
        client = FakeClient(manager, {"count": PlainUI(engine)})
        lobby = await manager.open_lobby(1, 100, "count", _seat(ANA))
        await manager.join(lobby.id, _seat(BEN))
        session = await manager.start(lobby.id, str(ANA.id))
        secrets = [str(v) for v in session.state.secrets.values()]

        ia = FakeInteraction(client, user=ANA, channel=client.channel(100))
        await invoke(GameCog.hand, client.cog, ia)
        mine = ia.last
        assert mine.ephemeral and str(session.state.secrets[str(ANA.id)]) in mine.text
        [select_id] = mine.custom_ids
        assert select_id == f"tb:sel:{session.id}:{session.version}:move"

        status = FakeInteraction(client, user=BEN, channel=client.channel(100))
        await invoke(GameCog.status, client.cog, status)
        assert not any(secret in status.last.text for secret in secrets)

        play = FakeInteraction(client, user=ANA, channel=client.channel(100), message=mine.message)
        await click(play, select_id, values=['{"add":2}'])
        assert manager.get(session.id).state.total == 2
    finally:
        await store.close()


def _seat(user: object):
    from cogs.client_services import seat_for

    return seat_for(user)  # type: ignore[arg-type]


async def _running_table(path: Path) -> tuple[Store, SessionManager]:
    """A store with one running count game in channel 100 (table message 555), still open."""
    store = await open_store(path)
    manager = SessionManager(store, {"count": CountEngine()}, seed_source=lambda: 7)
    running = await manager.open_lobby(1, 100, "count", _seat(ANA))
    await manager.join(running.id, _seat(BEN))
    await manager.start(running.id, str(ANA.id))
    await manager.set_table_message(running.id, 555)
    return store, manager


async def _restarted(path: Path) -> tuple[Store, SessionManager]:
    """The store at ``path`` opened again, with its sessions restored (a new process)."""
    store = await open_store(path)
    manager = SessionManager(store, {"count": CountEngine()})
    await manager.restore()
    return store, manager


async def test_restart_redraws_running_tables_once(tmp_path: Path) -> None:
    """A crash can lose the table edit queued behind a stored move: on start the publisher
    redraws every running table once (lobbies are left alone)."""
    path = tmp_path / "catch-up.sqlite3"
    store, manager = await _running_table(path)
    lobby = await manager.open_lobby(1, 200, "count", _seat(BEN))
    await manager.set_table_message(lobby.id, 666)
    await store.close()

    store, manager = await _restarted(path)
    try:
        table = Table(manager)
        publisher = TablePublisher(table.client, table.client.services)
        assert await publisher.catch_up(manager.live_sessions(), pause=0) == 1
        [edit] = table.client.channel(100).get_partial_message(555).edits
        assert "Total: 0" in edit.text
        assert table.client.channel(200).get_partial_message(666).edits == []
        assert table.client.channel(100).sent == []  # a plain redraw pings nobody
    finally:
        await store.close()


async def test_restart_after_an_unexpected_stop_pings_the_awaited_player_again(
    tmp_path: Path,
) -> None:
    """The ping of the last stored move may have died with the process: the catch-up of a
    restart after an unexpected stop pings the humans the table waits for (and only them)."""
    path = tmp_path / "ping-again.sqlite3"
    store, _ = await _running_table(path)
    await store.close()

    store, manager = await _restarted(path)
    try:
        table = Table(manager)
        publisher = TablePublisher(table.client, table.client.services)
        turn_ping = TurnPing(table.client, table.client.services)
        [session] = manager.live_sessions()
        awaited = manager.engine("count").awaiting(session.state)
        assert await publisher.catch_up([session], pause=0, then=turn_ping.ping_again) == 1
        [ping] = table.client.channel(100).sent
        assert ping.content is not None and "back after an unexpected stop" in ping.content
        assert ping.allowed_mentions is not None
        pinged = [str(user.id) for user in ping.allowed_mentions.users]  # type: ignore[union-attr]
        assert pinged == awaited and all(f"<@{p}>" in ping.content for p in awaited)
        assert ping.allowed_mentions.everyone is False and ping.allowed_mentions.roles is False
    finally:
        await store.close()
