"""The store contract: every test runs on SQLite and on PostgreSQL (see conftest)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.records.errors import StaleVersion, StaleWrite
from bot.records.session import REACH, TOKENS_ONLY, ResultRow, Session, Status
from bot.store import MIGRATIONS, POSTGRES_MIGRATIONS, open_store
from bot.store.database_url import parse_database_url
from bot.store.sql import INSERT_ACTION, SqlStore
from game.base import Event
from tests.bot.conftest import seat


def lobby(channel_id: int = 10) -> Session:
    return Session(id=0, guild_id=1, channel_id=channel_id, game="count", status=Status.LOBBY,
                   host_id="1", seats=(seat(1), seat(2)), options={"target": 10})


async def tables_and_indexes(store: SqlStore) -> tuple[set[str], set[str]]:
    if store.backend == "sqlite":
        tables = "SELECT name FROM sqlite_master WHERE type = 'table'"
        indexes = "SELECT name FROM sqlite_master WHERE type = 'index'"
    else:
        tables = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        indexes = "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
    return ({row[0] for row in await store.query(tables)},
            {row[0] for row in await store.query(indexes)})


async def test_migration_from_empty(db_url: str) -> None:
    store = await open_store(db_url)
    assert isinstance(store, SqlStore)
    try:
        assert await store.schema_version() == len(MIGRATIONS) == len(POSTGRES_MIGRATIONS)
        assert await store.migrate() == len(MIGRATIONS)  # idempotent
        tables, indexes = await tables_and_indexes(store)
    finally:
        await store.close()
    assert {"sessions", "actions", "results", "meta", "standings", "standing_marks"} <= tables
    assert {"results_by_time", "results_by_user", "results_board",
            "sessions_one_live_per_channel", "sessions_by_channel"} <= indexes
    url = parse_database_url(db_url)
    if url.backend == "sqlite":
        assert url.path is not None
        conn = sqlite3.connect(url.path)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        conn.close()


async def test_reopening_migrates_nothing_again(db_url: str) -> None:
    first = await open_store(db_url)
    await first.set_meta("k", "v")
    await first.close()
    second = await open_store(db_url)
    try:
        assert await second.schema_version() == len(MIGRATIONS)
        assert await second.get_meta("k") == "v"
    finally:
        await second.close()


async def test_session_round_trip_and_reopen(db_url: str) -> None:
    store = await open_store(db_url)
    created = await store.create_session(lobby())
    active = replace(created, status=Status.ACTIVE, state={"x": 1}, version=2,
                     table_message_id=555, turn_minutes=5,
                     log=(Event("add", "1", {"add": 1, "total": 1}), Event("win", "1"),
                          Event("round_end", None, {"scores": {"1": -3}, "names": ["ä", "ß"]})),
                     updated_at=datetime(2024, 5, 1, 12, 0, 0, 123456, tzinfo=UTC))
    await store.save_session(active)
    await store.close()

    reopened = await open_store(db_url)
    try:
        [loaded] = await reopened.load_sessions([Status.LOBBY, Status.ACTIVE])
        assert loaded == active
        assert await reopened.load_session(active.id) == active
        assert await reopened.load_session(active.id + 100) is None
        [raw] = await reopened.load_sessions([Status.ACTIVE], raw_state=True)
        assert raw.state == '{"x": 1}'
    finally:
        await reopened.close()


async def test_a_group_dm_is_a_place_of_its_own_across_a_reopen(db_url: str) -> None:
    """Issue 39: a group DM's table is stored with its channel's id as its place (the
    ``guild_id`` column) and its tokens-only reach in its options; both load again after a
    restart, and its results count apart from a server's."""
    group_dm = 4_000_000_000_000_000_001
    store = await open_store(db_url)
    created = await store.create_session(replace(
        lobby(group_dm), guild_id=group_dm, options={"target": 10, REACH: TOKENS_ONLY}))
    done = replace(created, status=Status.FINISHED, version=2)
    row = ResultRow(created.id, group_dm, "count", "1", 1, 5, False, False, True,
                    datetime(2024, 5, 1, tzinfo=UTC))
    await store.record_action(done, "1", "end", [row])
    await store.close()
    reopened = await open_store(db_url)
    try:
        loaded = await reopened.load_session(created.id)
        assert loaded is not None and loaded.tokens_only and loaded.guild_id == group_dm
        assert await reopened.results(group_dm, "count") == [row]
        assert await reopened.results(1, "count") == []
    finally:
        await reopened.close()


async def test_ids_are_new_and_ordered(store: SqlStore) -> None:
    first = await store.create_session(lobby(10))
    second = await store.create_session(lobby(11))
    assert 0 < first.id < second.id
    assert [s.id for s in await store.load_sessions([Status.LOBBY])] == [first.id, second.id]


async def test_one_live_session_per_channel(store: SqlStore) -> None:
    await store.create_session(lobby())
    with pytest.raises(store.IntegrityError):
        await store.create_session(lobby())
    await store.create_session(lobby(channel_id=11))


async def test_a_failing_action_row_undoes_the_snapshot(store: SqlStore) -> None:
    created = await store.create_session(replace(lobby(), status=Status.ACTIVE, state={"n": 0}))
    after = replace(created, state={"n": 1}, version=created.version + 1)
    # A row already holds this seq: the snapshot update matches, then the action row fails.
    async with store._transaction() as tx:
        await tx.execute(INSERT_ACTION, (created.id, after.version, "9", '"x"', "2024-01-01"))
    with pytest.raises(store.IntegrityError):
        await store.record_action(after, "1", {"add": 1})
    assert await store.load_session(created.id) == created
    assert [a.user_id for a in await store.actions(created.id)] == ["9"]
    # The store is usable again.
    await store.save_session(after)
    assert await store.load_session(created.id) == after


async def test_a_failure_during_the_finish_writes_nothing(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = await store.create_session(replace(lobby(), status=Status.ACTIVE, state={"n": 0}))
    done = replace(created, status=Status.FINISHED, state={"n": 10}, version=2)
    rows = [ResultRow(created.id, 1, "count", user, place, 10 // place, False, False, True,
                      done.updated_at) for user, place in (("1", 1), ("2", 2))]
    insert = store._insert_result
    written = 0

    async def dies_after_the_first_row(tx: object, result: ResultRow) -> None:
        nonlocal written
        if written == 1:
            raise OSError("power cut")
        written += 1
        await insert(tx, result)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "_insert_result", dies_after_the_first_row)
    with pytest.raises(OSError):
        await store.record_action(done, "1", {"add": 10}, rows)
    monkeypatch.undo()
    assert await store.load_session(created.id) == created
    assert await store.actions(created.id) == []
    assert await store.results(1, "count") == []
    assert await store.standings(1, "count", "all") == []
    await store.record_action(done, "1", {"add": 10}, rows)
    assert await store.results(1, "count") == rows
    assert [line.line.games for line in await store.standings(1, "count", "all")] == [1, 1]


async def test_actions_are_logged_in_order(store: SqlStore) -> None:
    session = await store.create_session(replace(lobby(), status=Status.ACTIVE, state={"n": 0}))
    for n in range(1, 6):
        session = replace(session, state={"n": n}, version=session.version + 1)
        await store.record_action(session, str(n % 2 + 1), {"add": n} if n % 2 else "pass")
    logged = await store.actions(session.id)
    assert [a.seq for a in logged] == [2, 3, 4, 5, 6]
    assert [a.action for a in logged] == [{"add": 1}, "pass", {"add": 3}, "pass", {"add": 5}]
    assert [a.user_id for a in logged] == ["2", "1", "2", "1", "2"]
    assert await store.load_session(session.id) == session


async def test_results_written_once_and_append_only(store: SqlStore) -> None:
    created = await store.create_session(replace(lobby(), status=Status.ACTIVE))
    done = replace(created, status=Status.FINISHED, version=created.version + 1)
    row = ResultRow(created.id, 1, "count", "1", 1, 10, False, False, True, done.updated_at)
    await store.record_action(done, "1", {"add": 2}, [row])
    again = replace(done, version=done.version + 1)
    with pytest.raises(store.IntegrityError):
        await store.record_action(again, "1", {"add": 2}, [row])
    assert await store.load_session(created.id) == done  # the failed write left nothing
    assert await store.results(1, "count") == [row]
    for statement in ("DELETE FROM results", "UPDATE results SET score = 0",
                      "UPDATE actions SET user_id = 'x'", "DELETE FROM actions"):
        with pytest.raises(store.IntegrityError):
            async with store._transaction() as tx:
                await tx.execute(statement)
    assert await store.results(1, "count") == [row]


async def test_results_since_and_by_guild(store: SqlStore) -> None:
    early = datetime(2024, 4, 30, 23, 59, tzinfo=UTC)
    late = datetime(2024, 5, 1, 0, 0, tzinfo=UTC)
    rows = []
    for channel, (guild, when) in enumerate([(1, early), (1, late), (2, late)], start=10):
        created = await store.create_session(replace(lobby(channel), guild_id=guild,
                                                     status=Status.ACTIVE))
        done = replace(created, status=Status.FINISHED, version=2, updated_at=when)
        row = ResultRow(created.id, guild, "count", "1", 1, 5, False, False, True, when)
        await store.record_action(done, "1", "end", [row])
        rows.append(row)
    assert await store.results(1, "count") == rows[:2]
    assert await store.results(1, "count", since=late) == [rows[1]]
    assert await store.results(2, "count") == [rows[2]]
    assert await store.results(1, "other") == []


async def test_meta(store: SqlStore) -> None:
    assert await store.get_meta("k") is None
    await store.set_meta("k", "a")
    await store.set_meta("k", "b")
    assert await store.get_meta("k") == "b"


async def test_query_takes_question_marks(store: SqlStore) -> None:
    created = await store.create_session(lobby())
    rows = await store.query("SELECT id, game FROM sessions WHERE channel_id = ? AND status = ?",
                             [10, "lobby"])
    assert rows == [(created.id, "count")]


async def test_a_write_against_an_old_version_is_refused(store: SqlStore) -> None:
    created = await store.create_session(replace(lobby(), status=Status.ACTIVE, state={"n": 0}))
    v2 = replace(created, state={"n": 1}, version=2)
    await store.record_action(v2, "1", {"add": 1})
    # Made against version 1 again (an old copy): refused, nothing written.
    with pytest.raises(StaleWrite) as refused:
        await store.record_action(replace(v2, state={"n": 9}), "2", {"add": 9})
    assert isinstance(refused.value, StaleVersion)  # the manager answers it as a stale click
    assert refused.value.session_id == created.id and refused.value.expected == 1
    # A version from the future (version 2 skipped) is refused too.
    with pytest.raises(StaleWrite):
        await store.record_action(replace(v2, version=4), "2", {"add": 2})
    assert await store.load_session(created.id) == v2
    assert [a.seq for a in await store.actions(created.id)] == [2]


async def test_session_saves_are_conditional(store: SqlStore) -> None:
    created = await store.create_session(lobby())
    joined = replace(created, seats=(*created.seats, seat(3)), version=2)
    await store.save_session(joined)
    # The same version again (the table message id): allowed by default.
    await store.save_session(replace(joined, table_message_id=7))
    # Two versions behind: refused.
    with pytest.raises(StaleWrite):
        await store.save_session(replace(created, host_id="2", version=1))
    # Strict, with the version it replaces named.
    with pytest.raises(StaleWrite):
        await store.save_session(replace(joined, version=3), expected_version=1)
    await store.save_session(replace(joined, table_message_id=7, version=3), expected_version=2)
    loaded = await store.load_session(created.id)
    assert loaded == replace(joined, table_message_id=7, version=3)


async def test_guild_settings(store: SqlStore) -> None:
    assert await store.guild_settings(1) == {}
    at = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    await store.set_guild_setting(1, "replays", "players", by="7", at=at)
    await store.set_guild_setting(2, "replays", "everyone", by="8", at=at)
    await store.set_guild_setting(1, "replays", "everyone", by="9", at=at)
    await store.set_guild_setting(1, "other", "x", by="9", at=at)
    assert await store.guild_settings(1) == {"other": "x", "replays": "everyone"}
    assert await store.guild_settings(2) == {"replays": "everyone"}
    rows = await store.query(
        "SELECT updated_by, updated_at FROM guild_settings WHERE guild_id = ? AND key = ?",
        (1, "replays"),
    )
    assert rows == [("9", at.isoformat())]


async def test_user_settings(store: SqlStore) -> None:
    assert await store.user_settings(5) == {}
    at = datetime(2026, 12, 1, tzinfo=UTC)
    await store.set_user_setting(5, "language", "sq", at=at)
    await store.set_user_setting(6, "language", "gu", at=at)
    await store.set_user_setting(5, "language", "es", at=at)
    await store.set_user_setting(5, "images", "off", at=at)
    assert await store.user_settings(5) == {"images": "off", "language": "es"}
    await store.set_user_setting(5, "images", None, at=at)
    await store.set_user_setting(7, "images", None, at=at)
    assert await store.user_settings(5) == {"language": "es"}
    assert await store.user_settings(6) == {"language": "gu"}
    assert await store.user_settings(7) == {}


async def test_a_finished_games_public_messages_are_kept_by_id(db_url: str) -> None:
    store = await open_store(db_url)
    try:
        created = await store.create_session(lobby())
        at = datetime(2026, 11, 2, tzinfo=UTC)
        assert not await store.is_final_post(9_000_000_000_000_001)
        await store.record_final_posts(
            created.id, {9_000_000_000_000_001: "post", 9_000_000_000_000_002: "table"}, at=at)
        await store.record_final_posts(created.id, {9_000_000_000_000_001: "post"}, at=at)
        assert await store.is_final_post(9_000_000_000_000_001)
        assert await store.is_final_post(9_000_000_000_000_002)
        assert not await store.is_final_post(9_000_000_000_000_003)
        rows = await store.query("SELECT message_id, session_id, kind FROM final_posts"
                                 " ORDER BY message_id")
        assert [tuple(row) for row in rows] == [(9_000_000_000_000_001, created.id, "post"),
                                                (9_000_000_000_000_002, created.id, "table")]
    finally:
        await store.close()
