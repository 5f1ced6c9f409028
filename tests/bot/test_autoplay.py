"""Bot seats, leavers and solo TEN through the session manager (real store, no real sleeping)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from bot.automation.autoplay import Autoplay
from bot.records import errors
from bot.records.change import AUTOMATIC
from bot.records.errors import Refusal, StaleVersion
from bot.records.session import Seat, Status
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from game.registry import engines as real_engines
from tests.bot.conftest import FakeClock, seat
from tests.bot.recorder import RecordingNotifier, no_sleep
from tests.testgame import Add, CountEngine


def bot_manager(store: Store, clock: FakeClock, seed: int = 42) -> SessionManager:
    games: dict[str, Any] = {"count": CountEngine(), **real_engines()}
    return SessionManager(store, games, clock=clock, seed_source=lambda: seed)


@pytest.fixture
def manager(store: Store, clock: FakeClock) -> SessionManager:
    return bot_manager(store, clock)


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
def autoplay(manager: SessionManager, notifier: RecordingNotifier) -> Autoplay:
    runner = Autoplay(manager, notifier=notifier, sleep=no_sleep)
    manager.subscribe(runner.on_change)
    return runner


async def test_host_adds_and_removes_bots_in_the_lobby(manager: SessionManager) -> None:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    session = await manager.add_bot(session.id, "1", "easy")
    session = await manager.add_bot(session.id, "1", "normal")
    assert [(s.player_id, s.display_name, s.is_bot, s.bot_level) for s in session.seats] == [
        ("1", "P1", False, None), ("bot:1", "Bot 1", True, "easy"),
        ("bot:2", "Bot 2", True, "normal"),
    ]
    with pytest.raises(Refusal) as err:
        await manager.add_bot(session.id, "1", "easy")
    assert err.value.message == errors.lobby_full(3)
    session = await manager.remove_bot(session.id, "1", "bot:1")
    assert session.player_ids == ["1", "bot:2"]
    session = await manager.add_bot(session.id, "1", "easy")
    assert session.player_ids == ["1", "bot:2", "bot:1"]  # the free number is reused
    session = await manager.remove_bot(session.id, "1")  # the last bot seated
    assert session.player_ids == ["1", "bot:2"]


async def test_bot_buttons_are_for_the_host_in_a_lobby_only(manager: SessionManager) -> None:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    await manager.join(session.id, seat(2))
    for call in (manager.add_bot(session.id, "2", "easy"), manager.remove_bot(session.id, "2")):
        with pytest.raises(Refusal) as err:
            await call
        assert err.value.message == errors.NOT_HOST
    with pytest.raises(Refusal) as err:
        await manager.remove_bot(session.id, "1")
    assert err.value.message == errors.NO_BOT
    with pytest.raises(Refusal) as err:
        await manager.add_bot(session.id, "1", "hard")
    assert err.value.message == errors.bad_bot_level(("easy", "normal", "expert")).message
    await manager.start(session.id, "1")
    with pytest.raises(Refusal) as err:
        await manager.add_bot(session.id, "1", "easy")
    assert err.value.message == errors.SEATS_AFTER_START


async def test_bots_move_after_a_human_paced_and_redrawn_once_per_turn(
    store: Store, clock: FakeClock
) -> None:
    manager = bot_manager(store, clock)
    notifier = RecordingNotifier()
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)

    runner = Autoplay(manager, notifier=notifier, sleep=sleep, pace=1.5)
    manager.subscribe(runner.on_change)
    session = await manager.open_lobby(1, 10, "count", seat(1))
    await manager.add_bot(session.id, "1", "easy")
    await manager.add_bot(session.id, "1", "normal")
    session = await manager.start(session.id, "1")
    await manager.act(session.id, "1", session.version, Add(add=1))
    await runner.idle()
    actions = await store.actions(session.id)
    assert [a.user_id for a in actions] == ["1", "bot:1", "bot:2"]
    assert pauses == [1.5, 1.5]
    assert [s.version for s in notifier.refreshed] == [actions[1].seq, actions[2].seq]
    now = manager.get(session.id)
    assert engine_awaits(manager, now) == ["1"]


def engine_awaits(manager: SessionManager, session: Any) -> list[str]:
    return manager.engine(session.game).awaiting(session.state)


async def test_machine_moves_only_for_machine_seats(manager: SessionManager) -> None:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    await manager.join(session.id, seat(2))
    session = await manager.start(session.id, "1")
    with pytest.raises(StaleVersion):
        await manager.act(session.id, "1", session.version, Add(add=1), autopilot=True,
                          origin=AUTOMATIC)


async def test_leaving_a_running_game_hands_the_seat_to_a_bot_for_good(
    manager: SessionManager, autoplay: Autoplay, store: Store
) -> None:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    await manager.join(session.id, seat(2))
    session = await manager.start(session.id, "1")
    session = await manager.leave(session.id, "1")  # the host leaves on their own turn
    await autoplay.idle()
    seat1 = session.seat_of("1")
    assert seat1.left and session.host_id == "2" and session.status is Status.ACTIVE
    assert [a.user_id for a in await store.actions(session.id)] == ["1"]
    now = manager.get(session.id)
    with pytest.raises(Refusal) as err:
        await manager.act(session.id, "1", now.version, Add(add=1))
    assert err.value.message == errors.LEFT_GAME
    with pytest.raises(Refusal) as err:
        await manager.set_away(session.id, "1", False)
    assert err.value.message == errors.LEFT_GAME
    with pytest.raises(Refusal) as err:
        await manager.leave(session.id, "1")
    assert err.value.message == errors.NOT_SEATED


async def test_a_left_player_cannot_move_on_their_turn(manager: SessionManager) -> None:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    await manager.join(session.id, seat(2))
    session = await manager.start(session.id, "1")
    session = await manager.leave(session.id, "1")  # no autoplay: the turn stays open
    with pytest.raises(Refusal) as err:
        await manager.act(session.id, "1", session.version, Add(add=1))
    assert err.value.message == errors.LEFT_GAME


async def test_restart_resumes_a_pending_bot_turn(
    store: Store, clock: FakeClock, db_path: Path
) -> None:
    first = bot_manager(store, clock)
    session = await first.open_lobby(1, 10, "count", seat(1))
    await first.add_bot(session.id, "1", "normal")
    session = await first.start(session.id, "1")
    await first.act(session.id, "1", session.version, Add(add=1))  # nobody plays the bot yet
    await first.drain()
    await store.close()
    reopened = await open_store(db_path)
    try:
        second = bot_manager(reopened, clock)
        await second.restore()
        runner = Autoplay(second, sleep=no_sleep)
        second.subscribe(runner.on_change)
        assert runner.resume() == 1
        await runner.idle()
        assert [a.user_id for a in await reopened.actions(session.id)] == ["1", "bot:1"]
    finally:
        await reopened.close()


async def bot_only_game(manager: SessionManager, runner: Autoplay, game: str,
                        levels: list[str], channel: int = 10) -> int:
    """Host plus bots; the host leaves at once, so machines play every seat to the end."""
    session = await manager.open_lobby(1, channel, game, seat(1))
    for level in levels:
        await manager.add_bot(session.id, "1", level)
    session = await manager.start(session.id, "1")
    await manager.leave(session.id, "1")
    await runner.idle()
    assert manager.get(session.id) is None
    return session.id


@pytest.mark.parametrize("game", ["count", "split", "ten"])
async def test_bot_only_tables_finish_a_whole_game(
    manager: SessionManager, autoplay: Autoplay, store: Store, notifier: RecordingNotifier,
    game: str,
) -> None:
    session_id = await bot_only_game(manager, autoplay, game, ["easy", "normal"])
    stored = await store.load_session(session_id)
    assert stored.status is Status.FINISHED
    results = await store.results(1, game)
    assert sorted(r.user_id for r in results) == ["1", "bot:1", "bot:2"]
    assert not any(r.rated for r in results)
    actions = await store.actions(session_id)
    # Versions: opened 1, two bots 3, started 4, left 5; every move after that is logged.
    assert [a.seq for a in actions] == list(range(6, stored.version + 1))
    assert notifier.refreshed[-1].status is Status.FINISHED
    # The table is redrawn once per bot turn (a run of moves by one seat), not once per move.
    turns = 1 + sum(prev.user_id != cur.user_id for prev, cur in pairwise(actions))
    assert len(notifier.refreshed) == turns
    if game != "count":  # a COUNT turn is one move; SPLIT and TEN turns are several
        assert turns < len(actions)


async def test_bot_games_replay_identically(tmp_path: Path, clock: FakeClock) -> None:
    logs = []
    for run in range(2):
        store = await open_store(tmp_path / f"run{run}.sqlite3")
        try:
            manager = bot_manager(store, clock, seed=7)
            runner = Autoplay(manager, sleep=no_sleep)
            manager.subscribe(runner.on_change)
            session_id = await bot_only_game(manager, runner, "ten", ["easy", "easy"])
            logs.append([(a.user_id, a.action) for a in await store.actions(session_id)])
        finally:
            await store.close()
    assert logs[0] == logs[1] and len(logs[0]) > 10


async def test_ten_with_one_human_is_solo_against_a_normal_bot(
    manager: SessionManager, autoplay: Autoplay, store: Store
) -> None:
    session = await manager.open_lobby(1, 10, "ten", seat(1))
    session = await manager.start(session.id, "1")
    assert [(s.player_id, s.is_bot, s.bot_level) for s in session.seats] == [
        ("1", False, None), ("bot:1", True, "normal"),
    ]
    assert session.state.players == ["1", "bot:1"]
    await manager.set_away(session.id, "1", True)  # let the machine finish for the human too
    await autoplay.idle()
    results = await store.results(1, "ten")
    assert sorted(r.user_id for r in results) == ["1", "bot:1"]
    assert all(r.bots_in_game and not r.rated for r in results)


async def test_solo_needs_a_one_player_game(manager: SessionManager) -> None:
    session = await manager.open_lobby(1, 10, "split", seat(1))
    with pytest.raises(Refusal) as err:
        await manager.start(session.id, "1")
    assert err.value.message == errors.too_few_players("SPLIT", 2, 1)


async def test_add_bot_picks_a_free_bot_id(manager: SessionManager) -> None:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    session = await manager.join(session.id, Seat(player_id="bot:1", display_name="Bot 1",
                                                  is_bot=True, bot_level="easy"))
    session = await manager.add_bot(session.id, "1", "normal")
    assert session.player_ids == ["1", "bot:1", "bot:2"]


async def test_machine_seats_stop_quietly_once_the_manager_drains(
    manager: SessionManager, autoplay: Autoplay, caplog: pytest.LogCaptureFixture
) -> None:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    await manager.add_bot(session.id, "1", "normal")
    session = await manager.start(session.id, "1")
    await autoplay.idle()
    await manager.set_away(session.id, "1", True)  # the machine moves for everyone now
    await manager.drain()  # shutting down: every new change is refused
    version = manager.get(session.id).version
    autoplay.kick(session.id)
    await autoplay.idle()
    assert manager.get(session.id).version == version
    assert not [
        r for r in caplog.records if r.name == "bot.automation.autoplay" and r.levelno >= 30
    ]
