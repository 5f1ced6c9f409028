"""Per-key turns: one holder at a time for each key (a session's table, a channel's
rematch), the map keeping only keys with a holder or a waiter.

Process-local: a session and its channel belong to one process (``bot.records.shards``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable


class Turns:
    """``async with turns.of(key):`` waits for the key's earlier holders."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}  # key -> (lock, users)

    def __len__(self) -> int:
        return len(self._locks)

    def of(self, key: Hashable) -> _Turn:
        return _Turn(self._locks, key)


class _Turn:
    """:meth:`Turns.of`'s block: a class, not a generator (every answer and edit of a click
    takes one, issue 42). Counted as a user from its entry; the key leaves the map with its
    last user, whether it held the lock or was cancelled waiting for it."""

    __slots__ = ("_key", "_lock", "_locks")

    def __init__(self, locks: dict[Hashable, tuple[asyncio.Lock, int]], key: Hashable) -> None:
        self._locks, self._key = locks, key
        self._lock: asyncio.Lock | None = None

    async def __aenter__(self) -> None:
        locks, key = self._locks, self._key
        found = locks.get(key)
        lock, users = found if found is not None else (asyncio.Lock(), 0)
        locks[key] = (lock, users + 1)
        try:
            await lock.acquire()
        except BaseException:  # cancelled while waiting: no longer a user
            self._leave()
            raise
        self._lock = lock

    async def __aexit__(self, *exc: object) -> None:
        lock = self._lock
        self._lock = None
        if lock is not None:
            lock.release()
        self._leave()

    def _leave(self) -> None:
        locks, key = self._locks, self._key
        lock, users = locks[key]
        if users == 1:
            del locks[key]
        else:
            locks[key] = (lock, users - 1)


# Which message is a session's table changes one at a time (``/game status``, the publisher's
# move to the bottom): each reads the table it replaces under this turn, so every old copy
# is deleted and one table stays.
TABLE_MOVES = Turns()
# Rematch clicks of one channel, one at a time: the first opens the lobby, the others join it.
REMATCHES = Turns()
