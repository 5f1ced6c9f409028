"""What this process owns: its shard set and, on PostgreSQL, the lease that holds it.

``python -m bot`` claims it before connecting to Discord (:func:`claim`): on SQLite the
process owns its set outright (the settings refuse a partial set there); on PostgreSQL it
takes the lease of the set (``bot.store.lease``), and while another process holds it, it is a
standby and waits. The client then opens its store with :attr:`Ownership.fence`, restores
only :attr:`Ownership.shards`, and syncs commands only when it owns shard 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.ops.metrics import METRICS
from bot.records.shards import ShardSet
from bot.store.database_url import DatabaseUrl
from bot.store.lease import Fence, Lease

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ownership:
    shards: ShardSet
    lease: Lease | None = None

    @classmethod
    def whole(cls) -> Ownership:
        """Every guild, no lease (tests; one process on SQLite)."""
        return cls(ShardSet.whole())

    @property
    def fence(self) -> Fence | None:
        return self.lease.fence if self.lease is not None else None

    @property
    def lost(self) -> asyncio.Event | None:
        """Set when the lease is lost (None without a lease)."""
        return self.lease.lost if self.lease is not None else None

    async def release(self) -> None:
        if self.lease is not None:
            await self.lease.release()


async def claim(
    database: DatabaseUrl, shards: ShardSet, stop: asyncio.Event,
    on_standby: Callable[[], object] | None = None,
) -> Ownership | None:
    """Take ownership of ``shards``; waits as a standby (``on_standby`` is called then) while
    another process holds them. None when ``stop`` was set first."""
    if database.backend != "postgresql":
        return Ownership(shards)
    assert database.dsn is not None

    waited = False

    def standby() -> None:
        nonlocal waited
        waited = True
        log.info("shards %s are held by another process: standing by", shards.label)
        if on_standby is not None:
            on_standby()

    acquiring = asyncio.create_task(Lease.acquire(database.dsn, shards, on_wait=standby))
    stopping = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({acquiring, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    if not acquiring.done():
        acquiring.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await acquiring
        return None
    lease = acquiring.result()
    if waited:
        METRICS.failovers.inc()
    return Ownership(shards, lease)
