"""Issue 39 at the real bot: a game where the bot is not in the channel (a group DM of a user
who installed the app, a server that never invited it) is played through interaction tokens
alone: 0 requests to channel routes (which Discord answers 403 Missing Access there)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from game.split import SplitEngine
from tests.e2e.players import Strategy
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log
from tests.e2e.table_play import TablePlay
from tests.e2e.test_scenario_split import split_rank


def channel_calls(fd: FakeDiscord, since: int = 0) -> list[str]:
    """The bot's requests to channel routes (``/channels/...``), from call ``since`` on."""
    return [f"{c.method} {c.path} -> {c.status}" for c in fd.world.calls[since:]
            if c.route.startswith("/channels/")]


@pytest.fixture
async def anywhere() -> AsyncIterator[FakeDiscord]:
    """alice installed the app to her account; she, bob and carol share a group DM."""
    fake = FakeDiscord()
    for name in ("alice", "bob", "carol"):
        fake.add_user(name)
    async with fake:
        yield fake


@pytest.fixture
async def anywhere_bot(anywhere: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    proc = BotProcess(anywhere, tmp_path / "bot", extra_env=BOT_ENV)
    try:
        await proc.start()
        await proc.wait_until(lambda: anywhere.commands(), 20.0, "the command sync")
        yield proc
    finally:
        await proc.close()


async def test_a_three_player_split_game_in_a_group_dm_uses_tokens_only(
    anywhere: FakeDiscord, anywhere_bot: BotProcess
) -> None:
    alice, bob, carol = anywhere.world.users.values()
    group = anywhere.add_group_dm("friends", alice, bob, carol)
    table = TablePlay(anywhere, anywhere_bot, group, SplitEngine(), Strategy(split_rank, seed=3))
    await table.open("split", alice, bob, carol)
    await table.play_to_end()
    assert channel_calls(anywhere) == []
    assert_clean_log(anywhere_bot)
