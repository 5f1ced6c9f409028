"""Which language a message is written in: a pure function of plain values (no discord).

Private messages (only the reader sees them): the user's own ``/language`` choice, then their
Discord client locale, then English. Public messages: the server's ``/config`` choice, then the
guild's preferred locale, then English. Discord has locales for Spanish and English only;
Albanian and Gujarati come only from an explicit choice.
"""

from __future__ import annotations

from enum import StrEnum


class Language(StrEnum):
    EN = "en"
    ES = "es"
    SQ = "sq"
    GU = "gu"


DEFAULT_LANGUAGE = Language.EN

# Each language's name in itself, for the /language and /config choices.
NATIVE_NAMES: dict[Language, str] = {
    Language.EN: "English",
    Language.ES: "Español",
    Language.SQ: "Shqip",
    Language.GU: "ગુજરાતી",
}

# Discord locale strings (``discord.Locale`` values) that have a catalog.
DISCORD_LOCALES: dict[str, Language] = {
    "en-US": Language.EN,
    "en-GB": Language.EN,
    "es-ES": Language.ES,
    "es-419": Language.ES,
}


def parse_language(code: str | None) -> Language | None:
    """A stored or chosen language code (``"es"``), or None when absent or not supported."""
    if code is None:
        return None
    try:
        return Language(code.strip().lower())
    except ValueError:
        return None


def language_of_discord_locale(locale: str | None) -> Language | None:
    """The catalog for a Discord locale string, or None when there is none for it."""
    if locale is None:
        return None
    return DISCORD_LOCALES.get(locale)


def private_language(user_choice: str | None, user_locale: str | None) -> Language:
    """Language of a message only this user sees."""
    return (
        parse_language(user_choice)
        or language_of_discord_locale(user_locale)
        or DEFAULT_LANGUAGE
    )


def public_language(server_choice: str | None, guild_locale: str | None) -> Language:
    """Language of a message everyone in the channel sees."""
    return (
        parse_language(server_choice)
        or language_of_discord_locale(guild_locale)
        or DEFAULT_LANGUAGE
    )
