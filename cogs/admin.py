"""The admin extension (``bot.load_extension("cogs.admin")``): ``/admin health``
(``cogs.ops.admin_cog``)."""

from __future__ import annotations

from bot.client import TableBot
from cogs.ops.admin_cog import AdminCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(AdminCog())
