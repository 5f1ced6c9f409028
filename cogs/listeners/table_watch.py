"""Counts the messages posted below each live table, so that a table other messages pushed up
is posted again at the bottom (``cogs.listeners.table_publisher``).

The bot learns of channel messages from the gateway's MESSAGE_CREATE and MESSAGE_DELETE
events (the ``guild_messages`` intent, which is not privileged; their content stays empty
without the ``message_content`` intent, and none is needed: only ids are read). Only channels
with a live table are counted, and only up to :data:`KEEP` ids each; a channel's count is
dropped with its game, so memory stays flat however long the bot runs. After a restart the
counts start again from nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.records.session import Session
from bot.sessions.manager import SessionManager

BURIED_AFTER = 5  # messages below the table; one more and the next update moves it
KEEP = 4 * BURIED_AFTER  # ids remembered per channel (deleted ones are taken off again)


class TableWatch:
    def __init__(self, manager: SessionManager) -> None:
        self._manager = manager
        # channel id -> (the table message counted against, ids of the messages below it)
        self._below: dict[int, tuple[int, set[int]]] = {}

    def __len__(self) -> int:
        return len(self._below)

    def seen(self, channel_id: int, message_id: int) -> None:
        """A message was posted in ``channel_id`` (anyone's, the bot's own included)."""
        session = self._manager.in_channel(channel_id)
        table = session.table_message_id if session is not None else None
        if table is None:
            self._below.pop(channel_id, None)
            return
        if message_id <= table:
            return
        entry = self._below.get(channel_id)
        if entry is None or entry[0] != table:
            kept = {m for m in entry[1] if m > table} if entry is not None else set()
            entry = (table, kept)
            self._below[channel_id] = entry
        if len(entry[1]) < KEEP:
            entry[1].add(message_id)

    def gone(self, channel_id: int, message_ids: Iterable[int]) -> None:
        """Messages of ``channel_id`` were deleted."""
        entry = self._below.get(channel_id)
        if entry is not None:
            entry[1].difference_update(message_ids)

    def buried(self, session: Session) -> bool:
        """Whether more than :data:`BURIED_AFTER` messages are below ``session``'s table."""
        entry = self._below.get(session.channel_id)
        return (
            entry is not None
            and entry[0] == session.table_message_id
            and len(entry[1]) > BURIED_AFTER
        )

    def below(self, channel_id: int) -> int:
        """How many messages are counted below the channel's table (tests, diagnostics)."""
        entry = self._below.get(channel_id)
        session = self._manager.in_channel(channel_id)
        if entry is None or session is None or session.table_message_id is None:
            return 0
        return sum(1 for message_id in entry[1] if message_id > session.table_message_id)

    def forget(self, channel_id: int) -> None:
        self._below.pop(channel_id, None)

    # --- the gateway listeners (``bot.add_listener``) ---------------------------------------

    async def on_raw_message_seen(self, channel_id: int, message_id: int) -> None:
        """A MESSAGE_CREATE, parsed for its ids alone (``bot.process.message_events``)."""
        self.seen(channel_id, message_id)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.gone(payload.channel_id, [payload.message_id])

    async def on_raw_bulk_message_delete(
        self, payload: discord.RawBulkMessageDeleteEvent
    ) -> None:
        self.gone(payload.channel_id, payload.message_ids)
