"""The one message of a private table (``Session.is_private``: the daily deal, /learn): the
table as everyone would see it, then the player's own hand with its controls, in one
ephemeral message. A private table has no channel message at all; this message is its only
surface (``cogs.listeners.private_tables`` keeps it current after the machine seats move).
It is one card (``cogs.kit.card_layout``) with the player's hand picture when they have
pictures on (issue 41): drawn by the same workers from ``engine.view(state, player)``, so it
shows nothing the player may not see; the answer goes out first and the picture follows in an
edit (``cogs.rendering.message_delivery.answer``).

A private kind may add to it (``cogs.features.PrivateExtras``): embeds above the table (a
commentary), embeds below the hand (the daily's result) and buttons after the controls (Share).
A feature registers its add-on for its kind (``cogs.features.Feature.private``); it runs on every
draw, so it must be quick (one store read at most).
"""

from __future__ import annotations

from bot.records.session import Session
from cogs.click_context import context_of
from cogs.client_services import (
    Interaction,
    player_id,
    release_view,
    remember_view,
)
from cogs.features import PrivateExtras
from cogs.game_ui import Render, as_card, private_in, table_in
from cogs.i18n.interaction import user_words
from cogs.i18n.words import Words
from cogs.kit.control_payloads import as_rows
from cogs.rendering.message_delivery import answer, followed_view, private_shown
from cogs.table_services import TableServices
from game.base import PlayerId


async def private_table(services: TableServices, session: Session, viewer: PlayerId, words: Words,
                        step: Render | None = None) -> Render:
    """The private table's message for ``viewer`` in ``words``: the kind's ``above``, the
    table (its embeds; none of its public buttons), ``step`` (a next step of a click) or the
    viewer's own view with its controls, the kind's ``below`` and ``items``, as text: the
    callers add the hand picture (``message_delivery.private_shown`` / ``followed_view``)."""
    ui = services.uis.ui(session.game)
    table = table_in(ui, session, words)
    own = step if step is not None else private_in(
        ui, session, viewer, words, lambda: services.features.turn_items(session, viewer, words))
    addon = services.features.private_addon(session.kind)
    extras = await addon(session, viewer, words) if addon is not None else None
    extras = extras or PrivateExtras()
    content = "\n".join(part for part in (table.content, own.content) if part) or None
    view = own.view
    if extras.items:
        view = as_rows(view)
        for item in extras.items:
            view.add_item(item)
    return as_card(Render(content=content,
                          embeds=[*extras.above, *table.embeds, *own.embeds, *extras.below],
                          view=view, files=[]))


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
    services = context_of(interaction).services
    render = await private_table(services, session, me, words)
    await answer(interaction, await private_shown(interaction, session, me, render), edit=False,
                 note=note)
    await remember_view(interaction, session, me)
    # The machine seats may have moved while the answer was on its way, before the message
    # could be followed: their redraw found no message to edit, so it is redrawn here.
    shown = session.version
    for _ in range(REDRAWS):
        live = interaction.client.manager.get(session.id)
        if live is None or live.version == shown:
            return
        render = await followed_view(interaction.client, services, live, me,
                                     await private_table(services, live, me, words), words)
        await interaction.client.token_writes.edit_original(interaction, **render.edit_kwargs())
        release_view(render.view)
        shown = live.version

