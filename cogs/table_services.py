"""What the cogs share, one typed object per bot: :class:`TableServices`.

The table extension (``cogs.table_extension``) makes it and sets it on the client
(``TableBot.services``); a cog, a handler or a listener reaches it through the typed client
with :func:`services_of`. The process's own parts stay the client's: ``client.manager``,
``client.settings``, ``client.leaderboards``, ``client.autoplay``, ``client.turn_clock``.
Tests give their fake client the same attribute (``tests/fakes.py``).

This module imports only what the services are made of (none of which imports it back), so
every other cogs module may import it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.daily.service import DailyDeals
from bot.process.client import TableBot
from bot.records.session import Session, SessionKind
from bot.sessions.manager import BOT_LEVELS
from cogs.kit.channel_health import ChannelHealth
from cogs.kit.click_kinds import TableClicks
from cogs.kit.hint_searches import HintSearches
from cogs.kit.message_routes import MessageRoutes
from cogs.listeners.followed_views import FollowedViews
from cogs.rendering.pictures import Pictures
from cogs.rendering.replay_cache import ReplayCache
from cogs.ui_registry import GameUIs


class Publisher(Protocol):
    """The table publisher as the commands see it
    (``cogs.listeners.table_publisher.TablePublisher``):
    ``on_moved`` (the turn ping's relink) runs after a table moved."""

    on_moved: Callable[[Session], Awaitable[object]] | None


# cogs.rendering.private_table.AddOn (its PrivateExtras), named loosely: that module imports
# this one.
PrivateAddOn = Callable[[TableBot, Session, str, Any], Awaitable[Any]]


def _no_pictures() -> Pictures:
    return Pictures(default_on=False)


@dataclass(eq=False)
class TableServices:
    """``uis``: the game UI registry; ``clicks``: what the table controls call
    (``cogs.clicks.table_clicks``); ``pictures``: tables and hands drawn (off unless set per server
    without one given); ``bot_levels``: the machine levels the lobby offers; ``replays``: the
    built replays; ``health``: channels that refuse the bot's posts; ``views``: each player's
    latest private view; ``publisher``: the table publisher, once the table extension made it;
    ``private_addons``: what each private kind adds to its table's message
    (``cogs.rendering.private_table.AddOn``); ``daily``: the daily deal
    (``cogs.daily_extension``); ``routes``: where public messages are written (tokens, else
    the channel in the budget); ``hints``: the Hint button's searches, one per seat and
    version."""

    uis: GameUIs
    clicks: TableClicks
    pictures: Pictures = field(default_factory=_no_pictures)
    bot_levels: tuple[str, ...] = BOT_LEVELS
    replays: ReplayCache = field(default_factory=ReplayCache)
    health: ChannelHealth = field(default_factory=ChannelHealth)
    views: FollowedViews = field(default_factory=FollowedViews)
    publisher: Publisher | None = None
    private_addons: dict[SessionKind, PrivateAddOn] = field(default_factory=dict)
    daily: DailyDeals | None = None  # the daily deal, once its extension is loaded
    routes: MessageRoutes = field(default_factory=MessageRoutes)
    hints: HintSearches = field(default_factory=HintSearches)


def services_of(client: TableBot) -> TableServices:
    """The services of ``client`` (RuntimeError before the table extension made them)."""
    services = client.services
    if not isinstance(services, TableServices):
        raise RuntimeError("the table extension (cogs.table_extension) is not loaded")
    return services
