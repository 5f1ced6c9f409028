"""The table extension (``bot.load_extension("cogs.table")``): commands, components and the
listeners that keep the channel current.

``setup(bot)`` adds :class:`cogs.game_cog.GameCog` (which holds the game UI registry),
registers the table controls (``cogs.ids``), installs the command tree's error hook,
subscribes the table publisher, the announcer and the turn ping to the manager, makes the
publisher the notifier of the machine players and the turn clock, and installs the catch-up
after a restart. Then it loads each game's UI package (``cogs.<game key>``, when there is
one), whose own ``setup`` registers its GameUI.

Extension modules only wire: discord.py executes an extension module afresh when it loads it,
so the classes live in the modules they import.
"""

from __future__ import annotations

import importlib.util

from bot.client import TableBot
from cogs.announcer import Announcer
from cogs.game_cog import GameCog
from cogs.ids import TABLE_CONTROLS
from cogs.images_cog import ImagesCog
from cogs.pictures import ON, Pictures
from cogs.publisher import TablePublisher
from cogs.registry import GameUIs
from cogs.turn_ping import TurnPing
from cogs.unexpected import on_command_error


async def setup(bot: TableBot) -> None:
    manager = bot.manager
    pictures = Pictures(default_on=bot.settings.images == ON,
                        processes=bot.settings.image_processes)
    if pictures.default_on:
        pictures.start()  # else the workers start with the first picture a server asks for
    await bot.add_cog(GameCog(GameUIs(manager.engines), pictures))
    await bot.add_cog(ImagesCog())
    bot.add_dynamic_items(*TABLE_CONTROLS)
    bot.tree.error(on_command_error)
    publisher = TablePublisher(bot, run_debounce=bot.settings.table_run_debounce)
    turn_ping = TurnPing(bot)
    manager.subscribe(publisher.on_change)
    manager.subscribe(Announcer(bot).on_change)
    manager.subscribe(turn_ping.on_change)
    bot.autoplay.notifier = publisher
    bot.turn_clock.notifier = publisher

    async def catch_up(ping_again: bool) -> int:
        then = turn_ping.ping_again if ping_again else None
        return await publisher.catch_up(manager.live_sessions(), then=then)

    bot.catch_up = catch_up
    for key in manager.engines:
        package = f"cogs.{key}"
        if importlib.util.find_spec(package) is not None:
            await bot.load_extension(package)
