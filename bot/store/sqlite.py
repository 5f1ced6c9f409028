"""The SQLite backend: one aiosqlite connection in WAL mode with foreign keys on.

Migrations are tracked with ``PRAGMA user_version``. Writes are serialised by one lock so that
two transactions never interleave on the shared connection.

Applying an action (:meth:`SqliteStore.record_action`) writes the snapshot, the action row and,
when the game ends, the results, standings and status in one transaction. A crash leaves
either all of them or none. Actions of several sessions that arrive while the lock is busy
share the next transaction (group commit: one commit, so one WAL sync, for all of them); each
caller returns only once its own action is committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import aiosqlite

from bot.records.errors import StaleWrite
from bot.records.session import ResultRow, Session
from bot.store.migrations import MIGRATIONS
from bot.store.sql import (
    INSERT_ACTION,
    UPDATE_SESSION,
    ActionWrite,
    SqlStore,
    session_update,
    snapshot_params,
)

log = logging.getLogger(__name__)


class _SqliteTx:
    """:class:`bot.store.transaction.Tx` on the shared connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        if not rows:
            return 0
        cursor = await self._conn.executemany(sql, rows)
        return cursor.rowcount

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self._conn.execute(sql, params) as cursor:
            return [tuple(row) for row in await cursor.fetchall()]


@dataclass(frozen=True)
class _Queued:
    """An action write waiting for a group commit, and the future its caller awaits."""

    write: ActionWrite
    done: asyncio.Future[None]

    def succeed(self) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def fail(self, err: Exception) -> None:
        if not self.done.done():
            self.done.set_exception(err)


class SqliteStore(SqlStore):
    """The store on one SQLite file."""

    backend: ClassVar[str] = "sqlite"
    IntegrityError: ClassVar[type[Exception]] = sqlite3.IntegrityError

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._tx = _SqliteTx(conn)
        self._lock = asyncio.Lock()  # one transaction at a time on the shared connection
        self._queued: list[_Queued] = []  # action writes waiting for the next group commit
        self._writer: asyncio.Task[None] | None = None  # the group-commit writer, while busy

    @classmethod
    async def connect(cls, path: Path | str) -> SqliteStore:
        """Open (creating folder and file if needed), switch on WAL and foreign keys, migrate."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        store = cls(conn)
        await store.migrate()
        await store._after_open()
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
                except BaseException:  # rolled back, then re-raised (cancellation too)
                    if self._conn.in_transaction:
                        await self._conn.execute("ROLLBACK")
                    raise
            return await self.schema_version()

    # --- transactions -------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_SqliteTx]:
        async with self._lock, self._begun() as tx:
            yield tx

    @contextlib.asynccontextmanager
    async def _begun(self) -> AsyncIterator[_SqliteTx]:
        """One transaction; the caller holds the write lock."""
        await self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._tx
            await self._conn.execute("COMMIT")
        except BaseException:  # rolled back, then re-raised (cancellation too)
            if self._conn.in_transaction:  # a failed COMMIT may have rolled back already
                await self._conn.execute("ROLLBACK")
            raise

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[_SqliteTx]:
        # Under the write lock: on the shared connection a read between two statements of a
        # write transaction would see its uncommitted rows.
        async with self._lock:
            yield self._tx

    async def _run_transaction(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        async with self._transaction() as tx:
            for sql, params in steps:
                await tx.execute(sql, params)

    async def save_session(
        self, session: Session, *, expected_version: int | None = None
    ) -> None:
        """:meth:`SqlStore.save_session` in one call on the connection's thread: the same
        transaction (BEGIN IMMEDIATE, the conditional update, COMMIT, or ROLLBACK when it
        changed no row) without a round trip to that thread, and a wake-up of the event loop,
        per statement (issue 42: a turn ping's and a table's message ids are saved so, about
        once per action). Its parameters are made before the write lock."""
        sql, expected = session_update(session, expected_version)
        params = snapshot_params(session, *expected)
        async with self._lock:
            # aiosqlite has no public call that runs a function on its thread: its own _execute.
            changed = await self._conn._execute(_update_one, self._conn, sql, params)
        if changed != 1:
            raise StaleWrite(session.id, expected if len(expected) > 1 else expected[0])

    # --- the action path: group commit ------------------------------------------------------

    async def record_action(
        self,
        session: Session,
        user_id: str,
        action: dict[str, object] | str,
        results: Iterable[ResultRow] = (),
    ) -> None:
        """Group commit: actions of other sessions that arrive while a transaction is under
        way are written together in the next one (each snapshot with its action row and
        results; ordered as they arrived). Should that shared transaction fail, each of its
        writes is tried again alone, so a bad (or stale) write fails only its own caller."""
        # Every JSON text is built here, before the write lock: the lock is the bottleneck.
        queued = _Queued(ActionWrite.of(session, user_id, action, results),
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
        except BaseException:  # the writer stopped (cancelled or failed): no write waits forever
            for queued in (*batch, *self._queued):  # the writer itself was cancelled
                queued.done.cancel()
            self._queued = []
            raise
        finally:
            self._writer = None

    async def _commit_batch(self, batch: Sequence[_Queued]) -> None:
        """Commit ``batch`` in one transaction, else each write alone; answer every caller."""
        try:
            await self._write_batch([queued.write for queued in batch])
        except Exception as err:  # the batch failed: each write is retried alone below
            if len(batch) == 1:
                batch[0].fail(err)
                return
            log.warning("a group commit of %d actions failed (%s); writing them one by one",
                        len(batch), err)
            for queued in batch:
                try:
                    await self._write_batch([queued.write])
                except Exception as alone:  # this write's own failure goes to its caller
                    queued.fail(alone)
                else:
                    queued.succeed()
            return
        for queued in batch:
            queued.succeed()

    async def _write_batch(self, writes: Sequence[ActionWrite]) -> None:
        """:meth:`SqlStore._write_actions` in one transaction. Without a finishing move (the
        usual batch) the whole transaction runs in one call on the connection's thread
        (``_plain_batch``: the same statements in the same order) instead of one round trip
        to that thread, and one wake-up of the event loop, per statement (issue 42)."""
        if any(write.results for write in writes):
            async with self._begun() as tx:
                await self._write_actions(tx, writes)
            return
        snapshots = [write.snapshot for write in writes]
        action_rows = [write.action_row for write in writes]
        # aiosqlite has no public call that runs a function on its thread: its own _execute.
        await self._conn._execute(_plain_batch, self._conn, snapshots, action_rows)


def _update_one(conn: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> int:
    """On the connection's thread: one conditional update in its own transaction, committed
    when it changed a row, else rolled back; the rows it changed."""
    db: sqlite3.Connection = conn._conn  # the sqlite3 connection, on its own thread
    db.execute("BEGIN IMMEDIATE")
    try:
        changed = db.execute(sql, params).rowcount
        db.execute("COMMIT" if changed == 1 else "ROLLBACK")
    except BaseException:  # rolled back, then re-raised
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return int(changed)


def _plain_batch(conn: aiosqlite.Connection, snapshots: Sequence[Sequence[Any]],
                 action_rows: Sequence[Sequence[Any]]) -> None:
    """On the connection's thread: the conditional snapshot updates, then the action rows,
    in one transaction (rolled back if any snapshot is stale or a statement fails)."""
    db: sqlite3.Connection = conn._conn  # the sqlite3 connection, on its own thread
    db.execute("BEGIN IMMEDIATE")
    try:
        if db.executemany(UPDATE_SESSION, snapshots).rowcount != len(snapshots):
            # In a group commit the writer then tries each write alone, which names the one.
            raise StaleWrite(int(snapshots[0][-2]), int(snapshots[0][-1]))
        db.executemany(INSERT_ACTION, action_rows)
        db.execute("COMMIT")
    except BaseException:  # rolled back, then re-raised
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
