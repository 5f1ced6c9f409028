"""The server events' rows (migration 14) on both backends: an event, its players (joined
once, left, withdrawn), its tables (stored once, finished once) and the lookups."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.records.events import (
    Event,
    EventFormat,
    EventPlayer,
    EventSettings,
    EventStatus,
    EventTable,
)
from bot.records.session import Seat, Session, Status
from bot.store.sql import SqlStore

NOW = datetime(2026, 12, 4, 18, 0, tzinfo=UTC)


def draft(guild_id: int = 1) -> Event:
    return Event(id=0, guild_id=guild_id, channel_id=10, game="split", format=EventFormat.SWISS,
                 name="Friday Swiss", created_by="7", starts_at=NOW + timedelta(hours=1),
                 settings=EventSettings(rounds=3, per_table=3, turn_minutes=5, bots=True),
                 created_at=NOW, updated_at=NOW)


async def test_event_round_trip(store: SqlStore) -> None:
    event = await store.create_event(draft())
    assert event.id > 0
    assert await store.load_event(event.id) == event
    assert await store.live_events() == [event]
    running = replace(event, status=EventStatus.RUNNING, round=1, message_id=99,
                      settings=replace(event.settings, scheduled_event_id=5),
                      updated_at=NOW + timedelta(minutes=1))
    await store.save_event(running)
    assert await store.load_event(event.id) == running
    other = await store.create_event(draft(guild_id=2))
    assert [e.id for e in await store.guild_events(1, 10)] == [event.id]
    await store.save_event(replace(running, status=EventStatus.FINISHED))
    assert [e.id for e in await store.live_events()] == [other.id]


async def test_players_join_once_leave_and_withdraw(store: SqlStore) -> None:
    event = await store.create_event(draft())
    alice = EventPlayer(event.id, "1", "Alice", NOW)
    assert await store.join_event(alice)
    assert not await store.join_event(alice)
    assert await store.join_event(EventPlayer(event.id, "2", "Ben", NOW + timedelta(seconds=1)))
    assert [p.user_id for p in await store.event_players(event.id)] == ["1", "2"]
    assert await store.leave_event(event.id, "2")
    assert not await store.leave_event(event.id, "2")
    assert await store.withdraw_from_event(event.id, "1")
    assert not await store.withdraw_from_event(event.id, "1")
    assert (await store.event_players(event.id))[0].withdrawn
    assert [e.id for e in await store.player_events(1, "1")] == [event.id]
    assert await store.player_events(1, "2") == []


async def test_tables_are_stored_and_finished_once(store: SqlStore) -> None:
    event = await store.create_event(draft())
    session = await store.create_session(Session(
        id=0, guild_id=1, channel_id=11, game="split", status=Status.LOBBY, host_id="1",
        seats=(Seat(player_id="1", display_name="Alice"),), created_at=NOW, updated_at=NOW))
    tables = [EventTable(event.id, 1, 1, ("1", "2", "3")),
              EventTable(event.id, 1, 2, ("4",), outcome={"4": 1}, finished_at=NOW)]
    await store.add_event_tables(tables)
    await store.add_event_tables(tables)  # kept as they are
    await store.set_event_table_session(event.id, 1, 1, session.id)
    found = await store.event_of_session(session.id)
    assert found == replace(tables[0], session_id=session.id)
    assert await store.finish_event_table(event.id, 1, 1, {"1": 1, "2": 2, "3": 2}, NOW)
    assert not await store.finish_event_table(event.id, 1, 1, {"1": 3}, NOW)
    stored = await store.event_tables(event.id)
    assert [t.outcome for t in stored] == [{"1": 1, "2": 2, "3": 2}, {"4": 1}]
    assert stored[1].is_bye and not stored[0].is_bye
