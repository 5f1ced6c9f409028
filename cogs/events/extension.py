"""The events extension (``bot.load_extension("cogs.events.extension")``): ``/event`` and
the event post's buttons (``cogs.events.commands``), with the service (``bot.events``) made
here over the process's store, manager and clock. Loaded after the table extension."""

from __future__ import annotations

from bot.events.service import EventService
from bot.process.client import TableBot
from cogs.events.commands import EventsCog
from cogs.table_services import table_of


async def setup(bot: TableBot) -> None:
    store = bot.store
    if store is None:
        raise RuntimeError("the store opens before the extensions load")
    service = EventService(store, bot.manager, clock=bot.clock,
                           shards=bot.ownership.shards)
    await bot.add_cog(EventsCog(bot, table_of(bot), service))
