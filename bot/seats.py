"""Seat bookkeeping shared by the session manager's operations."""

from __future__ import annotations

from bot.models import Seat, Session
from game.base import PlayerId


def with_seat(seats: tuple[Seat, ...], changed: Seat) -> tuple[Seat, ...]:
    """``seats`` with the seat of ``changed.player_id`` replaced by ``changed``."""
    return tuple(changed if seat.player_id == changed.player_id else seat for seat in seats)


def next_host(session: Session, leaving: PlayerId) -> PlayerId:
    """Who hosts once ``leaving`` left a running game: the host, else the next human playing."""
    if session.host_id != leaving:
        return session.host_id
    playing = [s for s in session.seats if not s.is_bot and not s.left and s.player_id != leaving]
    return playing[0].player_id if playing else session.host_id


def bot_seat(seats: tuple[Seat, ...], level: str) -> Seat:
    """A new bot seat ``bot:N`` (the smallest N not taken), named "Bot N"."""
    taken = {seat.player_id for seat in seats}
    number = next(n for n in range(1, len(seats) + 2) if f"bot:{n}" not in taken)
    return Seat(player_id=f"bot:{number}", display_name=f"Bot {number}", is_bot=True,
                bot_level=level)
