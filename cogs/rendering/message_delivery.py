"""The messages as they are shown: a table or private render with its picture when the
server (public) or the person (private) has pictures on (``cogs.pictures``).

Every send and edit of a game's table or of a private view goes through these coroutines, so
the picture and the switch that turns it off are decided in one place. The picture's words
follow the language rules of ``cogs.i18n`` (public: the server's; private: the person's).

A click is answered at once: :func:`answer` sends the picture with the answer when it is at
hand (drawn already: ``Shown.ready``); else the text goes out first, without a picture, and
the picture is drawn and follows in an edit of the same message (``edit_original_response``).
Nothing about a picture but a cache lookup happens before the first callback: a render takes
10-25 ms of CPU (bench/images.py), several times a text answer. A later answer on the same
message wins: an older picture that arrives after it is dropped.
Writes to one message take turns (:func:`message_turn`: answers, picture edits and the table
publisher's edits), so a picture checked as current cannot land after a newer text.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from itertools import count
from typing import Any

import discord

from bot.process.client import TableBot
from bot.records.session import Session
from cogs.click_context import context_of
from cogs.client_services import Interaction, is_ephemeral, release_view
from cogs.game_ui import Attachment, Render, as_card
from cogs.i18n.interaction import private_words, public_words
from cogs.i18n.words import Words
from cogs.kit.followed_views import ANSWERED_MESSAGE
from cogs.kit.keyed_locks import Turns
from cogs.pictures import (
    Pictures,
    final_attachment,
    hand_job,
    prerender_hand,
    ready_picture,
    table_job,
    text_only,
    with_hand_picture,
    with_table_picture,
    without_picture,
)
from cogs.rendering.table_renders import table_render
from cogs.table_services import TableServices
from game.base import PlayerId

log = logging.getLogger(__name__)

LANGUAGE_KEY = "language"  # the server and user setting of cogs.i18n


@dataclass
class Shown:
    """An answer: ``text`` (the render without a picture) and, when pictures are on, the
    coroutine that draws the render with its picture (``ready``: that render, when its
    picture is drawn already)."""

    text: Render
    pictured: Awaitable[Render] | None = None
    session: Session | None = None  # what the picture shows: it follows only while current
    ready: Render | None = None


async def public_picture_words(client: TableBot, pictures: Pictures,
                               session: Session) -> Words | None:
    """The words of the pictures on public messages about ``session`` (the server's
    language); None when the server has pictures off."""
    store = client.manager.store
    if not await pictures.public_on(store, session.guild_id):
        return None
    settings = await pictures.server_settings(store, session.guild_id)
    guild = client.get_guild(session.guild_id)
    return public_words(guild if isinstance(guild, discord.Guild) else None,
                        settings.get(LANGUAGE_KEY))


async def private_picture_words(interaction: Interaction, session: Session) -> Words | None:
    """The words of the pictures only the clicker sees; None when they have pictures off."""
    pictures = context_of(interaction).services.pictures
    store = interaction.client.manager.store
    user_id = interaction.user.id
    if not await pictures.private_on(store, session.guild_id, user_id):
        return None
    settings = await pictures.user_settings(store, user_id)
    return private_words(interaction, settings.get(LANGUAGE_KEY))


async def public_table(client: TableBot, services: TableServices, session: Session) -> Render:
    """The public table message of ``session``: its text render, with the table picture (the
    final picture once finished) when the server shows pictures."""
    render = table_render(client, services, session)
    words = await public_picture_words(client, services.pictures, session)
    ui = services.uis.ui(session.game)
    return await with_table_picture(services.pictures, ui, session, render, words)


async def table_copy_shown(interaction: Interaction, session: Session, words: Words) -> Shown:
    """The table as only the clicker sees it (the Table button), in ``words`` (theirs), by
    their picture choice."""
    services = context_of(interaction).services
    table = table_render(interaction.client, services, session, words)
    render = as_card(Render(content=table.content, embeds=table.embeds))
    picture_words = await private_picture_words(interaction, session)
    if picture_words is None:
        return Shown(text_only(render))
    ui = services.uis.ui(session.game)
    pictures = services.pictures
    return Shown(render,
                 with_table_picture(pictures, ui, session, render, picture_words),
                 session, ready_picture(pictures, table_job(ui, session, picture_words), render))


async def final_picture(client: TableBot, services: TableServices,
                        session: Session) -> Attachment | None:
    """The final picture of finished ``session`` for a public final post (``final.png``; put
    it on the post with ``embed.set_image(url=attachment.url)`` and ``files=[attachment]``);
    None when the server has pictures off or the game's UI draws none. Rendered in the pool,
    cached like the table."""
    words = await public_picture_words(client, services.pictures, session)
    if words is None:
        return None
    ui = services.uis.ui(session.game)
    return await final_attachment(services.pictures, ui, session, words)


async def table_shown(
    interaction: Interaction, session: Session, words: Words | None = None
) -> Shown:
    """The public table as a click on it re-renders it (the server's picture setting; ``words``:
    the server's, by default its cached choice)."""
    client = interaction.client
    services = context_of(interaction).services
    pictures = services.pictures
    render = table_render(client, services, session, words)
    words = await public_picture_words(client, pictures, session)
    if words is None:
        return Shown(text_only(render))
    ui = services.uis.ui(session.game)
    return Shown(without_picture(render),
                 with_table_picture(pictures, ui, session, render, words), session,
                 ready_picture(pictures, table_job(ui, session, words), render))


async def private_shown(
    interaction: Interaction, session: Session, viewer: PlayerId, render: Render
) -> Shown:
    """``viewer``'s private ``render`` as an answer (their picture choice)."""
    words = await private_picture_words(interaction, session)
    if words is None:
        return Shown(text_only(render), session=session)
    services = context_of(interaction).services
    ui = services.uis.ui(session.game)
    pictures = services.pictures
    return Shown(without_picture(render),
                 with_hand_picture(pictures, ui, session, viewer, render, words), session,
                 ready_picture(pictures, hand_job(ui, session, viewer, words), render))


async def _hand_pictures_on(client: TableBot, pictures: Pictures, session: Session,
                            player: PlayerId) -> bool:
    user_id = int(player) if player.isascii() and player.isdecimal() else None
    return await pictures.private_on(client.manager.store, session.guild_id, user_id)


async def followed_view(
    client: TableBot, services: TableServices, session: Session, player: PlayerId,
    render: Render, words: Words,
) -> Render:
    """``player``'s private ``render`` as the edit that makes their view follow the game
    (``cogs.listeners.view_follow``, not an answer: it may wait for the picture) shows it: with
    their hand picture by their choice, else as text with an older picture removed."""
    pictures = services.pictures
    if not await _hand_pictures_on(client, pictures, session, player):
        return text_only(render)
    ui = services.uis.ui(session.game)
    return await with_hand_picture(pictures, ui, session, player, render, words)


async def draw_hand_ahead(
    client: TableBot, services: TableServices, session: Session, player: PlayerId,
    words: Words,
) -> None:
    """Start drawing ``player``'s hand picture of ``session`` now that the game waits for
    them, so the answer that shows it (their My hand) carries it with its first callback
    instead of an edit after it."""
    if await _hand_pictures_on(client, services.pictures, session, player):
        prerender_hand(services.pictures, services.uis.ui(session.game), session, player, words)


def with_note(render: Render, note: str | None) -> Render:
    """``render`` with ``note`` above its content."""
    if not note:
        return render
    return replace(render, content=note if not render.content else f"{note}\n{render.content}")


_TURNS = Turns()  # message id -> (its lock, holders + waiters), while a write is in progress
_NO_TURN: contextlib.nullcontext[None] = contextlib.nullcontext()


def message_turn(message_id: int | None) -> contextlib.AbstractAsyncContextManager[None]:
    """One write to message ``message_id`` at a time (None: no known message, no wait). The
    map keeps only messages with a write in progress."""
    return _NO_TURN if message_id is None else _TURNS.of(message_id)


_answers = count(1)
# message id -> the answer whose picture is in flight for it; STALE once a newer answer went
# out. Entries live only while a picture is drawn (the answer that set one removes it).
_latest: dict[int, int] = {}
STALE = 0


async def answer(
    interaction: Interaction, shown: Shown, *, edit: bool, note: str | None = None
) -> None:
    """Answer the click: ``edit`` the clicked message (``response.edit_message``) or send a
    new ephemeral message; the picture comes with it when drawn already, else it is drawn
    after the answer went out and follows in an edit."""
    answer_failed = _record_answer(interaction, shown) if edit else None
    if shown.pictured is None:
        await _respond(interaction, with_note(shown.text, note), edit=edit,
                       answer_failed=answer_failed)
        return
    if shown.ready is not None:
        _discard(shown.pictured)
        await _respond(interaction, with_note(shown.ready, note), edit=edit,
                       answer_failed=answer_failed)
        return
    if interaction.response.is_done():  # answered already: one follow-up, with its picture
        await _respond(interaction, with_note(await shown.pictured, note), edit=edit,
                       answer_failed=answer_failed)
        return
    token = next(_answers)
    message_id = await _respond(interaction, with_note(shown.text, note), edit=edit,
                                keep_view=True, answer_failed=answer_failed)
    if message_id is not None:
        _latest[message_id] = token
    try:
        pictured = with_note(await shown.pictured, note)
        if not pictured.files:
            return
        async with message_turn(message_id):
            if message_id is not None and _latest.get(message_id) != token:
                return  # a newer answer was drawn on this message meanwhile
            if shown.session is not None and _moved_on(interaction, shown.session):
                return  # the game went on: a late picture would redraw an old message
            await interaction.client.token_writes.edit_original(interaction,
                                                                **_picture_only(pictured))
    except discord.HTTPException:
        log.warning("could not add the picture to an answer")
    finally:
        if message_id is not None and _latest.get(message_id) in (token, STALE):
            del _latest[message_id]
        release_view(shown.text.view)


def _record_answer(interaction: Interaction, shown: Shown) -> Callable[[], None] | None:
    """Record that the clicked message shows this version from now on: it may be the
    player's followed view, which the follower then does not redraw to the same version
    (cogs.listeners.view_follow). Recorded before the update is sent, so a follower drawing
    meanwhile sees it; the returned undo is for an update that is refused (too late, say):
    the message then shows what it showed, for the follower to bring up to date."""
    session, message = shown.session, interaction.message
    if session is None or message is None or not is_ephemeral(message):
        return None
    views = context_of(interaction).services.views
    player, message_id, version = str(interaction.user.id), message.id, session.version
    before = views.answered(session.id, player)
    views.answering(session.id, player, message_id, version)
    return lambda: views.answer_failed(session.id, player, message_id, version, before)


def _picture_only(render: Render) -> dict[str, Any]:
    """The edit that adds the picture to an answer already sent: its embeds (the first names
    the image) and files; the content and the controls stay as the answer left them (this
    answer is still the message's latest), so they are not sent and checked again. A card
    names its picture in its components (``cogs.kit.card_layout``): it is sent whole."""
    kwargs = render.edit_kwargs()
    if render.card:
        return kwargs
    return {key: kwargs[key] for key in ("embeds", "attachments") if key in kwargs}


def _discard(pictured: Awaitable[Render]) -> None:
    """Close a drawing coroutine that will not be awaited (no "never awaited" warning)."""
    if inspect.iscoroutine(pictured):
        pictured.close()


def _moved_on(interaction: Interaction, session: Session) -> bool:
    current = interaction.client.manager.get(session.id)
    return current is None or current.version != session.version


async def _respond(
    interaction: Interaction, render: Render, *, edit: bool, keep_view: bool = False,
    answer_failed: Callable[[], None] | None = None,
) -> int | None:
    """Send or edit (through the token writes: no message object is made of the answer);
    the id of the message answered (None when not known), also left in
    ``interaction.extras`` for a view remembered after it (``cogs.kit.followed_views``)."""
    writes = interaction.client.token_writes
    if edit:
        message_id = interaction.message.id if interaction.message is not None else None
        async with message_turn(message_id):
            if message_id in _latest:
                _latest[message_id] = STALE  # the picture in flight for it would be older
            try:
                await writes.update_message(interaction, **render.edit_kwargs())
            except Exception:
                if answer_failed is not None:
                    answer_failed()
                raise
        interaction.extras[ANSWERED_MESSAGE] = message_id
        return message_id
    kwargs = render.send_kwargs()
    if interaction.response.is_done():
        sent_id: int | None = (
            await writes.send_followup(interaction, ephemeral=True, **kwargs)).id
    else:
        sent_id = await writes.send_message(interaction, ephemeral=True, **kwargs)
    if not keep_view:
        release_view(render.view)
    interaction.extras[ANSWERED_MESSAGE] = sent_id
    return sent_id
