"""What a log line is about: guild, channel, session and shard, in context variables.

Set where an interaction is handled (``bot.client_tree``, ``cogs.ids.Control``) and where a
session changes (``bot.manager``); a task started from there inherits them, so the session's
publish worker logs with its session too. The JSON log format (``bot.ops.json_logs``) writes
the ones that are set. Ids only: nothing here is hidden information.
"""

from __future__ import annotations

from contextvars import ContextVar

FIELDS = ("guild", "channel", "session", "shard")
_CONTEXT: dict[str, ContextVar[int | None]] = {
    name: ContextVar(f"tablebot_log_{name}", default=None) for name in FIELDS
}


def bind(*, guild: int | None = None, channel: int | None = None,
         session: int | None = None, shard: int | None = None) -> None:
    """Set the given fields for the rest of the current task (and the tasks it starts)."""
    for name, value in (("guild", guild), ("channel", channel), ("session", session),
                        ("shard", shard)):
        if value is not None:
            _CONTEXT[name].set(value)


def current() -> dict[str, int]:
    """The fields set in this context."""
    found = {}
    for name, var in _CONTEXT.items():
        value = var.get()
        if value is not None:
            found[name] = value
    return found
