"""A stored change as the listeners receive it, and who made it (its origin)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Final

from bot.records.session import Session
from game.base import Event, PlayerId


class ChangeKind(StrEnum):
    """What a published change was (see :class:`Change`)."""

    LOBBY = "lobby"  # opened, joined, left, bot seat added or removed
    STARTED = "started"
    ACTION = "action"
    FINISHED = "finished"  # the action that ended the game
    ABANDONED = "abandoned"  # cancelled, emptied, or idle on restart
    SEAT = "seat"  # in a running game a player left, went away, came back or timed out


class Automatic(Enum):
    """The origin of every move a machine makes (a machine seat, the turn clock)."""

    MOVE = "automatic"


AUTOMATIC: Final = Automatic.MOVE


@dataclass(eq=False)
class Click:
    """A person's click or command that made a change: the public or private message it
    re-rendered itself (None for a command), so the table publisher can skip a second edit.
    ``bot`` reads nothing of it; the cogs pass their subclass (``cogs.kit.message_routes.Cause``),
    which adds the interaction whose token carries what the change makes."""

    message_id: int | None


# Who made a change: a person (Click), a machine (AUTOMATIC), or nobody said (None: a restart,
# an idle sweep, a test).
Origin = Click | Automatic | None


@dataclass(frozen=True)
class Change:
    """What a listener receives after a stored change.

    ``kind``: see :class:`ChangeKind` (``finished`` is the action that ended the game;
    ``events`` included). ``origin``: who made it (:data:`Origin`). ``awaiting``: whom the game
    awaits after the change (the engine's answer, asked once when the change was stored; empty
    unless the game runs): listeners read it here.
    """

    kind: ChangeKind
    session: Session
    events: tuple[Event, ...] = ()
    actor: PlayerId | None = None
    origin: Origin = None
    awaiting: tuple[PlayerId, ...] = ()
