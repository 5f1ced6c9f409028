"""Games played by seeded bots through the real session manager into a real SQLite store,
as the bot stores them, for the export and replay tests."""

from __future__ import annotations

import random
from pathlib import Path

from bot.records.session import Seat, Session, Status
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from game.registry import engines
from tests.bot.conftest import FakeClock

GUILD, CHANNEL = 1, 10


def human(n: int) -> Seat:
    return Seat(player_id=str(1000 + n), display_name=f"Player {n}")


def manager_for(store: Store, seed: int) -> SessionManager:
    return SessionManager(store, engines(), clock=FakeClock(), game_seed=seed)


async def start_game(
    manager: SessionManager, game: str, humans: int, bots: int = 0, channel: int = CHANNEL
) -> Session:
    host = human(0)
    session = await manager.open_lobby(GUILD, channel, game, host)
    for n in range(1, humans):
        session = await manager.join(session.id, human(n))
    for n in range(bots):
        session = await manager.add_bot(session.id, host.player_id, "normal" if n else "easy")
    return await manager.start(session.id, host.player_id)


async def play(
    manager: SessionManager,
    session: Session,
    seed: int,
    *,
    actions: int | None = None,
    leave_after: int | None = None,
) -> Session:
    """Let seeded machines play ``session`` to its end (or for ``actions`` moves). With
    ``leave_after``, the second seat leaves the game after that many moves."""
    engine = manager.engine(session.game)
    rng = random.Random(seed)
    made = 0
    while session.status is Status.ACTIVE and (actions is None or made < actions):
        if made == leave_after:
            session = await manager.leave(session.id, session.seats[1].player_id)
        player = engine.awaiting(session.state)[0]
        seat = session.seat_of(player)
        assert seat is not None
        level = seat.bot_level or "easy"
        action = engine.bot_action(session.state, player, level, rng)
        change = await manager.act(
            session.id, player, session.version, action, autopilot=seat.autopiloted
        )
        session = change.session
        made += 1
    return session


async def stored_game(
    path: Path, game: str, humans: int, seed: int, *, bots: int = 0,
    leave_after: int | None = None,
) -> tuple[Store, Session]:
    """A store at ``path`` holding one finished game; the store is open (close it)."""
    store = await open_store(path)
    manager = manager_for(store, seed)
    session = await start_game(manager, game, humans, bots)
    session = await play(manager, session, seed, leave_after=leave_after)
    await manager.drain()
    assert session.status is Status.FINISHED
    return store, session
