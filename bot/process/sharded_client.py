"""The client class of a process: ``TableBot``, or over shards (``SHARD_COUNT`` set) the same
bot on ``discord.ext.commands.AutoShardedBot``, which runs the shards of its set in one
process (``shard_count``, ``shard_ids`` from ``bot.records.shards.ShardSet.client_options``)."""

from __future__ import annotations

from discord.ext import commands

from bot.process.client import TableBot
from bot.process.env_settings import Settings
from bot.process.ownership import Ownership


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """``TableBot`` whose connection is ``AutoShardedClient``'s (one websocket per shard)."""


def make_bot(settings: Settings, ownership: Ownership) -> TableBot:
    kind = ShardedTableBot if ownership.shards.sharded else TableBot
    return kind(settings, ownership=ownership)
