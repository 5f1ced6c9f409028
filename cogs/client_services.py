"""What every cog and click handler reaches through the typed client.

``interaction.client`` is the :class:`bot.process.client.TableBot`: ``client.manager`` is the
session manager. What the cogs share (``cogs.table_services.TableServices``) is given to
each cog and listener when it is made, and a click reads it from its context
(``cogs.click_context.context_of``): each player's followed view (:func:`remember_view`), the
channels that refuse the bot's posts (:func:`tell_if_blocked`).
Tests put a fake client with the same on their fake interactions (``tests/fakes.py``).
"""

from __future__ import annotations

import logging
from dataclasses import replace

import discord

from bot.ops import outcomes
from bot.process.client import TableBot
from bot.records.errors import TableError
from bot.records.session import Seat, Session
from bot.sessions.manager import SessionManager
from cogs.click_context import context_of
from cogs.game_ui import Render
from cogs.i18n.command_mentions import command_fields
from cogs.i18n.interaction import user_words
from cogs.i18n.messages import Message
from cogs.i18n.words import Words
from cogs.kit.card_layout import Card
from cogs.kit.control_payloads import Rows
from cogs.kit.refusal_texts import refusal_text
from game.base import PlayerId

Interaction = discord.Interaction[TableBot]

log = logging.getLogger(__name__)



def manager_of(interaction: Interaction) -> SessionManager:
    return interaction.client.manager


async def remember_view(interaction: Interaction, session: Session, player: PlayerId) -> None:
    """The click handlers' one line: ``interaction`` just answered with ``player``'s private
    view, drawn from ``session``, which follows the game from now on
    (``cogs.listeners.view_follow``). The follower looks at it at once: should the game have
    moved on to the player's turn while the view was drawn and answered, the change's own
    follow found only their older view (or none), so this one is brought up to date now."""
    views = context_of(interaction).services.views
    views.remember(session.id, player, interaction, session.version)
    if views.catch_up is not None and not session.is_private:
        try:
            await views.catch_up(session.id, player)
        except Exception:
            log.exception("session %s: a view could not catch up with the game", session.id)


async def tell_if_blocked(interaction: Interaction, session_id: int, player: PlayerId,
                          words: Words) -> None:
    """After a click was answered: tell the clicker privately, once, that the channel
    refuses the bot's posts (``cogs.kit.channel_health``)."""
    await context_of(interaction).services.health.tell_if_blocked(interaction, session_id,
                                                                  player, words)


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
    language: a :class:`TableError` through ``cogs.kit.refusal_texts``, a marked :class:`Message`
    through the catalogs; a ``str`` is sent as it is (already in the user's words)."""
    outcomes.mark(interaction.extras, outcomes.REFUSED)  # counted when its handler ends
    if not isinstance(message, str):
        words = await user_words(interaction)
        if isinstance(message, TableError):
            message = refusal_text(words, message)
        else:
            message = words.text(message, **command_fields(words))
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


async def send_private(
    interaction: Interaction, render: Render, *, note: str | None = None
) -> None:
    """Send ``render`` ephemeral; ``note`` goes above its content."""
    if note:
        render = replace(render, content=note if not render.content
                         else f"{note}\n{render.content}")
    kwargs = render.send_kwargs()
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)
    release_view(render.view)


def release_view(view: Rows | Card | discord.ui.View | None) -> None:
    """Drop a sent view from discord.py's view store. discord.py gives an ephemeral message's
    view a 15-minute timeout and keeps it (and a timer task) alive that long; ours are made of
    DynamicItems, which the registered classes serve without the view object."""
    if view is not None:
        view.stop()
