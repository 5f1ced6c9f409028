"""The results rows a finished game writes: one per seat, leavers placed last."""

from __future__ import annotations

from typing import Any

from bot.models import ResultRow, Session
from game.base import Engine
from game.standings import leavers_last


def result_rows(session: Session, engine: Engine[Any, Any]) -> list[ResultRow]:
    """The rows of a finished ``session``. Rated only with two seats or more and no bot seat;
    ``finished_at`` is the session's last change."""
    bots = session.has_bots
    rated = not bots and len(session.seats) >= 2
    results = engine.results(session.state)
    places = leavers_last(results, {seat.player_id for seat in session.seats if seat.left})
    rows = []
    for result in results:
        seat = session.seat_of(result.player)
        rows.append(
            ResultRow(
                session_id=session.id,
                guild_id=session.guild_id,
                game=session.game,
                user_id=result.player,
                placement=places[result.player],
                score=result.score,
                is_bot_seat=bool(seat and seat.is_bot),
                bots_in_game=bots,
                rated=rated,
                finished_at=session.updated_at,
            )
        )
    return rows
