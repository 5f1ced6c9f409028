"""Opening a lobby for ``/game new``, in the command's channel or in a new thread: one way.

:func:`open_lobby` seats the host (and the bot ``level:`` asks for) and :func:`post_lobby`
posts the lobby's table where it lives, closing the lobby again when that post fails (a lobby
nobody can see would block its channel).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.records.errors import TableError
from bot.records.session import HINTS, REACH, TOKENS_ONLY, Session
from cogs.click_context import context_of
from cogs.client_services import Interaction, release_view, seat_for
from cogs.game_ui import WORDS_HINTS, able
from cogs.kit.places import place_id, tokens_only
from cogs.rendering.table_renders import Render

Post = Callable[..., Awaitable[discord.Message]]


async def open_lobby(interaction: Interaction, channel_id: int, game: str, turn_minutes: int,
                     bot_level: str | None, *, hints: bool = False) -> Session:
    """A new lobby in ``channel_id`` hosted by the command's user, with a bot of
    ``bot_level`` seated (none when None), hints on when ``hints`` (the server's default; the
    host may turn them off). Raises :class:`TableError` and leaves no lobby open when either
    step is refused. A game whose UI words no hints never has them."""
    manager = interaction.client.manager
    hints = hints and game in manager.engines \
        and able(context_of(interaction).services.uis.ui(game), WORDS_HINTS) is not None
    options: dict[str, object] = {HINTS: True} if hints else {}
    if tokens_only(interaction):
        options[REACH] = TOKENS_ONLY
    session = await manager.open_lobby(
        place_id(interaction), channel_id, game, seat_for(interaction.user),
        options, turn_minutes=turn_minutes,
    )
    if bot_level is None:
        return session
    try:
        return await manager.add_bot(session.id, session.host_id, bot_level)
    except TableError:
        with contextlib.suppress(TableError):
            await manager.cancel(session.id, session.host_id)
        raise


async def post_lobby(interaction: Interaction, session: Session, render: Render,
                     post: Post, *, original: bool = False) -> None:
    """Post ``render`` with ``post`` and remember the message as the session's table;
    ``original``: the post is the interaction's answer, whose token can edit it
    (``cogs.kit.message_routes``)."""
    manager = interaction.client.manager
    kwargs: dict[str, Any] = render.send_kwargs()
    try:
        message = await post(**kwargs)
    except discord.HTTPException:
        with contextlib.suppress(TableError):
            await manager.cancel(session.id, session.host_id)
        raise
    finally:
        release_view(render.view)
    if original:
        context_of(interaction).services.routes.hold(session.id, message.id, interaction,
                                                    original=True)
    with contextlib.suppress(TableError):  # the lobby was closed meanwhile
        await manager.set_table_message(session.id, message.id)
