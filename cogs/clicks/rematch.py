"""The Rematch button of a final post (``cogs.listeners.final_post``): the same seats and options
again.

The first player of the finished game to click it opens a new lobby in the channel with the
game's options, its turn clock and its bot seats (same levels), seated as its host; each other
player of that game clicks it to take their seat (or uses the lobby's Join); the host starts.
Anyone else is refused, as is a click while another game runs in the channel. Clicks at once
take turns per channel, so players clicking together are all seated. Works after a restart:
the finished game is read from the store.
"""

from __future__ import annotations

import contextlib

import discord

from bot.records import errors
from bot.records.errors import Refusal, TableError
from bot.records.session import Session, Status
from cogs.click_context import context_of
from cogs.client_services import Interaction, player_id, refuse, seat_for
from cogs.i18n.interaction import user_words
from cogs.kit.custom_ids import REMATCH_GONE
from cogs.kit.keyed_locks import REMATCHES
from cogs.rendering.table_renders import table_render


async def reopen(channel: object) -> None:
    """Open an archived thread again (a Rematch clicked in it; ``cogs.commands.game_threads``
    archived it at the game's end)."""
    if isinstance(channel, discord.Thread) and channel.archived:
        await channel.edit(archived=False)


async def rematch_click(interaction: Interaction, session_id: int) -> None:
    words = await user_words(interaction)
    manager = interaction.client.manager
    me = player_id(interaction.user)
    try:
        old = await manager.store.load_session(session_id)
        if (
            old is None
            or old.is_private  # a private table has no final post, so no Rematch
            or old.status is not Status.FINISHED
            or old.channel_id != (interaction.channel_id or 0)
        ):
            raise Refusal(words.text(REMATCH_GONE))
        seat = old.seat_of(me)
        if seat is None or seat.is_bot:
            raise Refusal(words.gettext("Only the players of that game can join its rematch."))
        # Clicks at once take turns: the first opens the lobby (and stores its message), the
        # others find it and join.
        async with REMATCHES.of(old.channel_id):
            here = manager.in_channel(old.channel_id)
            if here is None:
                try:
                    await _open(interaction, old)
                    return
                except Refusal as err:  # a lobby opened meanwhile (/game new): join it
                    here = manager.in_channel(old.channel_id)
                    if err.template != errors.GAME_RUNNING or here is None:
                        raise
            if here.status is not Status.LOBBY or here.game != old.game:
                raise Refusal(words.gettext(
                    "Another game is open in this channel; a rematch can start once it is over."
                ))
            await manager.join(here.id, seat_for(interaction.user))
    except TableError as err:
        await refuse(interaction, err)
        return
    await interaction.response.send_message(
        words.gettext("You have your seat in the rematch."), ephemeral=True
    )


async def _open(interaction: Interaction, old: Session) -> None:
    """A new lobby with ``old``'s options, clock and bot seats; the clicker is its host."""
    manager = interaction.client.manager
    me = player_id(interaction.user)
    await reopen(interaction.channel)  # a game played in a thread archived it at its end
    lobby = await manager.open_lobby(
        old.guild_id, old.channel_id, old.game, seat_for(interaction.user), old.options,
        turn_minutes=old.turn_minutes,
    )
    for seat in old.seats:
        if seat.is_bot and seat.bot_level is not None:
            lobby = await manager.add_bot(lobby.id, me, seat.bot_level)
    try:
        await interaction.response.send_message(
            **table_render(interaction.client, context_of(interaction).services,
                           lobby).send_kwargs()
        )
    except discord.HTTPException:
        # A lobby nobody can see would block the channel: close it, then let the error
        # hook answer.
        with contextlib.suppress(TableError):
            await manager.cancel(lobby.id, me)
        raise
    message = await interaction.original_response()
    context_of(interaction).services.routes.hold(lobby.id, message.id, interaction,
                                                original=True)
    with contextlib.suppress(TableError):  # the lobby was closed meanwhile
        await manager.set_table_message(lobby.id, message.id)
