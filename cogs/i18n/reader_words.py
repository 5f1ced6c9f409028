"""Words for a private answer from code that cannot wait for the store: the cached choice
(``cogs.i18n.settings_cache``), else the locales, then English (``cogs.i18n.language``).

The awaiting form, which reads the store when the cache has nothing, is
``cogs.i18n.interaction.user_words``; every answer path reads it first, so the cache is warm
where this is used.
"""

from __future__ import annotations

from typing import Any

from cogs.i18n.interaction import LANGUAGE_KEY, WORDS, private_words
from cogs.i18n.settings_cache import stored_settings
from cogs.i18n.words import Words


def reply_words(interaction: Any) -> Words:
    """Words for an ephemeral answer to ``interaction``: the words already read for it
    (``user_words``), else the user's cached /language choice, else their Discord locale."""
    kept = getattr(interaction, "extras", {}).get(WORDS)
    if isinstance(kept, Words):
        return kept
    store = interaction.client.manager.store
    values = stored_settings(store).user_now(interaction.user.id) or {}
    return private_words(interaction, values.get(LANGUAGE_KEY))

