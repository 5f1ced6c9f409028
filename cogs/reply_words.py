"""Words for code that cannot wait for the store: the cached stored choices
(``cogs.stored_settings``), else the locales, then English (``cogs.i18n.language``).

The awaiting forms, which read the store when the cache has nothing, are
``cogs.i18n.interaction.user_words`` / ``server_words``; every answer path reads them first,
so the cache is warm where these are used.
"""

from __future__ import annotations

from typing import Any

from cogs.i18n.interaction import LANGUAGE_KEY, private_words, server_words_now
from cogs.i18n.words import Words
from cogs.stored_settings import stored_settings


def reply_words(interaction: Any) -> Words:
    """Words for an ephemeral answer to ``interaction``: the user's cached /language choice,
    else their Discord locale."""
    store = interaction.client.manager.store
    values = stored_settings(store).user_now(interaction.user.id) or {}
    return private_words(interaction, values.get(LANGUAGE_KEY))


def table_words(client: Any, guild_id: int) -> Words:
    """Words for a public message in guild ``guild_id`` (the server's cached choice)."""
    return server_words_now(client, guild_id)
