"""The store: sessions, the append-only action log and results, derived standings, and a
meta table, behind one interface with two backends.

:meth:`Store.open` takes a ``DATABASE_URL`` (``sqlite:///path`` or ``postgresql://...``, see
``bot.database_url``) or a plain SQLite path and returns the matching backend, migrated:
``bot.store_sqlite.SqliteStore`` (one aiosqlite connection, WAL, group commit) or
``bot.store_postgres.PostgresStore`` (an asyncpg pool). Both run the same SQL
(``bot.store_sql``) over the same schema (``bot.migrations``).

Exactly once, in order: a session write names the version it replaces. The row is updated
``WHERE id = ? AND version = ?`` in the transaction that also appends the action row (and,
when the game ends, the results and standings); when no row matched (another process or an
older copy wrote first) nothing is written and :class:`bot.errors.StaleWrite` is raised.
"""

from __future__ import annotations

import asyncio
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from bot.database_url import DatabaseUrl, open_target
from bot.errors import ConfigError, StaleWrite
from bot.migrations import MIGRATIONS, POSTGRES_MIGRATIONS
from bot.models import ActionRow, ResultRow, Session, Status
from bot.standings import DerivedLine

if TYPE_CHECKING:
    from bot.lease import Fence
    from bot.sharding import ShardSet

__all__ = [
    "MIGRATIONS",
    "POSTGRES_MIGRATIONS",
    "StaleWrite",
    "Store",
    "check_database",
    "check_writable",
]


class Store(ABC):
    """Async access to the database. Create with ``await Store.open(url_or_path)``."""

    backend: ClassVar[str]
    # What a broken constraint (unique, append-only, foreign key) raises on this backend.
    IntegrityError: ClassVar[type[Exception]]

    @classmethod
    async def open(
        cls, target: str | Path | DatabaseUrl, *, fence: Fence | None = None
    ) -> Store:
        """Open the database ``target`` names (creating a SQLite file and its folder if
        needed) and apply the migrations it lacks. With a ``fence`` (PostgreSQL only: the
        lease of this process's shard set, ``bot.lease``), every write transaction checks
        that the lease still holds, else raises ``bot.lease.LeaseLost``."""
        url = target if isinstance(target, DatabaseUrl) else open_target(target)
        if url.backend == "postgresql":
            from bot.store_postgres import PostgresStore

            assert url.dsn is not None
            return await PostgresStore.connect(url.dsn, fence=fence)
        if fence is not None:
            raise ConfigError("leases need PostgreSQL: a SQLite file has one process")
        from bot.store_sqlite import SqliteStore

        assert url.path is not None
        return await SqliteStore.connect(url.path)

    @abstractmethod
    async def close(self) -> None:
        """Close once the writes under way are committed."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def migrate(self) -> int:
        """Apply every migration not applied yet; returns the resulting version."""

    # --- sessions -------------------------------------------------------------------------

    @abstractmethod
    async def create_session(self, session: Session) -> Session:
        """Insert a new session; returns it with its database id."""

    @abstractmethod
    async def save_session(
        self, session: Session, *, expected_version: int | None = None
    ) -> None:
        """Overwrite a session's row with ``session`` (lobby changes, start, cancel, ...).

        The stored version must be ``expected_version``; when None, ``session.version - 1``
        or ``session.version`` itself (a change that keeps the version, such as the table
        message id). Otherwise :class:`StaleWrite` and nothing is written."""

    @abstractmethod
    async def record_action(
        self,
        session: Session,
        user_id: str,
        action: dict[str, Any] | str,
        results: Iterable[ResultRow] = (),
    ) -> None:
        """Store one applied action atomically; returns once it is committed.

        ``session`` is the state after the action; its ``version`` is the action's ``seq``
        and the stored version must be the one before it (else :class:`StaleWrite`).
        ``results`` (when the action ended the game) are written in the same transaction,
        with the standings they change."""

    @abstractmethod
    async def load_sessions(
        self,
        statuses: Iterable[Status],
        *,
        raw_state: bool = False,
        shards: ShardSet | None = None,
    ) -> list[Session]:
        """Sessions with these statuses, oldest first. ``state`` is the decoded JSON (dict or
        None), or with ``raw_state`` the stored JSON text itself. With ``shards``, only the
        sessions of the guilds on those shards (``bot.sharding``)."""

    @abstractmethod
    async def load_session(self, session_id: int) -> Session | None: ...

    # --- log, results, standings ------------------------------------------------------------

    @abstractmethod
    async def actions(self, session_id: int) -> list[ActionRow]: ...

    @abstractmethod
    async def results(
        self, guild_id: int, game: str, *, since: datetime | None = None
    ) -> list[ResultRow]:
        """Results of one game in one guild, in replay order."""

    @abstractmethod
    async def standings(self, guild_id: int, game: str, period_key: str) -> list[DerivedLine]:
        """The stored standings of one period (see ``bot.standings.period_key``)."""

    @abstractmethod
    async def rebuild_standings(
        self, guild_id: int | None = None, game: str | None = None
    ) -> int:
        """Recompute the standings from the results (all, or one guild's game) in one
        transaction; returns the number of results rows replayed."""

    @abstractmethod
    async def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run a read-only statement with ``?`` placeholders (both backends' schemas have the
        same tables and columns; keep to SQL both dialects read)."""

    # --- meta -------------------------------------------------------------------------------

    @abstractmethod
    async def get_meta(self, key: str) -> str | None: ...

    @abstractmethod
    async def set_meta(self, key: str, value: str) -> None: ...

    # --- per-server settings ----------------------------------------------------------------

    @abstractmethod
    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        """Every stored setting of server ``guild_id``, key -> value (unset keys absent)."""

    @abstractmethod
    async def set_guild_setting(
        self, guild_id: int, key: str, value: str, *, by: str, at: datetime
    ) -> None:
        """Store ``key = value`` for server ``guild_id``; ``by``: who changed it, ``at``: when."""

    # --- per-user settings (a person's own choices, e.g. language, wherever they play) ------

    @abstractmethod
    async def user_settings(self, user_id: int) -> dict[str, str]:
        """Every stored setting of user ``user_id``, key -> value (unset keys absent)."""

    @abstractmethod
    async def set_user_setting(
        self, user_id: int, key: str, value: str | None, *, at: datetime
    ) -> None:
        """Store ``key = value`` for user ``user_id``; ``value=None`` forgets the choice."""


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
    from bot.store_postgres import probe

    assert url.dsn is not None
    try:
        asyncio.run(probe(url.dsn, timeout))
    except Exception as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ConfigError(f"DATABASE_URL {url}: cannot connect: {reason}") from None
