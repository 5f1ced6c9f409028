"""The leaderboard extension (``bot.load_extension("cogs.leaderboard")``): /leaderboard,
/stats, /history (``cogs.leaderboard_cog``) and their page buttons."""

from __future__ import annotations

from bot.client import TableBot
from cogs.leaderboard_cog import LEADERBOARD_ITEMS, LeaderboardCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(LeaderboardCog())
    bot.add_dynamic_items(*LEADERBOARD_ITEMS)
