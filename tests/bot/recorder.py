"""A notifier that records what the turn clock and the machine players would tell a channel:
the structured notices, and the words ``cogs.rendering.notice_text`` makes of them."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.automation.notices import Notice, Reminder, TimedOut
from bot.records.session import Session
from cogs.game_ui import GameUI
from cogs.plain_ui import PlainUI
from cogs.rendering.notice_text import reminder_text, timed_out_text
from cogs.split.ui import SplitUI
from cogs.ten.ui import TenUI
from game.base import PlayerId
from game.split import SplitEngine
from game.ten import TenEngine
from tests.testgame import CountEngine

# The UIs that word the moves of a timed-out notice, by game (the test game: its engine's).
UIS: dict[str, GameUI] = {"split": SplitUI(SplitEngine()), "ten": TenUI(TenEngine()),
                          "count": PlainUI(CountEngine())}


@dataclass
class RecordingNotifier:
    refreshed: list[Session] = field(default_factory=list)
    announced: list[str] = field(default_factory=list)
    reminded: list[tuple[PlayerId, str]] = field(default_factory=list)

    async def refresh(self, session: Session) -> None:
        self.refreshed.append(session)

    notices: list[Notice] = field(default_factory=list)

    async def notify(self, notice: Notice) -> None:
        """Keeps the notice, and the words the channel would read
        (``cogs.rendering.notice_text``)."""
        self.notices.append(notice)
        if isinstance(notice, Reminder):
            self.reminded.append((notice.player_id, reminder_text(notice)))
        elif isinstance(notice, TimedOut):
            self.announced.append(timed_out_text(notice, UIS[notice.session.game]))


async def no_sleep(seconds: float) -> None:
    """Pacing without waiting."""
