"""An unexpected exception in a command or a click answers the user with one plain sentence,
ephemeral, and logs the traceback at ERROR level; the exception text never reaches the user."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.ops import outcomes
from bot.process.client import TableBot
from bot.process.env_settings import Settings
from bot.records.session import Status
from cogs.client_services import seat_for
from cogs.i18n import Language, words_for
from cogs.kit.unexpected_errors import (
    BAD_VALUE,
    DONE_NOT_SHOWN,
    MOVE_MADE,
    TEXTS,
    UNEXPECTED,
    on_command_error,
)
from tests.bot.test_process import GOOD_TOKEN
from tests.cogs.conftest import ANA, BEN, Table
from tests.cogs.test_lobby import open_lobby
from tests.fakes import FakeInteraction, FakeMessage, click

SECRET = "hand of Ana: 7♠ 8♥"


def boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError(SECRET)


async def run_command(
    table: Table, command: app_commands.Command[Any, ..., Any], ia: FakeInteraction,
    **params: Any,
) -> None:
    """What discord.py does with a slash command: its cog's check, then call it, hand a
    failure to the tree."""
    ia.command = command  # type: ignore[attr-defined]
    try:
        await table.cog.interaction_check(ia)  # type: ignore[arg-type]
        await command._do_call(ia, params)  # type: ignore[arg-type]
    except app_commands.AppCommandError as error:
        await on_command_error(ia, error)  # type: ignore[arg-type]


def game_command(table: Table, name: str) -> app_commands.Command[Any, ..., Any]:
    command = table.cog.game.get_command(name)  # the cog's copy, bound to the cog
    assert isinstance(command, app_commands.Command)
    return command


def check_logged_and_hidden(caplog: pytest.LogCaptureFixture, where: str) -> None:
    errors = [r for r in caplog.records if r.name == "cogs.kit.unexpected_errors"]
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
    assert ia.last.content == DONE_NOT_SHOWN  # Ben did join: "nothing was changed" is wrong
    assert len(table.manager.get(sid).seats) == 2
    check_logged_and_hidden(caplog, f"'tb:lobby:join:{sid}'")


async def test_the_bot_uses_the_answering_tree(tmp_path: Any) -> None:
    settings = Settings(discord_token=GOOD_TOKEN, database_path=tmp_path / "db.sqlite3",
                        dev_guild_id=123, _env_file=None)  # type: ignore[call-arg,arg-type]
    bot = TableBot(settings, engines={})

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[object]:
        return []

    bot.tree.sync = fake_sync  # type: ignore[method-assign]
    try:
        await bot.setup_hook()  # the table extension installs the tree's error hook
        assert bot.tree.on_error is on_command_error
    finally:
        await bot.close()


def http_error(status: int = 400) -> discord.HTTPException:
    return discord.HTTPException(SimpleNamespace(status=status, reason="Bad Request"),
                                 "Invalid Form Body")


async def refuse_edits(**kwargs: Any) -> None:
    raise http_error()


async def test_a_move_whose_answer_fails_says_the_move_was_made(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    sid, _ = await open_lobby(table)
    session = await table.manager.join(sid, seat_for(BEN))  # type: ignore[arg-type]
    session = await table.manager.start(sid, "1")
    ia = table.interaction(ANA, FakeMessage(table.channel, ephemeral=True))
    ia.response.edit_message = refuse_edits  # type: ignore[method-assign]
    await click(ia, f"tb:act:{sid}:{session.version}:add1")
    assert table.manager.get(sid).version == session.version + 1  # the move is stored
    assert [(s.kind, s.content, s.ephemeral) for s in ia.sent] == [
        ("send_message", MOVE_MADE, True)
    ]
    logged = [r.levelno for r in caplog.records if r.name == "cogs.kit.unexpected_errors"]
    assert logged == [logging.ERROR]
    caplog.clear()


async def test_im_back_whose_answer_fails_says_it_was_done(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    sid, message = await open_lobby(table)
    await table.manager.join(sid, seat_for(BEN))  # type: ignore[arg-type]
    await table.manager.start(sid, "1")
    await table.manager.set_away(sid, "1", True)
    ia = table.interaction(ANA, message)
    ia.response.edit_message = refuse_edits  # type: ignore[method-assign]
    await click(ia, f"tb:back:{sid}")
    assert not table.manager.get(sid).seat_of("1").away
    assert ia.last.content == DONE_NOT_SHOWN
    caplog.clear()


async def test_a_lobby_that_could_not_be_shown_is_closed(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    ia = table.interaction(ANA)
    answer = ia.response.send_message
    calls = 0

    async def first_send_fails(*args: Any, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise http_error(503)
        await answer(*args, **kwargs)

    ia.response.send_message = first_send_fails  # type: ignore[method-assign]
    await run_command(table, game_command(table, "new"), ia, game="count")
    assert table.manager.in_channel(100) is None  # no invisible lobby blocks the channel
    assert [(s.kind, s.content, s.ephemeral) for s in ia.sent] == [
        ("send_message", UNEXPECTED, True)  # the error hook answered: nothing was changed
    ]
    caplog.clear()
    await open_lobby(table)  # the next /game new works


async def test_an_option_value_that_does_not_convert_is_refused_not_logged_as_an_error(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """A forged command's choice that is not one (discord.py raises TransformerError before
    the command runs) is a refusal in the user's words, not a bug (issue 34)."""
    command = game_command(table, "new")
    level = next(p for p in command._params.values() if p.name == "level")
    with pytest.raises(app_commands.TransformerError) as raised:
        await level.transform(table.interaction(ANA), "godlike")  # type: ignore[arg-type]
    ia = table.interaction(ANA, locale=discord.Locale.spain_spanish)
    ia.command = command  # type: ignore[attr-defined]
    with caplog.at_level(logging.INFO):
        await on_command_error(ia, raised.value)  # type: ignore[arg-type]
    assert ia.last.ephemeral and ia.last.content == words_for(Language.ES).text(
        TEXTS[BAD_VALUE])
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "refused /game new" in caplog.text and "godlike" not in caplog.text
    assert outcomes.finish(ia.extras, "command") == outcomes.REFUSED  # counted as refused
