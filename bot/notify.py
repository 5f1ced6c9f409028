"""How the machine players and the turn clock talk to the channel, without knowing discord.

``bot.autoplay`` and ``bot.turn_clock`` move through the session manager with
``origin=AUTOMATIC``. The table publisher (``cogs.publisher``) does not redraw the table for
those changes one by one; it redraws when told to through :meth:`Notifier.refresh`, once a
run of machine moves is over (at most once per bot turn, not once per card).
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.models import Session
from game.base import PlayerId


class _Automatic:
    def __repr__(self) -> str:
        return "AUTOMATIC"


AUTOMATIC: object = _Automatic()  # the ``origin`` of every move a machine makes


class Notifier(Protocol):
    async def refresh(self, session: Session) -> None:
        """Redraw the public table for ``session`` (the newest live copy if there is one)."""
        ...

    async def announce(self, session: Session, text: str) -> None:
        """Post ``text`` in the session's channel as a new message."""
        ...

    async def remind(self, session: Session, player_id: PlayerId, text: str) -> None:
        """Post ``text`` in the session's channel, pinging ``player_id``."""
        ...


class SilentNotifier:
    """Says nothing (tests of the core, or a process without a channel to talk to)."""

    async def refresh(self, session: Session) -> None:
        return None

    async def announce(self, session: Session, text: str) -> None:
        return None

    async def remind(self, session: Session, player_id: PlayerId, text: str) -> None:
        return None


def mention(player_id: PlayerId) -> str:
    return f"<@{player_id}>"


def relative_time(moment: datetime) -> str:
    """A Discord timestamp that every reader sees relative ("in 3 minutes")."""
    return f"<t:{int(moment.timestamp())}:R>"
