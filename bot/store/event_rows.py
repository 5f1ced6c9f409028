"""The server events' rows (``bot.events``), in SQL both backends run: ``events``,
``event_players`` and ``event_tables`` (migration 14). :class:`EventRows` is mixed into
``bot.store.sql.SqlStore``; the interface is :class:`EventStore`."""

from __future__ import annotations

import contextlib
import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.records.events import (
    LIVE_EVENT_STATUSES,
    Event,
    EventFormat,
    EventPlayer,
    EventSettings,
    EventStatus,
    EventTable,
)
from bot.store.transaction import Tx
from game.base import PlayerId

_EVENT_COLUMNS = ("id, guild_id, channel_id, game, format, name, created_by, starts_at,"
                  " settings, status, round, message_id, created_at, updated_at")
_TABLE_COLUMNS = "event_id, round, number, players, session_id, outcome, finished_at"


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text is not None else None


def _event(row: Sequence[Any]) -> Event:
    return Event(
        id=int(row[0]), guild_id=int(row[1]), channel_id=int(row[2]), game=str(row[3]),
        format=EventFormat(row[4]), name=str(row[5]), created_by=str(row[6]),
        starts_at=datetime.fromisoformat(row[7]),
        settings=EventSettings.from_json(json.loads(row[8])), status=EventStatus(row[9]),
        round=int(row[10]), message_id=int(row[11]) if row[11] is not None else None,
        created_at=datetime.fromisoformat(row[12]), updated_at=datetime.fromisoformat(row[13]),
    )


def _table(row: Sequence[Any]) -> EventTable:
    outcome = json.loads(row[5]) if row[5] is not None else None
    return EventTable(
        event_id=int(row[0]), round=int(row[1]), number=int(row[2]),
        players=tuple(json.loads(row[3])), session_id=int(row[4]) if row[4] is not None else None,
        outcome={str(k): int(v) for k, v in outcome.items()} if outcome is not None else None,
        finished_at=_time(row[6]),
    )


class EventStore(ABC):
    """What the events service asks of the store."""

    @abstractmethod
    async def create_event(self, event: Event) -> Event:
        """Store a new event; returns it with its id."""

    @abstractmethod
    async def save_event(self, event: Event) -> None:
        """Write ``event``'s status, round, message and settings."""

    @abstractmethod
    async def load_event(self, event_id: int) -> Event | None: ...

    @abstractmethod
    async def live_events(self) -> list[Event]:
        """Every open or running event, oldest first."""

    @abstractmethod
    async def guild_events(self, guild_id: int, limit: int) -> list[Event]:
        """A server's events, newest first."""

    @abstractmethod
    async def join_event(self, player: EventPlayer) -> bool:
        """Register ``player`` (or register again one who left before the start); False when
        already registered."""

    @abstractmethod
    async def leave_event(self, event_id: int, user_id: PlayerId) -> bool:
        """Unregister before the start; False when not registered."""

    @abstractmethod
    async def withdraw_from_event(self, event_id: int, user_id: PlayerId) -> bool:
        """Mark a registered player withdrawn (no more rounds); False when not registered or
        withdrawn already."""

    @abstractmethod
    async def event_players(self, event_id: int) -> list[EventPlayer]:
        """The registered players, in registration order."""

    @abstractmethod
    async def add_event_tables(self, tables: Sequence[EventTable]) -> None:
        """Store a round's tables (a table stored already is kept as it is)."""

    @abstractmethod
    async def set_event_table_session(self, event_id: int, round_no: int, number: int,
                                      session_id: int) -> None: ...

    @abstractmethod
    async def finish_event_table(self, event_id: int, round_no: int, number: int,
                                 outcome: dict[PlayerId, int], at: datetime) -> bool:
        """Record a table's placements once; False when it was recorded already."""

    @abstractmethod
    async def event_tables(self, event_id: int) -> list[EventTable]:
        """Every table of the event, by round and number."""

    @abstractmethod
    async def event_of_session(self, session_id: int) -> EventTable | None:
        """The event table played in ``session_id``, if any."""

    @abstractmethod
    async def player_events(self, guild_id: int, user_id: PlayerId) -> list[Event]:
        """The events of a server ``user_id`` registered for, newest first."""


class EventRows(EventStore):
    """:class:`EventStore` in SQL (``?`` placeholders; both backends)."""

    @abstractmethod
    def _transaction(self) -> contextlib.AbstractAsyncContextManager[Tx]: ...

    @abstractmethod
    def _reading(self) -> contextlib.AbstractAsyncContextManager[Tx]: ...

    async def create_event(self, event: Event) -> Event:
        async with self._transaction() as tx:
            rows = await tx.fetch(
                "INSERT INTO events (guild_id, channel_id, game, format, name, created_by,"
                " starts_at, settings, status, round, message_id, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (event.guild_id, event.channel_id, event.game, event.format.value, event.name,
                 event.created_by, event.starts_at.isoformat(),
                 json.dumps(event.settings.to_json()), event.status.value, event.round,
                 event.message_id, event.created_at.isoformat(), event.updated_at.isoformat()),
            )
        return Event(**{**event.__dict__, "id": int(rows[0][0])})

    async def save_event(self, event: Event) -> None:
        async with self._transaction() as tx:
            await tx.execute(
                "UPDATE events SET status = ?, round = ?, message_id = ?, settings = ?,"
                " updated_at = ? WHERE id = ?",
                (event.status.value, event.round, event.message_id,
                 json.dumps(event.settings.to_json()), event.updated_at.isoformat(), event.id),
            )

    async def _events(self, where: str, params: Sequence[Any], tail: str = "") -> list[Event]:
        async with self._reading() as tx:
            rows = await tx.fetch(f"SELECT {_EVENT_COLUMNS} FROM events WHERE {where}{tail}",
                                  params)
        return [_event(row) for row in rows]

    async def load_event(self, event_id: int) -> Event | None:
        found = await self._events("id = ?", (event_id,))
        return found[0] if found else None

    async def live_events(self) -> list[Event]:
        return await self._events("status IN (?, ?)",
                                  tuple(status.value for status in LIVE_EVENT_STATUSES),
                                  " ORDER BY id")

    async def guild_events(self, guild_id: int, limit: int) -> list[Event]:
        return await self._events("guild_id = ?", (guild_id,), f" ORDER BY id DESC LIMIT {limit:d}")

    async def player_events(self, guild_id: int, user_id: PlayerId) -> list[Event]:
        return await self._events(
            "guild_id = ? AND id IN (SELECT event_id FROM event_players WHERE user_id = ?)",
            (guild_id, user_id), " ORDER BY id DESC")

    async def join_event(self, player: EventPlayer) -> bool:
        async with self._transaction() as tx:
            return await tx.execute(
                "INSERT INTO event_players (event_id, user_id, display_name, joined_at,"
                " withdrawn) VALUES (?, ?, ?, ?, 0) ON CONFLICT (event_id, user_id) DO NOTHING",
                (player.event_id, player.user_id, player.display_name,
                 player.joined_at.isoformat()),
            ) == 1

    async def leave_event(self, event_id: int, user_id: PlayerId) -> bool:
        async with self._transaction() as tx:
            return await tx.execute(
                "DELETE FROM event_players WHERE event_id = ? AND user_id = ?",
                (event_id, user_id)) == 1

    async def withdraw_from_event(self, event_id: int, user_id: PlayerId) -> bool:
        async with self._transaction() as tx:
            return await tx.execute(
                "UPDATE event_players SET withdrawn = 1 WHERE event_id = ? AND user_id = ?"
                " AND withdrawn = 0", (event_id, user_id)) == 1

    async def event_players(self, event_id: int) -> list[EventPlayer]:
        async with self._reading() as tx:
            rows = await tx.fetch(
                "SELECT event_id, user_id, display_name, joined_at, withdrawn"
                " FROM event_players WHERE event_id = ? ORDER BY joined_at, user_id",
                (event_id,))
        return [EventPlayer(int(row[0]), str(row[1]), str(row[2]),
                            datetime.fromisoformat(row[3]), bool(row[4])) for row in rows]

    async def add_event_tables(self, tables: Sequence[EventTable]) -> None:
        async with self._transaction() as tx:
            await tx.executemany(
                f"INSERT INTO event_tables ({_TABLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (event_id, round, number) DO NOTHING",
                [(table.event_id, table.round, table.number, json.dumps(list(table.players)),
                  table.session_id,
                  json.dumps(table.outcome) if table.outcome is not None else None,
                  table.finished_at.isoformat() if table.finished_at is not None else None)
                 for table in tables],
            )

    async def set_event_table_session(self, event_id: int, round_no: int, number: int,
                                      session_id: int) -> None:
        async with self._transaction() as tx:
            await tx.execute(
                "UPDATE event_tables SET session_id = ? WHERE event_id = ? AND round = ?"
                " AND number = ?", (session_id, event_id, round_no, number))

    async def finish_event_table(self, event_id: int, round_no: int, number: int,
                                 outcome: dict[PlayerId, int], at: datetime) -> bool:
        async with self._transaction() as tx:
            return await tx.execute(
                "UPDATE event_tables SET outcome = ?, finished_at = ? WHERE event_id = ?"
                " AND round = ? AND number = ? AND outcome IS NULL",
                (json.dumps(outcome), at.isoformat(), event_id, round_no, number)) == 1

    async def event_tables(self, event_id: int) -> list[EventTable]:
        async with self._reading() as tx:
            rows = await tx.fetch(
                f"SELECT {_TABLE_COLUMNS} FROM event_tables WHERE event_id = ?"
                " ORDER BY round, number", (event_id,))
        return [_table(row) for row in rows]

    async def event_of_session(self, session_id: int) -> EventTable | None:
        async with self._reading() as tx:
            rows = await tx.fetch(
                f"SELECT {_TABLE_COLUMNS} FROM event_tables WHERE session_id = ?",
                (session_id,))
        return _table(rows[0]) if rows else None
