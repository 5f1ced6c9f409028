"""bench.manager runs end to end on PostgreSQL in its quick mode (no figure is asserted)."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bench import manager as manager_bench


def test_manager_bench_quick_on_postgres(postgres_server: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert manager_bench.main(["--quick", "--database", postgres_server]) == 0
    out = capsys.readouterr().out
    assert "PostgreSQL store" in out and "bare asyncpg floor" in out
    for figure in ("saturated, 4 sessions", "latency p99", "restore 50 stored sessions"):
        assert figure in out

    async def leftover_schemas() -> list[str]:
        conn = await asyncpg.connect(postgres_server)
        try:
            rows = await conn.fetch("SELECT nspname FROM pg_namespace WHERE nspname LIKE"
                                    " 'bench\\_%'")
        finally:
            await conn.close()
        return [row[0] for row in rows]

    assert asyncio.run(leftover_schemas()) == []  # every schema of the run was dropped
