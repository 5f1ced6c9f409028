"""The Discord side of :mod:`cogs.i18n.language`: reads the locales off an interaction.

The stored choices (a user's ``/language``, a server's ``/config`` language) are passed in by
the caller, which owns the store.
"""

from __future__ import annotations

import discord

from cogs.i18n.catalogs import words_for
from cogs.i18n.language import private_language, public_language
from cogs.i18n.words import Words


def _locale_value(locale: discord.Locale | None) -> str | None:
    return None if locale is None else locale.value


def private_words(interaction: discord.Interaction, user_choice: str | None) -> Words:
    """Words for an ephemeral reply or a DM to ``interaction.user``."""
    return words_for(private_language(user_choice, _locale_value(interaction.locale)))


def public_words(guild: discord.Guild | None, server_choice: str | None) -> Words:
    """Words for a message in one of ``guild``'s channels (None: not in a guild)."""
    guild_locale = None if guild is None else _locale_value(guild.preferred_locale)
    return words_for(public_language(server_choice, guild_locale))
