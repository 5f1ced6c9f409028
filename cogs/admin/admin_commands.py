"""``/admin health``: the process's health for the application's owner (or its team),
ephemeral. Anyone else is refused, ephemeral too; nothing is read for them."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs.admin.diagnostics import gather
from cogs.admin.health_text import OWNER_ONLY, health_text
from cogs.client_services import Interaction, refuse
from cogs.i18n.commands import L_
from cogs.i18n.interaction import user_words

log = logging.getLogger(__name__)


class AdminCog(commands.Cog):
    """Commands for whoever runs the bot."""

    admin = app_commands.Group(
        name=L_("command-name", "admin"),
        description=L_("command-description", "For the bot's owner: the state of the bot"),
        # Hidden from members by default; the owner check below is what guards it.
        default_permissions=discord.Permissions(administrator=True),
    )

    @admin.command(name=L_("command-name", "health"),
                   description=L_("command-description",
                                  "Uptime, shards, games, queues, errors, memory, database"))
    async def health(self, interaction: Interaction) -> None:
        if not await interaction.client.is_owner(interaction.user):
            await refuse(interaction, OWNER_ONLY)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        facts = await gather(interaction.client)
        words = await user_words(interaction)
        log.info("/admin health shown to %s", interaction.user.id)
        await interaction.followup.send(health_text(words, facts), ephemeral=True)
