"""What the machine players and the turn clock tell a channel, as data (no Discord here).

``bot.automation.autoplay`` and ``bot.automation.turn_clock`` move through the session manager with
``origin=AUTOMATIC``. The table publisher in ``cogs`` does not redraw the table for those
changes one by one; it redraws when told to through :meth:`Notifier.refresh`, once a run of
machine moves is over (at most once per bot turn, not once per card). The turn clock's
notices (:class:`Reminder`, :class:`TimedOut`) are structured; ``cogs.rendering.notice_text`` turns
them into words and markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.records.session import Session
from game.base import Event, PlayerId


@dataclass(frozen=True)
class Reminder:
    """``player_id``'s move in ``session`` (a game called ``title``) falls due at ``due_at``."""

    session: Session
    player_id: PlayerId
    title: str
    due_at: datetime


@dataclass(frozen=True)
class TimedOut:
    """``player_id`` ran out of time; ``moves`` are the public events of the default moves
    played for them (``bot.records.session.public_event``: the cogs word them in the channel's
    language), ``timeouts`` how many turns in a row they timed out, ``away`` whether a bot now
    plays their seat. ``session`` is the newest version after those moves."""

    session: Session
    player_id: PlayerId
    moves: tuple[Event, ...]
    timeouts: int
    away: bool


Notice = Reminder | TimedOut


class Notifier(Protocol):
    async def refresh(self, session: Session) -> None:
        """Redraw the public table for ``session`` (the newest live copy if there is one)."""
        ...

    async def notify(self, notice: Notice) -> None:
        """Tell the session's channel about ``notice`` in a new message (a reminder pings
        its player)."""
        ...


class SilentNotifier:
    """Says nothing (tests of the core, or a process without a channel to talk to)."""

    async def refresh(self, session: Session) -> None:
        return None

    async def notify(self, notice: Notice) -> None:
        return None
