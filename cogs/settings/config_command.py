"""/config: this server's settings (Manage Server only), stored per server in the store's
``guild_settings`` through the process's cache (``cogs.i18n.settings_cache``).

Each setting is one optional option of the command; without options it shows the current
values, marking those that are the environment's defaults. Every change is logged at INFO
(server, setting, old -> new, who). The keys and their readers are in
``cogs.kit.server_settings``; a new game, the leaderboard and the language of public messages
read them from there.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.rankings.seasons import SEASON_OFF
from bot.records import errors
from bot.records.errors import Refusal
from bot.sessions.deadlines import MAX_TURN_MINUTES
from cogs.client_services import Interaction, player_id, refuse
from cogs.i18n.command_mentions import command_fields
from cogs.i18n.commands import L_
from cogs.i18n.interaction import user_words
from cogs.i18n.language import NATIVE_NAMES, public_language
from cogs.i18n.messages import N_, Message
from cogs.i18n.settings_cache import stored_settings
from cogs.i18n.words import Words
from cogs.kit.places import place_id, tokens_only
from cogs.kit.server_settings import (
    AUTOMATIC,
    CHAMPION_ROLE,
    CHANNELS,
    EVENT_ROLE,
    HINTS,
    IMAGES,
    LANGUAGE,
    LEADERBOARD_MIN_GAMES,
    MAX_CHANNELS,
    MAX_MIN_GAMES,
    NONE,
    OFF,
    ON,
    REPLAYS,
    REPLAYS_EVERYONE,
    REPLAYS_PLAYERS,
    SEASON,
    SEASON_CHANNEL,
    THREADS,
    TURN_MINUTES,
    ServerSettings,
    format_channels,
    server_settings,
)
from cogs.rendering.table_renders import turn_limit

log = logging.getLogger(__name__)

NEEDS_MANAGE_SERVER = N_("Only members with Manage Server may change this server's settings.")
TOO_MANY_CHANNELS = N_("A server may name at most {most} game channels.")
BAD_MIN_GAMES = N_("The rated games before a player is ranked must be from 1 to {most}.")
NOT_THIS_SERVER = N_("That channel is not in this server; name one of its own channels.")
# A DM or a group DM is a place of its own (cogs.kit.places): its games read its settings.
# Discord lets only the person who installed the app run its commands in a group DM (and the
# one person of a DM with the bot), so that person keeps the chat's settings.
CHAT_SETTINGS = N_("These are this chat's settings: its games follow them. With no server"
                   " here, only the person who installed the app can run {config_command} in it.")
SERVER_ONLY = N_("Threads, game channels, the season's channel and the champion role belong to"
                 " a server; a chat has none of them.")
NEEDS_THE_BOT = N_("The season's channel and the champion role need the bot in this server: it"
                   " was never invited here, only installed by members. A server install"
                   " link is in the bot's profile.")
ROLE_NOT_THIS_SERVER = N_("That role is not in this server; choose one of its own roles.")
ROLE_NOT_GIVABLE = N_("The champion role must be a role of its own: not @everyone, and not a"
                      " role that Discord or an app manages.")
NEEDS_MANAGE_ROLES = N_("I need the Manage Roles permission to give the champion role; grant"
                        " it to me, then choose the role again.")
ROLE_TOO_HIGH = N_("I can only give roles below my own highest role, and {role} is not; drag it"
                   " below my role in the server's role settings, then choose it again.")
LABELS: dict[str, Message] = {
    LANGUAGE: N_("Language of public messages"),
    TURN_MINUTES: N_("Turn clock of a new game"),
    LEADERBOARD_MIN_GAMES: N_("Rated games before a player is ranked"),
    IMAGES: N_("Tables drawn as images"),
    THREADS: N_("Each game in its own thread"),
    CHANNELS: N_("Channels where games may start"),
    REPLAYS: N_("Who may replay and export finished games"),
    SEASON: N_("Seasons"),
    SEASON_CHANNEL: N_("Channel of the end-of-season post"),
    CHAMPION_ROLE: N_("Role of each game's season champion"),
    HINTS: N_("Hints in a new game (such games are not rated)"),
    EVENT_ROLE: N_("Role that may open server events (beside Manage Events)"),
}
LANGUAGE_CHOICES = [
    app_commands.Choice(name=L_("choice-name", "English"), value="en"),
    app_commands.Choice(name=L_("choice-name", "Español (Spanish)"), value="es"),
    app_commands.Choice(name=L_("choice-name", "Shqip (Albanian)"), value="sq"),
    app_commands.Choice(name=L_("choice-name", "ગુજરાતી (Gujarati)"), value="gu"),
    app_commands.Choice(name=L_("choice-name", "Automatic (from Discord)"), value=AUTOMATIC),
]
SWITCH_CHOICES = [
    app_commands.Choice(name=L_("choice-name", "on"), value=ON),
    app_commands.Choice(name=L_("choice-name", "off"), value=OFF),
]
SEASON_CHOICES = [
    app_commands.Choice(name=L_("choice-name", "every month"), value="month"),
    app_commands.Choice(name=L_("choice-name", "every quarter"), value="quarter"),
    app_commands.Choice(name=L_("choice-name", "off"), value=SEASON_OFF),
]
REPLAY_CHOICES = [
    app_commands.Choice(name=L_("choice-name", "everyone"), value=REPLAYS_EVERYONE),
    app_commands.Choice(name=L_("choice-name", "players"), value=REPLAYS_PLAYERS),
]


def _switch(words: Words, on: bool) -> str:
    return words.pgettext("switch", "on") if on else words.pgettext("switch", "off")


def shown(words: Words, settings: ServerSettings, key: str, guild_locale: str | None) -> str:
    """One setting's value as the settings list shows it (``guild_locale``: the server's
    preferred locale, which an automatic language follows)."""
    if key == LANGUAGE:
        if settings.language is not None:
            return NATIVE_NAMES[settings.language]
        follows = NATIVE_NAMES[public_language(None, guild_locale)]
        return words.gettext("automatic: the server's language in Discord ({language})",
                             language=follows)
    if key == TURN_MINUTES:
        return turn_limit(settings.turn_minutes, words)
    if key == LEADERBOARD_MIN_GAMES:
        return words.number(settings.leaderboard_min_games)
    if key == IMAGES:
        return _switch(words, settings.images)
    if key == THREADS:
        return _switch(words, settings.threads)
    if key == HINTS:
        return _switch(words, settings.hints)
    if key == CHANNELS:
        if not settings.channels:
            return words.gettext("every channel")
        return ", ".join(f"<#{channel}>" for channel in settings.channels)
    if key == SEASON:
        if settings.season == "month":
            return words.gettext("a season every calendar month (UTC)")
        if settings.season == "quarter":
            return words.gettext("a season every calendar quarter (UTC)")
        return words.pgettext("switch", "off")
    if key == SEASON_CHANNEL:
        if settings.season_channel is None:
            return words.gettext("none: the end of a season is not posted")
        return f"<#{settings.season_channel}>"
    if key == CHAMPION_ROLE:
        if settings.champion_role is None:
            return words.gettext("none")
        return f"<@&{settings.champion_role}>"
    if key == EVENT_ROLE:
        if settings.event_role is None:
            return words.gettext("none")
        return f"<@&{settings.event_role}>"
    if settings.replays == REPLAYS_PLAYERS:
        return words.gettext("only the game's players (and Manage Server)")
    return words.gettext("everyone in the server")


def settings_text(words: Words, settings: ServerSettings, guild_locale: str | None,
                  changes: list[str]) -> str:
    lines = list(changes)
    if changes:
        lines.append("")
    lines.append(words.gettext("**This server's settings** ({config_command} changes them):",
                               **command_fields(words)))
    for key, label in LABELS.items():
        value = shown(words, settings, key, guild_locale)
        if key not in settings.stored:
            value = words.gettext("{value} (default)", value=value)
        lines.append(words.gettext("• {setting}: {value}", setting=words.text(label),
                                   value=value))
    return "\n".join(lines)


def _within(value: object, low: int, high: int) -> bool:
    """``value`` is a whole number (not a bool, not a string) from ``low`` to ``high``."""
    return type(value) is int and low <= value <= high


def _guild_of(channel: object) -> int | None:
    guild = getattr(channel, "guild", None)
    return getattr(guild, "id", None)


def _change(words: Words, label: Message, old: str, new: str) -> str:
    """One line of the answer: the setting's change, or that it stays as it was."""
    if old == new:
        return words.gettext("{setting}: unchanged ({value})", setting=words.text(label),
                             value=new)
    return words.gettext("Changed {setting}: {old} → {new}", setting=words.text(label),
                         old=old, new=new)


def _role_refusal(interaction: Interaction, role: discord.Role, guild_id: int,
                  words: Words) -> Message | str | None:
    """Why the bot could not give ``role`` to a champion (None: it can): checked here so the
    setting is refused at once; the award checks again (roles move)."""
    if getattr(getattr(role, "guild", None), "id", guild_id) != guild_id \
            or not isinstance(getattr(role, "position", None), int):
        return ROLE_NOT_THIS_SERVER  # or a role Discord did not resolve
    if role.id == guild_id or getattr(role, "managed", False):
        return ROLE_NOT_GIVABLE  # @everyone's id is the server's
    if not interaction.app_permissions.manage_roles:
        return NEEDS_MANAGE_ROLES
    me = getattr(interaction.guild, "me", None)
    top = getattr(me, "top_role", None)
    if top is None or role.position >= top.position:
        return words.text(ROLE_TOO_HIGH, role=f"<@&{role.id}>")
    return None


def _locale(interaction: Interaction) -> str | None:
    locale = interaction.guild_locale
    return None if locale is None else locale.value


class ConfigCog(commands.Cog):
    """This server's settings."""

    @app_commands.command(
        name=L_("command-name", "config"),
        description=L_("command-description", "This server's settings (Manage Server)"),
    )
    @app_commands.describe(
        language=L_("parameter-description", "Language of the bot's public messages"),
        turn_minutes=L_("parameter-description",
                        "Minutes per move in a new game (0 = no turn clock)"),
        leaderboard_min_games=L_("parameter-description",
                                 "Rated games a player needs to be ranked"),
        images=L_("parameter-description", "Draw tables as images"),
        threads=L_("parameter-description", "Play each game in its own thread"),
        add_channel=L_("parameter-description", "Let games start in this channel"),
        remove_channel=L_("parameter-description",
                          "Stop games from starting in this channel"),
        all_channels=L_("parameter-description",
                        "True: games may start in every channel again"),
        replays=L_("parameter-description", "Who may replay and export finished games"),
        season=L_("parameter-description",
                  "A leaderboard season every month, every quarter, or none"),
        season_channel=L_("parameter-description",
                          "Where the champions and final top 10 are posted when a season ends"),
        champion_role=L_("parameter-description",
                         "A role given to each game's champion (needs Manage Roles)"),
        no_champion_role=L_("parameter-description", "True: champions get no role"),
        hints=L_("parameter-description",
                 "New games start with hints on (games with hints are not rated)"),
        event_role=L_("parameter-description",
                      "Members with this role may open server events (/event)"),
        no_event_role=L_("parameter-description", "True: only Manage Events opens events"),
    )
    @app_commands.rename(
        language=L_("parameter-name", "language"),
        turn_minutes=L_("parameter-name", "turn_minutes"),
        leaderboard_min_games=L_("parameter-name", "leaderboard_min_games"),
        images=L_("parameter-name", "images"),
        threads=L_("parameter-name", "threads"),
        add_channel=L_("parameter-name", "add_channel"),
        remove_channel=L_("parameter-name", "remove_channel"),
        all_channels=L_("parameter-name", "all_channels"),
        replays=L_("parameter-name", "replays"),
        season=L_("parameter-name", "season"),
        season_channel=L_("parameter-name", "season_channel"),
        champion_role=L_("parameter-name", "champion_role"),
        no_champion_role=L_("parameter-name", "no_champion_role"),
        hints=L_("parameter-name", "hints"),
        event_role=L_("parameter-name", "event_role"),
        no_event_role=L_("parameter-name", "no_event_role"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, images=SWITCH_CHOICES,
                          threads=SWITCH_CHOICES, replays=REPLAY_CHOICES,
                          season=SEASON_CHOICES, hints=SWITCH_CHOICES)
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.default_permissions(manage_guild=True)
    async def config(
        self,
        interaction: Interaction,
        language: app_commands.Choice[str] | None = None,
        turn_minutes: app_commands.Range[int, 0, MAX_TURN_MINUTES] | None = None,
        leaderboard_min_games: app_commands.Range[int, 1, MAX_MIN_GAMES] | None = None,
        images: app_commands.Choice[str] | None = None,
        threads: app_commands.Choice[str] | None = None,
        add_channel: discord.TextChannel | None = None,
        remove_channel: discord.TextChannel | None = None,
        all_channels: bool | None = None,
        replays: app_commands.Choice[str] | None = None,
        season: app_commands.Choice[str] | None = None,
        season_channel: discord.TextChannel | None = None,
        champion_role: discord.Role | None = None,
        no_champion_role: bool | None = None,
        hints: app_commands.Choice[str] | None = None,
        event_role: discord.Role | None = None,
        no_event_role: bool | None = None,
    ) -> None:
        # default_permissions only hides the command; a server may grant it to anyone.
        permissions = interaction.permissions
        chat = interaction.guild_id is None  # a DM or group DM: its installer runs /config
        if not chat and not (permissions.manage_guild or permissions.administrator):
            await refuse(interaction, NEEDS_MANAGE_SERVER)
            return
        if chat and any(value is not None for value in (
                threads, add_channel, remove_channel, all_channels, season_channel,
                champion_role, no_champion_role)):
            await refuse(interaction, SERVER_ONLY)
            return
        if not chat and tokens_only(interaction) and any(value is not None for value in (
                season_channel, champion_role)):  # the bot could neither post nor give it
            await refuse(interaction, NEEDS_THE_BOT)
            return
        words = await user_words(interaction)
        guild_id = place_id(interaction)
        # Discord keeps these in range; a forged command need not (cogs.commands.option_check
        # refuses it first): nothing out of range is stored.
        if turn_minutes is not None and not _within(turn_minutes, 0, MAX_TURN_MINUTES):
            await refuse(interaction, Refusal(errors.BAD_TURN_MINUTES, most=MAX_TURN_MINUTES))
            return
        if leaderboard_min_games is not None and not _within(leaderboard_min_games, 1,
                                                             MAX_MIN_GAMES):
            await refuse(interaction, words.text(BAD_MIN_GAMES,
                                                 most=words.number(MAX_MIN_GAMES)))
            return
        if any(_guild_of(channel) not in (None, guild_id)
               for channel in (add_channel, remove_channel, season_channel)):
            await refuse(interaction, NOT_THIS_SERVER)
            return
        if champion_role is not None:
            refusal = _role_refusal(interaction, champion_role, guild_id, words)
            if refusal is not None:
                await refuse(interaction, refusal)
                return
        if event_role is not None and (
                getattr(getattr(event_role, "guild", None), "id", guild_id) != guild_id
                or not isinstance(getattr(event_role, "position", None), int)):
            await refuse(interaction, ROLE_NOT_THIS_SERVER)  # or one Discord did not resolve
            return
        before = await server_settings(interaction.client, guild_id)
        wanted: dict[str, str] = {}
        for key, choice in ((LANGUAGE, language), (IMAGES, images), (THREADS, threads),
                            (REPLAYS, replays), (SEASON, season), (HINTS, hints)):
            if choice is not None:
                wanted[key] = choice.value
        if turn_minutes is not None:
            wanted[TURN_MINUTES] = str(turn_minutes)
        if leaderboard_min_games is not None:
            wanted[LEADERBOARD_MIN_GAMES] = str(leaderboard_min_games)
        channels = () if all_channels else before.channels
        if add_channel is not None and add_channel.id not in channels:
            channels = (*channels, add_channel.id)
        if remove_channel is not None:
            channels = tuple(c for c in channels if c != remove_channel.id)
        if len(channels) > MAX_CHANNELS:
            await refuse(interaction, words.text(TOO_MANY_CHANNELS, most=MAX_CHANNELS))
            return
        if channels != before.channels or all_channels:
            wanted[CHANNELS] = format_channels(channels)
        if season_channel is not None:
            wanted[SEASON_CHANNEL] = str(season_channel.id)
        if champion_role is not None:
            wanted[CHAMPION_ROLE] = str(champion_role.id)
        elif no_champion_role:
            wanted[CHAMPION_ROLE] = NONE
        if event_role is not None:
            wanted[EVENT_ROLE] = str(event_role.id)
        elif no_event_role:
            wanted[EVENT_ROLE] = NONE
        await self._store(interaction, wanted)
        after = await server_settings(interaction.client, guild_id)
        changes = [
            _change(words, LABELS[key], shown(words, before, key, _locale(interaction)),
                    shown(words, after, key, _locale(interaction)))
            for key in LABELS if key in wanted
        ]
        text = settings_text(words, after, _locale(interaction), changes)
        if chat:
            text = "\n".join([words.text(CHAT_SETTINGS, **command_fields(words)), text])
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none(),
        )

    @staticmethod
    async def _store(interaction: Interaction, wanted: dict[str, str]) -> None:
        manager = interaction.client.manager
        stored = stored_settings(manager.store)
        guild_id = place_id(interaction)
        old_values = dict(await stored.guild(guild_id))
        for key, value in wanted.items():
            if old_values.get(key) == value:
                continue  # stored as it is already
            old = old_values.get(key, "(default)")
            await stored.set_guild(guild_id, key, value, by=player_id(interaction.user),
                                   at=manager.clock())
            # Settings are public facts of the server: nothing hidden goes into this line.
            log.info("guild %s: setting %s changed from %r to %r by %s", guild_id, key, old,
                     value, interaction.user.id)

