"""The hints extension (``bot.load_extension("cogs.hints.extension")``): the Hint button's click
(``cogs.hints.hint_click``), its searches run in the bot's decision pool. Loaded after the table
extension."""

from __future__ import annotations

from discord.ext import commands

from bot.process.client import TableBot
from cogs.features import Feature
from cogs.hints.hint_button import hint_buttons
from cogs.hints.hint_click import HintClick, HintPool
from cogs.kit.custom_ids import HintButton
from cogs.table_services import TableServices, table_of


class HintsCog(commands.Cog):
    """Registers the Hint button with the table (:meth:`cog_load`)."""

    def __init__(self, table: TableServices, pool: HintPool) -> None:
        self.table = table
        self.click = HintClick(pool)

    def feature(self) -> Feature:
        click = self.click
        return Feature("hints", controls={HintButton: lambda ia, parts, _: click(ia, *parts)},
                       turn_items=hint_buttons)

    async def cog_load(self) -> None:
        self.table.features.register(self.feature())


async def setup(bot: TableBot) -> None:
    if bot.decisions is None:
        raise RuntimeError("the hints extension loads after the client made its decision pool")
    await bot.add_cog(HintsCog(table_of(bot), bot.decisions))
