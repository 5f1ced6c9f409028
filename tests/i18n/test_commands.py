"""Slash-command localisation: the L_ marker, the translator, Discord's limits."""

from __future__ import annotations

import gettext

import discord
import pytest
from babel.messages.catalog import Catalog
from discord import app_commands

from cogs.i18n.catalog_check import catalog_problems, source_problems
from cogs.i18n.catalogs import compile_catalog
from cogs.i18n.command_texts import command_text_problem
from cogs.i18n.commands import L_, CatalogTranslator
from cogs.i18n.language import Language
from cogs.i18n.words import Words

CONTEXT = app_commands.TranslationContext(
    location=app_commands.TranslationContextLocation.command_name, data=None
)


def _spanish() -> Catalog:
    catalog = Catalog(locale="es", domain="tablebot", fuzzy=False)
    catalog.add("rules", "reglas", context="command-name")
    catalog.add("Read a game's rules", "Lee las reglas de un juego", context="command-description")
    catalog.add("leave", "Salir Ya", context="command-name")  # not a valid command name
    return catalog


def _words(language: Language) -> Words:
    if language is Language.ES:
        return Words(language, compile_catalog(_spanish()))
    return Words(language, gettext.NullTranslations())


@pytest.fixture
def translator() -> CatalogTranslator:
    return CatalogTranslator(_words)


def test_marker_carries_the_context() -> None:
    text = L_("command-name", "rules")
    assert isinstance(text, app_commands.locale_str)
    assert text.message == "rules"
    assert text.extras == {"msgctxt": "command-name"}


@pytest.mark.parametrize(
    "locale", [discord.Locale.spain_spanish, discord.Locale.latin_american_spanish]
)
async def test_spanish_locales_get_the_catalog(
    translator: CatalogTranslator, locale: discord.Locale
) -> None:
    assert await translator.translate(L_("command-name", "rules"), locale, CONTEXT) == "reglas"
    description = L_("command-description", "Read a game's rules")
    assert await translator.translate(description, locale, CONTEXT) == "Lee las reglas de un juego"


async def test_other_locales_and_untranslated_texts_stay_english(
    translator: CatalogTranslator,
) -> None:
    rules = L_("command-name", "rules")
    assert await translator.translate(rules, discord.Locale.american_english, CONTEXT) is None
    assert await translator.translate(rules, discord.Locale.french, CONTEXT) is None
    unknown = L_("command-name", "stats")
    assert await translator.translate(unknown, discord.Locale.spain_spanish, CONTEXT) is None
    # The context matters: the same text without it is not in the catalog.
    plain = app_commands.locale_str("rules")
    assert await translator.translate(plain, discord.Locale.spain_spanish, CONTEXT) is None


async def test_a_translation_discord_would_refuse_is_not_used(
    translator: CatalogTranslator,
) -> None:
    leave = L_("command-name", "leave")
    assert await translator.translate(leave, discord.Locale.spain_spanish, CONTEXT) is None


def test_limits_by_context() -> None:
    assert command_text_problem("command-name", "reglas") is None
    assert command_text_problem("command-name", "clasificación") is None
    assert command_text_problem("command-name", "Reglas") is not None
    assert command_text_problem("parameter-name", "mi juego") is not None
    assert command_text_problem("command-name", "x" * 33) is not None
    assert command_text_problem("command-description", "x" * 100) is None
    assert command_text_problem("command-description", "x" * 101) is not None
    assert command_text_problem("choice-name", "") is not None
    assert command_text_problem("button", "Any Length " * 20) is None


def test_catalog_check_applies_the_limits() -> None:
    template = Catalog(domain="tablebot")
    for message in _spanish():
        if message.id:
            template.add(message.id, context=message.context)
    problems = catalog_problems(_spanish(), template, Language.ES)
    assert problems == [
        "('command-name', 'leave'): form 0: 'Salir Ya' is not a command name "
        "(1–32 lowercase letters, digits, - _)"
    ]
    template.add("My Command", context="command-name")
    assert source_problems(template) == [
        "('command-name', 'My Command'): 'My Command' is not a command name "
        "(1–32 lowercase letters, digits, - _)"
    ]
