"""The store: one interface (``bot.store.interface.Store``) with two backends, and the factory
that opens the one a ``DATABASE_URL`` names.

:func:`open_store` takes a ``DATABASE_URL`` (``sqlite:///path`` or ``postgresql://...``, see
``bot.store.database_url``) or a plain SQLite path and returns the matching backend, migrated:
``bot.store.sqlite.SqliteStore`` (one aiosqlite connection, WAL, group commit) or
``bot.store.postgres.PostgresStore`` (an asyncpg pool). Both run the same SQL
(``bot.store.sql``) over the same schema (``bot.store.migrations``). The interface and the shared
SQL import nothing from here, so the package has no import circle.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from bot.records.errors import ConfigError, StaleWrite
from bot.store.database_url import DatabaseUrl, open_target
from bot.store.interface import Store
from bot.store.migrations import MIGRATIONS, POSTGRES_MIGRATIONS

if TYPE_CHECKING:
    from bot.store.lease import Fence

__all__ = [
    "MIGRATIONS",
    "POSTGRES_MIGRATIONS",
    "StaleWrite",
    "Store",
    "check_database",
    "check_writable",
    "open_store",
]


async def open_store(target: str | Path | DatabaseUrl, *, fence: Fence | None = None) -> Store:
    """Open the database ``target`` names (creating a SQLite file and its folder if
    needed) and apply the migrations it lacks. With a ``fence`` (PostgreSQL only: the
    lease of this process's shard set, ``bot.store.lease``), every write transaction checks
    that the lease still holds, else raises ``bot.store.lease.LeaseLost``."""
    url = target if isinstance(target, DatabaseUrl) else open_target(target)
    if url.backend == "postgresql":
        from bot.store.postgres import PostgresStore

        assert url.dsn is not None
        return await PostgresStore.connect(url.dsn, fence=fence)
    if fence is not None:
        raise ConfigError("leases need PostgreSQL: a SQLite file has one process")
    from bot.store.sqlite import SqliteStore

    assert url.path is not None
    return await SqliteStore.connect(url.path)


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
        raise ConfigError(
            f"the SQLite file {str(path)!r} (DATABASE_URL / DATABASE_PATH) is not writable: {err}"
        ) from None


def check_database(url: DatabaseUrl, timeout: float = 10.0) -> None:
    """Fail early, with ConfigError (one line, no password), when the database is unusable:
    a SQLite path that is not writable, a PostgreSQL server that does not answer."""
    if url.backend == "sqlite":
        assert url.path is not None
        check_writable(url.path)
        return
    from bot.store.postgres import CONNECT_ERRORS, probe

    assert url.dsn is not None
    try:
        asyncio.run(probe(url.dsn, timeout))
    except CONNECT_ERRORS as err:  # refused, DNS, auth, a bad DSN: the start stops, worded
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ConfigError(f"DATABASE_URL {url}: cannot connect: {reason}") from None
