"""Issue 20: the real bot started while Discord is down or failing, then Discord comes back.

Expected: one line per attempt on stderr ("Discord is unreachable (...); retrying in 5 s"), no
traceback, retries with capped backoff; it connects once the stand-in serves again; SIGTERM
while it waits exits 0; a refused token still exits 2 with one line.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.__main__ import retry_delays
from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.ids import bot_token

RETRY_LINE = "tablebot: Discord is unreachable ("


@pytest.fixture
async def bot(fd: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    proc = BotProcess(fd, tmp_path / "bot")
    try:
        yield proc
    finally:
        await proc.close()


async def output_has(bot: BotProcess, text: str, timeout: float = 15.0) -> list[str]:
    """The bot's output lines holding ``text``, once there is one (its output is polled)."""
    async with asyncio.timeout(timeout):
        while not (found := [line for line in bot.output if text in line]):
            assert bot.running, f"the bot exited with {bot.returncode}:\n{bot.log_text()}"
            await asyncio.sleep(0.05)
    return found


def assert_no_traceback(bot: BotProcess) -> None:
    assert not [line for line in bot.output if "Traceback" in line], bot.log_text()


def test_retry_delays_double_up_to_a_cap() -> None:
    assert list(itertools.islice(retry_delays(), 7)) == [5, 10, 20, 40, 60, 60, 60]


async def test_bot_waits_for_an_unreachable_discord_then_connects(
    fd: FakeDiscord, bot: BotProcess
) -> None:
    port = fd.port
    await fd.stop()  # nothing listens on the stand-in's port now
    await bot.start(wait_ready=False)
    lines = await output_has(bot, RETRY_LINE)
    assert lines[0] == (
        f"tablebot: Discord is unreachable (cannot connect to 127.0.0.1:{port}); retrying in 5 s"
    ), bot.log_text()
    await fd.start(port=port)
    await bot.wait_until(
        lambda: fd.gateway.ready_count == 1 and fd.gateway.connected, 20.0, "the bot to connect"
    )
    await bot.wait_until(lambda: fd.commands(), 20.0, "the command sync")
    assert await bot.terminate() == 0, bot.log_text()  # returns once all its output is read
    assert len([line for line in bot.output if RETRY_LINE in line]) == 1
    assert_no_traceback(bot)


async def test_bot_waits_while_discord_answers_503_then_connects(
    fd: FakeDiscord, bot: BotProcess
) -> None:
    fd.set_outage(503)
    await bot.start(wait_ready=False)
    lines = await output_has(bot, RETRY_LINE)
    assert lines[0] == "tablebot: Discord is unreachable (HTTP 503); retrying in 5 s"
    assert fd.gateway.ready_count == 0
    fd.set_outage(None)
    await bot.wait_until(
        lambda: fd.gateway.ready_count == 1 and fd.gateway.connected, 20.0, "the bot to connect"
    )
    assert await bot.terminate() == 0, bot.log_text()  # returns once all its output is read
    assert_no_traceback(bot)


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
async def test_a_signal_while_waiting_for_discord_exits_cleanly(
    fd: FakeDiscord, bot: BotProcess, signal_name: str
) -> None:
    fd.set_outage(503)
    await bot.start(wait_ready=False)
    await output_has(bot, RETRY_LINE)
    assert bot.proc is not None
    if signal_name == "SIGTERM":
        code = await bot.terminate(timeout=5.0)
    else:  # Ctrl-C
        bot.proc.send_signal(2)
        code = await bot.exited(5.0)
    assert code == 0, bot.log_text()
    assert_no_traceback(bot)
    assert len([line for line in bot.output if line.startswith("tablebot:")]) == 1


async def test_a_refused_token_exits_2_with_one_line(fd: FakeDiscord, tmp_path: Path) -> None:
    wrong = BotProcess(fd, tmp_path / "bot", extra_env={"DISCORD_TOKEN": bot_token(fd.bot_user.id)})
    await wrong.start(wait_ready=False)
    code = await wrong.exited(20.0)
    assert code == 2, wrong.log_text()
    assert [line for line in wrong.output if line.startswith("tablebot:")] == [
        "tablebot: DISCORD_TOKEN was refused by Discord"
    ]
    assert_no_traceback(wrong)
