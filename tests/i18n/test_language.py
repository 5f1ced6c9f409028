"""Which language a message is written in (cogs.i18n.language)."""

from __future__ import annotations

import pytest

from cogs.i18n.language import (
    Language,
    language_of_discord_locale,
    parse_language,
    private_language,
    public_language,
)


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("es-ES", Language.ES),
        ("es-419", Language.ES),
        ("en-US", Language.EN),
        ("en-GB", Language.EN),
        ("fr", None),
        ("pt-BR", None),
        ("sq", None),
        ("gu", None),
        ("", None),
        (None, None),
    ],
)
def test_discord_locales_map_to_catalogs_or_fall_through(
    locale: str | None, expected: Language | None
) -> None:
    assert language_of_discord_locale(locale) is expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [("sq", Language.SQ), ("GU", Language.GU), (" es ", Language.ES), ("en", Language.EN),
     ("de", None), ("", None), (None, None), ("es-ES", None)],
)
def test_stored_choice_codes(code: str | None, expected: Language | None) -> None:
    assert parse_language(code) is expected


def test_private_user_choice_wins_over_discord_locale() -> None:
    assert private_language("sq", "es-ES") is Language.SQ
    assert private_language("gu", "en-US") is Language.GU


def test_private_falls_back_to_discord_locale_then_english() -> None:
    assert private_language(None, "es-419") is Language.ES
    assert private_language(None, "fr") is Language.EN
    assert private_language(None, None) is Language.EN
    # An unknown stored choice (a language removed since) is skipped, not an error.
    assert private_language("xx", "es-ES") is Language.ES


def test_public_server_choice_wins_over_guild_locale() -> None:
    assert public_language("gu", "es-ES") is Language.GU
    assert public_language("en", "es-ES") is Language.EN


def test_public_falls_back_to_guild_locale_then_english() -> None:
    assert public_language(None, "es-ES") is Language.ES
    assert public_language(None, "de") is Language.EN
    assert public_language(None, None) is Language.EN
