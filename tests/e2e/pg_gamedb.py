"""``GameDb`` over PostgreSQL: the e2e oracle's short read-only looks at the bot's database
when the bots share a PostgreSQL server (``TEST_DATABASE_URL``).

``GameDb``'s callers are synchronous and run inside the test's event loop, so each query runs
on a thread of its own with its own loop and connection.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.transaction import numbered
from tests.e2e.players import GameDb


class PostgresGameDb(GameDb):
    def __init__(self, url: str) -> None:
        super().__init__(Path("/nonexistent"))
        self.url = url
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    def _query(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        return self._pool.submit(asyncio.run, self._fetch(sql, args)).result(timeout=30)

    async def _fetch(self, sql: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
        conn = await asyncpg.connect(self.url, timeout=10)
        try:
            return [tuple(row) for row in await conn.fetch(numbered(sql), *args)]
        finally:
            await conn.close()

    def close(self) -> None:
        self._pool.shutdown(wait=True)
