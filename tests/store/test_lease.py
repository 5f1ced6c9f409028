"""Leases and fencing on PostgreSQL (``bot.store.lease``), and the shard filter of restores (both
backends). The PostgreSQL tests skip without a server (fail with CI=true; see conftest)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import asyncpg
import pytest

from bot.records.session import Session, Status
from bot.records.shards import ShardSet
from bot.store import open_store
from bot.store.lease import Lease, LeaseLost
from bot.store.postgres import PostgresStore
from tests.bot.conftest import seat

on_postgres = pytest.mark.parametrize("backend", ["postgresql"])
TWO = ShardSet.of(2)
FIRST, SECOND = ShardSet.of(2, {0}), ShardSet.of(2, {1})


def active(guild_id: int, channel_id: int) -> Session:
    return Session(id=0, guild_id=guild_id, channel_id=channel_id, game="count",
                   status=Status.ACTIVE, host_id="1", seats=(seat(1), seat(2)),
                   options={"target": 10}, state={"n": 0})


async def terminate_backend(url: str, pid: int) -> None:
    """What the server does to the connection of a killed process or a lost host."""
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await conn.close()


async def lease_waits(url: str, query: str) -> int:
    """How many lease connections the server shows blocked on a lock in a statement that
    starts with ``query``."""
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'tablebot-lease %'"
            " AND wait_event_type = 'Lock' AND query LIKE $1", f"{query}%",
        ))
    finally:
        await conn.close()


async def until_blocked(url: str, query: str, timeout: float = 10.0) -> None:
    """Wait until the server shows a lease connection blocked in ``query``: from then on,
    what that connection waits for cannot have happened."""
    async with asyncio.timeout(timeout):
        while not await lease_waits(url, query):
            await asyncio.sleep(0.02)


ADVISORY_LOCK = "SELECT pg_advisory_lock("
EPOCH_BUMP = "UPDATE shard_leases SET epoch"


async def test_restore_loads_only_the_owned_guilds(db_url: str) -> None:
    store = await open_store(db_url)
    try:
        guilds = [(n << 22) | 99 for n in range(6)]  # shards 0, 1, 0, 1, ... of 2
        for channel, guild in enumerate(guilds, start=1):
            await store.create_session(active(guild, channel))
        first = await store.load_sessions([Status.ACTIVE], shards=FIRST)
        second = await store.load_sessions([Status.ACTIVE], shards=SECOND)
        assert [s.guild_id for s in first] == guilds[0::2]
        assert [s.guild_id for s in second] == guilds[1::2]
        assert len(await store.load_sessions([Status.ACTIVE], shards=TWO)) == 6
        assert len(await store.load_sessions([Status.ACTIVE])) == 6
    finally:
        await store.close()


async def test_a_group_dms_session_is_restored_by_the_owner_of_shard_0(db_url: str) -> None:
    """Discord delivers DM and group-DM events on shard 0, whatever the channel's id: a chat's
    session (its place is its channel, issue 39) belongs to shard 0's process."""
    store = await open_store(db_url)
    try:
        chat = (1 << 22) | 7  # by the guild arithmetic it would be on shard 1 of 2
        await store.create_session(active(chat, chat))
        assert [s.channel_id for s in await store.load_sessions([Status.ACTIVE],
                                                                 shards=FIRST)] == [chat]
        assert await store.load_sessions([Status.ACTIVE], shards=SECOND) == []
    finally:
        await store.close()


@on_postgres
async def test_two_leases_race_one_owns_the_other_waits(db_url: str) -> None:
    waited: list[str] = []
    first = asyncio.create_task(Lease.acquire(db_url, TWO, on_wait=lambda: waited.append("a")))
    second = asyncio.create_task(Lease.acquire(db_url, TWO, on_wait=lambda: waited.append("b")))
    done, pending = await asyncio.wait({first, second}, return_when=asyncio.FIRST_COMPLETED)
    await until_blocked(db_url, ADVISORY_LOCK)  # the other one waits in the server
    assert len(done) == 1 and len(pending) == 1 and len(waited) == 1
    (owner_task,), (standby,) = done, pending
    owner = owner_task.result()
    assert not standby.done()
    await owner.release()
    taker = await asyncio.wait_for(standby, 5.0)
    try:
        assert [e - 1 for e in taker.fence.epochs] == list(owner.fence.epochs)
        assert not taker.lost.is_set()
        assert not owner.lost.is_set()  # released, not lost
    finally:
        await taker.release()


@on_postgres
async def test_disjoint_shard_sets_are_held_at_once(db_url: str) -> None:
    a = await asyncio.wait_for(Lease.acquire(db_url, FIRST), 5.0)
    b = await asyncio.wait_for(Lease.acquire(db_url, SECOND), 5.0)
    await a.release()
    await b.release()


@on_postgres
async def test_fencing_refuses_the_old_owners_writes(db_url: str) -> None:
    old = await Lease.acquire(db_url, TWO)
    old_store = await open_store(db_url, fence=old.fence)
    created = await old_store.create_session(active(1 << 22, 1))
    v2 = replace(created, state={"n": 1}, version=2)
    await old_store.record_action(v2, "1", {"add": 1})
    # The server drops the old owner's lease connection (its pool stays open: a partition).
    await terminate_backend(db_url, old.server_pid)
    new = await asyncio.wait_for(Lease.acquire(db_url, TWO), 5.0)
    new_store = await open_store(db_url, fence=new.fence)
    try:
        v3 = replace(v2, state={"n": 2}, version=3)
        with pytest.raises(LeaseLost):
            await old_store.record_action(v3, "2", {"add": 1})  # one statement, fenced
        assert old.lost.is_set()
        with pytest.raises(LeaseLost):
            await old_store.save_session(replace(v2, table_message_id=5))
        with pytest.raises(LeaseLost):
            await old_store.create_session(active(1 << 22, 2))
        with pytest.raises(LeaseLost):
            await old_store.set_meta("k", "v")
        assert [a.seq for a in await new_store.actions(created.id)] == [2]
        assert await new_store.load_session(created.id) == v2
        # The new owner goes on from where the old one stopped.
        await new_store.record_action(v3, "2", {"add": 1})
        assert [a.seq for a in await new_store.actions(created.id)] == [2, 3]
    finally:
        await old_store.close()
        await new_store.close()
        await new.release()
        await old.release()


@on_postgres
async def test_a_write_in_flight_holds_the_takeover_back(db_url: str) -> None:
    old = await Lease.acquire(db_url, TWO)
    store = await open_store(db_url, fence=old.fence)
    try:
        assert isinstance(store, PostgresStore)
        async with store._transaction() as tx:  # the fence row is share-locked until commit
            await terminate_backend(db_url, old.server_pid)
            taking = asyncio.create_task(Lease.acquire(db_url, TWO))
            await until_blocked(db_url, EPOCH_BUMP)
            assert not taking.done()  # the epoch increment waits for this write
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("in-flight", "1"))
        new = await asyncio.wait_for(taking, 5.0)
        assert await store.get_meta("in-flight") == "1"
        with pytest.raises(LeaseLost):
            await store.set_meta("after", "1")
        await new.release()
    finally:
        await store.close()
        await old.release()


@on_postgres
async def test_standby_takes_over_when_the_owner_connection_dies(db_url: str) -> None:
    owner = await Lease.acquire(db_url, SECOND)
    standing_by = asyncio.Event()
    standby = asyncio.create_task(Lease.acquire(db_url, SECOND, on_wait=standing_by.set))
    await asyncio.wait_for(standing_by.wait(), 5.0)
    killed = time.monotonic()
    await terminate_backend(db_url, owner.server_pid)
    taker = await asyncio.wait_for(standby, 10.0)
    print(f"the standby took over {time.monotonic() - killed:.2f} s after the owner's end")
    try:
        # The old owner notices too (its lease connection is gone): it stops owning.
        await asyncio.wait_for(owner.lost.wait(), 10.0)
        assert taker.fence.epochs[0] == owner.fence.epochs[0] + 1
    finally:
        await taker.release()
        await owner.release()


@on_postgres
async def test_a_standby_that_gives_up_holds_nothing(db_url: str) -> None:
    owner = await Lease.acquire(db_url, FIRST)
    standby = asyncio.create_task(Lease.acquire(db_url, FIRST))
    await until_blocked(db_url, ADVISORY_LOCK)
    standby.cancel()
    with pytest.raises(asyncio.CancelledError):
        await standby
    await owner.release()
    again = await asyncio.wait_for(Lease.acquire(db_url, FIRST), 5.0)
    await again.release()
