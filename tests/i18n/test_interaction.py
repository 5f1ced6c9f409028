"""The Discord adapter reads the locales off an interaction and a guild."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord

from cogs.i18n.interaction import private_words, public_words
from cogs.i18n.language import Language


def _interaction(locale: discord.Locale) -> discord.Interaction[Any]:
    return cast("discord.Interaction[Any]", SimpleNamespace(locale=locale))


def _guild(locale: discord.Locale) -> discord.Guild:
    return cast(discord.Guild, SimpleNamespace(preferred_locale=locale))


def test_private_words_from_the_users_client_locale() -> None:
    assert private_words(_interaction(discord.Locale.latin_american_spanish), None).language is (
        Language.ES
    )
    assert private_words(_interaction(discord.Locale.french), None).language is Language.EN


def test_private_words_prefer_the_users_choice() -> None:
    assert private_words(_interaction(discord.Locale.spain_spanish), "gu").language is Language.GU


def test_public_words_from_the_guild() -> None:
    assert public_words(_guild(discord.Locale.spain_spanish), None).language is Language.ES
    assert public_words(_guild(discord.Locale.spain_spanish), "sq").language is Language.SQ
    assert public_words(_guild(discord.Locale.japanese), None).language is Language.EN
    assert public_words(None, None).language is Language.EN
