"""Slash-command localisation: the ``L_`` marker and an ``app_commands.Translator``.

Mark command texts with their place: ``@app_commands.command(name=L_("command-name", "rules"),
description=L_("command-description", "Read a game's rules"))``; ``pybabel extract`` reads them
as ``L_:1c,2``. Write both arguments as string literals (the extractor cannot read a constant);
the contexts are those of ``cogs.i18n.command_texts``, whose limits the catalog check applies.
Install the translator once (``await tree.set_translator(CatalogTranslator())``) before
``tree.sync()``: Discord then gets every translated text for each Discord locale that has a
catalog other than English (es-ES and es-419 today).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord
from discord import app_commands

from cogs.i18n.catalogs import words_for
from cogs.i18n.command_texts import command_text_problem
from cogs.i18n.language import DEFAULT_LANGUAGE, Language, language_of_discord_locale
from cogs.i18n.words import Words

log = logging.getLogger(__name__)


def L_(context: str, text: str) -> app_commands.locale_str:
    """A command text (name, description, choice) with its message context."""
    return app_commands.locale_str(text, msgctxt=context)


class CatalogTranslator(app_commands.Translator):
    """Looks command texts up in the catalogs; None (Discord shows English) when untranslated."""

    def __init__(self, words: Callable[[Language], Words] = words_for) -> None:
        self._words = words

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of_discord_locale(locale.value)
        if language is None or language is DEFAULT_LANGUAGE:
            return None
        msgctxt = string.extras.get("msgctxt")
        translated = self._words(language).lookup(string.message, msgctxt)
        if translated is None:
            return None
        problem = command_text_problem(msgctxt, translated)
        if problem is not None:
            log.warning("command text for %s not used: %s", locale.value, problem)
            return None
        return translated
