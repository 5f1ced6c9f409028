"""TEN's Discord UI, a discord.py extension: ``setup`` registers :class:`TenUI`.

``ui`` (the GameUI: table, private view, clicks), ``controls`` (its controls, built with
``cogs.kit.control_menus``), ``text`` (words) and ``rules_text`` (the /rules pages). The game is
imported only through ``game.ten``'s public names.
"""

from __future__ import annotations

from bot.process.client import TableBot
from cogs.table_services import table_of
from cogs.ten.ui import TenUI

__all__ = ["TenUI", "setup"]


async def setup(bot: TableBot) -> None:
    table_of(bot).uis.register(TenUI(bot.manager.engine("ten")))
