"""The store's per-server and per-user settings, cached for the process.

Every public message needs its server's language and every private answer its reader's, so
the settings are read once and kept: a bounded least-recently-used map per kind, each entry
for at most :data:`TTL_SECONDS` (another process on the same database, a shard, may have
changed it). Writes go through :meth:`StoredSettings.set_guild` / :meth:`set_user`, which
store the value and update this process's copy at once.

One :class:`StoredSettings` per store: ``stored_settings(store)``.
"""

from __future__ import annotations

import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime

from bot.store import Store

MAX_ENTRIES = 10_000  # per kind (servers, users)
TTL_SECONDS = 300.0


class _Bounded:
    """id -> (settings, read at): least recently used first, at most ``size`` entries."""

    def __init__(self, size: int, ttl: float, clock: Callable[[], float]) -> None:
        self._entries: OrderedDict[int, tuple[dict[str, str], float]] = OrderedDict()
        self._size, self._ttl, self._clock = size, ttl, clock

    def get(self, key: int) -> dict[str, str] | None:
        found = self._entries.get(key)
        if found is None:
            return None
        values, read_at = found
        if self._clock() - read_at > self._ttl:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return values

    def put(self, key: int, values: dict[str, str]) -> None:
        self._entries[key] = (values, self._clock())
        self._entries.move_to_end(key)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


class StoredSettings:
    """Cached ``guild_settings`` / ``user_settings`` of one store."""

    def __init__(self, store: Store, *, size: int = MAX_ENTRIES, ttl: float = TTL_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._guilds = _Bounded(size, ttl, clock)
        self._users = _Bounded(size, ttl, clock)

    async def guild(self, guild_id: int) -> dict[str, str]:
        """Server ``guild_id``'s stored settings (unset keys absent). Do not change the dict."""
        found = self._guilds.get(guild_id)
        if found is None:
            found = await self._store.guild_settings(guild_id)
            self._guilds.put(guild_id, found)
        return found

    def guild_now(self, guild_id: int) -> dict[str, str] | None:
        """The cached settings of ``guild_id`` without reading the store (None: not cached)."""
        return self._guilds.get(guild_id)

    def user_now(self, user_id: int) -> dict[str, str] | None:
        """The cached settings of ``user_id`` without reading the store (None: not cached)."""
        return self._users.get(user_id)

    async def user(self, user_id: int) -> dict[str, str]:
        """User ``user_id``'s stored settings (unset keys absent). Do not change the dict."""
        found = self._users.get(user_id)
        if found is None:
            found = await self._store.user_settings(user_id)
            self._users.put(user_id, found)
        return found

    async def set_guild(
        self, guild_id: int, key: str, value: str, *, by: str, at: datetime
    ) -> None:
        await self._store.set_guild_setting(guild_id, key, value, by=by, at=at)
        values = dict(await self.guild(guild_id))
        values[key] = value
        self._guilds.put(guild_id, values)

    async def set_user(self, user_id: int, key: str, value: str | None, *, at: datetime) -> None:
        """Store ``key = value`` for ``user_id``; None forgets the choice."""
        await self._store.set_user_setting(user_id, key, value, at=at)
        values = dict(await self.user(user_id))
        if value is None:
            values.pop(key, None)
        else:
            values[key] = value
        self._users.put(user_id, values)


_BY_STORE: weakref.WeakKeyDictionary[Store, StoredSettings] = weakref.WeakKeyDictionary()
# The last store asked about and its settings: a process has one store, read several times
# an action (every words looked up); a WeakKeyDictionary's ``get`` is three Python calls
# (issue 42, sixth pass). Weak, as the dictionary's keys are.
_LAST: tuple[weakref.ref[Store], StoredSettings] | None = None


def stored_settings(store: Store) -> StoredSettings:
    """The process's cache of ``store``'s settings (made on first use)."""
    global _LAST
    last = _LAST
    if last is not None and last[0]() is store:
        return last[1]
    found = _BY_STORE.get(store)
    if found is None:
        found = _BY_STORE[store] = StoredSettings(store)
    _LAST = (weakref.ref(store), found)
    return found
