"""The admin extension (``bot.load_extension("cogs.admin.extension")``): ``/admin health``
(``cogs.admin.admin_commands``)."""

from __future__ import annotations

from bot.process.client import TableBot
from cogs.admin.admin_commands import AdminCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(AdminCog())
