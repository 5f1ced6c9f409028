"""A small bounded cache of rendered images keyed by (session id, version, viewer).

A session's version changes with every action, so an entry never goes stale: it only falls
out when the cache is full (least recently used first). Safe to use from a thread pool.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

RenderKey = tuple[int, int, Hashable]  # (session id, version, viewer or None for the table)
DEFAULT_CAPACITY = 256
# The bound of each drawing cache (text masks and widths, tiles, glyph checks): at most the
# picture workers' cache budget (``cogs.render_workers.CACHE_ENTRIES``), so that it
# drops its least recently used entries instead of growing past the budget and being emptied
# after a job (issue 42: each emptying had the next pictures draw their text and tiles anew).
DRAWING_CACHE = 512


class RenderCache:
    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError("a render cache holds at least one image")
        self.capacity = capacity
        self._entries: OrderedDict[RenderKey, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: RenderKey) -> bytes | None:
        with self._lock:
            data = self._entries.get(key)
            if data is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return data

    def put(self, key: RenderKey, data: bytes) -> None:
        with self._lock:
            self._entries[key] = data
            self._entries.move_to_end(key)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def get_or_render(self, key: RenderKey, render: Callable[[], bytes]) -> bytes:
        """The cached image, or ``render()`` stored under ``key``. Two threads missing the same
        key at once both render (the result is the same); the lock is never held while
        rendering."""
        cached = self.get(key)
        if cached is not None:
            return cached
        data = render()
        self.put(key, data)
        return data

    def __len__(self) -> int:
        return len(self._entries)
