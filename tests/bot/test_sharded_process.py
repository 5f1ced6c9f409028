"""The process side of shards: refusing a partial set on SQLite, the client class and its
options, and commands synced only by the owner of shard 0."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.process.env_settings import Settings
from bot.process.ownership import Ownership
from bot.process.sharded_client import ShardedTableBot, make_bot
from bot.records.shards import ShardSet
from bot.store import open_store
from tests.bot.test_process import GOOD_TOKEN, run_bot


def test_a_partial_shard_set_on_sqlite_exits_2_with_one_line(tmp_path: Path) -> None:
    proc = run_bot(tmp_path, DISCORD_TOKEN=GOOD_TOKEN, SHARD_COUNT="2", SHARD_IDS="1")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "cannot share a SQLite file" in proc.stderr and "postgresql://" in proc.stderr


def settings(tmp_path: Path, **values: object) -> Settings:
    return Settings(discord_token=GOOD_TOKEN, database_path=tmp_path / "db.sqlite3",
                    _env_file=None, **values)  # type: ignore[call-arg]


async def test_the_client_runs_its_shards(tmp_path: Path) -> None:
    plain = make_bot(settings(tmp_path), Ownership.whole())
    assert not isinstance(plain, discord.AutoShardedClient)
    shards = ShardSet.of(4, {1, 3})
    sharded = make_bot(settings(tmp_path), Ownership(shards))
    assert isinstance(sharded, ShardedTableBot) and isinstance(sharded, discord.AutoShardedClient)
    assert sharded.shard_count == 4 and sharded.shard_ids == [1, 3]
    every = make_bot(settings(tmp_path, shard_count=2), Ownership(ShardSet.of(2)))
    assert every.shard_count == 2 and every.shard_ids is None  # discord.py runs them all


async def test_commands_are_synced_only_by_the_owner_of_shard_0(tmp_path: Path) -> None:
    from cogs.commands.game_commands import GameCog
    from cogs.table_services import TableServices
    from cogs.ui_registry import GameUIs

    synced: list[int] = []
    for shard in (1, 0):
        bot = make_bot(settings(tmp_path), Ownership(ShardSet.of(2, {shard})))
        await bot.__aenter__()  # the client's asyncio parts (close() needs them)
        bot.store = await open_store(tmp_path / "db.sqlite3")

        async def fake_sync(*, guild: discord.abc.Snowflake | None = None,
                            shard: int = shard) -> list[object]:
            synced.append(shard)
            return []

        bot.tree.sync = fake_sync  # type: ignore[method-assign]
        try:
            await bot.add_cog(GameCog(TableServices(GameUIs({}))))
            assert await bot.sync_commands() is (shard == 0)
        finally:
            await bot.close()
    assert synced == [0]
