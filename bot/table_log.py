"""The public table log: the last few event lines, stored with the session."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from bot.models import LOG_KEEP, Session
from game.base import Engine, Event

log = logging.getLogger(__name__)


def extend_log(
    session: Session, engine: Engine[Any, Any], events: Sequence[Event]
) -> tuple[str, ...]:
    """The session's public log with one line per new event (the last LOG_KEEP lines).

    Events are described for no viewer (``describe(event, None, names)``), so a line never
    names a hidden card.
    """
    names = session.names
    lines = []
    for event in events:
        try:
            lines.append(engine.describe(event, None, names))
        except Exception:  # a wording bug must not block the game
            log.exception("describing a %s event of session %s failed", event.kind, session.id)
            lines.append(event.kind)
    return (*session.log, *lines)[-LOG_KEEP:]
