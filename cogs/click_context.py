"""One context per click: made once when a control or a command is dispatched, carried on the
interaction (discord.py's ``Interaction.extras``), read by everything after it.

A control's click enters it in :func:`dispatcher` (the client's ``dispatch_control``, made by
the table extension with the services), before the click the kind's feature registered; a
command, in its cog's ``interaction_check`` (the cog was made with the services). What follows
reads :func:`context_of` instead of looking the services up on the client. The reader's words
are kept on the same interaction the first time they are read
(``cogs.i18n.interaction.user_words``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.process.client import ControlDispatch
from cogs.kit.custom_ids import AnyKind
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
    # Read ~9 times a click: a subscript and a class check, not ``dict.get`` and
    # ``isinstance`` calls (issue 42, sixth pass); only :func:`enter` stores the key.
    try:
        found = interaction.extras[CONTEXT]
    except KeyError:
        found = None
    if found.__class__ is not ClickContext:
        raise RuntimeError("an interaction read before its control or command entered it")
    return found


def dispatcher(services: TableServices) -> ControlDispatch:
    """The client's ``dispatch_control``: a click on a control of ``kind`` makes the
    interaction's context, then runs the click its feature registered
    (``cogs.features.TableFeatures.click``)."""

    async def dispatch(interaction: discord.Interaction[Any], kind: AnyKind,
                       parts: tuple[Any, ...], values: list[str] | None) -> None:
        context = enter(interaction, services)
        await services.features.click(kind)(interaction, parts, values)
        # A tokens-only place's writes that found no token ride on this click, after its answer.
        await services.routes.pay(interaction.channel_id or 0, context.cause)

    return dispatch
