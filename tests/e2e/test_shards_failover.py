"""Issue 18: two bot processes with SHARD_COUNT=2 (one shard each) and a standby for shard 1,
on one PostgreSQL (``TEST_DATABASE_URL``), against the stand-in with one guild per shard.

A TEN game runs in each guild; the owner of shard 1 is SIGKILLed mid-game; its standby takes
the lease over, connects shard 1 and restores the game (each step waited for up to 10 s; the
time it took is printed, not asserted); both games finish. The stored games are the engine's
replay of their seeds and action rows (none lost, none twice), and each game's results are
written once. Skips without a PostgreSQL server (fails in CI).
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.records.shards import ShardSet
from bot.store.lease import Lease
from game.ten import TenEngine
from tests.e2e.pg_gamedb import PostgresGameDb
from tests.e2e.players import Replica, Strategy
from tests.e2e.scenario_support import BOT_ENV
from tests.e2e.table_play import TablePlay
from tests.e2e.test_scenario_ten import ten_rank
from tests.store.conftest import server_url, with_schema

TAKEOVER_SECONDS = 10.0


async def _run(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh schema on the test server (skip without one, fail when CI=true)."""
    server = server_url()
    try:
        asyncio.run(_run(server, "SELECT 1"))
    except Exception as err:
        reason = (f"no PostgreSQL server ({type(err).__name__}); set TEST_DATABASE_URL"
                  " or run .ci/run")
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {reason}")
        pytest.skip(reason)
    schema = f"e2e_{uuid.uuid4().hex[:12]}"
    asyncio.run(_run(server, f"CREATE SCHEMA {schema}"))
    try:
        yield with_schema(server, schema)
    finally:
        asyncio.run(_run(server, f"DROP SCHEMA {schema} CASCADE"))


@pytest.fixture
async def two_guilds() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.set_shard_count(2)
    for name in ("alice", "bob"):
        fake.add_user(name)
    for shard in (0, 1):
        guild = fake.add_guild(f"Shard {shard} games", shard=(shard, 2))
        fake.add_channel(f"ten-{shard}", guild_id=guild)
    async with fake:
        yield fake


def shard_bot(fd: FakeDiscord, workdir: Path, url: str, shard: int) -> BotProcess:
    env = {**BOT_ENV, "DATABASE_URL": url, "SHARD_COUNT": "2", "SHARD_IDS": str(shard)}
    return BotProcess(fd, workdir, dev_guild=False, extra_env=env, shard=shard)


async def wait_log(bot: BotProcess, text: str, timeout: float, what: str) -> None:
    """Until ``text`` is in the bot's output (lines arrive without waking ``fd.wait_for``)."""
    deadline = time.monotonic() + timeout
    while text not in bot.log_text():
        if not bot.running:
            raise AssertionError(f"bot exited while waiting for {what}\n{bot.log_text()}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {what} after {timeout} s\n{bot.log_text()}")
        await asyncio.sleep(0.05)


def results_rows(db: PostgresGameDb, session_id: int) -> int:
    return int(db._query("SELECT count(*) FROM results WHERE session_id = ?", session_id)[0][0])


async def test_two_shards_and_a_standby_take_over_mid_game(
    two_guilds: FakeDiscord, pg_url: str, tmp_path: Path
) -> None:
    fd = two_guilds
    alice, bob = fd.world.users.values()
    owner0 = shard_bot(fd, tmp_path / "owner0", pg_url, 0)
    owner1 = shard_bot(fd, tmp_path / "owner1", pg_url, 1)
    standby1 = shard_bot(fd, tmp_path / "standby1", pg_url, 1)
    db = PostgresGameDb(pg_url)
    try:
        await owner0.start()
        await owner0.wait_until(lambda: fd.commands(), 20.0, "the command sync")
        await owner1.start()
        await standby1.start(wait_ready=False)
        await wait_log(standby1, "standing by", 20.0, "standby")
        assert fd.world.command_syncs == 1  # only the owner of shard 0 syncs

        tables: list[TablePlay] = []
        for shard, bot in ((0, owner0), (1, owner1)):
            channel = fd.channel_named(f"ten-{shard}")
            table = TablePlay(fd, bot, channel, TenEngine(), Strategy(ten_rank, seed=shard))
            table.db = db
            await table.open("ten", alice, bob)
            tables.append(table)
        for _ in range(8):  # both games under way
            for table in tables:
                await table.step()

        killed = time.monotonic()
        await owner1.kill()
        await standby1.wait_until(standby1.connected, TAKEOVER_SECONDS,
                                  "the standby to connect shard 1")
        await wait_log(standby1, "restored 1 sessions", TAKEOVER_SECONDS, "restore")
        took = time.monotonic() - killed
        assert owner0.running and owner0.connected()  # shard 0 never noticed
        tables[1].bot = standby1
        # It resumes like a restart after a crash: the awaited player is pinged again.
        assert "the last stop was not clean" in standby1.log_text()
        await standby1.wait_until(lambda: sum(tables[1]._restart_pings().values()) == 1,
                                  TAKEOVER_SECONDS, "the ping that the table is back")
        back = [m.channel_id for m in fd.world.messages.values()
                if "back after an unexpected stop" in m.content]
        assert back == [tables[1].channel.id]  # shard 0 was never down

        for table in tables:
            await table.play_to_end()
        for table in tables:
            row = table.row()
            assert row.status == "finished"
            assert table.oracle.matches_stored(row), "the stored game is not the replay"
            replay = Replica.from_row(TenEngine(), row)
            replay.sync(db, table.session_id)
            assert replay.state == table.oracle.state and replay.seq == row.version
            expected = {r.player: (r.placement, r.score)
                        for r in replay.engine.results(replay.state)}
            assert db.results(table.session_id) == expected
            assert results_rows(db, table.session_id) == len(expected)  # written once
        for bot in (owner0, standby1):
            bad = [line for line in bot.output if "Traceback" in line]
            assert not bad, bot.log_text()
        assert fd.unknown_routes == []
        print(f"shard 1 taken over {took:.1f} s after the SIGKILL")
    finally:
        for bot in (owner0, owner1, standby1):
            await bot.close()
        db.close()


async def test_an_owner_that_loses_its_lease_stops(
    two_guilds: FakeDiscord, pg_url: str, tmp_path: Path
) -> None:
    fd = two_guilds
    owner = shard_bot(fd, tmp_path / "owner0", pg_url, 0)
    try:
        await owner.start()
        # The server drops the owner's lease connection (a partition, an operator) and
        # another process takes the lease: the owner stops owning and exits with 3.
        await _run(pg_url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                           " WHERE application_name = 'tablebot-lease 0/2'")
        taker = await asyncio.wait_for(Lease.acquire(pg_url, ShardSet.of(2, {0})), 10.0)
        try:
            assert await owner.exited(15.0) == 3  # with all its output read
            assert "lease of shards 0/2 lost" in owner.log_text()
            assert "Traceback" not in owner.log_text(), owner.log_text()
        finally:
            await taker.release()
    finally:
        await owner.close()
