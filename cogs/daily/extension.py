"""The daily extension (``bot.load_extension("cogs.daily.extension")``): ``/daily``
(``cogs.daily.commands``), its Share button, what a daily's private message adds below the
table, and the listener that scores a finished daily (``bot.daily``), registered with the table
by the cog. Loaded after the table extension."""

from __future__ import annotations

from bot.process.client import TableBot
from cogs.daily.commands import DailyCog
from cogs.table_services import table_of


async def setup(bot: TableBot) -> None:
    await bot.add_cog(DailyCog(table_of(bot), bot.daily))
