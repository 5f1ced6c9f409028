"""Smoke test: the real ``python -m bot`` against the stand-in (full scenarios come later)."""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("bot.__main__") is None, reason="bot/__main__.py does not exist yet"
)


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.add_user("alice")
    fake.add_user("bob")
    async with fake:
        yield fake


@pytest.fixture
async def bot(fd: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    proc = BotProcess(fd, tmp_path / "bot")
    try:
        yield proc
    finally:
        await proc.close()


async def test_real_bot_opens_a_lobby_and_keeps_it_across_a_kill(
    fd: FakeDiscord, bot: BotProcess
) -> None:
    alice, bob = fd.world.users.values()
    await bot.start()
    await bot.wait_until(lambda: fd.commands(), 20.0, "the command sync")
    assert "game" in {c["name"] for c in fd.commands()}

    record = await fd.slash(alice, fd.general, "game new", game="split")
    assert record.latency is not None
    lobby = await fd.wait_for(lambda: fd.latest_public(fd.general), what="a public lobby")
    assert lobby.interactive(), "the lobby offers buttons"
    await fd.click_label(bob, lobby, "Join")
    await fd.wait_for(lambda: "Bob" in fd.message(lobby).text, what="Bob in the lobby")

    await bot.kill()
    await bot.start()
    status = await fd.slash(alice, fd.general, "game status")
    shown = await fd.wait_for(
        lambda: status.original_message_id and fd.message(status.original_message_id)
    )
    assert "Alice" in shown.text and "Bob" in shown.text
    assert fd.unknown_routes == [], bot.log_text()
    assert await bot.terminate() == 0, bot.log_text()
