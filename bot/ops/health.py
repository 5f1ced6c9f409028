"""``/healthz``: is this process doing its job?

Healthy (200) when every shard of the process is connected to the gateway, the database
answers within :data:`DATABASE_TIMEOUT` and, on PostgreSQL, the process still holds its shard
set's lease. A standby (another process holds the lease; this one waits to take over) is
healthy too, with ``"role": "standby"``. Otherwise 503, and the body names what is wrong.

The database check asks the store's own connection (a stuck or closed store fails it) and,
on SQLite, opens the file afresh by its path, read-only: a file deleted, moved or on a volume
gone is a database gone, although the open connection could still read its old inode.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATABASE_TIMEOUT = 1.0
STARTING, STANDBY, OWNER, STOPPING = "starting", "standby", "owner", "stopping"


def open_by_path(path: Path) -> None:
    """Open the SQLite file read-only by its path and read its schema (raises when it cannot)."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.5)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    finally:
        conn.close()


@dataclass
class Health:
    """The process's state as ``python -m bot`` and the client update it."""

    role: str = STARTING
    # shard id -> connected (the client's view); None before the client exists.
    shards: Callable[[], Mapping[int, bool]] | None = None
    # Raises (or takes too long) when the database does not answer.
    database: Callable[[], Awaitable[object]] | None = None  # its answer is not read
    sqlite_path: Path | None = None
    lease_lost: asyncio.Event | None = None
    expected_shards: tuple[int, ...] = field(default=())

    async def check(self) -> tuple[int, dict[str, Any]]:
        """(HTTP status, JSON body)."""
        body: dict[str, Any] = {"role": self.role}
        if self.role == STANDBY:
            body["status"] = "ok"
            return 200, body
        problems: list[str] = []
        if self.role != OWNER:
            problems.append(f"process is {self.role}")
        if self.lease_lost is not None and self.lease_lost.is_set():
            problems.append("lease of the shard set is lost")
        states = dict(self.shards()) if self.shards is not None else {}
        body["shards"] = {
            str(shard): "connected" if states.get(shard) else "disconnected"
            for shard in sorted(set(self.expected_shards) | set(states))
        }
        down = [shard for shard, state in body["shards"].items() if state != "connected"]
        if self.shards is None:
            problems.append("not connected to Discord yet")
        elif down:
            problems.append(f"shard(s) {', '.join(down)} disconnected from the gateway")
        database = await self._database()
        body["database"] = database
        if database != "ok":
            problems.append(f"database: {database}")
        body["status"] = "unhealthy" if problems else "ok"
        if problems:
            body["problems"] = problems
        return (503 if problems else 200), body

    async def _database(self) -> str:
        if self.database is None:
            return "not open yet"
        try:
            async with asyncio.timeout(DATABASE_TIMEOUT):
                await self.database()
                if self.sqlite_path is not None:
                    await asyncio.to_thread(open_by_path, self.sqlite_path)
        except TimeoutError:
            return f"no answer within {DATABASE_TIMEOUT:g} s"
        except Exception as err:  # the error text names no secret (no DSN, no password)
            reason = str(err).splitlines()[0] if str(err) else ""
            return f"{type(err).__name__}: {reason}".rstrip(": ")
        return "ok"
