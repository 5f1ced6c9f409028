"""/language: the language a person reads the bot's private answers in, wherever they play.

Stored as the user setting ``language`` (``Store.set_user_setting`` through the process's
cache, ``cogs.i18n.settings_cache``); "automatic" forgets the choice, so their Discord language
decides again (``cogs.i18n.language.private_language``). Public messages follow the server
(``/config language``).
"""

from __future__ import annotations

import logging

from discord import app_commands
from discord.ext import commands

from cogs.client_services import Interaction
from cogs.i18n.catalogs import words_for
from cogs.i18n.commands import L_
from cogs.i18n.interaction import LANGUAGE_KEY, private_words
from cogs.i18n.language import NATIVE_NAMES, parse_language
from cogs.i18n.settings_cache import stored_settings

log = logging.getLogger(__name__)

AUTOMATIC = "auto"
CHOICES = [
    app_commands.Choice(name=L_("choice-name", "English"), value="en"),
    app_commands.Choice(name=L_("choice-name", "Español (Spanish)"), value="es"),
    app_commands.Choice(name=L_("choice-name", "Shqip (Albanian)"), value="sq"),
    app_commands.Choice(name=L_("choice-name", "ગુજરાતી (Gujarati)"), value="gu"),
    app_commands.Choice(name=L_("choice-name", "Automatic (from Discord)"), value=AUTOMATIC),
]


class LanguageCog(commands.Cog):
    """A person's own language."""

    @app_commands.command(
        name=L_("command-name", "language"),
        description=L_("command-description", "The language the bot answers you in"),
    )
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(language=L_(
        "parameter-description", "Your language, or automatic to follow Discord's"
    ))
    @app_commands.rename(language=L_("parameter-name", "language"))
    @app_commands.choices(language=CHOICES)
    async def language(
        self, interaction: Interaction, language: app_commands.Choice[str]
    ) -> None:
        manager = interaction.client.manager
        chosen = parse_language(language.value)  # None: automatic
        await stored_settings(manager.store).set_user(
            interaction.user.id, LANGUAGE_KEY, chosen.value if chosen else None,
            at=manager.clock(),
        )
        log.info("user %s: language set to %s", interaction.user.id,
                 chosen.value if chosen else "automatic")
        if chosen is not None:
            words = words_for(chosen)
            text = words.gettext(
                "From now on I answer you in {language}. Public messages follow the server.",
                language=NATIVE_NAMES[chosen],
            )
        else:
            words = private_words(interaction, None)
            text = words.gettext(
                "I follow your Discord language again: {language}.",
                language=NATIVE_NAMES[words.language],
            )
        await interaction.response.send_message(text, ephemeral=True)
