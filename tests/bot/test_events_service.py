"""The events service over a real store and session manager (COUNT tables): a 6-player Swiss
of 3 rounds at tables of 3 runs itself to the end, the standings match an independent
computation, and a restart mid-round (a new manager and service over the same database)
loses nothing."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import timedelta
from fractions import Fraction
from pathlib import Path

import pytest

from bot.automation.turn_clock import TurnClock
from bot.events.service import EventRefusal, EventRefused, EventService, Standing
from bot.records.events import Event, EventFormat, EventSettings, EventStatus, EventTable
from bot.records.session import Session
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from tests.bot.conftest import FakeClock, make_manager
from tests.testgame import Add

GUILD = 1


class Host:
    """What Discord would do: threads are numbered, every post is recorded."""

    def __init__(self, manager: SessionManager) -> None:
        self.manager = manager
        self.channels = itertools.count(1000)
        self.said: list[tuple[str, object]] = []

    async def table_channel(self, event: Event, table: EventTable) -> int:
        return next(self.channels)

    async def post_table(self, session: Session) -> None:
        await self.manager.set_table_message(session.id, session.channel_id + 1)

    async def event_changed(self, event: Event) -> None:
        self.said.append(("changed", event.round))

    async def round_started(self, event: Event, tables: Sequence[EventTable]) -> None:
        self.said.append(("round", event.round))

    async def round_ended(self, event: Event, lines: Sequence[Standing]) -> None:
        self.said.append(("standings", event.round))

    async def event_ended(self, event: Event, lines: Sequence[Standing]) -> None:
        self.said.append(("ended", [s.line.player for s in lines]))


def wire(store: Store, clock: FakeClock) -> tuple[SessionManager, EventService, Host]:
    manager = make_manager(store, clock)
    service = EventService(store, manager, clock=clock)
    host = Host(manager)
    service.host = host
    manager.subscribe(service.on_change)
    return manager, service, host


async def play_table(manager: SessionManager, session_id: int) -> None:
    """Every awaited player adds 2 until the game ends."""
    while True:
        session = manager.get(session_id)
        if session is None or not session.is_live:
            return
        player = manager.awaiting(session)[0]
        seat = session.seat_of(player)
        await manager.act(session_id, player, session.version, Add(add=2),
                          autopilot=seat is not None and seat.autopiloted)


def live_tables(manager: SessionManager) -> list[int]:
    return sorted(s.id for s in manager.live_sessions() if s.is_live)


def expected_points(tables: Sequence[EventTable]) -> dict[str, Fraction]:
    """Independent of bot.events.swiss: at a table of n, (n - place) / (n - 1) for distinct
    places (COUNT has one winner; the others share the second place)."""
    points: dict[str, Fraction] = {}
    for table in tables:
        assert table.outcome is not None
        n = len(table.outcome)
        for player, place in table.outcome.items():
            below = sum(1 for other in table.outcome.values() if other > place)
            tied = sum(1 for other in table.outcome.values() if other == place) - 1
            points[player] = points.get(player, Fraction(0)) + Fraction(2 * below + tied,
                                                                        2 * (n - 1))
    return points


async def test_a_swiss_runs_itself_and_survives_a_restart(tmp_path: Path,
                                                         clock: FakeClock) -> None:
    path = tmp_path / "events.sqlite3"
    store = await open_store(path)
    manager, service, host = wire(store, clock)
    event = await service.create(
        guild_id=GUILD, channel_id=5, game="count", name="Friday", created_by="1",
        starts_at=clock() + timedelta(minutes=10),
        settings=EventSettings(rounds=3, per_table=3, turn_minutes=5))
    for n in range(1, 7):
        await service.join(event.id, GUILD, str(n), f"P{n}")
    with pytest.raises(EventRefused) as refused:
        await service.join(event.id, GUILD, "1", "P1")
    assert refused.value.reason is EventRefusal.JOINED_ALREADY
    with pytest.raises(EventRefused) as refused:
        await service.join(event.id, GUILD + 1, "9", "P9")
    assert refused.value.reason is EventRefusal.OTHER_SERVER
    await service.tick()
    assert live_tables(manager) == []  # not its time yet
    clock.advance(minutes=10)
    await service.tick()
    await manager.settle()
    assert len(live_tables(manager)) == 2
    with pytest.raises(EventRefused) as refused:
        await service.join(event.id, GUILD, "7", "P7")
    assert refused.value.reason is EventRefusal.STARTED

    # round 1: one table ends, then the process "restarts"
    first, second = live_tables(manager)
    await play_table(manager, first)
    await manager.settle()
    await manager.drain()
    await store.close()
    store = await open_store(path)
    manager, service, host = wire(store, clock)
    await manager.restore()
    await service.tick()
    assert live_tables(manager) == [second]
    for _ in range(3 * 2):
        running = live_tables(manager)
        if not running:
            break
        for session_id in running:
            await play_table(manager, session_id)
        await manager.settle()
    final = await store.load_event(event.id)
    assert final is not None and final.status is EventStatus.FINISHED and final.round == 3
    tables = await store.event_tables(event.id)
    assert len(tables) == 6 and all(t.done and len(t.players) == 3 for t in tables)
    lines = await service.standing(final)
    points = expected_points(tables)
    assert {s.line.player: s.line.points for s in lines} == points
    assert [s.line.points for s in lines] == sorted(points.values(), reverse=True)
    assert ("ended", [s.line.player for s in lines]) in host.said
    # /history and /stats read the finished event
    [summary] = await service.channel_events(GUILD, 5, 10)
    assert (summary.players, summary.winner) == (6, lines[0].line.player)
    assert await service.channel_events(GUILD, 6, 10) == []
    record = await service.player_record(GUILD, lines[0].line.player)
    assert (record.played, record.won, record.best) == (1, 1, 1)
    last = await service.player_record(GUILD, lines[-1].line.player)
    assert (last.played, last.won, last.best) == (1, 0, 6)
    # every result counts as an ordinary game's
    for table in tables:
        assert table.session_id is not None
        assert len(await store.query("SELECT 1 FROM results WHERE session_id = ?",
                                     (table.session_id,))) == 3
    await manager.drain()
    await store.close()


def lichess_points(games: Sequence[dict[str, int]]) -> dict[str, int]:
    """Independent of bot.events.arena: 2 a win, 1 a shared first, doubled after two wins."""
    points: dict[str, int] = {}
    run: dict[str, int] = {}
    for places in games:
        best = min(places.values())
        firsts = sum(1 for place in places.values() if place == best)
        for player, place in places.items():
            base = 0 if place != best else (2 if firsts == 1 else 1)
            points[player] = points.get(player, 0) + base * (2 if run.get(player, 0) >= 2 else 1)
            run[player] = run.get(player, 0) + 1 if base == 2 else 0
    return points


async def test_an_arena_reseats_finished_players_until_its_end(store: Store,
                                                                clock: FakeClock) -> None:
    manager, service, _ = wire(store, clock)
    event = await service.create(
        guild_id=GUILD, channel_id=5, game="count", name="Arena", created_by="1",
        starts_at=clock(), format=EventFormat.ARENA,
        settings=EventSettings(rounds=0, per_table=2, turn_minutes=5, minutes=20))
    for n in range(1, 6):
        await service.join(event.id, GUILD, str(n), f"P{n}")
    await service.tick()
    await manager.settle()
    assert len(live_tables(manager)) == 2  # five players at tables of two: one waits
    games_played = 0
    while games_played < 8:
        first = live_tables(manager)[0]
        await play_table(manager, first)
        await manager.settle()
        games_played += 1
        clock.advance(minutes=2)
        # the finished pair sits down again at once, with the waiting player where one waits
        assert len(live_tables(manager)) == 2
    clock.advance(minutes=5)
    await service.tick()
    final = await store.load_event(event.id)
    assert final is not None and final.status is EventStatus.FINISHED
    tables = [t for t in await store.event_tables(event.id) if t.done]
    assert len(tables) == 8
    ordered = sorted(tables, key=lambda t: (t.finished_at, t.round, t.number))
    expected = lichess_points([t.outcome or {} for t in ordered])
    lines = await service.standing(final)
    assert {s.line.player: s.line.points for s in lines if s.line.points} == {
        p: v for p, v in expected.items() if v}
    assert [s.line.points for s in lines] == sorted((s.line.points for s in lines),
                                                    reverse=True)
    await manager.drain()


async def test_withdrawal_a_player_away_and_a_bye(store: Store, clock: FakeClock) -> None:
    """A player withdraws mid-round (a machine plays their seat to the end; they are paired
    no more); another is away (the turn clock plays for them); the odd count gets a bye."""
    manager, service, _ = wire(store, clock)
    turn_clock = TurnClock(manager)
    manager.subscribe(turn_clock.on_change)
    event = await service.create(
        guild_id=GUILD, channel_id=5, game="count", name="Short", created_by="1",
        starts_at=clock(), settings=EventSettings(rounds=2, per_table=2, turn_minutes=1))
    for n in range(1, 5):
        await service.join(event.id, GUILD, str(n), f"P{n}")
    await service.tick()
    await manager.settle()
    first, second = live_tables(manager)
    await service.leave(event.id, GUILD, "1")  # seated at the first table
    await manager.settle()
    left = manager.get(first)
    assert left is not None and left.seat_of("1") is not None and left.seat_of("1").left
    # the second table's awaited player is away: the turn clock moves for them
    table = manager.get(second)
    assert table is not None
    away = manager.awaiting(table)[0]
    clock.advance(minutes=1, seconds=1)
    assert await turn_clock.tick() >= 1
    await turn_clock.idle()
    await manager.settle()
    for session_id in (first, second):
        await play_table(manager, session_id)
    await manager.settle()
    final = await store.load_event(event.id)
    assert final is not None and final.round == 2
    round_two = [t for t in await store.event_tables(event.id) if t.round == 2]
    assert all("1" not in t.players for t in round_two)  # withdrawn: not paired
    byes = [t for t in round_two if t.is_bye]
    assert len(byes) == 1 and byes[0].outcome == {byes[0].players[0]: 1}
    for session_id in live_tables(manager):
        await play_table(manager, session_id)
    await manager.settle()
    final = await store.load_event(event.id)
    assert final is not None and final.status is EventStatus.FINISHED
    lines = {s.line.player: s for s in await service.standing(final)}
    assert lines["1"].withdrawn and lines["1"].line.played == 1
    assert lines[byes[0].players[0]].line.byes == 1
    actions = await store.actions(second)
    assert any(a.user_id == away for a in actions)
    await manager.drain()


async def test_cancel_ends_the_running_tables(store: Store, clock: FakeClock) -> None:
    manager, service, host = wire(store, clock)
    event = await service.create(
        guild_id=GUILD, channel_id=5, game="count", name="Gone", created_by="1",
        starts_at=clock(), settings=EventSettings(rounds=3, per_table=2, turn_minutes=5))
    for n in (1, 2):
        await service.join(event.id, GUILD, str(n), f"P{n}")
    await service.tick()
    await manager.settle()
    [table] = live_tables(manager)
    with pytest.raises(EventRefused) as refused:
        await service.cancel(event.id, GUILD + 1)
    assert refused.value.reason is EventRefusal.OTHER_SERVER
    await service.cancel(event.id, GUILD)
    await manager.settle()
    assert live_tables(manager) == []
    session = await store.load_session(table)
    assert session is not None and session.status.value == "abandoned"
    cancelled = await store.load_event(event.id)
    assert cancelled is not None and cancelled.status is EventStatus.CANCELLED
    assert ("ended", []) in host.said
    with pytest.raises(EventRefused) as refused:
        await service.join(event.id, GUILD, "3", "P3")
    assert refused.value.reason is EventRefusal.OVER
    await manager.drain()
