"""Leases: which process owns a shard set, on PostgreSQL, and the fence that enforces it.

A process takes, on a connection of its own, a session-level advisory lock per shard of its
set (in ascending order, so two sets that overlap cannot deadlock). A second process with the
same set is a standby: it waits on the lock, which the server releases when the owner's
connection ends (a killed process at once; a lost host once the server's TCP keepalives give
up on it, a few seconds with :data:`LEASE_KEEPALIVES`).

Holding the lock is not enough: an owner cut off from the server may still have pooled
connections writing. So each shard has a row in ``shard_leases`` whose ``epoch`` the new
owner increments on acquiring, and every write transaction of the owner's store checks, with
the rows share-locked until it commits, that the epochs are still the ones it got
(:class:`Fence`). The increment waits for the old owner's write in flight, and every later
write of the old owner is refused (:class:`LeaseLost`); the fence then marks the lease lost
and the process stops.

Keepalives: the server's (``server_settings``, per connection) make the server drop a silent
host's connections. asyncpg sets no client-side keepalive (it takes no libpq ``keepalives*``
parameters), so on the owner's side the watchdog pings the lease connection every
:data:`WATCH_INTERVAL` s and counts no answer within :data:`WATCH_TIMEOUT` s as a loss.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from bot.ops.metrics import METRICS
from bot.records.shards import ShardSet

log = logging.getLogger(__name__)

# Server-side TCP keepalives of every connection: the server drops the connection of a host
# that went silent (and with it the advisory locks and row locks it held).
KEEPALIVES = {"tcp_keepalives_idle": "30", "tcp_keepalives_interval": "10",
              "tcp_keepalives_count": "3"}
# The lease connection's are short: a standby takes over within about 5 s of the host's loss.
LEASE_KEEPALIVES = {"tcp_keepalives_idle": "2", "tcp_keepalives_interval": "1",
                    "tcp_keepalives_count": "3", "tcp_user_timeout": "5000"}
# The owner checks its lease connection this often; no answer within the timeout is a loss.
WATCH_INTERVAL = 1.0
WATCH_TIMEOUT = 4.0

_TABLE_LOCK = 0x7461626C656C7365  # "tablelse": creating the lease table once
_CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS shard_leases (
    shard_count INTEGER NOT NULL,
    shard_id INTEGER NOT NULL,
    epoch BIGINT NOT NULL DEFAULT 0,
    holder TEXT,
    acquired_at TIMESTAMPTZ,
    PRIMARY KEY (shard_count, shard_id)
)
"""
# One advisory lock key per shard, per schema (tests share a server, one schema each).
_KEY = "hashtextextended('tablebot-shard:' || current_schema() || ':' || $1::int || ':'" \
       " || $2::int, 0)"


class LeaseLost(Exception):
    """This process no longer owns its shard set: a write was refused by the fence, or the
    lease connection died."""

    def __init__(self, label: str) -> None:
        super().__init__(f"the lease of shards {label} is lost; this process stops owning them")


@dataclass(frozen=True)
class Fence:
    """The epochs a lease got; a write transaction checks them (``?`` placeholders)."""

    shards: ShardSet
    epochs: tuple[int, ...]  # one per shard id, in ascending id order
    lost: asyncio.Event = field(compare=False)

    # True while every shard row still has this owner's epoch; the rows stay share-locked
    # until the transaction ends, so a takeover's increment waits for this write.
    CONDITION = (
        "(SELECT count(*) FROM (SELECT 1 FROM shard_leases WHERE shard_count = ?::int"
        " AND (shard_id, epoch) IN (SELECT * FROM unnest(?::int[], ?::bigint[]))"
        " FOR SHARE) AS held) = ?::bigint"
    )

    def params(self) -> tuple[Any, ...]:
        ids = sorted(self.shards.ids)
        return (self.shards.count, ids, list(self.epochs), len(ids))

    def refused(self) -> LeaseLost:
        """The error of a refused write; marks the lease lost."""
        if not self.lost.is_set():
            log.error("a write was refused: another process took over shards %s",
                      self.shards.label)
            METRICS.lease_losses.inc()
        self.lost.set()
        return LeaseLost(self.shards.label)


class Lease:
    """A held lease: the dedicated connection, the fence, and a watchdog of the connection.

    ``await Lease.acquire(dsn, shards)`` waits as long as another process holds any of the
    shards; ``lost`` is set when the lease ends without :meth:`release`.
    """

    def __init__(self, conn: asyncpg.Connection[Any], fence: Fence, holder: str) -> None:
        self._conn = conn
        self.fence = fence
        self.holder = holder
        self._released = False
        self._watchdog = asyncio.create_task(self._watch(), name="lease-watchdog")
        conn.add_termination_listener(self._terminated)

    @property
    def shards(self) -> ShardSet:
        return self.fence.shards

    @property
    def server_pid(self) -> int:
        """The server process of the lease connection (operators: ``pg_stat_activity``)."""
        return int(self._conn.get_server_pid())

    @property
    def lost(self) -> asyncio.Event:
        return self.fence.lost

    @classmethod
    async def acquire(
        cls,
        dsn: str,
        shards: ShardSet,
        *,
        on_wait: Callable[[], None] | None = None,
        connect_timeout: float = 10.0,
    ) -> Lease:
        """Take the lease of ``shards``; when another process holds it, call ``on_wait`` once
        and wait until it is free. Cancelling the wait gives up (nothing is held)."""
        # Named for operators (pg_stat_activity): "tablebot-lease 0,1/4".
        settings = {**LEASE_KEEPALIVES, "application_name": f"tablebot-lease {shards.label}"}
        conn = await asyncpg.connect(dsn, timeout=connect_timeout, server_settings=settings)
        try:
            await _ensure_table(conn)
            ids = sorted(shards.ids)
            waited = False
            for shard_id in ids:
                if await conn.fetchval(f"SELECT pg_try_advisory_lock({_KEY})",
                                       shards.count, shard_id):
                    continue
                if not waited and on_wait is not None:
                    on_wait()
                waited = True
                await conn.execute(f"SELECT pg_advisory_lock({_KEY})", shards.count, shard_id)
            holder = secrets.token_hex(8)
            epochs = await _bump_epochs(conn, shards.count, ids, holder)
        except BaseException:
            # Closing the connection releases whatever locks it took.
            conn.terminate()
            raise
        fence = Fence(shards, tuple(epochs), asyncio.Event())
        log.info("holding the lease of shards %s (epochs %s)", shards.label,
                 ",".join(map(str, epochs)))
        return cls(conn, fence, holder)

    async def release(self) -> None:
        """Give the lease up (a clean stop): a standby takes over at once."""
        self._released = True
        self._watchdog.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._watchdog
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._conn.close(), 5.0)
        if not self._conn.is_closed():
            self._conn.terminate()

    def _terminated(self, _conn: object) -> None:
        if not self._released:
            self._lose("the lease connection closed")

    def _lose(self, why: str) -> None:
        if not self.fence.lost.is_set():
            log.error("lease of shards %s lost: %s", self.shards.label, why)
            METRICS.lease_losses.inc()
        self.fence.lost.set()

    async def _watch(self) -> None:
        """Ping the lease connection; a dead one (or a server that took the lease away) is a
        loss: the locks are gone with it."""
        while not self._released:
            await asyncio.sleep(WATCH_INTERVAL)
            try:
                held = await asyncio.wait_for(
                    self._conn.fetchval("SELECT holder = $1 FROM shard_leases WHERE"
                                        " shard_count = $2 AND shard_id = $3", self.holder,
                                        self.shards.count, min(self.shards.ids)),
                    WATCH_TIMEOUT,
                )
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as err:
                self._lose(f"{type(err).__name__}: {err}".rstrip(": "))
                return
            if not held:
                self._lose("another process holds it now")
                return


async def _ensure_table(conn: asyncpg.Connection[Any]) -> None:
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _TABLE_LOCK)
        await conn.execute(_CREATE_TABLE)


async def _bump_epochs(
    conn: asyncpg.Connection[Any], count: int, ids: Sequence[int], holder: str
) -> list[int]:
    """Increment each shard's epoch (waiting for the old owner's writes in flight)."""
    async with conn.transaction():
        await conn.execute(
            "INSERT INTO shard_leases (shard_count, shard_id) SELECT $1, unnest($2::int[])"
            " ON CONFLICT DO NOTHING", count, list(ids),
        )
        rows = await conn.fetch(
            "UPDATE shard_leases SET epoch = epoch + 1, holder = $3, acquired_at = now()"
            " WHERE shard_count = $1 AND shard_id = ANY($2::int[]) RETURNING shard_id, epoch",
            count, list(ids), holder,
        )
    by_id = {int(row["shard_id"]): int(row["epoch"]) for row in rows}
    return [by_id[shard_id] for shard_id in ids]
