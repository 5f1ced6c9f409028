"""A notifier that records what the turn clock and the machine players would tell a channel:
the structured notices, and the words ``cogs.notices`` makes of them."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.models import Session
from bot.notify import Notice, Reminder, TimedOut
from cogs.notices import reminder_text, timed_out_text
from game.base import PlayerId


@dataclass
class RecordingNotifier:
    refreshed: list[Session] = field(default_factory=list)
    announced: list[str] = field(default_factory=list)
    reminded: list[tuple[PlayerId, str]] = field(default_factory=list)

    async def refresh(self, session: Session) -> None:
        self.refreshed.append(session)

    notices: list[Notice] = field(default_factory=list)

    async def notify(self, notice: Notice) -> None:
        """Keeps the notice, and the words the channel would read (``cogs.notices``)."""
        self.notices.append(notice)
        if isinstance(notice, Reminder):
            self.reminded.append((notice.player_id, reminder_text(notice)))
        elif isinstance(notice, TimedOut):
            self.announced.append(timed_out_text(notice))


async def no_sleep(seconds: float) -> None:
    """Pacing without waiting."""
