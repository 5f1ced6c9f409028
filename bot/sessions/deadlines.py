"""Turn clock arithmetic: who has a deadline after a change, and when it falls due.

Pure functions; the session manager stores their result with every change (so deadlines
survive restarts in the same row as the state they belong to) and ``bot.automation.turn_clock`` acts
on them.

A player's deadline starts when the game starts waiting for them and restarts whenever they
move themselves; while another player moves (simultaneous steps), it keeps running. Seats that
a machine plays (bot seats, away or left players) have no deadline.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.records.session import Deadline, Seat
from game.base import PlayerId

MAX_TURN_MINUTES = 30
# The reminder goes out this long before the deadline (half the limit when that is shorter).
REMINDER_LEAD = timedelta(minutes=1)


def reminder_lead(limit: timedelta) -> timedelta:
    return min(REMINDER_LEAD, limit / 2)


def fresh(player_id: PlayerId, now: datetime, minutes: int) -> Deadline:
    limit = timedelta(minutes=minutes)
    due = now + limit
    return Deadline(player_id=player_id, due_at=due, remind_at=due - reminder_lead(limit))


def plan(
    previous: Sequence[Deadline],
    awaited: Sequence[PlayerId],
    seats: Sequence[Seat],
    *,
    actor: PlayerId | None,
    now: datetime,
    minutes: int,
) -> tuple[Deadline, ...]:
    """The deadlines after a change.

    ``awaited`` is whose input the game now waits for, ``actor`` who caused the change. With
    ``minutes`` 0 (clock off) there are none.
    """
    if minutes <= 0:
        return ()
    by_player = {seat.player_id: seat for seat in seats}
    kept = {d.player_id: d for d in previous}
    result = []
    for player in awaited:
        seat = by_player.get(player)
        if seat is None or seat.autopiloted:
            continue
        running = kept.get(player)
        if running is not None and player != actor:
            result.append(running)
        else:
            result.append(fresh(player, now, minutes))
    return tuple(result)
