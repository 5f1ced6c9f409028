"""The game-agnostic session manager: lobbies, seats, and the one-way action path.

    click/command -> manager.act(session, player, version, action)
        -> lock(session) -> checks -> game.base.play on a copy -> store.record_action
        -> swap the in-memory session -> queue the Change; return (the click is answered)
    the session's publish worker -> listeners(Change), one change at a time, in version order

The manager knows no rules: it asks the engine (from any ``Mapping[str, Engine]``) whose
input the game awaits, parses and applies actions, and reads results. Every failure is a
:class:`bot.errors.TableError` with a sentence for the user, and changes nothing.

Listeners (``manager.subscribe``) get every stored change from a per-session publish worker
(a background task while the session has changes queued), outside the session lock, in
subscription order; changes of one session arrive strictly in version order, one at a time;
sessions do not wait for each other. An exception in a listener is logged and does not undo
the change. ``await manager.settle(session_id=None)`` waits until the queued changes were
delivered (tests, shutdown; never from a listener of that session). A listener may call the
manager again (a bot seat playing its move). Because a change is delivered after the operation
returned, newer versions may already be live: a renderer should draw
``manager.get(session.id)`` (the newest) or skip a change that was overtaken.

The manager is put together from its parts:

- ``bot.session_core``: live sessions, locks, storing, publishing (:class:`Change`);
- ``bot.session_lobby``: open, join, leave, bot seats, start, cancel, the table message;
- ``bot.session_moves``: ``act``, the action path;
- ``bot.session_clock``: ``time_out``, ``mark_reminded``, ``set_away``;
- ``bot.seats``, ``bot.results`` and ``bot.table_log``: the pure helpers they share.
"""

from __future__ import annotations

from bot.session_clock import AWAY_AFTER, MAX_DEFAULT_MOVES, TurnClockOps
from bot.session_core import Change, ChangeKind, Clock, Listener, RestoreReport
from bot.session_lobby import BOT_LEVELS, LobbyOps
from bot.session_moves import MoveOps

__all__ = [
    "AWAY_AFTER",
    "BOT_LEVELS",
    "MAX_DEFAULT_MOVES",
    "Change",
    "ChangeKind",
    "Clock",
    "Listener",
    "RestoreReport",
    "SessionManager",
]


class SessionManager(LobbyOps, MoveOps, TurnClockOps):
    """Owns every live (lobby or active) session; one per channel.

    ``SessionManager(store, engines, *, clock=utcnow, seed_source=..., game_seed=None,
    idle_after=7 days, turn_minutes=0)``: see :class:`bot.session_core.ManagerCore`.
    """
