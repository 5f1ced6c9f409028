"""Permissions: /game new refuses a channel where the bot lacks what a game needs, naming it;
a 403 on a table edit or ping mid-game is logged once at WARNING and each player's next click
tells them privately (``cogs.kit.channel_health``)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.commands.game_commands import GameCog
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.kit.channel_health import (
    BLOCKED_NOTE,
    missing_permissions,
    missing_thread_permissions,
)
from cogs.kit.message_routes import MessageRoutes
from game.split import SplitEngine
from tests.cogs.conftest import ANA, BEN
from tests.cogs.split_table_fixture import SEED, SplitTable
from tests.cogs.test_split_game import start_game
from tests.fakes import FakeMessage, click

ENGLISH = words_for(Language.EN)
GAME_NEEDS = discord.Permissions(view_channel=True, send_messages=True, embed_links=True,
                                 attach_files=True, read_message_history=True)


@pytest.fixture
async def split(tmp_path: Path) -> AsyncIterator[SplitTable]:
    store = await open_store(tmp_path / "health.sqlite3")
    yield SplitTable(SessionManager(store, {"split": SplitEngine()}, seed_source=lambda: SEED))
    await store.close()


def names(messages: list[Any]) -> list[str]:
    return [ENGLISH.text(message) for message in messages]


def test_what_a_game_and_a_thread_need() -> None:
    assert names(missing_permissions(GAME_NEEDS)) == []
    assert names(missing_permissions(discord.Permissions(view_channel=True))) == [
        "Send Messages", "Embed Links", "Attach Files", "Read Message History"]
    assert names(missing_thread_permissions(GAME_NEEDS)) == [
        "Create Public Threads", "Send Messages in Threads"]
    both = discord.Permissions(create_public_threads=True, send_messages_in_threads=True)
    assert names(missing_thread_permissions(both)) == []


async def test_game_new_refuses_where_the_bot_may_not_post(split: SplitTable) -> None:
    ia = split.interaction(ANA)
    ia.app_permissions = discord.Permissions(  # type: ignore[attr-defined]
        view_channel=True, send_messages=True, read_message_history=True)
    await split.cog.interaction_check(ia)  # type: ignore[arg-type]
    await GameCog.new.callback(split.cog, ia, game="split")  # type: ignore[arg-type]
    [sent] = ia.sent
    assert sent.ephemeral and sent.kind == "send_message"
    assert "**Embed Links**, **Attach Files**" in sent.text
    assert "Send Messages" not in sent.text
    assert split.manager.in_channel(split.channel.id) is None  # no lobby was opened
    allowed = split.interaction(ANA)
    allowed.app_permissions = GAME_NEEDS  # type: ignore[attr-defined]
    await split.cog.interaction_check(allowed)  # type: ignore[arg-type]
    await GameCog.new.callback(split.cog, allowed, game="split")  # type: ignore[arg-type]
    assert not allowed.sent[0].ephemeral and split.manager.in_channel(split.channel.id)


def forbid(split: SplitTable, table: FakeMessage) -> list[str]:
    """Make the channel refuse the bot's posts and edits (403); returns the refused calls.
    No interaction token is usable (their lifetime is over), so every write of the table and
    the ping goes through the channel (a token's writes are not the channel's to refuse)."""
    split.client.services.routes = MessageRoutes(lifetime=0.0)
    refused: list[str] = []

    async def refuse(*_args: Any, **_kwargs: Any) -> None:
        refused.append("call")
        raise discord.Forbidden(Response403(), "Missing Permissions")

    table.edit = refuse  # type: ignore[method-assign]
    split.channel.send = refuse  # type: ignore[method-assign]
    return refused


class Response403:
    status = 403
    reason = "Forbidden"


async def test_a_403_mid_game_is_logged_once_and_told_on_the_next_click(
    split: SplitTable, caplog: pytest.LogCaptureFixture
) -> None:
    table = await start_game(split, (ANA, BEN))
    refused = forbid(split, table)
    caplog.set_level(logging.WARNING)
    session = split.session()
    on_turn = ANA if split.engine.awaiting(session.state) == [str(ANA.id)] else BEN
    other = BEN if on_turn is ANA else ANA
    note = ENGLISH.text(BLOCKED_NOTE)
    # The player draws from their view: the click works, the table edit is refused.
    view = await split.hand(on_turn)
    ia = split.interaction(on_turn, view.message)
    await click(ia, view.custom_ids[0])
    assert refused and ia.sent[0].kind == "edit_message"
    # Their next click tells them privately, once.
    steps = split.interaction(on_turn, view.message)
    await click(steps, f"tb:hand:{session.id}")
    assert [s.text for s in steps.sent if s.ephemeral][-1] == note
    again = split.interaction(on_turn, view.message)
    await click(again, f"tb:hand:{session.id}")
    assert all(s.text != note for s in again.sent)
    # Each player is told once: the other player's next click tells them.
    theirs = split.interaction(other)
    await click(theirs, f"tb:hand:{session.id}")
    assert theirs.sent[-1].text == note and theirs.sent[-1].ephemeral
    warnings = [r for r in caplog.records
                if r.levelno == logging.WARNING and "403" in r.getMessage()]
    assert len(warnings) == 1 and f"session {session.id}" in warnings[0].getMessage()
    assert not [r for r in caplog.records if "could not ping" in r.getMessage()]
