"""Streaks: consecutive UTC days on which a player finished a game's daily deal."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta


@dataclass(frozen=True)
class Streak:
    """``current``: days in a row up to today (or up to yesterday while today's deal is still
    to play); ``best``: the longest run ever; ``last``: the last day played (None: never)."""

    current: int
    best: int
    last: date | None


def streak_of(days: Iterable[date], today: date) -> Streak:
    """The streak of a player who finished the deals of ``days`` (any order, repeats
    allowed), as it stands on ``today``. A day after ``today`` (a clock moved back) counts as
    played but never extends the current run past today."""
    played = sorted({day for day in days if day <= today})
    if not played:
        return Streak(0, 0, None)
    best = run = 1
    for before, after in itertools.pairwise(played):
        run = run + 1 if after - before == timedelta(days=1) else 1
        best = max(best, run)
    last = played[-1]
    current = run if today - last <= timedelta(days=1) else 0
    return Streak(current, best, last)
