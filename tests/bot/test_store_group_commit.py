"""Group commit in the SQLite store's record_action: concurrent actions share one transaction,
and one bad write never fails (or changes) another session. (The PostgreSQL store writes each
action in its own transaction; the contract suite in tests/store covers both.)"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

import bot.store.sqlite as sqlite_store
from bot.records.change import Change
from bot.records.errors import SaveFailed, StaleWrite
from bot.records.session import Session, Status
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from tests.bot.conftest import seat
from tests.testgame import Add


async def active(store: Store, channel_id: int) -> Session:
    return await store.create_session(
        Session(id=0, guild_id=1, channel_id=channel_id, game="count", status=Status.ACTIVE,
                host_id="1", seats=(seat(1), seat(2)), state={"n": 0})
    )


def advanced(session: Session, n: int = 1) -> Session:
    return replace(session, state={"n": n}, version=session.version + 1)


def spy_batches(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """Record the session ids of every ``_write_batch`` call (one per transaction)."""
    batches: list[list[int]] = []
    write = store._write_batch  # type: ignore[attr-defined]

    async def spied(writes: Sequence[object]) -> None:
        batches.append([w.session_id for w in writes])  # type: ignore[attr-defined]
        await write(writes)

    monkeypatch.setattr(store, "_write_batch", spied)
    return batches


async def test_concurrent_actions_share_one_transaction(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = [await active(store, channel) for channel in (10, 11, 12)]
    batches = spy_batches(store, monkeypatch)
    await asyncio.gather(*(store.record_action(advanced(s), "1", {"add": 1}) for s in sessions))
    assert batches == [[s.id for s in sessions]]
    for session in sessions:
        assert await store.load_session(session.id) == advanced(session)
        assert [a.seq for a in await store.actions(session.id)] == [session.version + 1]


async def test_actions_arriving_during_a_transaction_go_into_the_next(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, third = [await active(store, channel) for channel in (10, 11, 12)]
    batches: list[list[int]] = []
    write = store._write_batch  # type: ignore[attr-defined]
    late: list[asyncio.Task[None]] = []

    async def spied(writes: Sequence[object]) -> None:
        batches.append([w.session_id for w in writes])  # type: ignore[attr-defined]
        if not late:
            late.extend(asyncio.create_task(store.record_action(advanced(s), "1", {"add": 1}))
                        for s in (second, third))
            await asyncio.sleep(0)  # both are queued while this transaction is open
        await write(writes)

    monkeypatch.setattr(store, "_write_batch", spied)
    await store.record_action(advanced(first), "1", {"add": 1})
    await asyncio.gather(*late)
    assert batches == [[first.id], [second.id, third.id]]
    for session in (first, second, third):
        assert await store.load_session(session.id) == advanced(session)


async def test_one_bad_write_in_a_batch_fails_alone(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    good_a, bad, good_b = [await active(store, channel) for channel in (10, 11, 12)]
    stored_bad = advanced(bad)
    await store.record_action(stored_bad, "1", {"add": 1})
    batches = spy_batches(store, monkeypatch)
    # Made against the version before the stored one: the conditional update refuses it.
    outcomes = await asyncio.gather(
        store.record_action(advanced(good_a), "1", {"add": 1}),
        store.record_action(advanced(bad, n=2), "2", {"add": 2}),
        store.record_action(advanced(good_b), "1", {"add": 1}),
        return_exceptions=True,
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StaleWrite)
    # The shared transaction failed, then each write went alone.
    assert batches == [[good_a.id, bad.id, good_b.id], [good_a.id], [bad.id], [good_b.id]]
    assert await store.load_session(bad.id) == stored_bad
    assert [a.action for a in await store.actions(bad.id)] == [{"add": 1}]
    for session in (good_a, good_b):
        assert await store.load_session(session.id) == advanced(session)
        assert len(await store.actions(session.id)) == 1


async def test_crash_between_action_rows_and_snapshots_writes_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = [await active(store, channel) for channel in (10, 11)]

    # The snapshots are updated, then the action rows fail (on the connection's thread,
    # where a batch without a finishing move is written in one call).
    monkeypatch.setattr(sqlite_store, "INSERT_ACTION", "INSERT INTO no_such_table VALUES (1)")
    outcomes = await asyncio.gather(
        *(store.record_action(advanced(s), "1", {"add": 1}) for s in sessions),
        return_exceptions=True,
    )
    assert all(isinstance(outcome, sqlite3.OperationalError) for outcome in outcomes)
    monkeypatch.undo()
    for session in sessions:
        assert await store.load_session(session.id) == session
        assert await store.actions(session.id) == []
    await store.record_action(advanced(sessions[0]), "1", {"add": 1})  # usable again
    assert await store.load_session(sessions[0].id) == advanced(sessions[0])


async def test_cancelled_before_its_transaction_is_not_written(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = [await active(store, channel) for channel in (10, 11)]
    write = store._write_batch  # type: ignore[attr-defined]
    late: list[asyncio.Task[None]] = []

    async def spied(writes: Sequence[object]) -> None:
        if not late:
            late.append(asyncio.create_task(store.record_action(advanced(second), "1", "x")))
            await asyncio.sleep(0)  # queued for the next transaction
            late[0].cancel()
        await write(writes)

    monkeypatch.setattr(store, "_write_batch", spied)
    await store.record_action(advanced(first), "1", {"add": 1})
    with pytest.raises(asyncio.CancelledError):
        await late[0]
    # The writer has moved past the cancelled write by the time this one is committed.
    await store.record_action(advanced(advanced(first), n=2), "2", {"add": 2})
    assert await store.load_session(second.id) == second
    assert await store.actions(second.id) == []


async def test_close_waits_for_queued_actions(db_path: Path) -> None:
    store = await open_store(db_path)
    sessions = [await active(store, channel) for channel in (10, 11, 12)]
    writes = [asyncio.create_task(store.record_action(advanced(s), "1", {"add": 1}))
              for s in sessions]
    await asyncio.sleep(0)
    await store.close()
    await asyncio.gather(*writes)
    reopened = await open_store(db_path)
    try:
        for session in sessions:
            assert await reopened.load_session(session.id) == advanced(session)
    finally:
        await reopened.close()


async def test_manager_session_with_a_failed_write_keeps_its_state(
    manager: SessionManager, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = []
    for channel in (10, 11, 12):
        lobby = await manager.open_lobby(1, channel, "count", seat(1))
        await manager.join(lobby.id, seat(2))
        started.append(await manager.start(lobby.id, "1"))
    bad = started[1]
    batches: list[list[int]] = []
    write_batch = store._write_batch  # type: ignore[attr-defined]

    async def refuses_bad(writes: Sequence[object]) -> None:
        batches.append([w.session_id for w in writes])  # type: ignore[attr-defined]
        if any(w.session_id == bad.id for w in writes):  # type: ignore[attr-defined]
            raise OSError("bad sector")
        await write_batch(writes)

    monkeypatch.setattr(store, "_write_batch", refuses_bad)
    outcomes = await asyncio.gather(
        *(manager.act(s.id, "1", s.version, Add(add=1)) for s in started),
        return_exceptions=True,
    )
    assert len(batches[0]) == 3  # they did share a transaction
    assert isinstance(outcomes[1], SaveFailed)
    assert manager.get(bad.id) is bad
    assert await store.actions(bad.id) == []
    assert (await store.load_session(bad.id)).version == bad.version
    for session, outcome in zip(started, outcomes, strict=True):
        if session is bad:
            continue
        assert isinstance(outcome, Change)
        assert manager.get(session.id) == outcome.session
        assert manager.get(session.id).state.total == 1
        assert (await store.load_session(session.id)).version == outcome.session.version
        assert len(await store.actions(session.id)) == 1
