"""The little a store backend must offer inside a transaction, so the SQL is written once.

Statements use ``?`` placeholders (SQLite's style); the PostgreSQL backend numbers them
(``$1``, ``$2``, ...) before sending. Both schemas have the same tables and columns, so one
statement serves both.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Protocol


class Tx(Protocol):
    """One open transaction (or, for reads, one connection)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        """Run one statement per parameter row; returns the rows changed in all."""
        ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement and return its rows."""
        ...


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1``, ``$2``, ... (no statement of the store has a
    ``?`` inside a string literal)."""
    parts = sql.split("?")
    out = [parts[0]]
    for number, part in enumerate(parts[1:], start=1):
        out.append(f"${number}{part}")
    return "".join(out)
