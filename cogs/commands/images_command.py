"""/images on|off: a person's own choice of pictures in what only they see (their hand, the
Table button's copy), wherever they play. Stored as the user setting ``images``; without a
choice they follow the server (``cogs.pictures``). Public tables follow the server only.
"""

from __future__ import annotations

import logging

from discord import app_commands
from discord.ext import commands

from cogs.client_services import Interaction
from cogs.i18n.commands import L_
from cogs.i18n.interaction import private_words
from cogs.i18n.settings_cache import stored_settings
from cogs.pictures import IMAGES_KEY, OFF, ON, Pictures
from cogs.rendering.message_delivery import LANGUAGE_KEY

log = logging.getLogger(__name__)


class ImagesCog(commands.Cog):
    """The /images command (``pictures``: the table's)."""

    def __init__(self, pictures: Pictures) -> None:
        self.pictures = pictures

    @app_commands.command(
        name=L_("command-name", "images"),
        description=L_("command-description", "Pictures of the cards in what only you see"),
    )
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(
        show=L_("parameter-description", "on: pictures with the text; off: text only"),
    )
    @app_commands.rename(show=L_("parameter-name", "show"))
    @app_commands.choices(show=[
        app_commands.Choice(name=L_("choice-name", "on"), value=ON),
        app_commands.Choice(name=L_("choice-name", "off"), value=OFF),
    ])
    async def images(self, interaction: Interaction, show: str) -> None:
        client = interaction.client
        pictures = self.pictures
        store = client.manager.store
        settings = await pictures.user_settings(store, interaction.user.id)
        words = private_words(interaction, settings.get(LANGUAGE_KEY))
        if show not in (ON, OFF):
            await interaction.response.send_message(
                words.gettext("Choose on or off."), ephemeral=True)
            return
        await stored_settings(store).set_user(interaction.user.id, IMAGES_KEY, show,
                                              at=client.manager.clock())
        log.info("user %s: images set to %s", interaction.user.id, show)
        text = (
            words.gettext("Pictures on: your hand and your copies of the table show the cards"
                          " as pictures, with the text.")
            if show == ON else
            words.gettext("Pictures off: your hand and your copies of the table are text only."
                          " Public tables follow this server's setting.")
        )
        await interaction.response.send_message(text, ephemeral=True)
