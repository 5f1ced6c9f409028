"""The seasons extension (``bot.load_extension("cogs.seasons.extension")``): the end-of-season
post (``cogs.seasons.season_announcer``) as the season watcher's notifier. Each of its requests
waits in the process's request budget."""

from __future__ import annotations

from bot.process.client import TableBot
from cogs.seasons.season_announcer import SeasonAnnouncer
from cogs.table_services import table_of


async def setup(bot: TableBot) -> None:
    # A chat's season end rides on its next click, through the table's message routes.
    bot.season_watcher.notifier = SeasonAnnouncer(bot, bot.budget, table_of(bot).routes)
