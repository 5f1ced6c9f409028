"""What a log line is about: guild, channel, session and shard, in context variables.

Set around the handling of an interaction (``bot.process.client_ops.handling``: the command tree
and ``cogs.kit.custom_ids.Control``), around a session's change and the turn clock's and machine
seats' work on it (``SessionManager.log_bound``: with the session's shard); a
task started inside inherits them, so the session's publish worker logs with its session too.
The JSON log format (``bot.ops.json_logs``) writes the ones that are set. Ids only: nothing here
is hidden information.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

FIELDS = ("guild", "channel", "session", "shard")
_CONTEXT: dict[str, ContextVar[int | None]] = {
    name: ContextVar(f"tablebot_log_{name}", default=None) for name in FIELDS
}


@contextmanager
def bound(*, guild: int | None = None, channel: int | None = None,
          session: int | None = None, shard: int | None = None) -> Iterator[None]:
    """Set the given fields inside the block (and in the tasks started from it); the block's
    end restores what was set before, so a long-lived task (the turn clock, a machine seat's
    worker) does not go on logging with the last session it touched."""
    tokens = [
        (_CONTEXT[name], _CONTEXT[name].set(value))
        for name, value in (("guild", guild), ("channel", channel), ("session", session),
                            ("shard", shard))
        if value is not None
    ]
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


def current() -> dict[str, int]:
    """The fields set in this context."""
    found = {}
    for name, var in _CONTEXT.items():
        value = var.get()
        if value is not None:
            found[name] = value
    return found
