"""What the cogs share, one typed object per bot: :class:`TableServices`.

The table extension (``cogs.table.extension``) makes it and sets it on the client
(``TableBot.services``). A feature's extension reads it once, when it makes its cog
(:func:`table_of`); a click or a command reads it from its context
(``cogs.click_context.context_of``); a listener is made with it; a render is given it (or the
one part it needs). Nothing looks it up at run time. The process's own parts stay
the client's: ``client.manager``, ``client.settings``, ``client.leaderboards``,
``client.autoplay``, ``client.turn_clock``, ``client.daily``.
Tests give their fake client the same attribute (``tests/fakes.py``).

This module imports only what the services are made of (none of which imports it back), so
every other cogs module may import it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from bot.process.client import TableBot
from bot.records.session import Session
from bot.sessions.manager import BOT_LEVELS
from cogs.features import TableFeatures
from cogs.kit.channel_health import ChannelHealth
from cogs.kit.followed_views import FollowedViews
from cogs.kit.message_routes import MessageRoutes
from cogs.pictures import Pictures
from cogs.replay_cache import ReplayCache
from cogs.ui_registry import GameUIs


class Publisher(Protocol):
    """The table publisher as the commands see it
    (``cogs.listeners.table_publisher.TablePublisher``):
    ``on_moved`` (the turn ping's relink) runs after a table moved."""

    on_moved: Callable[[Session], Awaitable[object]] | None


def _no_pictures() -> Pictures:
    return Pictures(default_on=False)


@dataclass(eq=False)
class TableServices:
    """``uis``: the game UI registry; ``pictures``: tables and hands drawn (off unless set per
    server without one given); ``bot_levels``: the machine levels the lobby offers; ``replays``: the
    built replays; ``health``: channels that refuse the bot's posts; ``views``: each player's
    latest private view; ``publisher``: the table publisher, once the table extension made it;
    ``routes``: where public messages are written (tokens, else the channel in the budget);
    ``features``: what the features registered (``cogs.features``: their listeners' places,
    their private add-ons). A feature's own parts stay in its package: this object does not
    grow per feature."""

    uis: GameUIs
    pictures: Pictures = field(default_factory=_no_pictures)
    bot_levels: tuple[str, ...] = BOT_LEVELS
    replays: ReplayCache = field(default_factory=ReplayCache)
    health: ChannelHealth = field(default_factory=ChannelHealth)
    views: FollowedViews = field(default_factory=FollowedViews)
    publisher: Publisher | None = None
    routes: MessageRoutes = field(default_factory=MessageRoutes)
    features: TableFeatures = field(default_factory=TableFeatures)


def table_of(client: TableBot) -> TableServices:
    """The table's services, for a feature extension's ``setup`` (RuntimeError before the table
    extension made them): read once there, when the feature is made and registered, never at
    run time."""
    services = client.services
    if not isinstance(services, TableServices):
        raise RuntimeError("the table extension (cogs.table.extension) is not loaded")
    return services
