"""What Discord does for the events service (``bot.events.service.EventHost``): each table's
thread (started from a message in the event's channel that names its players) and its
table post, the event post's redraws, a round's start, the standings and the final post.

Public posts are in the server's language and go through the request budget (channel
writes outside an interaction).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import discord

from bot.events.service import EventService, Standing
from bot.process.client import TableBot
from bot.records.events import Event, EventStatus, EventTable
from bot.records.session import Session
from cogs.client_services import release_view
from cogs.events.renders import (
    event_embed,
    event_view,
    round_text,
    standings_embed,
    table_call,
    table_title,
    winners_text,
)
from cogs.i18n.interaction import server_words
from cogs.rendering.table_renders import table_render
from cogs.table_services import TableServices

log = logging.getLogger(__name__)

T = TypeVar("T")
PLAYERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True)
NOBODY = discord.AllowedMentions.none()


class DiscordEventHost:
    def __init__(self, client: TableBot, table: TableServices, service: EventService) -> None:
        self.client = client
        self.table = table
        self.service = service

    async def _write(self, call: Callable[[], Awaitable[T]]) -> T:
        return await self.client.budget.run(call)

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    def title(self, event: Event) -> str:
        engine = self.client.manager.engines.get(event.game)
        return engine.title if engine is not None else event.game

    async def table_channel(self, event: Event, table: EventTable) -> int:
        words = await server_words(self.client, event.guild_id)
        channel = self.client.get_channel(event.channel_id) \
            or await self.client.fetch_channel(event.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise RuntimeError(f"event {event.id}: its channel takes no threads")
        call = await self._write(lambda: channel.send(table_call(words, event, table),
                                                      allowed_mentions=PLAYERS_ONLY))
        try:
            thread = await self._write(lambda: channel.create_thread(
                name=table_title(words, event, table), message=call))
        except discord.HTTPException:
            # retried at the next tick: leave no call message without its thread behind
            with contextlib.suppress(discord.HTTPException):
                await self._write(call.delete)
            raise
        return thread.id

    async def post_table(self, session: Session) -> None:
        render = table_render(self.client, self.table, session)
        thread = self._channel(session.channel_id)
        try:
            message = await self._write(lambda: thread.send(**render.send_kwargs()))
        finally:
            release_view(render.view)
        await self.client.manager.set_table_message(session.id, message.id)

    async def event_changed(self, event: Event) -> None:
        if event.message_id is None:
            return
        current = await self.service.store.load_event(event.id) or event
        words = await server_words(self.client, current.guild_id)
        players = await self.service.players(current.id)
        lines = await self.service.standing(current) \
            if current.status is not EventStatus.OPEN else []
        embed = event_embed(words, current, self.title(current), players, lines)
        view = event_view(words, current)
        message = self._channel(current.channel_id).get_partial_message(event.message_id)
        try:
            await self._write(lambda: message.edit(embed=embed, view=view))
        finally:
            release_view(view)

    async def round_started(self, event: Event, tables: Sequence[EventTable]) -> None:
        words = await server_words(self.client, event.guild_id)
        channel = self._channel(event.channel_id)
        await self._write(lambda: channel.send(round_text(words, event, tables),
                                               allowed_mentions=PLAYERS_ONLY))

    async def round_ended(self, event: Event, lines: Sequence[Standing]) -> None:
        words = await server_words(self.client, event.guild_id)
        embed = standings_embed(words, event, lines, final=False)
        channel = self._channel(event.channel_id)
        await self._write(lambda: channel.send(embed=embed, allowed_mentions=NOBODY))

    async def event_ended(self, event: Event, lines: Sequence[Standing]) -> None:
        words = await server_words(self.client, event.guild_id)
        channel = self._channel(event.channel_id)
        text = winners_text(words, event, lines)
        embeds = [standings_embed(words, event, lines, final=True)] if lines else []
        await self._write(lambda: channel.send(text, embeds=embeds,
                                               allowed_mentions=PLAYERS_ONLY))
