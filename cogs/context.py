"""What every cog and click handler reaches through the typed client.

``interaction.client`` is the :class:`bot.client.TableBot`: ``client.manager`` is the session
manager; the game UIs are the registry the table extension (``cogs.table``) keeps on its
cog (:func:`game_uis`). Tests put a fake client with the same two on their fake interactions
(``tests/fakes.py``).
"""

from __future__ import annotations

import discord

from bot.client import TableBot
from bot.errors import TableError
from bot.manager import BOT_LEVELS, SessionManager
from bot.models import Seat
from bot.ops import outcomes
from cogs.game_ui import Render
from cogs.i18n.interaction import user_words
from cogs.i18n.messages import Message
from cogs.ids import TABLE_COG
from cogs.refusals import refusal_text
from cogs.registry import GameUIs

Interaction = discord.Interaction[TableBot]



def manager_of(interaction: Interaction) -> SessionManager:
    return interaction.client.manager


def game_uis(client: TableBot) -> GameUIs:
    """The game UI registry of the table extension (loaded first by the client)."""
    cog = client.get_cog(TABLE_COG)
    uis = getattr(cog, "uis", None)
    if not isinstance(uis, GameUIs):
        raise RuntimeError("the table extension (cogs.table) is not loaded")
    return uis


def offered_bot_levels(client: TableBot) -> tuple[str, ...]:
    """The bot levels the lobby offers (``BOT_LEVELS``; the table cog keeps them)."""
    levels = getattr(client.get_cog(TABLE_COG), "bot_levels", None)
    return levels if isinstance(levels, tuple) and levels else BOT_LEVELS


def player_id(user: discord.abc.User) -> str:
    return str(user.id)


def seat_for(user: discord.abc.User) -> Seat:
    return Seat(player_id=player_id(user), display_name=user.display_name)


def is_moderator(interaction: Interaction) -> bool:
    """Manage Messages in this channel lets a member cancel someone else's game."""
    return bool(interaction.permissions.manage_messages)


def is_ephemeral(message: discord.Message | None) -> bool:
    return message is not None and message.flags.ephemeral


Refusable = str | Message | TableError


async def refuse(interaction: Interaction, message: Refusable) -> None:
    """Answer with an ephemeral sentence (the refusal path: nothing changed), in the user's
    language: a :class:`TableError` through ``cogs.refusals``, a marked :class:`Message`
    through the catalogs; a ``str`` is sent as it is (already in the user's words)."""
    outcomes.mark(interaction.extras, outcomes.REFUSED)  # counted when its handler ends
    if not isinstance(message, str):
        words = await user_words(interaction)
        if isinstance(message, TableError):
            message = refusal_text(words, message)
        else:
            message = words.text(message)
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


async def send_private(
    interaction: Interaction, render: Render, *, note: str | None = None
) -> None:
    """Send ``render`` ephemeral; ``note`` goes above its content."""
    kwargs = render.send_kwargs()
    if note:
        kwargs["content"] = note if not render.content else f"{note}\n{render.content}"
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)
    release_view(render.view)


def release_view(view: discord.ui.View | None) -> None:
    """Drop a sent view from discord.py's view store. discord.py gives an ephemeral message's
    view a 15-minute timeout and keeps it (and a timer task) alive that long; ours are made of
    DynamicItems, which the registered classes serve without the view object."""
    if view is not None:
        view.stop()
