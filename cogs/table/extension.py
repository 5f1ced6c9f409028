"""The table extension (``bot.load_extension("cogs.table.extension")``): commands, components and
the listeners that keep the channel current.

``setup(bot)`` makes the bot's services (``cogs.table_services.TableServices``: the game UI
registry, the pictures, the table publisher, the features' registry...) and sets them on the
client, adds :class:`cogs.commands.game_commands.GameCog`, registers the table core like any
feature (``cogs.features``: its controls with their clicks in ``cogs.clicks.table_clicks``, its
listeners at their places: :func:`listeners`), makes the client's ``dispatch_control`` (a
click's context, then its registered click: ``cogs.click_context``), subscribes the one
ordered list of places, installs the command tree's error hook, checks every slash command's
options before it runs (``cogs.commands.option_check``), counts the messages below each table
(``cogs.listeners.table_watch``), makes the publisher the notifier of the machine players and
the turn clock, and installs the catch-up after a restart. Then it loads each game's UI
package (``cogs.<game key>``, when there is one), whose own ``setup`` registers its GameUI.
The features (``cogs/daily``, ``cogs/learn``, ``cogs/hints``...) are extensions of their own,
loaded after this one; this module imports none of them.

Extension modules only wire: discord.py executes an extension module afresh when it loads it,
so the classes live in the modules they import.
"""

from __future__ import annotations

import functools
import importlib.util

from bot.process.client import TableBot
from bot.process.message_events import MESSAGE_SEEN
from bot.sessions.manager import Listener
from cogs import card_emoji_upload
from cogs.click_context import dispatcher
from cogs.clicks.table_clicks import table_controls
from cogs.commands.game_commands import GameCog
from cogs.commands.game_threads import ThreadArchiver
from cogs.commands.images_command import ImagesCog
from cogs.commands.option_check import check_options
from cogs.features import Feature, Place, TableFeatures
from cogs.i18n.catalogs import warm as warm_words
from cogs.i18n.commands import CatalogTranslator
from cogs.i18n.settings_cache import stored_settings
from cogs.kit.followed_views import FollowedViews
from cogs.kit.message_routes import MessageRoutes
from cogs.kit.unexpected_errors import on_command_error
from cogs.listeners.announcer import Announcer
from cogs.listeners.final_post import FinalPost
from cogs.listeners.private_tables import EndedPrivateTables, PrivateTables
from cogs.listeners.table_publisher import TablePublisher
from cogs.listeners.table_watch import TableWatch
from cogs.listeners.turn_ping import TurnPing
from cogs.listeners.view_follow import ViewFollower
from cogs.pictures import Pictures, latest_version
from cogs.table_services import TableServices
from cogs.ui_registry import GameUIs


def listeners(bot: TableBot, services: TableServices, publisher: TablePublisher,
              turn_ping: TurnPing) -> dict[Place, Listener]:
    """The table core's listeners, each at its place of the one ordered list
    (``cogs.features.Place``: the table, the round summaries, the ping, the final post, the
    thread archiver, the message routes, the followed private views, the channel health, the
    machine seats, the turn clock and the ended private tables). A feature places its own
    (the reviews, the daily's scores) when it registers."""
    return {
        Place.TABLE: publisher.on_change,
        Place.SUMMARIES: Announcer(bot, services).on_change,
        Place.PING: turn_ping.on_change,
        Place.FINAL_POST: FinalPost(bot, services).on_change,
        Place.THREADS: ThreadArchiver(bot, services.routes.budget).on_change,
        Place.ROUTES: services.routes.on_change,
        Place.VIEWS: ViewFollower(bot, services).on_change,
        Place.HEALTH: services.health.on_change,
        Place.MACHINES: bot.autoplay.on_change,
        Place.CLOCK: bot.turn_clock.on_change,
        Place.ENDED_PRIVATE: EndedPrivateTables(services).on_change,
    }


async def setup(bot: TableBot) -> None:
    manager = bot.manager
    # Command names and descriptions for Discord's Spanish locales (before the tree syncs).
    await bot.tree.set_translator(CatalogTranslator())
    warm_words()  # every language's catalog and number formats read now, not in a click
    pictures = Pictures(default_on=bot.settings.images, processes=bot.settings.image_processes)
    pictures.current = functools.partial(latest_version, manager)
    if pictures.default_on:
        pictures.start()  # else the workers start with the first picture a server asks for
    watch = TableWatch(manager)
    lifetime = bot.settings.token_lifetime_seconds  # Discord's 15 minutes (tests shorten it)
    services = TableServices(GameUIs(manager.engines), pictures=pictures,
                             bot_levels=bot.settings.offered_bot_levels,
                             routes=MessageRoutes(bot.budget, lifetime=lifetime),
                             views=FollowedViews(lifetime=lifetime),
                             features=TableFeatures(bot.add_dynamic_items))
    publisher = TablePublisher(bot, services, run_debounce=bot.settings.table_run_debounce,
                               watch=watch)
    services.publisher = publisher
    bot.services = services  # read once by each feature's extension (table_of)
    await bot.add_cog(GameCog(services))
    await bot.add_cog(ImagesCog(services.pictures))
    bot.tree.error(on_command_error)
    # Every slash command's options are checked against its declaration before it runs (a
    # forged command is refused, not run): the tree's global check, replaced on this tree.
    bot.tree.interaction_check = check_options  # type: ignore[method-assign]
    bot.add_listener(watch.on_raw_message_seen, f"on_{MESSAGE_SEEN}")
    bot.add_listener(watch.on_raw_message_delete, "on_raw_message_delete")
    bot.add_listener(watch.on_raw_bulk_message_delete, "on_raw_bulk_message_delete")
    turn_ping = TurnPing(bot, services)
    publisher.on_moved = turn_ping.relink
    bot.dispatch_control = dispatcher(services)  # a control's click: context, then its click
    services.features.register(Feature("table", controls=table_controls(),
                                       listeners=listeners(bot, services, publisher, turn_ping)))
    services.features.subscribe(manager)  # every place, in order; features fill theirs later
    notifier = PrivateTables(bot, services, publisher)  # a private table's redraws edit its message
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
    if bot.settings.card_emojis:  # the cards' faces as the application's emojis
        card_emoji_upload.start(bot, services.uis)
