"""One server's settings as typed values: what ``/config`` stored, else the environment's.

Keys of ``guild_settings`` (values are strings): ``language`` (en|es|sq|gu, or ``auto``),
``turn_minutes`` (int), ``leaderboard_min_games`` (int), ``images`` / ``threads`` / ``hints``
(on|off; ``hints``: whether a new game's lobby starts with hints on),
``channels`` (comma-separated channel ids where games may start; empty = everywhere),
``replays`` (everyone|players), ``season`` (month|quarter|off), ``season_channel`` (a channel
id) and ``champion_role`` (a role id; ``bot.rankings.seasons`` names these three, which the
season watcher reads too), ``event_role`` (a role id: its members may open and cancel server
events, ``cogs.events``). An absent key, or a stored value this version cannot read,
means the default (:class:`ServerDefaults`, from ``bot.process.env_settings.Settings``).

Read them with ``await server_settings(client, guild_id)`` (cached,
``cogs.i18n.settings_cache``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.process.client import TableBot
from bot.process.env_settings import Settings
from bot.rankings.seasons import (
    CHAMPION_ROLE_KEY,
    DEFAULT_SEASON_KIND,
    SEASON_CHANNEL_KEY,
    SEASON_KEY,
    SEASON_KINDS,
    SEASON_OFF,
)
from bot.sessions.deadlines import MAX_TURN_MINUTES
from cogs.i18n.language import Language, parse_language
from cogs.i18n.settings_cache import stored_settings

LANGUAGE = "language"
TURN_MINUTES = "turn_minutes"
LEADERBOARD_MIN_GAMES = "leaderboard_min_games"
IMAGES = "images"
THREADS = "threads"
CHANNELS = "channels"
REPLAYS = "replays"  # cogs.rendering.replay_pages.REPLAYS_KEY
SEASON = SEASON_KEY
SEASON_CHANNEL = SEASON_CHANNEL_KEY
CHAMPION_ROLE = CHAMPION_ROLE_KEY
HINTS = "hints"
EVENT_ROLE = "event_role"  # cogs.events: its members may open and cancel server events
KEYS = (LANGUAGE, TURN_MINUTES, LEADERBOARD_MIN_GAMES, IMAGES, THREADS, CHANNELS, REPLAYS,
        SEASON, SEASON_CHANNEL, CHAMPION_ROLE, HINTS, EVENT_ROLE)
SEASON_VALUES = (*SEASON_KINDS, SEASON_OFF)
NONE = "none"  # season_channel / champion_role: none set

ON, OFF = "on", "off"
AUTOMATIC = "auto"  # the language: the server's preferred locale
REPLAYS_EVERYONE, REPLAYS_PLAYERS = "everyone", "players"
MAX_MIN_GAMES = 100
MAX_CHANNELS = 25


@dataclass(frozen=True)
class ServerDefaults:
    """The environment's values (``TURN_MINUTES``, ``LEADERBOARD_MIN_GAMES``, ``IMAGES``,
    ``THREADS``); the language defaults to the server's preferred locale."""

    turn_minutes: int = 5
    leaderboard_min_games: int = 3
    images: bool = True
    threads: bool = False

    @classmethod
    def of(cls, settings: Settings) -> ServerDefaults:
        return cls(settings.turn_minutes, settings.leaderboard_min_games, settings.images,
                   settings.threads)


@dataclass(frozen=True)
class ServerSettings:
    language: Language | None  # None: automatic (the server's preferred locale)
    turn_minutes: int
    leaderboard_min_games: int
    images: bool
    threads: bool
    channels: tuple[int, ...]  # where games may start; empty: every channel
    replays: str
    stored: frozenset[str]  # the keys /config set (the others are defaults)
    season: str = DEFAULT_SEASON_KIND  # month, quarter or off
    season_channel: int | None = None  # where the end of a season is posted
    champion_role: int | None = None  # given to each game's champion
    hints: bool = False  # a new game's lobby starts with hints on (such games are not rated)
    event_role: int | None = None  # may open and cancel server events (beside Manage Events)

    def allows_games_in(self, *channel_ids: int | None) -> bool:
        """True when a game may start in a channel with one of ``channel_ids`` (the channel
        itself and, for a thread, its parent)."""
        return not self.channels or any(c in self.channels for c in channel_ids if c)


def _int(value: str | None, default: int, low: int, high: int) -> tuple[int, bool]:
    try:
        number = int(value) if value is not None else None
    except ValueError:
        number = None
    if number is None or not low <= number <= high:
        return default, False
    return number, True


def _switch(value: str | None, default: bool) -> tuple[bool, bool]:
    if value in (ON, OFF):
        return value == ON, True
    return default, False


def parse_channels(value: str | None) -> tuple[int, ...]:
    """``"12,34"`` -> (12, 34); anything that is not a channel id is left out."""
    if not value:
        return ()
    found: list[int] = []
    for part in value.split(","):
        part = part.strip()
        if part.isascii() and part.isdigit() and int(part) not in found:
            found.append(int(part))
    return tuple(found[:MAX_CHANNELS])


def format_channels(channels: tuple[int, ...]) -> str:
    return ",".join(str(channel) for channel in channels)


def resolve(values: dict[str, str], defaults: ServerDefaults) -> ServerSettings:
    """The typed settings of one server from its stored ``values`` (pure)."""
    stored: set[str] = set()
    language = parse_language(values.get(LANGUAGE))
    if language is not None or values.get(LANGUAGE) == AUTOMATIC:
        stored.add(LANGUAGE)
    minutes, ok = _int(values.get(TURN_MINUTES), defaults.turn_minutes, 0, MAX_TURN_MINUTES)
    if ok:
        stored.add(TURN_MINUTES)
    min_games, ok = _int(values.get(LEADERBOARD_MIN_GAMES), defaults.leaderboard_min_games,
                         1, MAX_MIN_GAMES)
    if ok:
        stored.add(LEADERBOARD_MIN_GAMES)
    images, ok = _switch(values.get(IMAGES), defaults.images)
    if ok:
        stored.add(IMAGES)
    threads, ok = _switch(values.get(THREADS), defaults.threads)
    if ok:
        stored.add(THREADS)
    channels = parse_channels(values.get(CHANNELS))
    if CHANNELS in values:
        stored.add(CHANNELS)
    replays = values.get(REPLAYS, REPLAYS_EVERYONE)
    if replays not in (REPLAYS_EVERYONE, REPLAYS_PLAYERS):
        replays = REPLAYS_EVERYONE
    elif REPLAYS in values:
        stored.add(REPLAYS)
    season = values.get(SEASON, DEFAULT_SEASON_KIND)
    if season not in SEASON_VALUES:
        season = DEFAULT_SEASON_KIND
    elif SEASON in values:
        stored.add(SEASON)
    season_channel = _snowflake(values.get(SEASON_CHANNEL))
    if SEASON_CHANNEL in values:
        stored.add(SEASON_CHANNEL)
    champion_role = _snowflake(values.get(CHAMPION_ROLE))
    if CHAMPION_ROLE in values:
        stored.add(CHAMPION_ROLE)
    hints, ok = _switch(values.get(HINTS), False)
    if ok:
        stored.add(HINTS)
    event_role = _snowflake(values.get(EVENT_ROLE))
    if EVENT_ROLE in values:
        stored.add(EVENT_ROLE)
    return ServerSettings(language, minutes, min_games, images, threads, channels, replays,
                          frozenset(stored), season, season_channel, champion_role, hints,
                          event_role)


def _snowflake(value: str | None) -> int | None:
    """A stored channel or role id; ``none`` (or anything else) is None."""
    if value is None or not value.isascii() or not value.isdigit():
        return None
    return int(value)


def defaults_of(client: TableBot) -> ServerDefaults:
    """The environment's defaults of the running bot (``client.settings``)."""
    return ServerDefaults.of(client.settings)


async def server_settings(client: TableBot, guild_id: int) -> ServerSettings:
    """Server ``guild_id``'s settings (``client``: the bot, or a test's stand-in)."""
    values = await stored_settings(client.manager.store).guild(guild_id)
    return resolve(values, defaults_of(client))
