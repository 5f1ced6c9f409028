"""Words and markup for the process's structured notices (``bot.notify``).

The turn clock says *what* happened (a reminder is due, a player timed out and is now away);
this module says it in Discord: mentions, and timestamps through ``discord.utils.format_dt``
that every reader sees in their own time ("in 3 minutes").
"""

from __future__ import annotations

import discord

from bot.notify import Reminder, TimedOut
from game.base import PlayerId

MAX_ANNOUNCEMENT = 1800  # characters (a Discord message holds 2000)


def mention(player_id: PlayerId) -> str:
    return f"<@{player_id}>"


def reminder_text(notice: Reminder) -> str:
    return (
        f"⏳ {mention(notice.player_id)}, your move in {notice.title}: "
        f"time runs out {discord.utils.format_dt(notice.due_at, 'R')}."
    )


def away_line(name: str) -> str:
    return f"💤 {name} is away — a bot plays for them until they click I'm back."


def timed_out_text(notice: TimedOut) -> str:
    name = notice.session.names.get(notice.player_id, notice.player_id)
    moves = notice.moves
    text = f"⏰ {name} ran out of time" + (": " + " ".join(moves) if moves else ".")
    if notice.away:
        text += "\n" + away_line(name)
    if len(text) > MAX_ANNOUNCEMENT:
        text = text[: MAX_ANNOUNCEMENT - 1] + "…"
    return text
