"""The test harness's bot process: each keeps its own environment."""

from __future__ import annotations

from pathlib import Path

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from tests.e2e.scenario_support import BOT_ENV


def test_a_change_to_one_bots_environment_stays_with_it(tmp_path: Path) -> None:
    """A test moves its bot's clock before a restart (``CLOCK_OFFSET_SECONDS``); the shared
    ``BOT_ENV`` it was given must not carry that into the next test of the same worker (it
    did: a later season test started a month ahead and saw its season through unposted)."""
    before = dict(BOT_ENV)
    proc = BotProcess(FakeDiscord(), tmp_path / "bot", extra_env=BOT_ENV)
    proc.extra_env["CLOCK_OFFSET_SECONDS"] = "3600"
    assert before == BOT_ENV
    assert proc.env()["CLOCK_OFFSET_SECONDS"] == "3600"
