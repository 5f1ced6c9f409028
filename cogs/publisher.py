"""Keeps each session's public table message current (a manager listener).

Edits the stored table message through a PartialMessage, so it works after a restart without
any cache. Skips a change whose ``origin`` is that very message (the click handler already
re-rendered it) and a change that a newer one has overtaken.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.manager import Change
from cogs.rendering import table_render
from cogs.services import Services

log = logging.getLogger(__name__)


class TablePublisher:
    def __init__(self, client: Any, services: Services) -> None:
        self._client = client
        self._services = services

    async def on_change(self, change: Change) -> None:
        session = change.session
        if session.table_message_id is None or change.origin == session.table_message_id:
            return
        current = self._services.manager.get(session.id)
        if current is not None and current.version > session.version:
            return
        channel = self._client.get_channel(session.channel_id)
        if channel is None:
            channel = await self._client.fetch_channel(session.channel_id)
        message = channel.get_partial_message(session.table_message_id)
        try:
            await message.edit(**table_render(self._services, session).edit_kwargs())
        except discord.NotFound:
            log.warning("table message of session %s is gone", session.id)
