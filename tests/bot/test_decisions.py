"""Expert moves in the bot's process pool (bot.automation.decision_pool): the deadline budget, the
same moves as the engine decides in process when the deadline does not cut the search, and
settings."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.automation.autoplay import Autoplay
from bot.automation.decision_pool import Deadline, DecisionPool, decide
from bot.ops.metrics import METRICS
from bot.process.env_settings import load_settings, parse_bot_levels
from bot.records.errors import ConfigError
from bot.sessions.manager import SessionManager
from bot.store import open_store
from game.base import rng_for
from game.registry import engines
from game.search import Iterations, capped
from game.ten import TenEngine
from tests.bot.conftest import FakeClock, seat
from tests.bot.recorder import no_sleep

GOOD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_the_deadline_budget_watches_the_clock() -> None:
    assert Deadline.after(0).exhausted(0)
    assert not Deadline.after(60).exhausted(10_000)
    # With the level's cap: the count stops it first on a generous deadline.
    assert capped(5, Deadline.after(60)).exhausted(5)
    assert not capped(5, Deadline.after(60)).exhausted(4)
    assert capped(5, Deadline.after(0)).exhausted(1)


def test_a_search_cut_at_once_still_returns_a_legal_move() -> None:
    engine = TenEngine()
    state, _ = engine.new_game(["a", "b"], 3)
    for move in range(30):
        player = engine.awaiting(state)[0]
        action = decide("ten", state, player, "expert", random.Random(move), 0.0)
        assert action in engine.legal_actions(state, player)
        engine.apply(state, player, action)


def test_without_a_cut_the_move_depends_only_on_the_rng() -> None:
    engine = TenEngine()
    state, _ = engine.new_game(["a", "b"], 4)
    player = engine.awaiting(state)[0]
    pooled = decide("ten", state, player, "expert", random.Random(9), 60.0)
    assert pooled == engine.bot_action(state, player, "expert", random.Random(9))


async def test_expert_seats_move_through_the_pool_as_the_engine_would(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = await open_store(tmp_path / "pool.sqlite3")
    pool = DecisionPool(workers=1, deadline=60.0)  # no cut: the moves are reproducible
    timed = METRICS.value("tablebot_expert_decision_seconds_count", {"game": "ten"})
    try:
        manager = SessionManager(store, engines(), clock=clock, seed_source=lambda: 11)
        runner = Autoplay(manager, sleep=no_sleep, decisions=pool)
        manager.subscribe(runner.on_change)
        session = await manager.open_lobby(1, 10, "ten", seat(1))
        await manager.add_bot(session.id, "1", "expert")
        session = await manager.start(session.id, "1")
        engine = manager.engine("ten")
        for _ in range(12):  # the human plays normal moves; the bot answers from the pool
            await runner.idle()
            now = manager.get(session.id)
            assert now is not None
            human = engine.awaiting(now.state)[0]
            assert human == "1"
            rng = rng_for(now.state.seed, "human", now.version, human)
            move = engine.bot_action(now.state, human, "normal", rng)
            await manager.act(session.id, human, now.version, move)
        await runner.idle()
        actions = await store.actions(session.id)
        assert any(a.user_id == "bot:1" for a in actions) and pool.started
        # Replay the log: every bot move is the engine's own expert choice at that version.
        replayed = engine.copy_state(session.state)  # as dealt at the start
        checked = 0
        for action in actions:
            parsed = engine.parse_action(action.action)
            if action.user_id == "bot:1":
                rng = rng_for(replayed.seed, "autoplay", action.seq - 1, "bot:1")
                inline = engine.bot_action(replayed, "bot:1", "expert", rng)
                assert inline == parsed
                checked += 1
            engine.apply(replayed, action.user_id, parsed)
        assert checked > 3
        # Each pooled move is timed (tablebot_expert_decision_seconds, bot.ops.metrics).
        assert METRICS.value("tablebot_expert_decision_seconds_count", {"game": "ten"}) \
            - timed == checked
        assert METRICS.value("tablebot_expert_decisions_in_progress") == 0
    finally:
        await pool.close()
        await store.close()


async def test_a_closed_pool_refuses_work() -> None:
    pool = DecisionPool(workers=1, deadline=0.1)
    await pool.close()
    assert not pool.started
    with pytest.raises(RuntimeError):
        await pool.bot_action("ten", None, "a", "expert", random.Random(1))


def test_bot_levels_and_pool_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BOT_LEVELS", "EXPERT_WORKERS", "EXPERT_DEADLINE_MS"):
        monkeypatch.delenv(name, raising=False)
    env = tmp_path / ".env"
    env.write_text(f"DISCORD_TOKEN={GOOD_TOKEN}\n")
    settings = load_settings(env)
    assert settings.offered_bot_levels == ("easy", "normal", "expert")
    assert (settings.expert_workers, settings.expert_deadline_ms) == (1, 400)
    env.write_text(f"DISCORD_TOKEN={GOOD_TOKEN}\nBOT_LEVELS= Expert ,normal\nEXPERT_WORKERS=2\n")
    settings = load_settings(env)
    assert settings.offered_bot_levels == ("normal", "expert") and settings.expert_workers == 2
    env.write_text(f"DISCORD_TOKEN={GOOD_TOKEN}\nBOT_LEVELS=normal,grandmaster\n")
    with pytest.raises(ConfigError, match=r"BOT_LEVELS is invalid.*grandmaster"):
        load_settings(env)
    env.write_text(f"DISCORD_TOKEN={GOOD_TOKEN}\nEXPERT_WORKERS=0\n")
    with pytest.raises(ConfigError, match="EXPERT_WORKERS is invalid"):
        load_settings(env)
    assert parse_bot_levels(" , ") == ()
    assert Iterations(3).exhausted(3)
