"""Which words a channel post or a private answer of the channel flow uses (``cogs.i18n``):
a public post speaks the server's language (its ``language`` setting, else the guild's
preferred locale), a private answer the clicker's (their ``language`` setting, else their
Discord locale)."""

from __future__ import annotations

from typing import Any

import discord

from cogs.i18n.catalogs import words_for
from cogs.i18n.interaction import public_words
from cogs.i18n.language import private_language
from cogs.i18n.words import Words

LANGUAGE_KEY = "language"


async def server_words(client: Any, guild_id: int) -> Words:
    """Words for a public message in one of ``guild_id``'s channels."""
    settings = await client.manager.store.guild_settings(guild_id)
    get_guild = getattr(client, "get_guild", None)
    guild = get_guild(guild_id) if get_guild is not None else None
    return public_words(guild if isinstance(guild, discord.Guild) else None,
                        settings.get(LANGUAGE_KEY))


async def clicker_words(interaction: Any) -> Words:
    """Words for an ephemeral answer to ``interaction.user``."""
    settings = await interaction.client.manager.store.user_settings(interaction.user.id)
    locale = getattr(interaction, "locale", None)
    code = locale.value if isinstance(locale, discord.Locale) else None
    return words_for(private_language(settings.get(LANGUAGE_KEY), code))
