"""The learn extension (``bot.load_extension("cogs.learn.extension")``): ``/learn``
(``cogs.learn.command``) and its tutor, the ``learn`` kind's add-on to the private table's
message, registered with the table by the cog. Loaded after the table extension."""

from __future__ import annotations

from bot.process.client import TableBot
from cogs.learn.command import LearnCog
from cogs.table_services import table_of


async def setup(bot: TableBot) -> None:
    await bot.add_cog(LearnCog(table_of(bot), bot.manager))
