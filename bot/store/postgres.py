"""The PostgreSQL backend: an asyncpg pool; each write is its own transaction.

Several processes may share the database. What keeps them correct is in the statements
themselves: a session write is conditional on the version it replaces (``bot.store.sql``),
and the standings of one guild's game are moved on under a transaction-scoped advisory lock,
so two games finishing at once in two processes are rated one after the other. Migrations run
under an advisory lock too, so processes starting together migrate once.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any, ClassVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.records.errors import StaleWrite
from bot.records.session import ResultRow, Session
from bot.store.lease import Fence
from bot.store.migrations import POSTGRES_MIGRATIONS
from bot.store.sql import UPDATE_SESSION, ActionWrite, SqlStore
from bot.store.transaction import numbered

# Advisory lock keys (one bigint space per database): migrations, and the standings locks
# (a hash of guild and game; a rebuild of everything takes a table lock instead).
_MIGRATION_LOCK = 0x7461626C65626F74  # "tablebot"
POOL_SIZE = 10
# A move that does not end the game: the conditional snapshot update and the action row as one
# statement, so one round trip and its own transaction (a statement is atomic). No row
# updated (a stale version) inserts no action row either.
_ACTION_ALONE = (
    f"WITH updated AS ({UPDATE_SESSION} RETURNING id)"
    " INSERT INTO actions (session_id, seq, user_id, action, created_at)"
    " SELECT id, ?::bigint, ?::text, ?::text, ?::text FROM updated"
)
# The same with the lease's fence checked in the update (see ``bot.store.lease``).
_ACTION_ALONE_FENCED = (
    f"WITH updated AS ({UPDATE_SESSION} AND {Fence.CONDITION} RETURNING id)"
    " INSERT INTO actions (session_id, seq, user_id, action, created_at)"
    " SELECT id, ?::bigint, ?::text, ?::text, ?::text FROM updated"
)


def _changed(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresTx:
    """:class:`bot.store.transaction.Tx` on one pooled connection."""

    def __init__(self, conn: PoolConnectionProxy[Any]) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _changed(await self.conn.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        statement = numbered(sql)
        changed = 0
        for row in rows:  # one at a time: each one's count matters (a stale snapshot)
            changed += _changed(await self.conn.execute(statement, *row))
        return changed

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self.conn.fetch(numbered(sql), *params)]


# What connecting raises: refused, unknown host or no answer in time (OSError), a server's
# refusal such as a wrong password (PostgresError), a malformed DSN or a broken protocol
# (InterfaceError, ValueError).
CONNECT_ERRORS = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError)


async def probe(dsn: str, timeout: float) -> None:
    """Connect once and disconnect (raises one of :data:`CONNECT_ERRORS`)."""
    conn = await asyncpg.connect(dsn, timeout=timeout)
    await conn.close()


class PostgresStore(SqlStore):
    """The store on a PostgreSQL database."""

    backend: ClassVar[str] = "postgresql"
    IntegrityError: ClassVar[type[Exception]] = asyncpg.IntegrityConstraintViolationError

    def __init__(self, pool: asyncpg.Pool[Any], fence: Fence | None = None) -> None:
        """With a ``fence`` (the process's lease), every write transaction first checks that
        the lease is still this process's, else raises ``bot.store.lease.LeaseLost``."""
        self._pool = pool
        self.fence = fence

    @classmethod
    async def connect(
        cls, dsn: str, *, pool_size: int = POOL_SIZE, fence: Fence | None = None
    ) -> PostgresStore:
        pool = await asyncpg.create_pool(
            dsn,
            min_size=1,
            max_size=pool_size,
            # A lost server or host is noticed instead of waiting forever on a dead socket.
            server_settings={"tcp_keepalives_idle": "30", "tcp_keepalives_interval": "10",
                             "tcp_keepalives_count": "3"},
        )
        store = cls(pool, fence)
        try:
            await store.migrate()
            await store._after_open()
        except BaseException:  # the pool is closed, then re-raised (cancellation too)
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        """Close the pool once the connections in use are given back."""
        await self._pool.close()

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
            if not exists:
                return 0
            return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM"
                                           " schema_migrations"))

    async def migrate(self) -> int:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
                " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            current = await conn.fetchval("SELECT coalesce(max(version), 0) FROM"
                                          " schema_migrations")
            for number, script in enumerate(POSTGRES_MIGRATIONS, start=1):
                if number <= current:
                    continue
                await conn.execute(script)
                await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
        return await self.schema_version()

    # --- transactions -------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_PostgresTx]:
        async with self._pool.acquire() as conn, conn.transaction():
            tx = _PostgresTx(conn)
            await self._check_fence(tx)
            yield tx

    async def _check_fence(self, tx: _PostgresTx) -> None:
        """Inside a write transaction: refuse it unless this process still holds its lease
        (the lease rows then stay share-locked until the transaction ends)."""
        if self.fence is None:
            return
        held = await tx.fetch(f"SELECT {Fence.CONDITION}", self.fence.params())
        if not held[0][0]:
            raise self.fence.refused()

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[_PostgresTx]:
        async with self._pool.acquire() as conn:
            yield _PostgresTx(conn)

    async def _lock_standings(self, tx: Any, guild_id: int | None, game: str | None) -> None:
        conn = tx.conn
        if guild_id is None or game is None:
            await conn.execute("LOCK TABLE standings, standing_marks IN EXCLUSIVE MODE")
            return
        await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                           f"standings:{guild_id}:{game}")

    async def record_action(
        self,
        session: Session,
        user_id: str,
        action: dict[str, object] | str,
        results: Iterable[ResultRow] = (),
    ) -> None:
        """One transaction per action; concurrent actions run on the pool's connections and
        the server shares their WAL flushes. A move that does not end the game is one
        statement; a finishing move (results, standings) one explicit transaction."""
        write = ActionWrite.of(session, user_id, action, results)
        if write.results:
            async with self._transaction() as tx:
                await self._write_actions(tx, [write])
            return
        async with self._pool.acquire() as conn:
            await self._write_action_alone(_PostgresTx(conn), write)

    async def _write_action_alone(self, tx: _PostgresTx, write: ActionWrite) -> None:
        if self.fence is None:
            changed = await tx.execute(_ACTION_ALONE, (*write.snapshot, *write.action_row[1:]))
        else:
            changed = await tx.execute(
                _ACTION_ALONE_FENCED,
                (*write.snapshot, *self.fence.params(), *write.action_row[1:]),
            )
        if changed != 1:
            if self.fence is not None:
                await self._check_fence(tx)  # a refusal by the fence, not a stale version
            raise StaleWrite(write.session_id, write.expected_version)
