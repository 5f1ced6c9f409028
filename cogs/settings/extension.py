"""The settings extension (``bot.load_extension("cogs.settings.extension")``): /config (a server's
settings) and /language (a person's own language)."""

from __future__ import annotations

from bot.process.client import TableBot
from cogs.settings.config_command import ConfigCog
from cogs.settings.language_command import LanguageCog


async def setup(bot: TableBot) -> None:
    await bot.add_cog(ConfigCog())
    await bot.add_cog(LanguageCog())
