"""Issue 20, bounded input and output at the real bot: the longest values Discord lets a client
send get a clear ephemeral refusal or a valid message, never a reply Discord would refuse
(the stand-in checks every limit: ``fakediscord/validation.py``) and never a traceback.

Every string option is declared with a ``max_length``, so Discord itself stops longer values;
one that gets through anyway (6,000 characters, the most Discord allows in one interaction)
is refused before the command runs (``cogs.commands.option_check``, issue 34), without echoing it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log

LONGEST = 6000
# 32 characters: right-to-left override, combining marks, emoji with joiners, markdown.
ODD_NAME = "\u202e*_`~|>@everyone\u0301\u0336👩\u200d👩\u200d👧" + "ǅ" * 9
assert len(ODD_NAME) == 32


@pytest.fixture
async def odd_guild() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.add_user("alice")
    fake.add_user(ODD_NAME)
    fake.add_channel("long-table")
    async with fake:
        yield fake


@pytest.fixture
async def odd_bot(odd_guild: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    proc = BotProcess(odd_guild, tmp_path / "bot", extra_env=BOT_ENV)
    try:
        await proc.start()
        await proc.wait_until(lambda: odd_guild.commands(), 20.0, "the command sync")
        yield proc
    finally:
        await proc.close()


def string_options(command: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every string option of a synced command (subcommands included), by its path."""
    found = []
    for option in command.get("options", []):
        if option["type"] in (1, 2):  # a subcommand (group)
            sub = {**option, "name": f"{command['name']} {option['name']}"}
            found.extend(string_options(sub))
        elif option["type"] == 3:
            found.append((f"{command['name']} {option['name']}", option))
    return found


async def test_every_string_option_declares_a_max_length(
    odd_guild: FakeDiscord, odd_bot: BotProcess
) -> None:
    options = [pair for command in odd_guild.commands() for pair in string_options(command)]
    assert {path for path, _ in options} >= {
        "game new game", "rules game", "leaderboard game", "stats game"
    }
    # An option with fixed choices (``period``) takes only those values.
    unbounded = [
        path for path, option in options
        if not option.get("max_length") and not option.get("choices")
    ]
    assert not unbounded, f"string options without max_length: {unbounded}"


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("game new", {"game": "x" * LONGEST}),
        ("rules", {"game": "ü" * LONGEST}),
        ("leaderboard", {"game": "🂡" * LONGEST}),
        ("stats", {"game": "'" * LONGEST}),
    ],
)
async def test_the_longest_game_value_gets_a_short_ephemeral_refusal(
    odd_guild: FakeDiscord, odd_bot: BotProcess, command: str, options: dict[str, Any]
) -> None:
    alice = next(u for u in odd_guild.world.users.values() if u.name == "alice")
    channel = odd_guild.channel_named("long-table")
    record = await odd_guild.slash(alice, channel, command, **options)
    assert record.callback_type == 4 and record.ephemeral, record.callback_data
    content = (record.callback_data or {}).get("content") or ""
    assert content == "The value given for game is not valid. Please choose it again.", \
        content[:200]
    assert_clean_log(odd_bot)


async def test_a_32_character_odd_display_name_opens_and_shows_a_valid_lobby(
    odd_guild: FakeDiscord, odd_bot: BotProcess
) -> None:
    odd = next(u for u in odd_guild.world.users.values() if u.name == ODD_NAME)
    alice = next(u for u in odd_guild.world.users.values() if u.name == "alice")
    channel = odd_guild.channel_named("long-table")
    opened = await odd_guild.slash(odd, channel, "game new", game="split", turn_minutes=0)
    assert opened.callback_type == 4 and not opened.ephemeral, opened.callback_data
    assert opened.original_message_id is not None
    lobby = odd_guild.message(opened.original_message_id)
    assert "ǅ" in lobby.text  # the name is shown (the stand-in title-cases display names)
    joined = await odd_guild.click_label(alice, lobby, "Join")
    assert joined.callback_type == 7, joined.callback_data
    started = await odd_guild.click_label(odd, odd_guild.message(lobby.id), "Start")
    assert started.callback_type == 7, started.callback_data
    assert_clean_log(odd_bot)
