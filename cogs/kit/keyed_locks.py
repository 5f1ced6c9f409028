"""Per-key turns: one holder at a time for each key (a session's table, a channel's
rematch), the map keeping only keys with a holder or a waiter.

Process-local: a session and its channel belong to one process (``bot.records.shards``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable


class Turns:
    """``async with turns.of(key):`` waits for the key's earlier holders."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}  # key -> (lock, users)

    def __len__(self) -> int:
        return len(self._locks)

    @contextlib.asynccontextmanager
    async def of(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)


# Which message is a session's table changes one at a time (``/game status``, the publisher's
# move to the bottom): each reads the table it replaces under this turn, so every old copy
# is deleted and one table stays.
TABLE_MOVES = Turns()
# Rematch clicks of one channel, one at a time: the first opens the lobby, the others join it.
REMATCHES = Turns()
