"""One context per click: made once when a control or a command is dispatched, carried on the
interaction (discord.py's ``Interaction.extras``), read by everything after it.

A control's click enters it in the class registered for it (``cogs.kit.custom_ids.bound``, by
the table or a feature, which hold the services); a command, first thing in its cog (which was
made with them). What follows reads :func:`context_of` instead of looking the services up on the
client. The reader's words are kept on the same interaction the first time they are read
(``cogs.i18n.interaction.user_words``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from cogs.kit.message_routes import Cause
from cogs.table_services import TableServices
from game.base import PlayerId

CONTEXT = "tablebot.context"


@dataclass(frozen=True)
class ClickContext:
    """``services``: the table's; ``player``: the clicker's player id; ``cause``: what the
    manager's change carries to the listeners (the message clicked and the interaction, whose
    token can write the change's messages: ``cogs.kit.message_routes``)."""

    services: TableServices
    player: PlayerId
    cause: Cause


def enter(interaction: discord.Interaction[Any], services: TableServices) -> ClickContext:
    """The context of ``interaction``, made now if it has none yet."""
    found = interaction.extras.get(CONTEXT)
    if isinstance(found, ClickContext):
        return found
    context = ClickContext(services, str(interaction.user.id),
                           services.routes.cause(interaction))
    interaction.extras[CONTEXT] = context
    return context


def context_of(interaction: discord.Interaction[Any]) -> ClickContext:
    """The context its dispatch made (RuntimeError: ``interaction`` was not dispatched)."""
    found = interaction.extras.get(CONTEXT)
    if not isinstance(found, ClickContext):
        raise RuntimeError("an interaction read before its control or command entered it")
    return found
