"""A notifier that records what the turn clock and the machine players would tell a channel."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.models import Session
from game.base import PlayerId


@dataclass
class RecordingNotifier:
    refreshed: list[Session] = field(default_factory=list)
    announced: list[str] = field(default_factory=list)
    reminded: list[tuple[PlayerId, str]] = field(default_factory=list)

    async def refresh(self, session: Session) -> None:
        self.refreshed.append(session)

    async def announce(self, session: Session, text: str) -> None:
        self.announced.append(text)

    async def remind(self, session: Session, player_id: PlayerId, text: str) -> None:
        self.reminded.append((player_id, text))


async def no_sleep(seconds: float) -> None:
    """Pacing without waiting."""
