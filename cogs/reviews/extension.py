"""The reviews extension (``bot.load_extension("cogs.reviews.extension")``): the My review
button's click (``cogs.reviews.review_pages``) and the queueing of a finished game's reviews
(``bot.reviews.Reviewer``), registered with the table by the cog. Loaded after the table
extension."""

from __future__ import annotations

from discord.ext import commands

from bot.process.client import TableBot
from bot.sessions.manager import Listener
from cogs.features import Feature, Place
from cogs.kit.custom_ids import ReplayTag, ReviewButton
from cogs.reviews.review_pages import review_click
from cogs.table_services import TableServices, table_of


class ReviewsCog(commands.Cog):
    """Registers the My review button and the reviews' listener with the table
    (:meth:`cog_load`); ``queue``: the reviewer's listener (``bot.reviews``)."""

    def __init__(self, table: TableServices, queue: Listener) -> None:
        self.table = table
        self.queue = queue

    def feature(self) -> Feature:
        return Feature(
            "reviews",
            controls={ReviewButton: lambda ia, parts, _: review_click(
                ia, parts[0], parts[1], parts[2] is ReplayTag.OPEN)},
            listeners={Place.REVIEWS: self.queue},
        )

    async def cog_load(self) -> None:
        self.table.features.register(self.feature())


async def setup(bot: TableBot) -> None:
    await bot.add_cog(ReviewsCog(table_of(bot), bot.reviews.on_change))
