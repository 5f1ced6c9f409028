"""Where a command or a click came from: the place its results count in, and whether the bot can
write in its channel.

Discord lets a person install the app to their own account and use it in servers that never
invited the bot, in DMs and in group DMs (``app_commands.allowed_installs`` /
``allowed_contexts``: :data:`INSTALLS`, :data:`CONTEXTS`). Such an interaction carries its
``context`` (0 server, 1 the bot's DM, 2 another DM or a group DM) and the installs that
authorized it, ``authorizing_integration_owners`` (``"0"``: the server that installed the app,
``"1"``: the user who did)
(https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object,
"Interaction Context Types", "Authorizing Integration Owners Object"). discord.py's
``Interaction.is_user_integration()`` is False when a friend clicks a button of the installer's
message, so the place is read from what every interaction has: its guild, and whether that
guild installed the app (``is_guild_integration()``).

* **The place** (:func:`place_id`): a server is one place (its id), whether the bot was invited
  or only a member installed the app; a DM or a group DM is a place of its own, its channel's
  id (snowflakes never collide), so leaderboards, stats, history and seasons keyed by the
  stored ``guild_id`` column count it apart.
* **The reach** (:func:`tokens_only`): only where the server installed the app is the bot a
  member of the channel; anywhere else its channel routes answer 403 Missing Access, and
  every message goes through an interaction's token (``cogs.kit.message_routes``).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

# Every command that makes sense outside a server declares both installs and every context.
INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


def place_id(interaction: discord.Interaction[Any]) -> int:
    """The place results count in: the server's id, else the DM's or group DM's channel id."""
    return interaction.guild_id or interaction.channel_id or 0


def tokens_only(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot cannot write in the interaction's channel: no server installed the app
    there (a DM, a group DM, or a server where only a user installed it)."""
    return interaction.guild_id is None or not interaction.is_guild_integration()
