"""The gateway's message events, parsed only as far as the bot reads them (issue 42).

The bot reads a channel's MESSAGE_CREATE for its id alone (``cogs.listeners.table_watch``
counts the messages below a table) and no edit at all; most of these events are its own posts
and edits, one or more per action. discord.py builds a whole ``Message`` for each (author,
embeds, components, interaction metadata) and, for an edit, a ``RawMessageUpdateEvent`` too: a
few percent of the process's CPU per action (``python -m bench.action_cpu --profile``). Here:

- MESSAGE_CREATE dispatches ``raw_message_seen(channel_id, message_id)`` and nothing else (no
  ``message`` event: the bot has no prefix commands, and keeps no message cache);
- MESSAGE_UPDATE only keeps discord.py's view store in step (what its own parser does for a
  message whose view it tracks); no ``message_edit`` or ``raw_message_edit`` is dispatched.

Every other event keeps discord.py's own parser.
"""

from __future__ import annotations

from typing import Any

from discord.state import ConnectionState

MESSAGE_SEEN = "raw_message_seen"  # listeners: on_raw_message_seen(channel_id, message_id)


def install(state: ConnectionState[Any]) -> None:
    """Replace the two parsers of ``state`` (a client's ``_connection``)."""

    def message_create(data: dict[str, Any]) -> None:
        state.dispatch(MESSAGE_SEEN, int(data["channel_id"]), int(data["id"]))

    def message_update(data: dict[str, Any]) -> None:
        components = data.get("components")
        if components is None:
            return
        try:
            entity_id = int(data["interaction"]["id"])
        except (KeyError, TypeError, ValueError):
            entity_id = int(data["id"])
        store = state._view_store
        if store.is_message_tracked(entity_id):
            store.update_from_message(entity_id, components)

    state.parsers["MESSAGE_CREATE"] = message_create
    state.parsers["MESSAGE_UPDATE"] = message_update
