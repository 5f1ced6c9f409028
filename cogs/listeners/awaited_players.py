"""Whom a game waits for, and who has just joined that set: the turn ping and the view
follower act only on people the game starts waiting for (at the start, when the turn passes,
when a new round opens with them), not on one who stays awaited through the steps of a turn.

The engine is never asked here: a change carries whom the game awaits (``Change.awaiting``,
asked once when the change was stored), and a live session's answer is the manager's
(``SessionManager.awaiting``, asked once per stored state).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.process.client import TableBot
from bot.records.change import Change, ChangeKind
from bot.records.session import Session
from game.base import PlayerId


def people(session: Session, awaiting: Iterable[PlayerId]) -> list[PlayerId]:
    """The players of ``awaiting`` who are people at the keyboard (no bot seat, no seat a
    machine plays for an away player), in the engine's order."""
    found = []
    for player in awaiting:
        seat = session.seat_of(player)
        if seat is None or seat.is_bot or seat.autopiloted:
            continue
        if player.isdecimal():
            found.append(player)
    return found


def humans_in(change: Change) -> list[PlayerId]:
    """The people the game awaits after ``change``."""
    if not change.session.is_live:
        return []
    return people(change.session, change.awaiting)


def humans_awaited(client: TableBot, session: Session) -> list[PlayerId]:
    """The people the live game of ``session`` awaits (a restart's catch-up, where there is
    no change to read)."""
    if session.state is None or not session.is_live:
        return []
    return people(session, client.manager.awaiting(session))


class AwaitedHumans:
    """Per running session: the humans awaited at the last change seen (in memory: after a
    restart the first change falls back to "only the actor was awaited", which is true of
    every single action)."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[int, frozenset[PlayerId]]] = {}  # id -> (version, humans)

    def __len__(self) -> int:
        return len(self._seen)

    def __contains__(self, session_id: object) -> bool:
        return session_id in self._seen

    def newly_awaited(self, change: Change) -> list[PlayerId]:
        """Who joined the awaited humans with ``change`` (remembering the new set); nobody for
        a change that is not a start or an action, or that arrives after a newer one."""
        session = change.session
        if change.kind not in (ChangeKind.STARTED, ChangeKind.ACTION):
            return []
        known = self._seen.get(session.id)
        if known is not None and known[0] >= session.version:
            return []  # an older change arriving late
        now = humans_in(change)
        if known is not None:
            before = known[1]
        elif change.kind == ChangeKind.ACTION and change.actor is not None:
            before = frozenset({change.actor})
        else:
            before = frozenset()
        self.remember(session, now)
        return [player for player in now if player not in before]

    def awaited(self, session_id: int) -> frozenset[PlayerId] | None:
        """The humans last seen awaited in ``session_id`` (None: nothing seen)."""
        known = self._seen.get(session_id)
        return None if known is None else known[1]

    def remember(self, session: Session, players: list[PlayerId]) -> None:
        self._seen[session.id] = (session.version, frozenset(players))

    def forget(self, session_id: int) -> None:
        self._seen.pop(session_id, None)
