"""The table extension (``bot.load_extension("cogs.table")``): commands, components and the
listeners that keep the channel current.

``setup(bot)`` adds :class:`cogs.game_cog.GameCog` (which holds the game UI registry),
registers the table controls (``cogs.ids``), installs the command tree's error hook,
checks every slash command's options before it runs (``cogs.option_check``), subscribes the
table publisher, the announcer, the turn ping, the final post, the view
follower (``cogs.view_follow``) and the channel health (``cogs.channel_health``) to the manager,
counts the messages below each table (``cogs.table_watch``), makes the
publisher the notifier of the machine players and the turn clock, and installs the catch-up
after a restart. Then it loads each game's UI package (``cogs.<game key>``, when there is
one), whose own ``setup`` registers its GameUI.

Extension modules only wire: discord.py executes an extension module afresh when it loads it,
so the classes live in the modules they import.
"""

from __future__ import annotations

import functools
import importlib.util

from bot.client import TableBot
from cogs.announcer import Announcer
from cogs.final_post import FinalPost
from cogs.game_cog import GameCog
from cogs.i18n.commands import CatalogTranslator
from cogs.ids import TABLE_CONTROLS
from cogs.images_cog import ImagesCog
from cogs.option_check import check_options
from cogs.pictures import Pictures, latest_version
from cogs.publisher import TablePublisher
from cogs.registry import GameUIs
from cogs.stored_settings import stored_settings
from cogs.table_watch import TableWatch
from cogs.threads import ThreadArchiver
from cogs.turn_ping import TurnPing
from cogs.unexpected import on_command_error
from cogs.view_follow import ViewFollower


async def setup(bot: TableBot) -> None:
    manager = bot.manager
    # Command names and descriptions for Discord's Spanish locales (before the tree syncs).
    await bot.tree.set_translator(CatalogTranslator())
    pictures = Pictures(default_on=bot.settings.images, processes=bot.settings.image_processes)
    pictures.current = functools.partial(latest_version, manager)
    if pictures.default_on:
        pictures.start()  # else the workers start with the first picture a server asks for
    cog = GameCog(GameUIs(manager.engines), pictures, bot.settings.offered_bot_levels)
    await bot.add_cog(cog)
    await bot.add_cog(ImagesCog())
    bot.add_dynamic_items(*TABLE_CONTROLS)
    bot.tree.error(on_command_error)
    # Every slash command's options are checked against its declaration before it runs (a
    # forged command is refused, not run): the tree's global check, replaced on this tree.
    bot.tree.interaction_check = check_options  # type: ignore[method-assign]
    watch = TableWatch(manager)
    bot.add_listener(watch.on_message, "on_message")
    bot.add_listener(watch.on_raw_message_delete, "on_raw_message_delete")
    bot.add_listener(watch.on_raw_bulk_message_delete, "on_raw_bulk_message_delete")
    publisher = TablePublisher(bot, run_debounce=bot.settings.table_run_debounce, watch=watch)
    turn_ping = TurnPing(bot)
    publisher.on_moved = turn_ping.relink
    cog.publisher = publisher
    # In this order: the table, the round summaries, the ping, at the end the final post, then
    # a game's thread is archived.
    manager.subscribe(publisher.on_change)
    manager.subscribe(Announcer(bot).on_change)
    manager.subscribe(turn_ping.on_change)
    manager.subscribe(FinalPost(bot).on_change)
    manager.subscribe(ThreadArchiver(bot).on_change)
    manager.subscribe(ViewFollower(bot).on_change)
    manager.subscribe(cog.health.on_change)
    bot.autoplay.notifier = publisher
    bot.turn_clock.notifier = publisher

    async def catch_up(ping_again: bool) -> int:
        then = turn_ping.ping_again if ping_again else None
        sessions = manager.live_sessions()
        settings = stored_settings(manager.store)
        for guild_id in {session.guild_id for session in sessions}:
            await settings.guild(guild_id)  # the redrawn tables speak the server's language
        return await publisher.catch_up(sessions, then=then)

    bot.catch_up = catch_up
    for key in manager.engines:
        package = f"cogs.{key}"
        if importlib.util.find_spec(package) is not None:
            await bot.load_extension(package)
