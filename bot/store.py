"""The SQLite store: sessions, the append-only action log and results, and a meta table.

One aiosqlite connection in WAL mode with foreign keys on. Migrations are numbered and tracked
with ``PRAGMA user_version``. Writes are serialised by one lock so that two sessions'
transactions never interleave on the shared connection.

Applying an action (:meth:`Store.record_action`) writes the action row, the new snapshot and
version and, when the game ends, the results rows and the status in one transaction. A crash
leaves either all of them or none. Actions of several sessions that arrive while the lock is
busy share the next transaction (group commit: one commit, so one WAL sync, for all of them);
each caller returns only once its own action is committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite
from pydantic import BaseModel, TypeAdapter

from bot.errors import ConfigError
from bot.migrations import MIGRATIONS
from bot.models import ActionRow, Deadline, ResultRow, Seat, Session, Status

log = logging.getLogger(__name__)

_SESSION_COLUMNS = (
    "id, guild_id, channel_id, game, status, host_id, options, seats, state, version, "
    "table_message_id, created_at, updated_at, log, turn_minutes, deadlines"
)
# Everything but ``id`` and the columns set once at creation (guild, channel, game, created).
_UPDATED_COLUMNS = (
    "status", "host_id", "options", "seats", "state", "version", "table_message_id",
    "updated_at", "log", "turn_minutes", "deadlines",
)
_UPDATE_SESSION = (
    f"UPDATE sessions SET {', '.join(f'{column} = ?' for column in _UPDATED_COLUMNS)}"
    " WHERE id = ?"
)
_INSERT_ACTION = (
    "INSERT INTO actions (session_id, seq, user_id, action, created_at) VALUES (?, ?, ?, ?, ?)"
)
_INSERT_RESULT = (
    "INSERT INTO results (session_id, guild_id, game, user_id, placement, score, is_bot_seat,"
    " bots_in_game, rated, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_SEATS = TypeAdapter(tuple[Seat, ...])
_DEADLINES = TypeAdapter(tuple[Deadline, ...])


def check_writable(path: Path) -> None:
    """Fail early, with ConfigError, when ``path`` cannot hold a writable SQLite database."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            conn.execute("ROLLBACK")
        finally:
            conn.close()
    except (OSError, sqlite3.Error) as err:
        raise ConfigError(f"DATABASE_PATH {str(path)!r} is not writable: {err}") from None


def _dump_state(state: Any) -> str | None:
    if state is None:
        return None
    if isinstance(state, BaseModel):
        return state.model_dump_json()
    return json.dumps(state)


def _session_values(session: Session) -> dict[str, Any]:
    """The ``sessions`` row of ``session`` (every column but ``id``), as stored."""
    return {
        "guild_id": session.guild_id,
        "channel_id": session.channel_id,
        "game": session.game,
        "status": session.status.value,
        "host_id": session.host_id,
        "options": json.dumps(session.options),
        "seats": _SEATS.dump_json(session.seats).decode(),
        "state": _dump_state(session.state),
        "version": session.version,
        "table_message_id": session.table_message_id,
        "created_at": session.created_at.isoformat(),
        "updated_at": session.updated_at.isoformat(),
        "log": json.dumps(list(session.log)),
        "turn_minutes": session.turn_minutes,
        "deadlines": _DEADLINES.dump_json(session.deadlines).decode(),
    }


def _snapshot_params(session: Session) -> tuple[Any, ...]:
    """The parameters of :data:`_UPDATE_SESSION` for ``session``."""
    values = _session_values(session)
    return (*(values[column] for column in _UPDATED_COLUMNS), session.id)


def _result_params(result: ResultRow) -> tuple[Any, ...]:
    return (
        result.session_id,
        result.guild_id,
        result.game,
        result.user_id,
        result.placement,
        result.score,
        int(result.is_bot_seat),
        int(result.bots_in_game),
        int(result.rated),
        result.finished_at.isoformat(),
    )


@dataclass(frozen=True)
class _ActionWrite:
    """One :meth:`Store.record_action`, its statement parameters ready."""

    session_id: int
    action_row: tuple[Any, ...]
    snapshot: tuple[Any, ...]
    results: tuple[ResultRow, ...]

    @classmethod
    def of(
        cls,
        session: Session,
        user_id: str,
        action: dict[str, Any] | str,
        results: Iterable[ResultRow],
    ) -> _ActionWrite:
        return cls(
            session_id=session.id,
            action_row=(session.id, session.version, user_id, json.dumps(action),
                        session.updated_at.isoformat()),
            snapshot=_snapshot_params(session),
            results=tuple(results),
        )


@dataclass(frozen=True)
class _Queued:
    """An action write waiting for a group commit, and the future its caller awaits."""

    write: _ActionWrite
    done: asyncio.Future[None]

    def succeed(self) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def fail(self, err: Exception) -> None:
        if not self.done.done():
            self.done.set_exception(err)


class Store:
    """Async access to the database. Create with ``await Store.open(path)``."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()  # one transaction at a time on the shared connection
        self._queued: list[_Queued] = []  # action writes waiting for the next group commit
        self._writer: asyncio.Task[None] | None = None  # the group-commit writer, while busy

    @classmethod
    async def open(cls, path: Path | str) -> Store:
        """Open (creating folder and file if needed), switch on WAL and foreign keys, migrate."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        store = cls(conn)
        await store.migrate()
        return store

    async def close(self) -> None:
        """Close the connection once the queued action writes are committed."""
        while self._writer is not None:
            await asyncio.wait([self._writer])
        async with self._lock:
            await self._conn.close()

    async def schema_version(self) -> int:
        async with self._conn.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Apply every migration newer than ``user_version``; returns the resulting version."""
        async with self._lock:
            current = await self.schema_version()
            for number, script in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                # The version bump is part of the migration's own transaction.
                try:
                    await self._conn.executescript(
                        f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
                    )
                except BaseException:
                    if self._conn.in_transaction:
                        await self._conn.execute("ROLLBACK")
                    raise
            return await self.schema_version()

    # --- transactions -------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the write lock around one transaction: committed when the block ends, rolled
        back when it raises."""
        async with self._lock, self._begun() as conn:
            yield conn

    @contextlib.asynccontextmanager
    async def _begun(self) -> AsyncIterator[aiosqlite.Connection]:
        """One transaction; the caller holds the write lock."""
        await self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
            await self._conn.execute("COMMIT")
        except BaseException:
            if self._conn.in_transaction:  # a failed COMMIT may have rolled back already
                await self._conn.execute("ROLLBACK")
            raise

    async def _run_transaction(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        async with self._transaction() as conn:
            for sql, params in steps:
                await conn.execute(sql, params)

    # --- sessions -------------------------------------------------------------------------

    async def create_session(self, session: Session) -> Session:
        """Insert a new session; returns it with its database id."""
        values = _session_values(session)
        async with self._transaction() as conn:
            cursor = await conn.execute(
                f"INSERT INTO sessions ({', '.join(values)})"
                f" VALUES ({', '.join('?' for _ in values)})",
                tuple(values.values()),
            )
            new_id = cursor.lastrowid
        assert new_id is not None
        return replace(session, id=new_id)

    async def save_session(self, session: Session) -> None:
        """Overwrite a session's row with ``session`` (lobby changes, start, cancel, ...)."""
        await self._run_transaction([(_UPDATE_SESSION, _snapshot_params(session))])

    async def record_action(
        self,
        session: Session,
        user_id: str,
        action: dict[str, Any] | str,
        results: Iterable[ResultRow] = (),
    ) -> None:
        """Store one applied action atomically; returns once it is committed.

        ``session`` is the state after the action; its ``version`` is the action's ``seq``.
        ``results`` (when the action ended the game) are written in the same transaction.

        Group commit: actions of other sessions that arrive while a transaction is under way
        are written together in the next one (each action row with its snapshot and results;
        ordered as they arrived). Should that shared transaction fail, each of its writes is
        tried again alone, so a bad write fails only its own caller.
        """
        # Every JSON text is built here, before the write lock: the lock is the bottleneck.
        queued = _Queued(_ActionWrite.of(session, user_id, action, results),
                         asyncio.get_running_loop().create_future())
        self._queued.append(queued)
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_queued(), name="store-group-commit")
        await queued.done

    async def _write_queued(self) -> None:
        """The group-commit writer: runs while action writes are queued, one transaction per
        batch; a batch is everything queued by the time it holds the write lock."""
        batch: list[_Queued] = []
        try:
            while self._queued:
                async with self._lock:
                    # A caller cancelled while waiting is left out: it saw no success.
                    batch = [queued for queued in self._queued if not queued.done.done()]
                    self._queued = []
                    if batch:
                        await self._commit_batch(batch)
                    batch = []
        except BaseException:
            for queued in (*batch, *self._queued):  # the writer itself was cancelled
                queued.done.cancel()
            self._queued = []
            raise
        finally:
            self._writer = None

    async def _commit_batch(self, batch: Sequence[_Queued]) -> None:
        """Commit ``batch`` in one transaction, else each write alone; answer every caller."""
        try:
            async with self._begun():
                await self._write_actions([queued.write for queued in batch])
        except Exception as err:
            if len(batch) == 1:
                batch[0].fail(err)
                return
            log.warning("a group commit of %d actions failed (%s); writing them one by one",
                        len(batch), err)
            for queued in batch:
                try:
                    async with self._begun():
                        await self._write_actions([queued.write])
                except Exception as alone:
                    queued.fail(alone)
                else:
                    queued.succeed()
            return
        for queued in batch:
            queued.succeed()

    async def _write_actions(self, writes: Sequence[_ActionWrite]) -> None:
        """Inside a transaction: the action rows, then the snapshots, then the results."""
        await self._conn.executemany(_INSERT_ACTION, [w.action_row for w in writes])
        await self._write_snapshots(writes)
        for write in writes:
            for result in write.results:  # only the finishing move has any
                await self._insert_result(result)

    async def _insert_result(self, result: ResultRow) -> None:
        await self._conn.execute(_INSERT_RESULT, _result_params(result))

    async def _write_snapshots(self, writes: Sequence[_ActionWrite]) -> None:
        cursor = await self._conn.executemany(_UPDATE_SESSION, [w.snapshot for w in writes])
        if cursor.rowcount != len(writes):
            ids = ", ".join(str(w.session_id) for w in writes)
            raise LookupError(f"not every session of {ids} exists")

    async def load_sessions(
        self, statuses: Iterable[Status], *, raw_state: bool = False
    ) -> list[Session]:
        """Sessions with these statuses, oldest first. ``state`` is the decoded JSON (dict or
        None), or with ``raw_state`` the stored JSON text itself (for the engine's
        ``state_model.model_validate_json``, which skips building the dicts)."""
        wanted = [status.value for status in statuses]
        marks = ", ".join("?" for _ in wanted)
        async with self._conn.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE status IN ({marks}) ORDER BY id",
            wanted,
        ) as cursor:
            rows = await cursor.fetchall()
        return [self._session_from_row(row, raw_state=raw_state) for row in rows]

    async def load_session(self, session_id: int) -> Session | None:
        async with self._conn.execute(
            f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return self._session_from_row(row) if row else None

    @staticmethod
    def _session_from_row(row: Sequence[Any], *, raw_state: bool = False) -> Session:
        state = row[8]
        if state is not None and not raw_state:
            state = json.loads(state)
        return Session(
            id=row[0],
            guild_id=row[1],
            channel_id=row[2],
            game=row[3],
            status=Status(row[4]),
            host_id=row[5],
            options=json.loads(row[6]),
            seats=_SEATS.validate_json(row[7]),
            state=state,
            version=row[9],
            table_message_id=row[10],
            created_at=datetime.fromisoformat(row[11]),
            updated_at=datetime.fromisoformat(row[12]),
            log=tuple(json.loads(row[13])),
            turn_minutes=row[14],
            deadlines=_DEADLINES.validate_json(row[15]),
        )

    # --- log and results --------------------------------------------------------------------

    async def actions(self, session_id: int) -> list[ActionRow]:
        async with self._conn.execute(
            "SELECT session_id, seq, user_id, action, created_at FROM actions"
            " WHERE session_id = ? ORDER BY seq",
            (session_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            ActionRow(r[0], r[1], r[2], json.loads(r[3]), datetime.fromisoformat(r[4]))
            for r in rows
        ]

    async def results(
        self, guild_id: int, game: str, *, since: datetime | None = None
    ) -> list[ResultRow]:
        """Results of one game in one guild, oldest first (uses the leaderboard index)."""
        sql = (
            "SELECT session_id, guild_id, game, user_id, placement, score, is_bot_seat,"
            " bots_in_game, rated, finished_at FROM results WHERE guild_id = ? AND game = ?"
        )
        params: list[Any] = [guild_id, game]
        if since is not None:
            sql += " AND finished_at >= ?"
            params.append(since.isoformat())
        async with self._conn.execute(sql + " ORDER BY finished_at, session_id", params) as cur:
            rows = await cur.fetchall()
        return [
            ResultRow(
                r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), bool(r[7]), bool(r[8]),
                datetime.fromisoformat(r[9]),
            )
            for r in rows
        ]

    async def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run a read-only statement. It waits for the write lock, so it never sees another
        transaction's uncommitted rows on the shared connection."""
        async with self._lock, self._conn.execute(sql, params) as cursor:
            rows = await cursor.fetchall()
        return [tuple(row) for row in rows]

    # --- meta -------------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        async with self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._run_transaction(
            [(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )]
        )
