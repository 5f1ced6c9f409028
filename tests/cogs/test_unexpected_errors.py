"""An unexpected exception in a command or a click answers the user with one plain sentence,
ephemeral, and logs the traceback at ERROR level; the exception text never reaches the user."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.client import TableBot
from bot.models import Status
from bot.settings import Settings
from cogs.unexpected import UNEXPECTED, TableTree
from tests.bot.test_process import GOOD_TOKEN
from tests.cogs.conftest import ANA, BEN, Table
from tests.cogs.test_lobby import open_lobby
from tests.fakes import FakeInteraction, click

SECRET = "hand of Ana: 7♠ 8♥"


def boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError(SECRET)


def tree() -> TableTree:
    return TableTree(discord.Client(intents=discord.Intents.none()))


async def run_command(
    table: Table, command: app_commands.Command[Any, ..., Any], ia: FakeInteraction,
    **params: Any,
) -> None:
    """What discord.py does with a slash command: call it, hand a failure to the tree."""
    ia.command = command  # type: ignore[attr-defined]
    try:
        await command._do_call(ia, params)  # type: ignore[arg-type]
    except app_commands.AppCommandError as error:
        await tree().on_error(ia, error)  # type: ignore[arg-type]


def game_command(table: Table, name: str) -> app_commands.Command[Any, ..., Any]:
    command = table.cog.game.get_command(name)  # the cog's copy, bound to the cog
    assert isinstance(command, app_commands.Command)
    return command


def check_logged_and_hidden(caplog: pytest.LogCaptureFixture, where: str) -> None:
    errors = [r for r in caplog.records if r.name == "cogs.unexpected"]
    assert [r.levelno for r in errors] == [logging.ERROR]
    assert where in errors[0].getMessage() and SECRET not in errors[0].getMessage()
    assert errors[0].exc_info is not None and str(errors[0].exc_info[1]) == SECRET
    assert not any(SECRET in r.getMessage() for r in caplog.records if r.levelno < logging.ERROR)
    caplog.clear()  # the errors were provoked on purpose (see conftest.no_unexpected_errors)


async def test_a_crashing_command_answers_with_one_ephemeral_sentence(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table.manager, "open_lobby", boom)
    ia = table.interaction(ANA)
    await run_command(table, game_command(table, "new"), ia, game="count")
    assert [(s.kind, s.content, s.ephemeral) for s in ia.sent] == [
        ("send_message", UNEXPECTED, True)
    ]
    assert table.manager.in_channel(100) is None
    check_logged_and_hidden(caplog, "/game new")


async def test_a_command_that_crashes_after_answering_follows_up(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table.manager, "set_table_message", boom)
    ia = table.interaction(ANA)
    await run_command(table, game_command(table, "new"), ia, game="count")
    assert [(s.kind, s.ephemeral) for s in ia.sent] == [("send_message", False),
                                                        ("followup", True)]
    assert ia.last.content == UNEXPECTED
    check_logged_and_hidden(caplog, "/game new")


async def test_a_crashing_click_answers_with_one_ephemeral_sentence(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid, message = await open_lobby(table)
    monkeypatch.setattr(table.manager, "join", boom)
    ia = table.interaction(BEN, message)
    await click(ia, f"tb:lobby:join:{sid}")
    assert [(s.kind, s.content, s.ephemeral) for s in ia.sent] == [
        ("send_message", UNEXPECTED, True)
    ]
    session = table.manager.get(sid)
    assert session is not None and session.status is Status.LOBBY and len(session.seats) == 1
    assert message.edits == []
    check_logged_and_hidden(caplog, f"'tb:lobby:join:{sid}'")


async def test_a_click_that_crashes_after_answering_follows_up(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid, message = await open_lobby(table)
    ia = table.interaction(BEN, message)
    original = ia.response.edit_message

    async def edit_then_fail(**kwargs: Any) -> None:
        await original(**kwargs)
        raise RuntimeError(SECRET)

    monkeypatch.setattr(ia.response, "edit_message", edit_then_fail)
    await click(ia, f"tb:lobby:join:{sid}")
    assert [(s.kind, s.ephemeral) for s in ia.sent] == [("edit_message", False),
                                                        ("followup", True)]
    assert ia.last.content == UNEXPECTED
    check_logged_and_hidden(caplog, f"'tb:lobby:join:{sid}'")


async def test_the_bot_uses_the_answering_tree(tmp_path: Any) -> None:
    settings = Settings(discord_token=GOOD_TOKEN, database_path=tmp_path / "db.sqlite3",
                        _env_file=None)  # type: ignore[call-arg,arg-type]
    bot = TableBot(settings)
    try:
        assert isinstance(bot.tree, TableTree)
    finally:
        await bot.close()
