"""Shared by the scenario tests (``test_scenario_*.py``): settings and the latency report."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from tests.e2e.players import latency_summary

DISCORD_DEADLINE = 3.0
# One finished game ranks a player, so the leaderboard after one game shows ranks. GAME_SEED
# makes each game's seed a function of the session id, so a run can be repeated exactly.
BOT_ENV = {"LEADERBOARD_MIN_GAMES": "1", "GAME_SEED": "20240917", "TABLE_RUN_DEBOUNCE": "0"}
# The scenarios wait for the table edit after every step, so the table's wait for a player's
# next step (cogs.listeners.table_publisher) only slows them; the figures and the soak run with the
# default.
DEFAULT_DEBOUNCE_ENV = {key: value for key, value in BOT_ENV.items() if key != "TABLE_RUN_DEBOUNCE"}
LATENCY_REPORT: list[str] = []
# Issue 20's figures (rate limits, REST calls per action), printed after the run.
FIGURES_REPORT: list[str] = []


def report_latency(fd: FakeDiscord, scenario: str) -> str:
    """The latency summary of the answered interactions, with those that took Discord's 3 s
    or more, goes to the report (a figure: it depends on the machine; ``bench.image_ack`` and
    ``bench.manager`` measure it); at least one interaction must have been answered."""
    summary, latencies = latency_summary(fd.interactions)
    late = [
        (r.data.get("name") or r.data.get("custom_id"), round(r.latency, 3))
        for r in fd.interactions
        if r.latency is not None and r.latency >= DISCORD_DEADLINE
    ]
    if late:
        summary += f"; {len(late)} at {DISCORD_DEADLINE:g} s or more: {late}"
    LATENCY_REPORT.append(f"{scenario}: {summary}")
    assert latencies, "no interaction was answered"
    return summary


def assert_clean_log(bot: BotProcess) -> None:
    """No error and no traceback in the bot's output (all its runs)."""
    bad = [line for line in bot.output if " ERROR " in line or "Traceback" in line]
    assert not bad, "\n".join(bad) + "\n--- bot output ---\n" + bot.log_text()


async def assert_leaderboard_ranks(
    fd: FakeDiscord, user: Any, channel: Any, game: str, title: str,
    expected: dict[str, tuple[int, int]],
) -> None:
    """``/leaderboard`` shows the game's board publicly: the winner first and every player's
    best score (``expected``: player -> (placement, score) of the one finished game)."""
    board = await fd.slash(user, channel, "leaderboard", game=game)
    shown = await fd.wait_for(  # answered at once or after "thinking"
        lambda: board.original_message_id
        and not fd.message(board.original_message_id).loading
        and fd.message(board.original_message_id),
        what="the leaderboard",
    )
    assert not shown.ephemeral and f"{title} leaderboard" in shown.text
    winner = min(expected, key=lambda p: expected[p])
    assert f"**1.** <@{winner}>" in shown.text
    for player, (_, score) in expected.items():
        assert f"<@{player}>" in shown.text and f"best {score}" in shown.text


@asynccontextmanager
async def synced_bot(fd: FakeDiscord, workdir: Path, env: dict[str, str] | None = None,
                     **options: Any) -> AsyncIterator[BotProcess]:
    """A started ``python -m bot`` whose commands are synced (``BOT_ENV`` unless ``env``;
    ``options``: BotProcess's own), closed at the end."""
    proc = BotProcess(fd, workdir, extra_env=dict(BOT_ENV if env is None else env), **options)
    try:
        await proc.start()
        await proc.wait_until(lambda: fd.commands(), 20.0, "the command sync")
        yield proc
    finally:
        await proc.close()


def reply_content(record: object) -> str:
    """The content an interaction was answered with at once (its callback's)."""
    data = getattr(record, "callback_data", None) or {}
    return str(data.get("content", ""))
