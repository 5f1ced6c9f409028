"""The turn clock with a fake clock: deadlines, reminders, expiries, away and back, restarts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.automation.autoplay import Autoplay
from bot.automation.notices import Notice
from bot.automation.turn_clock import MAX_NAP, PRIVATE_IDLE, TurnClock
from bot.ops import log_context
from bot.records import errors
from bot.records.errors import Refusal, StaleVersion
from bot.records.session import Deadline, Seat, Session, SessionKind, Status
from bot.records.shards import ShardSet, shard_of
from bot.sessions.deadlines import plan
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from game.base import IllegalAction
from game.registry import engines as real_engines
from tests.bot.conftest import FakeClock, seat
from tests.bot.recorder import RecordingNotifier, no_sleep
from tests.testgame import Add, CountEngine

LIMIT = timedelta(minutes=5)


def clocked_manager(store: Store, clock: FakeClock, minutes: int = 5) -> SessionManager:
    return SessionManager(store, {"count": CountEngine()}, clock=clock, seed_source=lambda: 42,
                          turn_minutes=minutes)


async def started(manager: SessionManager, players: int = 2) -> Session:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    for n in range(2, players + 1):
        session = await manager.join(session.id, seat(n))
    return await manager.start(session.id, "1")


@pytest.fixture
def manager(store: Store, clock: FakeClock) -> SessionManager:
    return clocked_manager(store, clock)


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
def turn_clock(manager: SessionManager, notifier: RecordingNotifier) -> TurnClock:
    return TurnClock(manager, notifier=notifier)


async def test_start_sets_a_deadline_for_the_awaited_player_only(
    manager: SessionManager, clock: FakeClock
) -> None:
    session = await started(manager)
    assert session.deadlines == (
        Deadline(player_id="1", due_at=clock.now + LIMIT,
                 remind_at=clock.now + LIMIT - timedelta(minutes=1)),
    )
    clock.advance(minutes=2)
    after = (await manager.act(session.id, "1", session.version, Add(add=1))).session
    assert [d.player_id for d in after.deadlines] == ["2"]
    assert after.deadline_of("2").due_at == clock.now + LIMIT


async def test_clock_off_means_no_deadlines(store: Store, clock: FakeClock) -> None:
    manager = clocked_manager(store, clock, minutes=0)
    session = await started(manager)
    assert session.turn_minutes == 0 and session.deadlines == ()
    assert TurnClock(manager).next_wakeup() is None


async def test_lobby_option_overrides_default_and_is_checked(
    manager: SessionManager, clock: FakeClock
) -> None:
    session = await manager.open_lobby(1, 10, "count", seat(1), turn_minutes=1)
    assert session.turn_minutes == 1
    await manager.join(session.id, seat(2))
    running = await manager.start(session.id, "1")
    deadline = running.deadline_of("1")
    assert deadline.due_at == clock.now + timedelta(minutes=1)
    assert deadline.remind_at == clock.now + timedelta(seconds=30)  # half-time when short
    with pytest.raises(Refusal) as err:
        await manager.open_lobby(1, 11, "count", seat(3), turn_minutes=31)
    assert err.value.message == errors.bad_turn_minutes(30)


async def test_one_reminder_before_expiry(
    manager: SessionManager, turn_clock: TurnClock, notifier: RecordingNotifier,
    clock: FakeClock, store: Store,
) -> None:
    session = await started(manager)
    clock.advance(minutes=3)
    assert await turn_clock.tick() == 0 and notifier.reminded == []
    clock.advance(minutes=1)
    assert turn_clock.next_wakeup() == clock.now
    assert await turn_clock.tick() == 1
    assert await turn_clock.tick() == 0
    await turn_clock.idle()
    due = session.deadline_of("1").due_at
    assert notifier.reminded == [
        ("1", f"⏳ <@1>, your move in COUNT: time runs out <t:{int(due.timestamp())}:R>.")
    ]
    stored = await store.load_session(session.id)
    assert stored.deadline_of("1").reminded and stored.version == session.version
    assert turn_clock.next_wakeup() == due


async def test_expiry_plays_the_default_move_once(
    manager: SessionManager, turn_clock: TurnClock, notifier: RecordingNotifier,
    clock: FakeClock, store: Store,
) -> None:
    session = await started(manager)
    clock.advance(minutes=5)
    assert await turn_clock.tick() == 1  # the expiry (no late reminder)
    assert await turn_clock.tick() == 0
    await turn_clock.idle()
    assert notifier.reminded == []
    actions = await store.actions(session.id)
    assert [(a.user_id, a.action) for a in actions] == [("1", {"add": 1})]
    now = manager.get(session.id)
    assert now.version == session.version + 1
    assert now.seat_of("1").timeouts == 1 and not now.seat_of("1").away
    assert [d.player_id for d in now.deadlines] == ["2"]  # the next player's fresh clock
    assert notifier.announced == ["⏰ P1 ran out of time: P1 adds 1 (total 1)."]
    assert notifier.refreshed[-1].version == now.version
    with pytest.raises(StaleVersion):  # the same deadline firing again changes nothing
        await manager.time_out(session.id, "1", session.version, now=clock.now)
    assert len(await store.actions(session.id)) == 1


async def test_a_deadline_not_yet_due_is_refused(manager: SessionManager, clock: FakeClock) -> None:
    session = await started(manager)
    clock.advance(minutes=4)
    with pytest.raises(Refusal) as err:
        await manager.time_out(session.id, "1", session.version)
    assert err.value.message == errors.NOT_TIMED_OUT
    with pytest.raises(Refusal):
        await manager.time_out(session.id, "2", session.version, now=clock.now + LIMIT)


async def test_two_timeouts_in_a_row_hand_the_seat_to_a_bot(
    manager: SessionManager, turn_clock: TurnClock, notifier: RecordingNotifier,
    clock: FakeClock, store: Store,
) -> None:
    autoplay = Autoplay(manager, notifier=notifier, sleep=no_sleep)
    manager.subscribe(autoplay.on_change)
    session = await started(manager)
    clock.advance(minutes=5)
    await turn_clock.tick()  # P1 times out: +1
    now = manager.get(session.id)
    await manager.act(session.id, "2", now.version, Add(add=2))  # total 3
    clock.advance(minutes=5)
    await turn_clock.tick()  # P1 times out again: +1, now away
    await turn_clock.idle()
    seat1 = manager.get(session.id).seat_of("1")
    assert seat1.away and seat1.timeouts == 2
    assert "P1 is away — a bot plays for them until they click I'm back." in notifier.announced[-1]
    now = manager.get(session.id)
    assert [d.player_id for d in now.deadlines] == ["2"]
    await manager.act(session.id, "2", now.version, Add(add=1))  # total 5: P1's turn
    await autoplay.idle()
    now = manager.get(session.id)
    log = [a.user_id for a in await store.actions(session.id)]
    assert log == ["1", "2", "1", "2", "1"]  # the last one by the bot, stored like any move
    assert now.deadline_of("1") is None and now.deadline_of("2") is not None


async def test_acting_between_timeouts_resets_the_count(
    manager: SessionManager, turn_clock: TurnClock, clock: FakeClock
) -> None:
    session = await started(manager)
    clock.advance(minutes=5)
    await turn_clock.tick()
    now = manager.get(session.id)
    now = (await manager.act(session.id, "2", now.version, Add(add=1))).session
    now = (await manager.act(session.id, "1", now.version, Add(add=1))).session  # P1 moves
    assert now.seat_of("1").timeouts == 0
    now = (await manager.act(session.id, "2", now.version, Add(add=1))).session
    clock.advance(minutes=5)
    await turn_clock.tick()
    seat1 = manager.get(session.id).seat_of("1")
    assert seat1.timeouts == 1 and not seat1.away


async def test_im_back_takes_the_seat_back(
    manager: SessionManager, turn_clock: TurnClock, clock: FakeClock, store: Store
) -> None:
    notifier = RecordingNotifier()
    autoplay = Autoplay(manager, notifier=notifier, sleep=no_sleep)
    manager.subscribe(autoplay.on_change)
    session = await started(manager)
    away = await manager.set_away(session.id, "2", True)
    assert away.seat_of("2").away
    now = (await manager.act(session.id, "1", away.version, Add(add=1))).session
    await autoplay.idle()  # the bot played P2's turn
    now = manager.get(session.id)
    assert [a.user_id for a in await store.actions(session.id)] == ["1", "2"]
    back = await manager.set_away(session.id, "2", False)
    assert not back.seat_of("2").away and back.seat_of("2").timeouts == 0
    now = (await manager.act(session.id, "1", back.version, Add(add=1))).session
    await autoplay.idle()
    assert [a.user_id for a in await store.actions(session.id)] == ["1", "2", "1"]
    assert now.deadline_of("2").due_at == clock.now + LIMIT  # P2 plays (and is clocked) again
    with pytest.raises(Refusal) as err:
        await manager.set_away(session.id, "2", False)
    assert err.value.message == errors.NOT_AWAY


async def test_an_away_player_who_moves_is_back(
    manager: SessionManager, clock: FakeClock
) -> None:
    session = await started(manager)
    away = await manager.set_away(session.id, "1", True)
    assert away.deadlines == ()
    now = (await manager.act(session.id, "1", away.version, Add(add=1))).session
    assert not now.seat_of("1").away


async def test_restart_keeps_a_pending_deadline_and_fires_it_once(
    store: Store, clock: FakeClock, db_path: Path
) -> None:
    first = clocked_manager(store, clock)
    session = await started(first)
    clock.advance(minutes=4, seconds=30)
    await TurnClock(first).tick()  # the reminder went out before the restart
    await first.drain()
    await store.close()

    reopened = await open_store(db_path)
    try:
        second = clocked_manager(reopened, clock)
        await second.restore()
        restored = second.get(session.id)
        assert restored.deadlines == first.get(session.id).deadlines
        assert restored.deadline_of("1").reminded
        notifier = RecordingNotifier()
        turn_clock = TurnClock(second, notifier=notifier)
        assert turn_clock.next_wakeup() == session.deadline_of("1").due_at
        clock.advance(seconds=30)
        assert await turn_clock.tick() == 1
        assert notifier.reminded == []  # not a second time
        assert len(await reopened.actions(session.id)) == 1
        await second.drain()
    finally:
        await reopened.close()

    third_store = await open_store(db_path)
    try:
        third = clocked_manager(third_store, clock)
        await third.restore()
        assert await TurnClock(third).tick() == 0  # the expiry does not fire again
        assert len(await third_store.actions(session.id)) == 1
        assert third.get(session.id).seat_of("1").timeouts == 1
    finally:
        await third_store.close()


def test_plan_keeps_a_running_deadline_while_someone_else_moves(clock: FakeClock) -> None:
    seats = [Seat(player_id="1", display_name="A"), Seat(player_id="2", display_name="B"),
             Seat(player_id="bot:1", display_name="Bot", is_bot=True)]
    running = plan((), ["1", "2", "bot:1"], seats, actor=None, now=clock.now, minutes=5)
    assert [d.player_id for d in running] == ["1", "2"]  # bots have no clock
    later = clock.now + timedelta(minutes=1)
    after = plan(running, ["1", "2"], seats, actor="2", now=later, minutes=5)
    assert after[0] is running[0]  # P1's clock keeps running
    assert after[1].due_at == later + LIMIT  # P2 moved: a fresh clock
    assert plan(running, ["1"], seats, actor="1", now=later, minutes=0) == ()


# A SPLIT turn times out as draw then discard; TEN's first draw may already hand the game to
# someone else (a bust, or an auction for the others).
@pytest.mark.parametrize(("game", "fewest_moves"), [("split", 2), ("ten", 1)])
async def test_expiry_plays_the_whole_default_turn_of_a_real_game(
    store: Store, clock: FakeClock, game: str, fewest_moves: int
) -> None:
    manager = SessionManager(store, real_engines(), clock=clock, seed_source=lambda: 42,
                             turn_minutes=5)
    notifier = RecordingNotifier()
    session = await manager.open_lobby(1, 10, game, seat(1))
    await manager.join(session.id, seat(2))
    session = await manager.start(session.id, "1")
    engine = manager.engine(game)
    [first] = engine.awaiting(session.state)
    clock.advance(minutes=5)
    turn_clock = TurnClock(manager, notifier=notifier)
    assert await turn_clock.tick() == 1
    await turn_clock.idle()
    now = manager.get(session.id)
    actions = await store.actions(session.id)
    assert {a.user_id for a in actions} == {first} and len(actions) >= fewest_moves
    assert first not in engine.awaiting(now.state)
    assert now.seat_of(first).timeouts == 1 and not now.seat_of(first).away
    assert notifier.announced[0].startswith(f"⏰ P{first} ran out of time: ")


async def test_a_slow_channel_does_not_hold_other_tables_clocks(
    store: Store, clock: FakeClock
) -> None:
    manager = clocked_manager(store, clock, minutes=1)
    gate = asyncio.Event()

    class SlowChannel(RecordingNotifier):
        async def announce(self, session: Session, text: str) -> None:
            await super().announce(session, text)
            if session.channel_id == 10:
                await gate.wait()  # a rate-limited channel

    notifier = SlowChannel()
    turn_clock = TurnClock(manager, notifier=notifier)
    sessions = []
    for channel in (10, 11):
        session = await manager.open_lobby(1, channel, "count", seat(1))
        session = await manager.join(session.id, seat(2))
        sessions.append(await manager.start(session.id, "1"))
    clock.advance(minutes=2)
    # The guard only stops a hang: a tick no longer waits for any channel.
    assert await asyncio.wait_for(turn_clock.tick(), timeout=10) == 2
    for session in sessions:
        assert manager.get(session.id).version == session.version + 1  # both expired
    gate.set()
    await turn_clock.idle()
    assert len(notifier.announced) == 2 and len(notifier.refreshed) == 2
    assert await turn_clock.tick() == 0  # nothing fires twice


class RefusedDefault(CountEngine):
    def apply(self, state: Any, player: str, action: Any) -> Any:
        raise IllegalAction("You hold only one Queen.")  # an engine bug; the text is private


async def test_a_refused_timeout_logs_the_engine_text_only_at_debug(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.automation.turn_clock")
    manager = SessionManager(store, {"count": RefusedDefault()}, clock=clock,
                             seed_source=lambda: 42, turn_minutes=5)
    session = await started(manager)
    clock.advance(minutes=5)
    assert await TurnClock(manager).tick() == 1  # only the (late) reminder
    assert manager.get(session.id).version == session.version  # no move was made
    text = "You hold only one Queen."
    assert any(text in r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG)
    assert not any(text in r.getMessage() for r in caplog.records if r.levelno > logging.DEBUG)
    assert any(r.levelno == logging.WARNING and "Refusal" in r.getMessage()
               for r in caplog.records)


class ContextNotifier(RecordingNotifier):
    """Keeps the log fields bound when the turn clock or a machine seat tells the channel
    (what a log line written there carries)."""

    def __init__(self) -> None:
        super().__init__()
        self.contexts: list[tuple[str, dict[str, int]]] = []

    async def refresh(self, session: Session) -> None:
        self.contexts.append(("refresh", log_context.current()))
        await super().refresh(session)

    async def notify(self, notice: Notice) -> None:
        self.contexts.append((type(notice).__name__, log_context.current()))
        await super().notify(notice)


async def test_the_turn_clock_and_machine_seats_log_with_the_shard(
    manager: SessionManager, clock: FakeClock
) -> None:
    shards = ShardSet(count=2, ids=frozenset({0, 1}))
    await manager.restore(shards)
    notifier = ContextNotifier()
    turn_clock = TurnClock(manager, notifier=notifier)
    autoplay = Autoplay(manager, notifier=notifier, sleep=no_sleep)
    manager.subscribe(autoplay.on_change)
    session = await started(manager)
    clock.advance(minutes=4)
    await turn_clock.tick()  # the reminder
    clock.advance(minutes=1)
    await turn_clock.tick()  # P1's move played by the clock
    await turn_clock.idle()
    await manager.set_away(session.id, "2", True)  # a bot plays P2's turn
    await autoplay.idle()
    expected = {"guild": session.guild_id, "channel": session.channel_id,
                "session": session.id, "shard": shard_of(session.guild_id, shards.count)}
    kinds = [kind for kind, _ in notifier.contexts]
    assert {"Reminder", "TimedOut", "refresh"} <= set(kinds), kinds
    assert all(context == expected for _, context in notifier.contexts), notifier.contexts


async def test_moves_the_clock_or_a_bot_made_for_a_person_are_marked_on_their_seat(
    manager: SessionManager, turn_clock: TurnClock, notifier: RecordingNotifier,
    clock: FakeClock,
) -> None:
    autoplay = Autoplay(manager, notifier=notifier, sleep=no_sleep)
    manager.subscribe(autoplay.on_change)
    session = await started(manager)
    clock.advance(minutes=5)
    await turn_clock.tick()  # the clock plays P1's move: version 2
    now = manager.get(session.id)
    assert now.seat_of("1").machine_moves == (now.version,)
    mine = await manager.act(session.id, "2", now.version, Add(add=1))  # P2's own move
    assert mine.session.seat_of("2").machine_moves == ()
    await manager.set_away(session.id, "1", True)
    await autoplay.idle()  # a bot plays P1's turn
    after = manager.get(session.id)
    assert after.seat_of("1").machine_moves == (now.version, mine.session.version + 2)
    assert after.seat_of("2").machine_moves == ()


async def test_an_idle_private_table_ends_by_itself(
    manager: SessionManager, turn_clock: TurnClock, notifier: RecordingNotifier,
    clock: FakeClock, store: Store,
) -> None:
    """An abandoned /learn ends after PRIVATE_IDLE[learn] without a change, an unfinished daily
    after PRIVATE_IDLE[daily] (a whole day: its deal can no longer count), by the clock alone:
    stored as abandoned, nothing left live or pending, and nothing said to anyone."""
    learn = await manager.open_private(1, 10, "count", seat(1), kind=SessionKind.LEARN, seed=1)
    daily = await manager.open_private(1, 10, "count", seat(2), kind=SessionKind.DAILY, seed=2)
    assert turn_clock.next_wakeup() == clock.now + PRIVATE_IDLE[SessionKind.LEARN]
    clock.advance(seconds=PRIVATE_IDLE[SessionKind.LEARN].total_seconds() - 1)
    assert await turn_clock.tick() == 0 and manager.get(learn.id) is not None
    clock.advance(seconds=1)
    assert await turn_clock.tick() == 1
    await manager.settle()
    assert manager.get(learn.id) is None and manager.get(daily.id) is not None
    stored = await store.load_session(learn.id)
    assert stored is not None and stored.status is Status.ABANDONED
    assert turn_clock.next_wakeup() == daily.updated_at + PRIVATE_IDLE[SessionKind.DAILY]
    with pytest.raises(StaleVersion):  # a table that moved since it was seen idle stays
        await manager.abandon_idle(daily.id, daily.version - 1)
    clock.advance(seconds=PRIVATE_IDLE[SessionKind.DAILY].total_seconds())
    assert await turn_clock.tick() == 1
    await turn_clock.idle()
    await manager.settle()
    assert manager.get(daily.id) is None and manager.live_sessions() == []
    assert manager.pending_changes() == 0 and turn_clock.next_wakeup() is None
    assert notifier.notices == [] and notifier.refreshed == []


async def test_a_change_wakes_the_sleeping_clock_only_for_an_earlier_moment(
    manager: SessionManager, turn_clock: TurnClock, clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The running clock sleeps until its next moment; a change wakes it only when it brought
    a moment before that one (issue 42: a tick walks every live table, so waking for every
    change made each action's cost grow with the tables)."""
    ticks: list[object] = []
    tick = turn_clock.tick

    async def counted(now: Any = None) -> int:
        ticks.append(now)
        return await tick(now)

    monkeypatch.setattr(turn_clock, "tick", counted)
    manager.subscribe(turn_clock.on_change)

    async def asleep_until(moment: Any) -> None:
        while turn_clock.asleep_until != moment:
            await asyncio.sleep(0)

    running = asyncio.create_task(turn_clock.run())
    try:
        await asyncio.wait_for(asleep_until(clock.now + timedelta(seconds=MAX_NAP)), 5)
        later = await started(manager)  # its reminder comes in 4 minutes: after the nap
        await manager.settle()
        lobby = await manager.open_lobby(1, 11, "count", seat(3), turn_minutes=1)
        await manager.join(lobby.id, seat(4))
        sooner = await manager.start(lobby.id, "3")  # its reminder in 30 s: before the nap
        await manager.settle()
        await asyncio.wait_for(asleep_until(sooner.deadline_of("3").remind_at), 5)
        assert later.deadline_of("1").remind_at > clock.now + timedelta(seconds=MAX_NAP)
        assert len(ticks) == 1  # woken once, by the earlier moment
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
