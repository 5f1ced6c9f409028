"""What happens on a click or a command, between Discord and the session manager.

Thin by design: every rule check lives in the manager or the engine; a handler picks the
manager call, turns TableError into an ephemeral refusal and re-renders the right message.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

import discord
from pydantic import BaseModel

from bot import errors
from bot.errors import StaleVersion, TableError
from bot.models import Session, Status
from cogs.game_ui import Render, ShowsScores
from cogs.rendering import table_render
from cogs.rules_text import RULES, rules_page
from cogs.services import (
    Services,
    is_ephemeral,
    is_moderator,
    player_id,
    refuse,
    seat_for,
    send_private,
    services,
)
from cogs.unexpected import DONE_NOT_SHOWN, MOVE_MADE, ChangeNotShown
from game.base import IllegalAction

Interaction = discord.Interaction[Any]


def _origin(interaction: Interaction) -> int | None:
    return interaction.message.id if interaction.message is not None else None


@contextlib.asynccontextmanager
async def _after_change(text: str) -> AsyncIterator[None]:
    """Mark an error raised after the manager stored a change: the error hook answers it with
    ``text``, not with "nothing was changed"."""
    try:
        yield
    except Exception as error:
        raise ChangeNotShown(error, text) from error


async def lobby_click(interaction: Interaction, action: str, session_id: int) -> None:
    """Join / Leave / Start / Cancel on a lobby message; edits that message in place."""
    svc = services(interaction)
    manager = svc.manager
    me = player_id(interaction.user)
    origin = _origin(interaction)
    try:
        if action == "join":
            session = await manager.join(session_id, seat_for(interaction.user), origin=origin)
        elif action == "leave":
            session = await manager.leave(session_id, me, origin=origin)
        elif action == "start":
            session = await manager.start(session_id, me, origin=origin)
        elif action == "cancel":
            session = await manager.cancel(
                session_id, me, moderator=is_moderator(interaction), origin=origin
            )
        elif action in ("bot-easy", "bot-normal"):
            level = action.removeprefix("bot-")
            session = await manager.add_bot(session_id, me, level, origin=origin)
        elif action == "unbot":
            session = await manager.remove_bot(session_id, me, origin=origin)
        else:
            raise errors.Refusal("That button does nothing.")
    except TableError as err:
        await refuse(interaction, err.message)
        return
    async with _after_change(DONE_NOT_SHOWN):
        render = table_render(svc, session)
        await interaction.response.edit_message(**render.edit_kwargs())


def _private_or_refuse(svc: Services, session: Session | None, me: str) -> Render:
    if session is None:
        raise errors.Refusal(errors.NO_GAME)
    if session.seat_of(me) is None:
        raise errors.Refusal(errors.NOT_SEATED)
    if session.status is Status.LOBBY:
        raise errors.Refusal(errors.NOT_STARTED)
    return svc.ui(session.game).private(session, me)


async def show_hand(interaction: Interaction, session: Session | None) -> None:
    """Send the user's private view of ``session``, ephemeral."""
    svc = services(interaction)
    try:
        render = _private_or_refuse(svc, session, player_id(interaction.user))
    except TableError as err:
        await refuse(interaction, err.message)
        return
    await send_private(interaction, render)


async def hand_click(interaction: Interaction, session_id: int) -> None:
    await show_hand(interaction, services(interaction).manager.get(session_id))


async def act_click(
    interaction: Interaction, session_id: int, version: int, payload: str, values: Sequence[str]
) -> None:
    """A game component click: check, translate through the GameUI, act, re-render."""
    svc = services(interaction)
    me = player_id(interaction.user)
    session = svc.manager.get(session_id)
    try:
        _private_or_refuse(svc, session, me)
        assert session is not None
        if version != session.version:
            raise StaleVersion()
        ui = svc.ui(session.game)
        step = ui.action_for(session, me, payload, values)
        if isinstance(step, Render):
            await _show_step(interaction, step)
            return
        engine = svc.manager.engine(session.game)
        try:
            action = step if isinstance(step, BaseModel) else engine.parse_action(step)
        except IllegalAction as err:
            raise errors.Refusal(str(err)) from None
        change = await svc.manager.act(session_id, me, version, action,
                                       origin=_origin(interaction))
    except StaleVersion as err:
        current = svc.manager.get(session_id) or session
        assert current is not None
        await send_private(interaction, ui_private(svc, current, me), note=err.message)
        return
    except TableError as err:
        await refuse(interaction, err.message)
        return
    new = change.session
    async with _after_change(MOVE_MADE):
        if is_ephemeral(interaction.message):
            render = svc.ui(new.game).private(new, me)
        else:
            render = table_render(svc, new)
        await interaction.response.edit_message(**render.edit_kwargs())


def ui_private(svc: Services, session: Session, me: str) -> Render:
    return svc.ui(session.game).private(session, me)


async def _show_step(interaction: Interaction, step: Render) -> None:
    if is_ephemeral(interaction.message):
        await interaction.response.edit_message(**step.edit_kwargs())
    else:
        await send_private(interaction, step)


async def info_click(interaction: Interaction, session_id: int, what: str) -> None:
    """Table / Rules / Scores on a table message: for anyone in the channel, answered
    ephemeral (``what`` is ``table``, ``rules`` or ``scores``)."""
    svc = services(interaction)
    try:
        render = _info_render(svc, svc.manager.get(session_id), what)
    except TableError as err:
        await refuse(interaction, err.message)
        return
    await send_private(interaction, render)


def _info_render(svc: Services, session: Session | None, what: str) -> Render:
    if session is None:
        raise errors.Refusal(errors.NO_GAME)
    if what == "rules" and session.game in RULES:
        return rules_page(session.game, 0)
    if what == "scores":
        ui = svc.ui(session.game)
        if not isinstance(ui, ShowsScores):
            raise errors.Refusal(errors.NO_SCORE_SHEET)
        if session.status is Status.LOBBY:
            raise errors.Refusal(errors.NOT_STARTED)
        return ui.scores(session)
    table = table_render(svc, session)
    return Render(content=table.content, embeds=table.embeds)


async def back_click(interaction: Interaction, session_id: int) -> None:
    """The "I'm back" button: the player's seat is theirs again; the table is redrawn."""
    svc = services(interaction)
    try:
        session = await svc.manager.set_away(
            session_id, player_id(interaction.user), False, origin=_origin(interaction)
        )
    except TableError as err:
        await refuse(interaction, err.message)
        return
    async with _after_change(DONE_NOT_SHOWN):
        if is_ephemeral(interaction.message):
            await interaction.response.send_message("Welcome back: your seat is yours again.",
                                                    ephemeral=True)
            return
        await interaction.response.edit_message(**table_render(svc, session).edit_kwargs())


async def rules_click(interaction: Interaction, game: str, page: int) -> None:
    if game not in RULES:
        await refuse(interaction, errors.unknown_game(game))
        return
    await interaction.response.edit_message(**rules_page(game, page).edit_kwargs())
