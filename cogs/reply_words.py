"""Which catalog a message of this branch's texts is worded in.

- a private answer: the clicker's Discord locale (``interaction.locale``);
- a public table: the server's preferred locale, when the bot has the guild cached.

The stored choices (a user's ``/language``, a server's ``/config`` language) are read by the
settings commands' own code; until that is wired in here, these fall back to the locales,
then English (``cogs.i18n.language``).
"""

from __future__ import annotations

from typing import Any

from cogs.i18n.catalogs import words_for
from cogs.i18n.language import private_language, public_language
from cogs.i18n.words import Words


def _locale(value: Any) -> str | None:
    return None if value is None else str(getattr(value, "value", value))


def reply_words(interaction: Any) -> Words:
    """Words for an ephemeral answer to ``interaction``."""
    return words_for(private_language(None, _locale(getattr(interaction, "locale", None))))


def table_words(client: Any, guild_id: int) -> Words:
    """Words for a public message in guild ``guild_id``."""
    get_guild = getattr(client, "get_guild", None)
    guild = get_guild(guild_id) if callable(get_guild) else None
    locale = getattr(guild, "preferred_locale", None) if guild is not None else None
    return words_for(public_language(None, _locale(locale)))
