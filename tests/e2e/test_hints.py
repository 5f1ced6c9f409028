"""Issue 29 (hints) at the real bot process, in every language.

Dana (Manage Server) turns hints on for new games with ``/config hints:on``; the lobby of a
four-player TEN game then says that hints are on and that the game is recorded but not rated.
Each player reads their private answers in another language (en, es, sq, gu: ``/language``).
On each player's first turn: their private view carries the Hint button, the others' views do
not; the Hint answers privately (a deferred "thinking" answer, then the hint) in that
player's language; another player's click on it, and the player's own click on an older
version of it, are refused in the clicker's language, and nothing is stored. The players then
play the game to its end: it is recorded (results rows) and not rated.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import FakeUser, StoredMessage
from cogs.hints.hint_click import HINT_NOT_YOUR_TURN, HINT_OUTDATED
from cogs.i18n.button_names import button_names
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from game.ten import TenEngine
from tests.e2e.players import Choice, Strategy
from tests.e2e.scenario_support import (
    BOT_ENV,
    assert_clean_log,
    reply_content,
    report_latency,
    synced_bot,
)
from tests.e2e.table_play import POSTS_TIMEOUT, TablePlay

DEFERRED_MESSAGE = 5  # the "thinking" answer
LANGUAGES = {"dana": Language.EN, "pablo": Language.ES, "arta": Language.SQ,
             "gita": Language.GU}

# Lower is preferred, read from the controls' payloads (the views are in four languages):
# draw on, pass auctions, buy what is offered and pay the suggested way.
BUTTON_RANKS = {"draw": 0, "pass": 0, "skip": 3, "stop": 3, "back": 9}
SELECT_RANKS = {"s:buy": 1, "s:bid": 5, "yo:": 5, "yc:": 6}


def coded_rank(choice: Choice) -> int | None:
    payload = choice.payload
    if not choice.is_game_control:
        return None
    if payload.startswith("y:"):
        return 0  # the suggested payment
    if payload.startswith("a:"):
        return BUTTON_RANKS.get(payload[2:].split(":")[0])
    return next((rank for prefix, rank in SELECT_RANKS.items() if payload.startswith(prefix)),
                None)


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.add_user("dana", admin=True)
    for name in ("pablo", "arta", "gita"):
        fake.add_user(name)
    fake.add_channel("games")
    async with fake:
        yield fake


@pytest.fixture
async def bot(fd: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    async with synced_bot(fd, tmp_path / "bot", BOT_ENV) as proc:
        yield proc


def hint_ids(message: StoredMessage) -> list[str]:
    return [custom_id for custom_id in message.custom_ids() if custom_id.startswith("tb:hint:")]


async def test_hints_in_a_four_language_game_that_is_not_rated(
    fd: FakeDiscord, bot: BotProcess
) -> None:
    users = {user.name: user for user in fd.world.users.values()}
    dana = users["dana"]
    games = fd.channel_named("games")
    for name, language in LANGUAGES.items():
        if language is not Language.EN:
            chosen = await fd.slash(users[name], games, "language", language=language.value)
            assert chosen.ephemeral
    configured = await fd.slash(dana, games, "config", hints="on")
    assert configured.ephemeral and "Hints in a new game" in str(configured.callback_data)

    table = TablePlay(fd, bot, games, TenEngine(), Strategy(coded_rank, seed=29))
    opened = await table.open("ten", dana, users["pablo"], users["arta"], users["gita"])
    lobby_texts = "\n".join(opened.all_texts())
    assert "The game is recorded but not rated." in lobby_texts  # the server's language: en
    sid = table.session_id

    hinted: set[str] = set()
    while not table.oracle.over:
        player = table.oracle.awaiting()[0]
        user = table.users[player]
        if player not in hinted:
            await ask_for_a_hint(fd, bot, table, user, sid)
            hinted.add(player)
        await table.step(quick_runs=True)
    assert len(hinted) == 4

    # Recorded (a results row per player), never rated.
    with sqlite3.connect(bot.database_path) as db:
        rated = db.execute("SELECT user_id, rated FROM results WHERE session_id = ?",
                           (sid,)).fetchall()
    assert sorted(user_id for user_id, _ in rated) == sorted(table.users)
    assert all(flag == 0 for _, flag in rated)
    report_latency(fd, "TEN with hints, four languages")
    # The hints' moves are never logged above DEBUG (the bot logs at INFO here).
    assert "The expert suggests" not in bot.log_text()
    assert_clean_log(bot)


async def ask_for_a_hint(fd: FakeDiscord, bot: BotProcess, table: TablePlay, user: FakeUser,
                         sid: int) -> None:
    """``user`` (awaited) opens their view and asks for a hint; the checks of the issue."""
    version = table.row().version
    opened = await fd.click(user, table.table(), f"tb:hand:{sid}")
    assert opened.ephemeral and opened.original_message_id is not None
    view = fd.message(opened.original_message_id)
    assert hint_ids(view) == [f"tb:hint:{sid}:{version}"], view.custom_ids()
    for other in table.users.values():
        if other is user:
            continue
        shown = await fd.click(other, table.table(), f"tb:hand:{sid}")
        assert shown.ephemeral and shown.original_message_id is not None
        assert hint_ids(fd.message(shown.original_message_id)) == []
    actions = len(table.db.actions(sid))
    asked = await fd.click(user, view, hint_ids(view)[0])
    assert asked.callback_type == DEFERRED_MESSAGE and asked.ephemeral
    answer_id = asked.original_message_id
    assert answer_id is not None
    await bot.wait_until(lambda: not fd.message(answer_id).loading, POSTS_TIMEOUT,
                         "the hint after the thinking answer")
    answer = fd.message(answer_id)
    assert answer.ephemeral_for == user.id
    words = words_for(LANGUAGES[user.name])
    suggests = words.gettext("**The expert suggests:** {move}", move="").strip()
    assert answer.content.startswith(f"💡 {suggests} ") and answer.content.count("\n") == 1
    assert table.row().version == version and len(table.db.actions(sid)) == actions
    # Another player's click, and this player's click on an older version: refused, in the
    # clicker's language.
    other = next(u for u in table.users.values() if u is not user)
    refused = await fd.forged_click(other, table.table(), f"tb:hint:{sid}:{version}")
    assert refused.ephemeral
    assert reply_content(refused) == words_for(LANGUAGES[other.name]).text(
        HINT_NOT_YOUR_TURN)
    if version > 1:
        stale = await fd.forged_click(user, table.table(), f"tb:hint:{sid}:{version - 1}")
        assert reply_content(stale) == words.text(HINT_OUTDATED, **button_names(words))
    assert table.row().version == version and len(table.db.actions(sid)) == actions
