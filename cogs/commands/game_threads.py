"""Playing in a thread (optional, off by default): ``/game new thread:true``, or every new game
of a server whose ``threads`` setting is ``on``.

The command's answer in the channel says a table was opened; a public thread is started from
that message, and the lobby, the table, the pings and the final post all live in the thread
(the session's channel is the thread). When the game ends (or is cancelled) the thread is
archived, after the final post; a Rematch clicked there opens it again.
"""

from __future__ import annotations

import logging

import discord

from bot.ops.request_budget import RequestBudget
from bot.process.client import TableBot
from bot.records.change import Change
from bot.records.errors import TableError
from cogs.click_context import context_of
from cogs.client_services import Interaction, refuse
from cogs.commands.lobby_open import open_lobby, post_lobby
from cogs.i18n.interaction import server_words
from cogs.i18n.messages import N_, Message
from cogs.kit.discord_limits import clip
from cogs.rendering.table_renders import table_render

log = logging.getLogger(__name__)

MAX_THREAD_NAME = 100
# ``/game new thread:true`` where the bot cannot open a thread (cogs.kit.places.tokens_only):
# refused, so nobody expects a thread that never comes.
NO_THREADS_IN_A_CHAT = N_("A chat has no threads: open the game here without the thread option.")
NO_THREADS_WITHOUT_THE_BOT = N_("The bot can open a thread only in a server that added it; here"
                                " it was only installed by members. Open the game here without"
                                " the thread option.")


def wants_thread(interaction: Interaction, asked: bool | None, server_default: bool) -> bool:
    """Whether ``/game new`` opens its table in a new thread: as asked, else the server's
    setting (``/config threads``, else ``THREADS``); never from inside a thread."""
    if isinstance(interaction.channel, discord.Thread):
        return False
    return server_default if asked is None else asked


def no_thread_here(interaction: Interaction, asked: bool | None) -> Message | None:
    """The refusal of ``/game new thread:true`` where every message rides on a token (no thread
    can be opened there: a DM, a group DM, a server where only members installed the app);
    None when no thread was asked for."""
    if not asked:
        return None
    return NO_THREADS_IN_A_CHAT if interaction.guild_id is None else NO_THREADS_WITHOUT_THE_BOT


async def open_in_thread(interaction: Interaction, game: str, turn_minutes: int,
                         bot_level: str | None = None, *, hints: bool = False) -> None:
    """The lobby of a new game in a thread started from the command's answer (with a bot of
    ``bot_level`` seated, as ``/game new level:`` asks; hints on when ``hints``)."""
    client = interaction.client
    manager = client.manager
    try:
        title = manager.engine(game).title
    except TableError as err:
        await refuse(interaction, err)
        return
    words = await server_words(client, interaction.guild_id or 0)
    name = interaction.user.display_name
    await interaction.response.send_message(
        words.gettext("{name} opened a {game} table: join it in its thread.",
                      name=name, game=title)
    )
    notice = await interaction.original_response()
    thread = await notice.create_thread(
        name=clip(words.gettext("{game}: {name}'s table", game=title, name=name),
                  MAX_THREAD_NAME)
    )
    try:
        session = await open_lobby(interaction, thread.id, game, turn_minutes, bot_level,
                                   hints=hints)
    except TableError as err:
        await refuse(interaction, err)
        return
    render = table_render(client, context_of(interaction).services, session)
    await post_lobby(interaction, session, render, thread.send)


class ThreadArchiver:
    """Archives a game's thread once the game is over (a manager listener at its place after
    the final post's, ``cogs.features.Place.THREADS``: the final post goes first). A game in an
    ordinary channel is not touched."""

    def __init__(self, client: TableBot, budget: RequestBudget) -> None:
        self._client = client
        self._budget = budget

    async def on_change(self, change: Change) -> None:
        session = change.session
        if session.is_live or self._client.manager.in_channel(session.channel_id) is not None:
            return
        channel = self._client.get_channel(session.channel_id)
        if not isinstance(channel, discord.Thread) or channel.archived:
            return
        budget = self._budget  # a globally-limited request
        try:
            await budget.run(lambda: channel.edit(archived=True))
        except discord.HTTPException:
            log.warning("could not archive the thread of session %s", session.id)
