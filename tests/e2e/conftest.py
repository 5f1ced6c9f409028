"""Fixtures of the scenario tests, and the latency summary printed after the run."""

from __future__ import annotations

import weakref
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.driver import INSTANCES
from tests.e2e.scenario_support import BOT_ENV, FIGURES_REPORT, LATENCY_REPORT, synced_bot
from tests.interaction_parity import a_state, differences


@pytest.fixture(autouse=True)
def discord_contract() -> Iterator[None]:
    """Fail the test if a stand-in refused a request of it as breaking Discord's contract
    (``fakediscord/contract.py``) and the test did not take it (``fd.take_violations()``)."""
    yield
    found = [str(v) for fd in list(INSTANCES) for v in fd.take_violations()]
    if found:
        listed = "\n  ".join(found)
        pytest.fail(f"{len(found)} request(s) broke Discord's contract:\n  {listed}",
                    pytrace=False)


_PARITY_CHECKED: weakref.WeakKeyDictionary[FakeDiscord, int] = weakref.WeakKeyDictionary()


@pytest.fixture(autouse=True)
def interaction_parity() -> Iterator[None]:
    """Fail the test if an INTERACTION_CREATE a stand-in sent, parsed as the bot parses it
    (``bot.process.lean_interactions``), differs from discord.py's own parse of it in what is
    read (``tests/interaction_parity.py``)."""
    yield
    found: list[str] = []
    for fd in list(INSTANCES):
        state = a_state(fd.world.user_json(fd.world.bot_user))
        records = fd.world.interactions
        checked, _PARITY_CHECKED[fd] = _PARITY_CHECKED.get(fd, 0), len(records)
        for record in records[checked:]:
            found += [f"interaction {record.id} (type {record.type}): {difference}"
                      for difference in differences(record.payload, state)]
    if found:
        listed = "\n  ".join(found[:20])
        pytest.fail(f"{len(found)} difference(s) from discord.py's parse:\n  {listed}",
                    pytrace=False)


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    """The stand-in alone with one member, alice (a test module may define its own ``fd``)."""
    fake = FakeDiscord()
    fake.add_user("alice")
    async with fake:
        yield fake


@pytest.fixture
async def guild() -> AsyncIterator[FakeDiscord]:
    """The stand-in with three members (alice, bob, carol) and the channels the scenarios use;
    all exist before the bot connects, so they are in its GUILD_CREATE."""
    fake = FakeDiscord()
    for name in ("alice", "bob", "carol"):
        fake.add_user(name)
    for name in ("split-table", "split-replay", "ten-table"):
        fake.add_channel(name)
    async with fake:
        yield fake


@pytest.fixture
async def pictures_bot(guild: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """``python -m bot`` connected to ``guild`` with pictures on, its commands synced."""
    proc = BotProcess(guild, tmp_path / "bot", extra_env={**BOT_ENV, "IMAGES": "on"})
    try:
        await proc.start()
        await proc.wait_until(lambda: guild.commands(), 20.0, "the command sync")
        yield proc
    finally:
        await proc.close()


@pytest.fixture
async def live_bot(guild: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """``python -m bot`` connected to ``guild`` with its commands synced."""
    async with synced_bot(guild, tmp_path / "bot") as proc:
        yield proc


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if LATENCY_REPORT:
        terminalreporter.section("interaction latency of the real bot (Discord allows 3 s)")
        for line in LATENCY_REPORT:
            terminalreporter.write_line(line)
    if FIGURES_REPORT:
        terminalreporter.section("rate limits and REST calls of the real bot (issue 20)")
        for line in FIGURES_REPORT:
            terminalreporter.write_line(line)
