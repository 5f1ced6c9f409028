"""The settings extension (``bot.load_extension("cogs.config")``): /config (a server's
settings) and /language (a person's own language)."""

from __future__ import annotations

from bot.client import TableBot
from cogs.config_cog import ConfigCog
from cogs.language_cog import LanguageCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(ConfigCog())
    await bot.add_cog(LanguageCog())
