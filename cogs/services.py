"""What the cogs and component handlers reach through ``interaction.client``.

The bot (``bot.client.TableBot``) sets ``client.services``; tests put a fake client with the
same attribute on their fake interactions (``tests/fakes.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import Refusal
from bot.manager import SessionManager
from bot.models import Seat
from cogs.game_ui import GameUI, Render


@dataclass
class Services:
    manager: SessionManager
    uis: Mapping[str, GameUI]

    def ui(self, game: str) -> GameUI:
        try:
            return self.uis[game]
        except KeyError:
            raise Refusal(f"There is no table view for {game!r}.") from None


def services(interaction: discord.Interaction[Any]) -> Services:
    found: Services = interaction.client.services  # set by TableBot.setup_hook
    return found


def player_id(user: discord.abc.User) -> str:
    return str(user.id)


def seat_for(user: discord.abc.User) -> Seat:
    return Seat(player_id=player_id(user), display_name=user.display_name)


def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """Manage Messages in this channel lets a member cancel someone else's game."""
    return bool(interaction.permissions.manage_messages)


def is_ephemeral(message: discord.Message | None) -> bool:
    return message is not None and message.flags.ephemeral


async def refuse(interaction: discord.Interaction[Any], message: str) -> None:
    """Answer with an ephemeral sentence (the refusal path: nothing changed)."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


async def send_private(
    interaction: discord.Interaction[Any], render: Render, *, note: str | None = None
) -> None:
    """Send ``render`` ephemeral; ``note`` goes above its content."""
    kwargs = render.send_kwargs()
    if note:
        kwargs["content"] = note if not render.content else f"{note}\n{render.content}"
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)
