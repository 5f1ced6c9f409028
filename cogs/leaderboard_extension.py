"""The leaderboard extension (``bot.load_extension("cogs.leaderboard_extension")``): /leaderboard,
/stats, /history (``cogs.commands.leaderboard_commands``), their page buttons, and the
end-of-season post (``cogs.listeners.season_announcer``, the season watcher's notifier)."""

from __future__ import annotations

from bot.process.client import TableBot
from cogs.commands.leaderboard_commands import LEADERBOARD_ITEMS, LeaderboardCog
from cogs.listeners.season_announcer import SeasonAnnouncer


async def setup(bot: TableBot) -> None:
    await bot.add_cog(LeaderboardCog())
    bot.add_dynamic_items(*LEADERBOARD_ITEMS)
    bot.season_watcher.notifier = SeasonAnnouncer(bot)
