"""A server event (a Swiss tournament) as the store keeps it, below the store.

An :class:`Event` is immutable like a session; the service builds a new one per change. Its
players and tables are rows of their own (:class:`EventPlayer`, :class:`EventTable`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from bot.records.session import utcnow
from game.base import PlayerId


class EventStatus(StrEnum):
    OPEN = "open"  # registration: Join and Leave
    RUNNING = "running"  # its rounds are played
    FINISHED = "finished"
    CANCELLED = "cancelled"


LIVE_EVENT_STATUSES = (EventStatus.OPEN, EventStatus.RUNNING)


class EventFormat(StrEnum):
    SWISS = "swiss"  # rounds (bot.events.swiss)
    ARENA = "arena"  # a duration, players seated again as they finish (bot.events.arena)


@dataclass(frozen=True)
class EventSettings:
    """What the organiser chose: rounds (Swiss) or minutes (arena), players per table, the
    turn clock (minutes), whether bot seats fill short tables, and the Discord scheduled event
    made for it (if any)."""

    rounds: int
    per_table: int
    turn_minutes: int
    bots: bool = False
    scheduled_event_id: int | None = None
    minutes: int = 0  # an arena's duration

    def to_json(self) -> dict[str, object]:
        return {"rounds": self.rounds, "per_table": self.per_table,
                "turn_minutes": self.turn_minutes, "bots": self.bots,
                "scheduled_event_id": self.scheduled_event_id, "minutes": self.minutes}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> EventSettings:
        scheduled = data.get("scheduled_event_id")
        return cls(rounds=int(str(data["rounds"])), per_table=int(str(data["per_table"])),
                   turn_minutes=int(str(data["turn_minutes"])), bots=bool(data.get("bots")),
                   scheduled_event_id=int(str(scheduled)) if scheduled is not None else None,
                   minutes=int(str(data.get("minutes", 0))))


@dataclass(frozen=True)
class Event:
    id: int
    guild_id: int
    channel_id: int
    game: str
    format: EventFormat
    name: str
    created_by: PlayerId
    starts_at: datetime
    settings: EventSettings
    status: EventStatus = EventStatus.OPEN
    round: int = 0  # the round being played (0 before the start)
    message_id: int | None = None  # the event post (Join, Leave, the players, standings)
    created_at: datetime = field(default_factory=utcnow)
    updated_at: datetime = field(default_factory=utcnow)

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_EVENT_STATUSES

    @property
    def ends_at(self) -> datetime:
        """An arena's end (its start plus its minutes); a Swiss ends with its last round."""
        return self.starts_at + timedelta(minutes=self.settings.minutes)


@dataclass(frozen=True)
class EventPlayer:
    event_id: int
    user_id: PlayerId
    display_name: str
    joined_at: datetime
    withdrawn: bool = False


@dataclass(frozen=True)
class EventTable:
    """One table of one round: its players in seat order (a single player: the bye), the
    session it is played in (None until opened, and for a bye), and once it ended each
    player's placement (``outcome``; None while it runs)."""

    event_id: int
    round: int
    number: int
    players: tuple[PlayerId, ...]
    session_id: int | None = None
    outcome: dict[PlayerId, int] | None = None
    finished_at: datetime | None = None

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1 and self.session_id is None

    @property
    def done(self) -> bool:
        return self.outcome is not None
