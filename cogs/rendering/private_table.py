"""The one message of a private table (``Session.is_private``: the daily deal, /learn): the
table as everyone would see it, then the player's own hand with its controls, in one
ephemeral message. A private table has no channel message at all; this message is its only
surface (``cogs.listeners.private_tables`` keeps it current after the machine seats move).

A private kind may add to it (:class:`PrivateExtras`): embeds above the table (a commentary),
embeds below the hand (the daily's result) and buttons after the controls (Share). Register
an :data:`AddOn` per kind in the services (``services_of(client).private_addons[kind] =
addon``); it runs on every draw, so it must be quick (one store read at most).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.process.client import TableBot
from bot.records.session import Session
from cogs.client_services import (
    Interaction,
    game_uis,
    player_id,
    release_view,
    remember_view,
    send_private,
)
from cogs.game_ui import Render, WordsTables, private_in
from cogs.i18n.interaction import user_words
from cogs.i18n.words import Words
from cogs.table_services import services_of
from game.base import PlayerId

Item = discord.ui.Item[Any]


@dataclass(frozen=True)
class PrivateExtras:
    """What a private kind adds to its table's message (see the module doc)."""

    above: Sequence[discord.Embed] = ()
    below: Sequence[discord.Embed] = ()
    items: Sequence[Item] = ()


AddOn = Callable[[TableBot, Session, PlayerId, Words], Awaitable[PrivateExtras]]


async def private_table(client: TableBot, session: Session, viewer: PlayerId, words: Words,
                        step: Render | None = None) -> Render:
    """The private table's message for ``viewer`` in ``words``: the kind's ``above``, the
    table (its embeds; none of its public buttons), ``step`` (a next step of a click) or the
    viewer's own view with its controls, the kind's ``below`` and ``items``. Text only."""
    ui = game_uis(client).ui(session.game)
    table = ui.table_in(session, words) if isinstance(ui, WordsTables) else ui.table(session)
    own = step if step is not None else private_in(ui, session, viewer, words)
    addon = services_of(client).private_addons.get(session.kind)
    extras = await addon(client, session, viewer, words) if addon is not None else None
    extras = extras or PrivateExtras()
    content = "\n".join(part for part in (table.content, own.content) if part) or None
    view = own.view
    if extras.items:
        view = view or discord.ui.View(timeout=None)
        for item in extras.items:
            view.add_item(item)
    return Render(content=content,
                  embeds=[*extras.above, *table.embeds, *own.embeds, *extras.below],
                  view=view, files=[])


# Redraws of a just-sent message that the machine seats overtook (each one is current when
# drawn; a later machine turn is redrawn by the notifier anyway).
REDRAWS = 3


async def send_private_table(interaction: Interaction, session: Session,
                             note: str | None = None) -> None:
    """Answer ``interaction`` (a slash command: open or resume a private table) with the
    table's message, ephemeral, drawn from the stored game; the machine seats' moves edit it
    from now on (``cogs.listeners.private_tables``). ``note`` goes above it."""
    me = player_id(interaction.user)
    words = await user_words(interaction)
    render = await private_table(interaction.client, session, me, words)
    await send_private(interaction, render, note=note)
    remember_view(interaction, session.id, me)
    # The machine seats may have moved while the answer was on its way, before the message
    # could be followed: their redraw found no message to edit, so it is redrawn here.
    shown = session.version
    for _ in range(REDRAWS):
        live = interaction.client.manager.get(session.id)
        if live is None or live.version == shown:
            return
        render = await private_table(interaction.client, live, me, words)
        await interaction.edit_original_response(**render.edit_kwargs())
        release_view(render.view)
        shown = live.version

