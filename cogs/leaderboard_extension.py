"""The leaderboard extension (``bot.load_extension("cogs.leaderboard_extension")``): /leaderboard,
/stats, /history (``cogs.commands.leaderboard_commands``) and their page buttons."""

from __future__ import annotations

from bot.process.client import TableBot
from cogs.commands.leaderboard_commands import LEADERBOARD_ITEMS, LeaderboardCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(LeaderboardCog())
    bot.add_dynamic_items(*LEADERBOARD_ITEMS)
