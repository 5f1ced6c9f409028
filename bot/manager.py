"""The game-agnostic session manager: lobbies, seats, and the one-way action path.

    click/command -> manager.act(session, player, version, action)
        -> lock(session) -> checks -> game.base.play on a copy -> store.record_action
        -> swap the in-memory session -> listeners(Change)

The manager knows no rules: it asks the engine (from any ``Mapping[str, Engine]``) whose
input the game awaits, parses and applies actions, and reads results. Every failure is a
:class:`bot.errors.TableError` with a sentence for the user, and changes nothing.

Listeners (``manager.subscribe``) are awaited after every stored change, outside the session
lock, in subscription order; an exception in one is logged and does not undo the change. A
listener may call the manager again (a bot seat playing its move). Because changes of one
session may publish close together, a renderer should draw ``manager.get(session.id)`` (the
newest) rather than rely on arrival order.

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

    ``SessionManager(store, engines, *, clock=utcnow, seed_source=..., idle_after=7 days,
    turn_minutes=0)``: see :class:`bot.session_core.ManagerCore`.
    """
