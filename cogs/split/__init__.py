"""SPLIT's Discord UI, a discord.py extension: ``setup`` registers :class:`SplitUI`.

``ui`` (the GameUI: table, private view, clicks, round-summary announcements), ``table``
(public messages), ``hand`` (the private view and its controls), ``format`` (shared words and
layout) and ``rules_text`` (the /rules pages). The game is imported only through
``game.split``'s public names.
"""

from __future__ import annotations

from bot.process.client import TableBot
from cogs.split.ui import SplitUI
from cogs.table_services import table_of

__all__ = ["SplitUI", "setup"]


async def setup(bot: TableBot) -> None:
    table_of(bot).uis.register(SplitUI(bot.manager.engine("split")))
