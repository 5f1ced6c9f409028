"""The leaderboard extension (``bot.load_extension("cogs.leaderboard.extension")``):
/leaderboard, /stats, /history (``cogs.leaderboard.commands``) and their page buttons,
registered with the table by the cog."""

from __future__ import annotations

from bot.process.client import TableBot
from cogs.leaderboard.commands import LeaderboardCog
from cogs.table_services import table_of


async def setup(bot: TableBot) -> None:
    await bot.add_cog(LeaderboardCog(table_of(bot)))
