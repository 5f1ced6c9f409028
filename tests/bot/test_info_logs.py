"""INFO logs of whole games name no hidden information: no card and no game seed, in the text
format and in the JSON one (``LOG_FORMAT=json``).

The games run with every logger at DEBUG, so each log call of the code paths taken is made
and formatted; only records at INFO or above are checked (DEBUG may name more). SPLIT cards
are private in hands, so INFO logs may name no SPLIT card face at all; TEN hides only the
draw pile's order, which only the seed could give away.
"""

from __future__ import annotations

import logging
import random
import re

import pytest

from bot.automation.autoplay import Autoplay
from bot.ops.json_logs import JsonFormatter
from bot.sessions.manager import SessionManager
from bot.store import Store
from game.registry import engines as real_engines
from tests.bot.conftest import FakeClock, seat
from tests.bot.recorder import RecordingNotifier, no_sleep
from tests.bot.test_autoplay import bot_only_game

SEED = 7316492851077  # long enough not to turn up by chance in an id, a score or a time
SPLIT_FACE = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


def seeded_manager(store: Store, clock: FakeClock, handed_out: list[int]) -> SessionManager:
    def seed_source() -> int:
        handed_out.append(SEED)
        return SEED

    return SessionManager(store, real_engines(), clock=clock, seed_source=seed_source)


def info_messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The messages at INFO and above, and the same records as ``LOG_FORMAT=json`` writes
    them (with their guild/channel/session context and any traceback)."""
    records = [r for r in caplog.records if r.levelno >= logging.INFO]
    as_json = JsonFormatter()
    messages = [r.getMessage() for r in records] + [as_json.format(r) for r in records]
    # The checks below only mean something if the game's INFO records were captured.
    assert any("started with" in m for m in messages), messages
    assert any("finished" in m for m in messages), messages
    return messages


def assert_no_seed(messages: list[str]) -> None:
    leaked = [m for m in messages if str(SEED) in m]
    assert not leaked, leaked


@pytest.mark.parametrize("game", ["split", "ten"])
async def test_bot_only_games_log_no_card_and_no_seed_at_info(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture, game: str,
) -> None:
    caplog.set_level(logging.DEBUG)
    handed_out: list[int] = []
    manager = seeded_manager(store, clock, handed_out)
    runner = Autoplay(manager, notifier=RecordingNotifier(), sleep=no_sleep)
    manager.subscribe(runner.on_change)
    session_id = await bot_only_game(manager, runner, game, ["easy", "normal"])
    assert handed_out == [SEED]
    assert len(await store.actions(session_id)) > 20  # a whole game was played
    messages = info_messages(caplog)
    assert_no_seed(messages)
    if game == "split":
        named = [m for m in messages if SPLIT_FACE.search(m)]
        assert not named, named


async def test_split_with_humans_logs_no_card_and_no_seed_at_info(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture,
) -> None:
    """Humans move through ``manager.act`` (their moves chosen by the engine's bot), next to
    a machine seat played by the autoplay."""
    caplog.set_level(logging.DEBUG)
    handed_out: list[int] = []
    manager = seeded_manager(store, clock, handed_out)
    runner = Autoplay(manager, notifier=RecordingNotifier(), sleep=no_sleep)
    manager.subscribe(runner.on_change)
    engine = manager.engine("split")
    session = await manager.open_lobby(1, 10, "split", seat(1))
    await manager.join(session.id, seat(2))
    await manager.add_bot(session.id, "1", "normal")
    session = await manager.start(session.id, "1")
    rng = random.Random(3)
    human_moves = 0
    while (current := manager.get(session.id)) is not None:
        await runner.idle()
        current = manager.get(session.id)
        if current is None:
            break
        [player] = engine.awaiting(current.state)
        assert player in ("1", "2")  # the machine seat has had its turn
        action = engine.bot_action(current.state, player, "normal", rng)
        await manager.act(session.id, player, current.version, action)
        human_moves += 1
    assert handed_out == [SEED] and human_moves > 20
    messages = info_messages(caplog)
    assert_no_seed(messages)
    named = [m for m in messages if SPLIT_FACE.search(m)]
    assert not named, named
