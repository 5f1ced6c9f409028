"""The table extension (``bot.load_extension("cogs.table_extension")``): commands, components and
the listeners that keep the channel current.

``setup(bot)`` makes the bot's services (``cogs.table_services.TableServices``: the game UI
registry, the pictures, the click handlers, the table publisher...) and sets them on the client,
adds :class:`cogs.commands.game_commands.GameCog`, registers the table controls
(``cogs.kit.custom_ids``), installs the command tree's error hook, checks every slash command's
options before it runs (``cogs.kit.option_check``), subscribes every listener of
the manager in their one declared order (:func:`listeners`), counts the messages below each
table (``cogs.listeners.table_watch``), makes the publisher the notifier of the machine players
and the turn clock, and installs the catch-up after a restart. Then it loads each game's UI
package (``cogs.<game key>``, when there is one), whose own ``setup`` registers its GameUI.

Extension modules only wire: discord.py executes an extension module afresh when it loads it,
so the classes live in the modules they import.
"""

from __future__ import annotations

import functools
import importlib.util

from bot.process.client import TableBot
from bot.sessions.manager import Listener
from cogs.clicks import table_clicks
from cogs.commands.game_commands import GameCog
from cogs.commands.game_threads import ThreadArchiver
from cogs.commands.images_command import ImagesCog
from cogs.commands.learn_command import LearnCog
from cogs.i18n.commands import CatalogTranslator
from cogs.kit.custom_ids import TABLE_CONTROLS
from cogs.kit.message_routes import MessageRoutes
from cogs.kit.option_check import check_options
from cogs.kit.unexpected_errors import on_command_error
from cogs.listeners.announcer import Announcer
from cogs.listeners.final_post import FinalPost
from cogs.listeners.private_tables import EndedPrivateTables, PrivateTables, public_only
from cogs.listeners.table_publisher import TablePublisher
from cogs.listeners.table_watch import TableWatch
from cogs.listeners.turn_ping import TurnPing
from cogs.listeners.view_follow import ViewFollower
from cogs.rendering.pictures import Pictures, latest_version
from cogs.settings.settings_cache import stored_settings
from cogs.table_services import TableServices
from cogs.ui_registry import GameUIs


def listeners(bot: TableBot, services: TableServices, publisher: TablePublisher,
              turn_ping: TurnPing) -> tuple[Listener, ...]:
    """Every listener of the manager's changes, in the order each change is delivered to
    them: the table, the round summaries, the ping, the final post, then a game's thread is
    archived and the tokens of its messages forgotten; the followed private views, the
    channel health; last the machine seats and the turn clock, so a change is drawn and
    posted before a machine seat's worker or the clock looks at it; the reviews of a finished
    game are queued last. The channel's listeners (and the reviews, opened from the final
    post) never hear of a private table (``cogs.listeners.private_tables``)."""
    channel = (
        publisher.on_change,
        Announcer(bot).on_change,
        turn_ping.on_change,
        FinalPost(bot).on_change,
        ThreadArchiver(bot).on_change,
        services.routes.on_change,
        ViewFollower(bot).on_change,
        services.health.on_change,
    )
    return (
        *(public_only(listener) for listener in channel),
        bot.autoplay.on_change,
        bot.turn_clock.on_change,
        EndedPrivateTables(bot).on_change,
        public_only(bot.reviews.on_change),
    )


async def setup(bot: TableBot) -> None:
    manager = bot.manager
    # Command names and descriptions for Discord's Spanish locales (before the tree syncs).
    await bot.tree.set_translator(CatalogTranslator())
    pictures = Pictures(default_on=bot.settings.images, processes=bot.settings.image_processes)
    pictures.current = functools.partial(latest_version, manager)
    if pictures.default_on:
        pictures.start()  # else the workers start with the first picture a server asks for
    watch = TableWatch(manager)
    publisher = TablePublisher(bot, run_debounce=bot.settings.table_run_debounce, watch=watch)
    services = TableServices(GameUIs(manager.engines), table_clicks, pictures=pictures,
                             bot_levels=bot.settings.offered_bot_levels, publisher=publisher,
                             routes=MessageRoutes(bot.budget))
    bot.services = services
    await bot.add_cog(GameCog(services))
    await bot.add_cog(ImagesCog())
    await bot.add_cog(LearnCog(services))
    bot.add_dynamic_items(*TABLE_CONTROLS)
    bot.tree.error(on_command_error)
    # Every slash command's options are checked against its declaration before it runs (a
    # forged command is refused, not run): the tree's global check, replaced on this tree.
    bot.tree.interaction_check = check_options  # type: ignore[method-assign]
    bot.add_listener(watch.on_message, "on_message")
    bot.add_listener(watch.on_raw_message_delete, "on_raw_message_delete")
    bot.add_listener(watch.on_raw_bulk_message_delete, "on_raw_bulk_message_delete")
    turn_ping = TurnPing(bot)
    publisher.on_moved = turn_ping.relink
    for listener in listeners(bot, services, publisher, turn_ping):
        manager.subscribe(listener)
    notifier = PrivateTables(bot, publisher)  # a private table's redraws edit its message
    bot.autoplay.notifier = notifier
    bot.turn_clock.notifier = notifier

    async def catch_up(ping_again: bool) -> int:
        then = turn_ping.ping_again if ping_again else None
        sessions = [session for session in manager.live_sessions() if not session.is_private]
        settings = stored_settings(manager.store)
        for guild_id in {session.guild_id for session in sessions}:
            await settings.guild(guild_id)  # the redrawn tables speak the server's language
        return await publisher.catch_up(sessions, then=then)

    bot.catch_up = catch_up
    for key in manager.engines:
        package = f"cogs.{key}"
        if importlib.util.find_spec(package) is not None:
            await bot.load_extension(package)
