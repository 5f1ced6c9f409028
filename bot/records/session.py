"""The session record shared by the store, the manager and the cogs.

A :class:`Session` is immutable: every change builds a new one (``dataclasses.replace``) and
the manager swaps it in only after it was stored. Listeners and renderers may keep references
without fear of them changing underneath.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from game.base import Event, PlayerId


def utcnow() -> datetime:
    return datetime.now(UTC)


class Status(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class SessionKind(StrEnum):
    """What a session is for. A ``table`` is played in its channel for everyone to see; the
    other kinds are private tables: one human (the other seats bot seats) and no channel noise
    at all, shown only in the player's ephemeral messages (``cogs.listeners.private_tables``).
    A private game is never rated and never counted on the leaderboards."""

    TABLE = "table"
    DAILY = "daily"  # the daily deal (bot.daily)
    LEARN = "learn"  # a guided game (/learn)


LIVE_STATUSES = (Status.LOBBY, Status.ACTIVE)
# How many public events a session keeps for its table log.
LOG_KEEP = 12
# The kind of a log entry stored as an English line before the log kept events (migration
# 9): ``data["text"]`` is the line, shown as it is. No engine's event kinds has a hyphen.
OLD_LINE = "old-line"
# The table's own options, kept in ``Session.options`` beside the engine's: ``hints`` (each
# human seat may ask the expert for a move; such a game is recorded, never rated).
HINTS = "hints"
# ``reach``: ``"tokens"`` for a table in a place the bot is not in (a group DM, a DM, a server
# where only a user installed the app): its messages are written with interaction tokens
# only, never through the channel (``cogs.kit.message_routes``). Absent: the channel too.
REACH = "reach"
TOKENS_ONLY = "tokens"
TABLE_OPTIONS = frozenset({HINTS, REACH})


def table_options(options: Mapping[str, object]) -> dict[str, object]:
    """The table's own options kept from ``options`` (hints on, a tokens-only reach)."""
    kept: dict[str, object] = {}
    if options.get(HINTS) is True:
        kept[HINTS] = True
    if options.get(REACH) == TOKENS_ONLY:
        kept[REACH] = TOKENS_ONLY
    return kept


def engine_options(options: Mapping[str, object]) -> dict[str, object]:
    """``options`` without the table's own: what the engine deals and replays with."""
    return {key: value for key, value in options.items() if key not in TABLE_OPTIONS}


def public_event(event: Event) -> Event:
    """``event`` without its private part: what the table log may keep and say to anyone."""
    if event.private is None and event.private_to is None:
        return event
    return Event(event.kind, event.actor, event.data)


def old_line(text: str) -> Event:
    """A log entry for ``text``, an English event line stored before migration 9."""
    return Event(OLD_LINE, None, {"text": text})


class Seat(BaseModel):
    """One seat. ``player_id`` is a Discord user id in decimal, or ``"bot:N"`` for a bot seat."""

    model_config = ConfigDict(frozen=True)

    player_id: PlayerId
    display_name: str
    is_bot: bool = False
    bot_level: str | None = None  # "easy" / "normal" / "expert" for bot seats
    left: bool = False  # left a running game for good; a bot plays the seat
    away: bool = False  # autopiloted after two timeouts in a row, until "I'm back"
    timeouts: int = 0  # turn clock expiries in a row (reset when the player acts)
    # The versions whose move the turn clock or a bot made for this person (their review
    # leaves them out: they are not the player's decisions).
    machine_moves: tuple[int, ...] = ()

    @property
    def autopiloted(self) -> bool:
        """A machine chooses this seat's moves (a bot seat, or a human who is away or left)."""
        return self.is_bot or self.left or self.away


class Deadline(BaseModel):
    """When an awaited human's move is due; ``reminded`` once the reminder ping went out."""

    model_config = ConfigDict(frozen=True)

    player_id: PlayerId
    due_at: datetime
    remind_at: datetime
    reminded: bool = False


@dataclass(frozen=True)
class Session:
    """One table in one channel.

    ``state`` is the engine's state model while the game runs (``None`` in the lobby).
    ``version`` goes up by one on every stored change; a game action names the version it was
    made against. ``log`` keeps the last :data:`LOG_KEEP` public events for the table (the cogs
word them in the reader's language).
    """

    id: int
    guild_id: int
    channel_id: int
    game: str
    status: Status
    host_id: PlayerId
    seats: tuple[Seat, ...]
    options: dict[str, object] = field(default_factory=dict)
    state: Any = None
    version: int = 1
    table_message_id: int | None = None
    turn_minutes: int = 0  # the turn clock; 0 = off
    deadlines: tuple[Deadline, ...] = ()  # for the current version; see bot.sessions.deadlines
    created_at: datetime = field(default_factory=utcnow)
    updated_at: datetime = field(default_factory=utcnow)
    # The newest public events (:func:`public_event`: no private part), oldest first.
    log: tuple[Event, ...] = ()
    # The game's one live turn ping in the channel (cogs.listeners.turn_ping), deleted when the next
    # one goes out; kept so that a restarted process still deletes it.
    ping_message_id: int | None = None
    kind: SessionKind = SessionKind.TABLE  # stored once, at creation

    @property
    def is_private(self) -> bool:
        """A private table: no channel message, only its player's ephemeral ones."""
        return self.kind is not SessionKind.TABLE

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES

    @property
    def tokens_only(self) -> bool:
        """Whether the bot is not in the table's channel: nothing goes through its routes."""
        return self.options.get(REACH) == TOKENS_ONLY

    def seat_of(self, player_id: PlayerId) -> Seat | None:
        for seat in self.seats:
            if seat.player_id == player_id:
                return seat
        return None

    @property
    def player_ids(self) -> list[PlayerId]:
        return [seat.player_id for seat in self.seats]

    @property
    def names(self) -> dict[PlayerId, str]:
        return {seat.player_id: seat.display_name for seat in self.seats}

    def deadline_of(self, player_id: PlayerId) -> Deadline | None:
        return next((d for d in self.deadlines if d.player_id == player_id), None)

    @property
    def has_bots(self) -> bool:
        return any(seat.is_bot for seat in self.seats)

    @property
    def hints(self) -> bool:
        """Whether its human seats may ask for hints (then the game is never rated)."""
        return self.options.get(HINTS) is True


_SESSION_FIELDS = frozenset(item.name for item in fields(Session))


def replaced(session: Session, **changes: Any) -> Session:
    """``dataclasses.replace(session, **changes)``: the same new ``Session``, made by copying
    the fields rather than through the generated ``__init__`` (a frozen dataclass's
    ``__init__`` stores each of its 18 fields through ``object.__setattr__``; every stored
    change makes two: issue 42). ``Session`` has no ``__post_init__`` and no ``init=False``
    field, so nothing else is skipped."""
    unknown = changes.keys() - _SESSION_FIELDS
    if unknown:
        raise TypeError(f"Session has no field {sorted(unknown)[0]!r}")
    new = object.__new__(type(session))
    values = new.__dict__
    values.update(session.__dict__)
    values.update(changes)
    return new


@dataclass(frozen=True)
class ResultRow:
    """One player's line in the append-only results table."""

    session_id: int
    guild_id: int
    game: str
    user_id: PlayerId
    placement: int
    score: int
    is_bot_seat: bool
    bots_in_game: bool
    rated: bool
    finished_at: datetime


@dataclass(frozen=True)
class ActionRow:
    session_id: int
    seq: int
    user_id: PlayerId
    action: dict[str, object] | str
    created_at: datetime
