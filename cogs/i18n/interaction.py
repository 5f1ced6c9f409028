"""The Discord side of :mod:`cogs.i18n.language`: reads the locales off an interaction.

``private_words`` / ``public_words`` take the stored choice from the caller; the async
``user_words(interaction)`` (an ephemeral answer), ``channel_words(interaction)`` (a public
answer), ``server_words(client, guild_id)`` (a public message outside an interaction) and
``player_words(client, user_id)`` read the stored choices themselves, through the process's
cache (``cogs.i18n.settings_cache``).
"""

from __future__ import annotations

import discord

from bot.process.client import TableBot
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import private_language, public_language
from cogs.i18n.settings_cache import StoredSettings, stored_settings
from cogs.i18n.words import Words


def _locale_value(locale: discord.Locale | str | None) -> str | None:
    if locale is None:
        return None
    return locale.value if isinstance(locale, discord.Locale) else str(locale)


def private_words(interaction: discord.Interaction, user_choice: str | None) -> Words:
    """Words for an ephemeral reply or a DM to ``interaction.user``."""
    return words_for(private_language(user_choice, _locale_value(interaction.locale)))


def public_words(guild: discord.Guild | None, server_choice: str | None) -> Words:
    """Words for a message in one of ``guild``'s channels (None: not in a guild)."""
    guild_locale = None if guild is None else _locale_value(guild.preferred_locale)
    return words_for(public_language(server_choice, guild_locale))


# --- with the stored choices (``cogs.i18n.settings_cache``: cached, so cheap on every send) ---

LANGUAGE_KEY = "language"  # the user setting (/language) and the server setting (/config)


def _store(client: TableBot) -> StoredSettings:
    return stored_settings(client.manager.store)


WORDS = "tablebot.words"  # the reader's words, kept on the interaction once read


async def user_words(interaction: discord.Interaction[TableBot]) -> Words:
    """Words for an ephemeral reply to ``interaction.user``: their ``/language``, else their
    Discord locale, else English. Read once per interaction (kept in its ``extras``)."""
    try:  # read ~2 times a click: a subscript, not dict.get and isinstance (issue 42)
        kept = interaction.extras[WORDS]
    except KeyError:
        kept = None
    if kept.__class__ is Words:
        return kept
    values = await _store(interaction.client).user(interaction.user.id)
    words = private_words(interaction, values.get(LANGUAGE_KEY))
    interaction.extras[WORDS] = words
    return words


async def player_words(
    client: TableBot, user_id: int | str, locale: str | None = None
) -> Words:
    """Words for a message only user ``user_id`` (a Discord id, or a seat's player id; a bot
    seat reads English) sees, outside an interaction of theirs (``locale``: their Discord
    locale when known)."""
    if isinstance(user_id, str):
        if not (user_id.isascii() and user_id.isdigit()):
            return words_for(private_language(None, locale))
        user_id = int(user_id)
    values = await _store(client).user(user_id)
    return words_for(private_language(values.get(LANGUAGE_KEY), locale))


async def server_words(client: TableBot, guild_id: int) -> Words:
    """Words for a public message in server ``guild_id``: its ``/config`` language, else its
    preferred locale, else English."""
    values = await _store(client).guild(guild_id)
    return public_words(client.get_guild(guild_id), values.get(LANGUAGE_KEY))


def server_words_now(client: TableBot, guild_id: int) -> Words:
    """:func:`server_words` without waiting: the cached ``/config`` choice (a server whose
    settings were not read yet in this process gets its preferred locale)."""
    values = _store(client).guild_now(guild_id) or {}
    return public_words(client.get_guild(guild_id), values.get(LANGUAGE_KEY))


async def channel_words(interaction: discord.Interaction[TableBot]) -> Words:
    """Words for a public answer to ``interaction`` (in its server's language)."""
    # A DM's or group DM's own settings are kept under its channel id (cogs.kit.places).
    values = await _store(interaction.client).guild(
        interaction.guild_id or interaction.channel_id or 0)
    return words_for(public_language(values.get(LANGUAGE_KEY),
                                     _locale_value(interaction.guild_locale)))
