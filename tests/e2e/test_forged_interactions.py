"""Issue 34 at the real bot: forged interactions (what a client other than Discord's could
send) are refused ephemeral, in the reader's language, with nothing stored or replaced, and
the bot logs no ERROR and no traceback.

* slash commands: a value that is not one of an option's choices, an integer sent as a
  string, integers out of range, a user Discord never resolved, a channel of another server;
* page controls (rules, leaderboard, replay pages) forged onto a running table (placed beside
  its controls, or in their place): the table keeps its content and its buttons.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import InteractionRecord
from cogs.i18n import Language, words_for
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log, reply_content, synced_bot

ES = words_for(Language.ES)
INTEGER = 4


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.add_user("dana", admin=True)  # Administrator: Manage Server
    fake.add_user("alice")
    fake.add_user("pablo", locale="es-ES")  # a Spanish Discord client
    fake.add_channel("games")
    other = fake.add_guild("Another server")
    fake.add_channel("theirs", guild_id=other)
    async with fake:
        yield fake


@pytest.fixture
async def bot(fd: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    async with synced_bot(fd, tmp_path / "bot", BOT_ENV) as proc:
        yield proc


def refused(record: InteractionRecord, text: str) -> None:
    assert record.ephemeral, record.callback_data
    assert reply_content(record) == text, reply_content(record)


def stored(bot: BotProcess, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(bot.database_path, timeout=10.0)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def test_forged_commands_are_refused_in_the_readers_language(
    fd: FakeDiscord, bot: BotProcess
) -> None:
    dana, alice, pablo = fd.world.users.values()
    games, theirs = fd.channel_named("games"), fd.channel_named("theirs")

    # A value outside the option's choices, in English and in Spanish.
    godlike = {"game": "split", "level": "godlike"}
    refused(await fd.forged_slash(alice, games, "game new", godlike),
            "The value given for level is not one of its choices.")
    refused(await fd.forged_slash(pablo, games, "game new", godlike),
            ES.gettext("The value given for {option} is not one of its choices.",
                       option=ES.pgettext("parameter-name", "level")))
    refused(await fd.forged_slash(dana, games, "config", {"language": "xx"}),
            "The value given for language is not one of its choices.")
    # An integer sent as a string.
    refused(await fd.forged_slash(alice, games, "game new",
                                  {"game": "split", "turn_minutes": "5"}),
            "The value given for turn_minutes is not valid. Please choose it again.")
    # A user Discord never resolved.
    refused(await fd.forged_slash(alice, games, "stats", {"user": "123456789012345678"}),
            "The member given for user could not be found. Please choose them again.")
    # Integers out of range (the stand-in's slash checks choices only, as a forger would).
    for options in ({"turn_minutes": 10**9}, {"turn_minutes": -1}):
        refused(await fd.forged_slash(dana, games, "config", options, types={
            "turn_minutes": INTEGER}), "turn_minutes must be from 0 to 30.")
    refused(await fd.slash(dana, games, "config", leaderboard_min_games=-5),
            "leaderboard_min_games must be from 1 to 100.")
    # A channel of another server (resolved, as a forger may claim).
    refused(await fd.slash(dana, games, "config", add_channel=theirs),
            "The channel given for add_channel is not a channel of this server.")

    assert stored(bot, "SELECT * FROM guild_settings") == []
    assert stored(bot, "SELECT id FROM sessions") == []
    assert "refused /game new from user" in bot.log_text()
    assert_clean_log(bot)


async def test_page_controls_forged_onto_a_running_table_are_refused(
    fd: FakeDiscord, bot: BotProcess
) -> None:
    dana, alice, pablo = fd.world.users.values()
    games = fd.channel_named("games")
    opened = await fd.slash(alice, games, "game new", game="split")
    assert opened.original_message_id is not None
    lobby = fd.message(opened.original_message_id)
    await fd.click_label(dana, lobby, "Join")
    await fd.click_label(alice, lobby, "Start")
    table_id = stored(bot, "SELECT table_message_id FROM sessions")[0][0]
    assert isinstance(table_id, int)
    session_id = stored(bot, "SELECT id FROM sessions")[0][0]
    await bot.wait_until(lambda: "lobby" not in fd.message(table_id).text, 10.0,
                         "the running table")
    table = fd.message(table_id)
    versions, ids = len(table.versions), table.custom_ids()
    for forged in ("tb:rules:split:1:n", f"tb:lb:{fd.guild_id}:split:all:1:n",
                   f"tb:rp:{session_id}:1:n"):
        for alone in (False, True):  # beside the table's own controls, or in their place
            refused(await fd.forged_click(pablo, table, forged, alone=alone),
                    ES.gettext("That button does not belong to this message, so nothing was "
                               "changed."))
    now = fd.message(table_id)
    assert len(now.versions) == versions and now.custom_ids() == ids and not now.deleted
    assert_clean_log(bot)
