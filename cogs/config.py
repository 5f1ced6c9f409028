"""The server settings extension (``bot.load_extension("cogs.config")``): /config."""

from __future__ import annotations

from bot.client import TableBot
from cogs.config_cog import ConfigCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(ConfigCog())
