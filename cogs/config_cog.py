"""/config: this server's settings (Manage Server only), stored per server in the store's
``guild_settings`` (``Store.guild_settings`` / ``set_guild_setting``).

Each setting is one optional option of the command; without options it shows the current
values. A later setting adds an option, a :class:`Setting` entry and its reader.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.context import Interaction, player_id, refuse
from cogs.replay import REPLAYS_EVERYONE, REPLAYS_KEY, REPLAYS_PLAYERS

log = logging.getLogger(__name__)

NEEDS_MANAGE_SERVER = "Only members with Manage Server may change this server's settings."


@dataclass(frozen=True)
class Setting:
    key: str
    default: str
    describe: str


SETTINGS: tuple[Setting, ...] = (
    Setting(REPLAYS_KEY, REPLAYS_EVERYONE,
            "who may replay a finished game: everyone in the server, or only its players"),
)


def settings_text(values: dict[str, str], changed: str | None = None) -> str:
    lines = [changed] if changed else []
    lines.append("This server's settings:")
    lines += [f"• {s.key}: {values.get(s.key, s.default)} ({s.describe})" for s in SETTINGS]
    return "\n".join(lines)


class ConfigCog(commands.Cog):
    """This server's settings."""

    @app_commands.command(name="config", description="This server's settings (Manage Server)")
    @app_commands.describe(replays="Who may replay and export finished games")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def config(
        self,
        interaction: Interaction,
        replays: Literal["everyone", "players"] | None = None,
    ) -> None:
        # default_permissions only hides the command; a server may grant it to anyone.
        if not interaction.permissions.manage_guild:
            await refuse(interaction, NEEDS_MANAGE_SERVER)
            return
        manager = interaction.client.manager
        guild_id = interaction.guild_id or 0
        changed = None
        if replays is not None:
            value = REPLAYS_PLAYERS if replays == REPLAYS_PLAYERS else REPLAYS_EVERYONE
            await manager.store.set_guild_setting(
                guild_id, REPLAYS_KEY, value, by=player_id(interaction.user), at=manager.clock()
            )
            log.info("guild %s: %s set to %s by %s", guild_id, REPLAYS_KEY, value,
                     interaction.user.id)
            changed = f"Set {REPLAYS_KEY} to {value}."
        values = await manager.store.guild_settings(guild_id)
        await interaction.response.send_message(
            settings_text(values, changed), ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
