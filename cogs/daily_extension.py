"""The daily extension (``bot.load_extension("cogs.daily_extension")``): ``/daily``
(``cogs.commands.daily_commands``), its Share button, what a daily's private message adds
below the table, and the listener that records a finished daily's score (``bot.daily``).
Loaded after the table extension, whose services it joins."""

from __future__ import annotations

from bot.daily.service import DailyDeals
from bot.process.client import TableBot
from bot.records.session import SessionKind
from cogs.commands.daily_commands import DAILY_ITEMS, DailyCog, daily_addon
from cogs.table_services import services_of


async def setup(bot: TableBot) -> None:
    secret = bot.settings.daily_secret
    daily = DailyDeals(bot.manager, secret=secret.get_secret_value() if secret else None,
                       clock=bot.clock)
    services = services_of(bot)
    services.daily = daily
    services.private_addons[SessionKind.DAILY] = daily_addon
    bot.manager.subscribe(daily.on_change)
    await bot.add_cog(DailyCog())
    bot.add_dynamic_items(*DAILY_ITEMS)
