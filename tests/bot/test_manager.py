from __future__ import annotations

import asyncio
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.ops import log_context
from bot.records import errors
from bot.records.change import Change
from bot.records.errors import Refusal, SaveFailed, StaleVersion
from bot.records.session import Seat, Status
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from tests.bot.conftest import FakeClock, make_manager, seat
from tests.testgame import Add, CountEngine


async def started(manager: SessionManager, players: int = 2, channel: int = 10):
    session = await manager.open_lobby(1, channel, "count", seat(1))
    for n in range(2, players + 1):
        session = await manager.join(session.id, seat(n))
    return await manager.start(session.id, "1")


async def test_lobby_refusals(manager: SessionManager) -> None:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    with pytest.raises(Refusal, match="already open"):
        await manager.open_lobby(1, 10, "count", seat(5))
    await manager.open_lobby(1, 11, "count", seat(1))  # another channel is fine
    with pytest.raises(Refusal) as err:
        await manager.open_lobby(1, 12, "chess", seat(1))
    assert "chess" in err.value.message
    with pytest.raises(Refusal) as err:
        await manager.join(session.id, seat(1))
    assert err.value.message == errors.ALREADY_SEATED
    with pytest.raises(Refusal) as err:
        await manager.start(session.id, "1")
    assert err.value.message == errors.too_few_players("COUNT", 2, 1)
    await manager.join(session.id, seat(2))
    await manager.join(session.id, seat(3))
    with pytest.raises(Refusal) as err:
        await manager.join(session.id, seat(4))
    assert err.value.message == errors.lobby_full(3)
    with pytest.raises(Refusal) as err:
        await manager.start(session.id, "2")
    assert err.value.message == errors.NOT_HOST
    with pytest.raises(Refusal) as err:
        await manager.cancel(session.id, "2")
    assert err.value.message == errors.NOT_HOST_OR_MOD
    with pytest.raises(Refusal) as err:
        await manager.leave(session.id, "9")
    assert err.value.message == errors.NOT_SEATED
    await manager.start(session.id, "1")
    with pytest.raises(Refusal) as err:
        await manager.join(session.id, seat(4))
    assert err.value.message == errors.ALREADY_STARTED


async def test_host_leaving_passes_host_and_empty_lobby_is_abandoned(
    manager: SessionManager,
) -> None:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    await manager.join(session.id, Seat(player_id="bot:1", display_name="Bot", is_bot=True,
                                        bot_level="easy"))
    await manager.join(session.id, seat(2))
    after = await manager.leave(session.id, "1")
    assert after.host_id == "2"
    gone = await manager.leave(session.id, "2")  # only a bot is left
    assert gone.status is Status.ABANDONED
    assert manager.in_channel(10) is None
    await manager.open_lobby(1, 10, "count", seat(3))  # the channel is free again


async def test_moderator_can_cancel(manager: SessionManager) -> None:
    session = await started(manager)
    cancelled = await manager.cancel(session.id, "7", moderator=True)
    assert cancelled.status is Status.ABANDONED
    with pytest.raises(Refusal) as err:
        await manager.act(session.id, "1", cancelled.version, Add(add=1))
    assert err.value.message == errors.NO_GAME


async def test_act_refusals_change_nothing(manager: SessionManager, store: Store) -> None:
    lobby = await manager.open_lobby(1, 10, "count", seat(1))
    with pytest.raises(Refusal) as err:
        await manager.act(lobby.id, "1", lobby.version, Add(add=1))
    assert err.value.message == errors.NOT_STARTED
    await manager.join(lobby.id, seat(2))
    session = await manager.start(lobby.id, "1")
    cases = [
        ("9", session.version, Add(add=1), errors.NOT_SEATED),
        ("1", session.version - 1, Add(add=1), errors.STALE),
        ("2", session.version, Add(add=1), errors.NOT_YOUR_TURN),
    ]
    for player, version, action, message in cases:
        with pytest.raises(Refusal) as err:
            await manager.act(session.id, player, version, action)
        assert err.value.message == message
        assert manager.get(session.id) is session
    assert await store.actions(session.id) == []


async def test_twenty_concurrent_actions_apply_exactly_once(
    manager: SessionManager, store: Store
) -> None:
    session = await started(manager)
    outcomes = await asyncio.gather(
        *(manager.act(session.id, "1", session.version, Add(add=1)) for _ in range(20)),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if isinstance(o, Change)]
    stale = [o for o in outcomes if isinstance(o, StaleVersion)]
    assert len(applied) == 1 and len(stale) == 19
    assert manager.get(session.id).state.total == 1
    assert manager.get(session.id).version == session.version + 1
    assert len(await store.actions(session.id)) == 1


async def test_restart_reproduces_state(store: Store, clock: FakeClock, db_path: Path) -> None:
    manager = make_manager(store, clock)
    session = await started(manager, players=3)
    for player in ("1", "2", "3"):
        current = manager.get(session.id)
        await manager.act(session.id, player, current.version, Add(add=2))
    lobby = await manager.open_lobby(1, 20, "count", seat(5))
    before = {s.id: s for s in manager.live_sessions()}
    await store.close()

    reopened = await open_store(db_path)
    try:
        fresh = make_manager(reopened, clock)
        report = await fresh.restore()
        assert (report.restored, report.abandoned) == (2, 0)
        assert {s.id: s for s in fresh.live_sessions()} == before
        assert fresh.in_channel(20) == lobby
        # The restored game goes on from where it was.
        current = fresh.get(session.id)
        change = await fresh.act(session.id, "1", current.version, Add(add=1))
        assert change.session.state.total == 7
    finally:
        await reopened.close()


async def test_idle_sessions_abandoned_on_restore(
    store: Store, clock: FakeClock, db_path: Path
) -> None:
    manager = make_manager(store, clock)
    old = await manager.open_lobby(1, 10, "count", seat(1))
    clock.advance(days=6)
    recent = await manager.open_lobby(1, 11, "count", seat(1))
    clock.advance(days=2)
    fresh = make_manager(store, clock)
    report = await fresh.restore()
    assert (report.restored, report.abandoned) == (1, 1)
    assert fresh.get(old.id) is None and fresh.get(recent.id) is not None
    assert (await store.load_session(old.id)).status is Status.ABANDONED


async def test_save_failure_keeps_memory_state(
    manager: SessionManager, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await started(manager)

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store, "record_action", broken)
    with pytest.raises(SaveFailed) as err:
        await manager.act(session.id, "1", session.version, Add(add=1))
    assert err.value.message == errors.SAVE_FAILED
    assert manager.get(session.id) is session
    monkeypatch.undo()
    await manager.act(session.id, "1", session.version, Add(add=1))


async def test_finish_writes_results_and_frees_channel(
    manager: SessionManager, store: Store
) -> None:
    changes: list[Change] = []

    async def listen(change: Change) -> None:
        changes.append(change)

    async def broken_listener(change: Change) -> None:
        raise RuntimeError("renderer bug")

    manager.subscribe(broken_listener)
    manager.subscribe(listen)
    session = await started(manager)
    player = "1"
    while manager.get(session.id) is not None:
        current = manager.get(session.id)
        await manager.act(session.id, player, current.version, Add(add=2))
        player = "2" if player == "1" else "1"
    await manager.settle()
    assert [c.kind for c in changes][:3] == ["lobby", "lobby", "started"]
    assert changes[-1].kind == "finished"
    assert changes[-1].session.status is Status.FINISHED
    assert [e.kind for e in changes[-1].events] == ["add", "win"]
    results = await store.results(1, "count")
    assert sorted((r.user_id, r.placement, r.rated) for r in results) == [
        ("1", 1, True), ("2", 2, True)
    ]
    assert manager.in_channel(10) is None


async def test_bot_seat_results_are_unrated(manager: SessionManager, store: Store) -> None:
    lobby = await manager.open_lobby(1, 10, "count", seat(1))
    await manager.join(lobby.id, Seat(player_id="bot:1", display_name="Bot", is_bot=True,
                                      bot_level="easy"))
    session = await manager.start(lobby.id, "1")
    player = "1"
    while manager.get(session.id) is not None:
        current = manager.get(session.id)
        await manager.act(session.id, player, current.version, Add(add=2))
        player = "bot:1" if player == "1" else "1"
    rows = {r.user_id: r for r in await store.results(1, "count")}
    assert rows["bot:1"].is_bot_seat and not rows["1"].is_bot_seat
    assert all(r.bots_in_game and not r.rated for r in rows.values())


async def test_drain_refuses_new_changes(manager: SessionManager) -> None:
    session = await started(manager)
    await manager.drain()
    with pytest.raises(Refusal) as err:
        await manager.act(session.id, "1", session.version, Add(add=1))
    assert err.value.message == errors.SHUTTING_DOWN


async def test_an_act_cancelled_after_its_write_committed_still_swaps(
    manager: SessionManager, store: Store
) -> None:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    session = await manager.join(session.id, seat(2))
    session = await manager.start(session.id, "1")
    real = store.record_action
    committed, release = asyncio.Event(), asyncio.Event()

    async def commit_then_wait(*args: Any, **kwargs: Any) -> None:
        await real(*args, **kwargs)
        committed.set()
        await release.wait()  # the caller is cancelled here: its row is already stored

    store.record_action = commit_then_wait  # type: ignore[method-assign]
    act = asyncio.create_task(manager.act(session.id, "1", session.version, Add(add=1)))
    await committed.wait()
    act.cancel()
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await act
    stored = await store.load_session(session.id)
    assert stored.version == manager.get(session.id).version == session.version + 1
    store.record_action = real  # type: ignore[method-assign]
    after = await manager.act(session.id, "2", session.version + 1, Add(add=1))
    assert after.session.version == session.version + 2  # no collision with the stored seq


class CountingEngine(CountEngine):
    """COUNT, counting how often the manager asks whom it awaits and what is legal."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: Counter[str] = Counter()

    def awaiting(self, state: Any) -> list[str]:
        if sys._getframe(1).f_globals.get("__name__") != "tests.testgame":  # not COUNT's own
            self.asked["awaiting"] += 1
        return super().awaiting(state)

    def legal_actions(self, state: Any, player: str) -> list[Add]:
        self.asked["legal_actions"] += 1
        return super().legal_actions(state, player)


async def test_a_click_is_gated_and_decoded_once_under_the_lock(
    store: Store, clock: FakeClock
) -> None:
    engine = CountingEngine()
    manager = SessionManager(store, {"count": engine}, clock=clock, seed_source=lambda: 42)
    changes: list[Change] = []

    async def listen(change: Change) -> None:
        changes.append(change)

    manager.subscribe(listen)
    session = await started(manager)
    mover = engine.awaiting(session.state)[0]
    other = "2" if mover == "1" else "1"
    seen: list[Any] = []

    def decode(live: Any) -> Any:
        seen.append(live)
        return Add(add=1)

    engine.asked.clear()
    change = await manager.click(session.id, mover, session.version, decode)
    assert isinstance(change, Change) and change.session.version == session.version + 1
    # The gate read whom the game awaited (asked when that version was stored); the legal
    # list is never asked (a UI's decoder has the engine check the one action it reads);
    # whom the new version awaits is asked once and travels on the change.
    assert engine.asked == Counter({"awaiting": 1})
    assert seen == [session]
    await manager.settle()
    assert changes[-1] is change
    assert change.awaiting == tuple(engine.awaiting(change.session.state))
    assert manager.awaiting(change.session) == change.awaiting
    # A refusal by the gate: the decoder is never asked; one by the decoder changes nothing.
    live = change.session
    for player, version, refusal in [(other, live.version - 1, errors.STALE),
                                     ("9", live.version, errors.NOT_SEATED)]:
        with pytest.raises(Refusal) as err:
            await manager.click(live.id, player, version, decode)
        assert err.value.message == refusal
    seen.clear()
    awaited = change.awaiting[0]
    with pytest.raises(Refusal) as err:
        await manager.click(live.id, awaited, live.version,
                            lambda s: (_ for _ in ()).throw(Refusal("No such choice.")))
    assert err.value.message == "No such choice."
    # A decoder's other answer (a next step to show) is returned, nothing stored.
    step = await manager.click(live.id, awaited, live.version, lambda s: ("step", s))
    assert step == ("step", live)
    assert manager.get(live.id) is live
    assert len(await store.actions(live.id)) == 1
    # Shutting down: a next step is still shown, a move is refused.
    await manager.drain()
    assert await manager.click(live.id, awaited, live.version,
                               lambda s: ("step", s)) == ("step", live)
    with pytest.raises(Refusal) as err:
        await manager.click(live.id, awaited, live.version, decode)
    assert err.value.message == errors.SHUTTING_DOWN
    assert manager.get(live.id) is live


async def test_what_is_logged_during_a_move_and_by_its_listeners_names_the_session(
    manager: SessionManager,
) -> None:
    seen: list[tuple[str, dict[str, int]]] = []

    async def listener(change: Change) -> None:
        seen.append((change.kind, log_context.current()))

    manager.subscribe(listener)
    session = await started(manager)
    player = manager.awaiting(session)[0]
    await manager.act(session.id, player, session.version, Add(add=1))
    await manager.settle()
    expected = {"guild": session.guild_id, "channel": session.channel_id, "session": session.id}
    assert [kind for kind, _ in seen][-1] == "action"
    assert all(context == expected for _, context in seen), seen
    assert log_context.current() == {}  # nothing left bound once the move is done


async def test_overtaken_within_wakes_at_the_newer_version_and_times_out_without_one(
    manager: SessionManager,
) -> None:
    """A listener waiting for the session's next version (the table publisher holding a step
    of a run) is woken by its swap, not after a poll; without one it gives up after the time
    given, and leaves no waiter behind."""
    session = await started(manager)
    waiting = asyncio.create_task(manager.overtaken_within(session, 30.0))
    while not manager._overtaking:  # the waiter is registered
        await asyncio.sleep(0)
    await manager.act(session.id, "1", session.version, Add(add=1))
    assert await asyncio.wait_for(waiting, 5.0) is True  # long before its 30 s
    assert manager.overtaken(session) and manager._overtaking == {}
    current = manager.get(session.id)
    assert current is not None
    assert await manager.overtaken_within(current, 0.05) is False
    assert manager._overtaking == {}
    assert await manager.overtaken_within(session, 0.0) is True  # already overtaken
