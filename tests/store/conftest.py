"""The store contract suite runs every test on both backends.

The ``sqlite`` parameter uses a file in the test's temporary folder. The ``postgresql`` one
uses the server of ``TEST_DATABASE_URL`` (default: ``postgresql://postgres@localhost:5432/
postgres``) with a fresh schema per test (dropped afterwards). Without a reachable server the
PostgreSQL tests skip, with the reason, unless ``CI=true``: then they fail.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg
import pytest

from bot.store import open_store
from bot.store.database_url import parse_database_url
from bot.store.sql import SqlStore

DEFAULT_TEST_DATABASE_URL = "postgresql://postgres@localhost:5432/postgres"
BACKENDS = ("sqlite", "postgresql")


def server_url() -> str:
    return os.environ.get("TEST_DATABASE_URL") or DEFAULT_TEST_DATABASE_URL


def with_schema(url: str, schema: str) -> str:
    """``url`` with every connection's search_path set to ``schema`` (asyncpg passes unknown
    query parameters on as server settings)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("search_path", schema)])))


async def _reachable(url: str) -> None:
    conn = await asyncpg.connect(url, timeout=5)
    await conn.close()


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The test server's URL, once known to answer; else skip (or fail when CI=true)."""
    url = server_url()
    try:
        asyncio.run(_reachable(url))
    except Exception as err:
        reason = (
            f"no PostgreSQL server at {parse_database_url(url)} ({type(err).__name__}: "
            f"{str(err).splitlines()[0] if str(err) else 'no answer'}); set TEST_DATABASE_URL,"
            " or run .ci/run, which starts one"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {reason}")
        pytest.skip(reason)
    return url


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of ``backend``: a URL both ``open_store`` and a second process
    could open."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'data' / 'store.sqlite3'}"
        return
    server = request.getfixturevalue("postgres_server")
    schema = f"t_{uuid.uuid4().hex[:16]}"

    async def run(sql: str) -> None:
        conn = await asyncpg.connect(server)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run(f"CREATE SCHEMA {schema}"))
    try:
        yield with_schema(server, schema)
    finally:
        asyncio.run(run(f"DROP SCHEMA {schema} CASCADE"))


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[SqlStore]:
    opened = await open_store(db_url)
    assert isinstance(opened, SqlStore)
    yield opened
    await opened.close()
