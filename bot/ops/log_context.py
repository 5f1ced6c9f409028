"""What a log line is about: guild, channel, session and shard, in context variables.

Set around the handling of an interaction (``bot.process.client_ops.handling``: the command tree
and ``cogs.kit.custom_ids.Control``), around a session's change and the turn clock's and machine
seats' work on it (``SessionManager.log_bound``: with the session's shard); a
task started inside inherits them, so the session's publish worker logs with its session too.
The JSON log format (``bot.ops.json_logs``) writes the ones that are set. Ids only: nothing here
is hidden information.
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from types import TracebackType

FIELDS = ("guild", "channel", "session", "shard")
_CONTEXT: dict[str, ContextVar[int | None]] = {
    name: ContextVar(f"tablebot_log_{name}", default=None) for name in FIELDS
}


_GUILD, _CHANNEL, _SESSION, _SHARD = (_CONTEXT[name] for name in FIELDS)


class bound:
    """``with bound(guild=..., ...)``: set the given fields inside the block (and in the tasks
    started from it); the block's end restores what was set before, so a long-lived task (the
    turn clock, a machine seat's worker) does not go on logging with the last session it
    touched. A class, not a generator: it is entered on every click and change (issue 42)."""

    __slots__ = ("_tokens", "_values")

    def __init__(self, *, guild: int | None = None, channel: int | None = None,
                 session: int | None = None, shard: int | None = None) -> None:
        self._values = ((_GUILD, guild), (_CHANNEL, channel), (_SESSION, session),
                        (_SHARD, shard))
        self._tokens: list[tuple[ContextVar[int | None], Token[int | None]]] = []

    def __enter__(self) -> None:
        self._tokens = [(var, var.set(value)) for var, value in self._values
                        if value is not None]

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        for var, token in reversed(self._tokens):
            var.reset(token)
        self._tokens = []


def current() -> dict[str, int]:
    """The fields set in this context."""
    found = {}
    for name, var in _CONTEXT.items():
        value = var.get()
        if value is not None:
            found[name] = value
    return found
