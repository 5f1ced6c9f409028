"""The seasons extension (``bot.load_extension("cogs.seasons.extension")``): the end-of-season
post (``cogs.seasons.season_announcer``) as the season watcher's notifier. Each of its requests
waits in the process's request budget."""

from __future__ import annotations

from bot.process.client import TableBot
from cogs.seasons.season_announcer import SeasonAnnouncer


async def setup(bot: TableBot) -> None:
    bot.season_watcher.notifier = SeasonAnnouncer(bot, bot.budget)
