from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.models import ResultRow, Session, Status
from bot.store import MIGRATIONS, Store
from tests.bot.conftest import seat


def lobby(channel_id: int = 10) -> Session:
    return Session(id=0, guild_id=1, channel_id=channel_id, game="count", status=Status.LOBBY,
                   host_id="1", seats=(seat(1), seat(2)), options={"target": 10})


async def test_migration_from_empty(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        assert await store.migrate() == len(MIGRATIONS)  # idempotent
    finally:
        await store.close()
    conn = sqlite3.connect(db_path)
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    indexes = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert {"sessions", "actions", "results", "meta"} <= tables
    assert {"results_by_time", "results_by_user", "sessions_one_live_per_channel"} <= indexes
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


async def test_session_round_trip_and_reopen(db_path: Path) -> None:
    store = await Store.open(db_path)
    created = await store.create_session(lobby())
    active = replace(created, status=Status.ACTIVE, state={"x": 1}, version=2,
                     table_message_id=555)
    await store.save_session(active)
    await store.close()

    reopened = await Store.open(db_path)
    try:
        [loaded] = await reopened.load_sessions([Status.LOBBY, Status.ACTIVE])
        assert loaded == active
    finally:
        await reopened.close()


async def test_one_live_session_per_channel(store: Store) -> None:
    await store.create_session(lobby())
    with pytest.raises(sqlite3.IntegrityError):
        await store.create_session(lobby())
    await store.create_session(lobby(channel_id=11))


async def test_failure_between_action_and_snapshot_keeps_previous_state(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = await store.create_session(replace(lobby(), status=Status.ACTIVE, state={"n": 0}))
    after = replace(created, state={"n": 1}, version=created.version + 1)

    async def crash(writes: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store, "_write_snapshots", crash)
    with pytest.raises(RuntimeError):
        await store.record_action(after, "1", {"add": 1})
    monkeypatch.undo()

    assert await store.actions(created.id) == []
    assert await store.load_session(created.id) == created
    # The connection is usable again and the same action can now be stored.
    await store.record_action(after, "1", {"add": 1})
    assert [a.action for a in await store.actions(created.id)] == [{"add": 1}]
    assert await store.load_session(created.id) == after


async def test_results_written_once_and_append_only(store: Store) -> None:
    created = await store.create_session(replace(lobby(), status=Status.ACTIVE))
    done = replace(created, status=Status.FINISHED, version=created.version + 1)
    row = ResultRow(created.id, 1, "count", "1", 1, 10, False, False, True, done.updated_at)
    await store.record_action(done, "1", {"add": 2}, [row])
    again = replace(done, version=done.version + 1)
    with pytest.raises(sqlite3.IntegrityError):
        await store.record_action(again, "1", {"add": 2}, [row])
    assert await store.load_session(created.id) == done  # the failed write left nothing
    assert await store.results(1, "count") == [row]
    with pytest.raises(sqlite3.IntegrityError):
        await store._run_transaction([("DELETE FROM results", ())])
    with pytest.raises(sqlite3.IntegrityError):
        await store._run_transaction([("UPDATE actions SET user_id = 'x'", ())])


async def test_meta(store: Store) -> None:
    assert await store.get_meta("k") is None
    await store.set_meta("k", "a")
    await store.set_meta("k", "b")
    assert await store.get_meta("k") == "b"
