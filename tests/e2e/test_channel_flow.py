"""Issue 15, the channel flow, at the real bot: whole 3-player games of SPLIT and TEN.

Checked throughout: at no moment has a game more than one turn ping in the channel (watched
at every message the stand-in stores); the live ping mentions exactly the awaited players
(its ``allowed_mentions`` name them and nobody else); a table pushed up by more than five
chat messages is posted anew at the bottom and the old one deleted, and play goes on with
its controls; ``/game status`` moves the table the same way and the ping links to the new
one. At the end the channel holds only the table, SPLIT's round summaries and the final post
with Rematch (and the players' chat); Rematch opens a lobby in which the players of that game
take their seats (two clicking at once both get one), a stranger is refused, and the host
starts the same seats again.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.driver import gather_clicks
from bot.playground.fakediscord.model import FakeUser, StoredMessage
from game.split import SplitEngine
from game.ten import TenEngine
from tests.e2e.players import Strategy
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log
from tests.e2e.table_play import PING_MARK, POSTS_TIMEOUT, TablePlay
from tests.e2e.test_scenario_split import split_rank, summaries_posted
from tests.e2e.test_scenario_ten import ten_rank

CHANNEL_MESSAGE = 4
BURIED_AFTER = 5  # cogs.listeners.table_watch


@pytest.fixture
async def guild() -> AsyncIterator[FakeDiscord]:
    """Three players, a stranger (dave), an admin (erin) and one channel per game."""
    fake = FakeDiscord()
    for name in ("alice", "bob", "carol", "dave"):
        fake.add_user(name)
    fake.add_user("erin", admin=True)  # Administrator: Manage Server, for /config
    for name in ("split-flow", "ten-flow"):
        fake.add_channel(name)
    async with fake:
        yield fake


@pytest.fixture
async def live_bot(guild: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    proc = BotProcess(guild, tmp_path / "bot", extra_env=BOT_ENV)
    try:
        await proc.start()
        await proc.wait_until(lambda: guild.commands(), 20.0, "the command sync")
        yield proc
    finally:
        await proc.close()


class PingWatch:
    """Wraps the stand-in's message store: after every message it stores, no channel may
    hold more than one live turn ping."""

    def __init__(self, fd: FakeDiscord) -> None:
        self.fd = fd
        self.most = 0
        self.pings = 0
        world = fd.world
        original = world.create_message

        def create(*args: Any, **kwargs: Any) -> StoredMessage:
            message = original(*args, **kwargs)
            if PING_MARK in message.content:
                self.pings += 1
            live = [m for m in world.messages.values()
                    if m.channel_id == message.channel_id and not m.deleted
                    and not m.ephemeral and PING_MARK in m.content]
            self.most = max(self.most, len(live))
            return message

        world.create_message = create  # type: ignore[method-assign]


def users(fd: FakeDiscord) -> dict[str, FakeUser]:
    return {user.name: user for user in fd.world.users.values()}


def ping_is_right(table: TablePlay) -> bool:
    """The live ping mentions exactly the awaited players (none once the game is over)."""
    pings = table.pings()
    awaited = {int(player) for player in table.oracle.awaiting()} if table.replica else set()
    if not awaited:
        return not pings
    return len(pings) == 1 and set(pings[0].mentions) == awaited


def check_ping_mentions(fd: FakeDiscord) -> None:
    """Every ping was sent naming its users in ``allowed_mentions`` and parsing nothing, so
    it notified exactly the players its text names."""
    pings = [m for m in fd.world.messages.values() if PING_MARK in m.content]
    assert pings
    for ping in pings:
        allowed = ping.allowed_mentions
        named = {int(part.strip("<@>,.")) for part in ping.content.split()
                 if part.startswith("<@")}
        assert allowed is not None and allowed.get("parse") == [], ping.allowed_mentions
        assert {int(user) for user in allowed["users"]} == named == set(ping.mentions)


def bot_posts(fd: FakeDiscord, table: TablePlay) -> list[StoredMessage]:
    return [m for m in fd.public(table.channel) if m.author["id"] == str(fd.bot_user.id)]


async def chat(fd: FakeDiscord, user: FakeUser, table: TablePlay, count: int) -> None:
    for n in range(count):
        await fd.say(user, table.channel, f"chat line {n}")


async def moved_by_chat(fd: FakeDiscord, bot: BotProcess, table: TablePlay,
                        talker: FakeUser) -> Callable[[], Any]:
    """A hook for ``play_to_end``: chat pushes the table up; the next step must move it."""

    async def hook() -> None:
        old = table.table().id
        await chat(fd, talker, table, BURIED_AFTER + 1)
        last_chat = fd.public(table.channel)[-1].id
        await table.step()
        await bot.wait_until(lambda: fd.message(old).deleted, POSTS_TIMEOUT,
                             "the old table's deletion")
        moved = table.table()
        assert moved.id > last_chat and not moved.deleted  # below the chat
        await bot.wait_until(lambda: all(str(moved.id) in p.content for p in table.pings()),
                             POSTS_TIMEOUT, "the ping linking to the moved table")

    return hook


async def status_moves_table(fd: FakeDiscord, bot: BotProcess, table: TablePlay,
                             user: FakeUser) -> None:
    """``/game status`` posts the table at the bottom, deletes the old one, relinks the ping."""
    old = table.table().id
    shown = await fd.slash(user, table.channel, "game status")
    assert shown.callback_type == CHANNEL_MESSAGE and not shown.ephemeral
    await bot.wait_until(lambda: table.row().table_message_id == shown.original_message_id,
                         POSTS_TIMEOUT, "the new table stored")
    await bot.wait_until(lambda: fd.message(old).deleted, POSTS_TIMEOUT, "the old table gone")
    new = table.table()
    await bot.wait_until(lambda: all(str(new.id) in p.content for p in table.pings()),
                         POSTS_TIMEOUT, "the ping linking to the new table")


async def rematch(fd: FakeDiscord, bot: BotProcess, table: TablePlay,
                  final: StoredMessage) -> None:
    """Rematch: a lobby with the same seats (each player clicks; two at once both get a
    seat, issue 34), a stranger refused, the host starts."""
    people = users(fd)
    seated_before = set(table.users)
    rematch_id = final.button("Rematch")["custom_id"]
    first = await gather_clicks(fd, [people["alice"], people["bob"]], final, rematch_id)
    opened = [r for r in first if not r.ephemeral]
    assert len(opened) == 1, [r.callback_data for r in first]
    assert opened[0].callback_type == CHANNEL_MESSAGE, opened[0].callback_data
    host = opened[0].user
    [seated] = [r for r in first if r.ephemeral]
    assert "seat in the rematch" in str(seated.callback_data), seated.callback_data
    lobby_id = opened[0].original_message_id
    assert lobby_id is not None
    row = table.db.session_in(table.channel.id)
    assert row.status == "lobby" and row.id != table.session_id
    stranger = await fd.click_label(people["dave"], final, "Rematch")
    assert stranger.ephemeral and "Only the players" in str(stranger.callback_data)
    again = await fd.click_label(host, final, "Rematch")
    assert again.ephemeral
    joined = await fd.click_label(people["carol"], final, "Rematch")
    assert joined.ephemeral and "seat" in str(joined.callback_data), joined.callback_data
    await bot.wait_until(lambda: all(name in fd.message(lobby_id).text
                                     for name in ("Alice", "Bob", "Carol")), POSTS_TIMEOUT,
                         "the lobby showing every seat")
    assert "Dave" not in fd.message(lobby_id).text
    started = await fd.click_label(host, fd.message(lobby_id), "Start")
    assert started.callback_type == 7, started.callback_data
    row = table.db.session_in(table.channel.id)
    assert row.status == "active" and row.state is not None
    assert set(row.state["players"]) == seated_before


async def play_flow(fd: FakeDiscord, bot: BotProcess, table: TablePlay, game: str,
                    *, chat_at: int, status_at: int) -> StoredMessage:
    people = users(fd)
    watch = PingWatch(fd)
    table.waits.append(lambda: ping_is_right(table))
    await table.open(game, people["alice"], people["bob"], people["carol"])
    hooks: dict[int, Callable[[], Any]] = {
        chat_at: await moved_by_chat(fd, bot, table, people["dave"]),
        status_at: lambda: status_moves_table(fd, bot, table, people["bob"]),
    }
    await table.play_to_end(at_step=hooks)
    assert table.steps > max(chat_at, status_at)
    await bot.wait_until(lambda: any("tb:rematch" in str(m.components) for m in
                                     fd.public(table.channel)), POSTS_TIMEOUT, "the final post")
    await bot.wait_until(lambda: not table.pings(), POSTS_TIMEOUT, "the last ping's deletion")
    assert watch.most == 1 and watch.pings > 10, (watch.most, watch.pings)
    check_ping_mentions(fd)
    pings = {m.id for m in fd.world.messages.values() if PING_MARK in m.content}
    used = [r.data.get("custom_id", "") for r in fd.interactions if r.source_message_id in pings]
    assert len(used) > 10, used  # the players acted from their pings
    final = bot_posts(fd, table)[-1]
    assert "tb:rematch" in str(final.components)
    # Issue 41: the table and the final post are cards, the pings ordinary messages (a
    # mention in a card would push an empty notification).
    assert table.table().card and final.card
    assert not any(m.card for m in fd.world.messages.values() if PING_MARK in m.content)
    return final


async def test_split_channel_flow_with_rematch(guild: FakeDiscord, live_bot: BotProcess) -> None:
    table = TablePlay(guild, live_bot, guild.channel_named("split-flow"), SplitEngine(),
                      Strategy(split_rank, seed=15), via_ping=True)
    table.waits.append(lambda: summaries_posted(table))
    final = await play_flow(guild, live_bot, table, "split", chat_at=12, status_at=30)
    posts = bot_posts(guild, table)
    summaries = [m for m in posts if "is over" in m.text]
    assert len(summaries) == 3
    # The table, the round summaries and the final post: nothing else of the bot's is left.
    assert {m.id for m in posts} == {table.table().id, *[m.id for m in summaries], final.id}
    assert posts[-1].id == final.id and "SPLIT — final result" in final.text
    await rematch(guild, live_bot, table, final)
    assert_clean_log(live_bot)
    assert guild.unknown_routes == [], live_bot.log_text()


async def test_ten_channel_flow_with_rematch(guild: FakeDiscord, live_bot: BotProcess) -> None:
    table = TablePlay(guild, live_bot, guild.channel_named("ten-flow"), TenEngine(),
                      Strategy(ten_rank, seed=16), via_ping=True)
    final = await play_flow(guild, live_bot, table, "ten", chat_at=8, status_at=20)
    posts = bot_posts(guild, table)
    assert {m.id for m in posts} == {table.table().id, final.id}
    assert posts[-1].id == final.id and "final standings" in final.text
    kinds = {data["type"] for _, data in table.oracle.actions}
    assert {"draw", "stop"} <= kinds, kinds
    pings = {m.id for m in guild.world.messages.values() if PING_MARK in m.content}
    on_pings = [r.data.get("custom_id", "") for r in guild.interactions
                if r.source_message_id in pings]
    # Draw and Stop clicked on the ping itself, and the panel opened from it.
    assert any(cid.startswith("tb:act:") and cid.endswith(":panel") for cid in on_pings)
    assert sum(cid.startswith("tb:act:") and not cid.endswith(":panel")
               for cid in on_pings) > 10, on_pings
    await rematch(guild, live_bot, table, final)
    assert_clean_log(live_bot)
    assert guild.unknown_routes == [], live_bot.log_text()


async def test_a_game_in_a_thread_is_archived_at_its_end(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    people = users(guild)
    parent = guild.channel_named("split-flow")
    table = TablePlay(guild, live_bot, parent, SplitEngine(), Strategy(split_rank, seed=17),
                      via_ping=True)
    table.waits.append(lambda: summaries_posted(table))
    await table.open("split", people["alice"], people["bob"], people["carol"], thread=True)
    thread = table.channel
    assert thread.is_thread and not guild.archived(thread)
    [notice] = guild.public(parent)
    assert "opened a SPLIT table" in notice.text and not notice.interactive()
    await table.play_to_end()
    await live_bot.wait_until(lambda: guild.archived(thread), POSTS_TIMEOUT,
                              "the thread archived")
    final = bot_posts(guild, table)[-1]
    assert "tb:rematch" in str(final.components) and "SPLIT — final result" in final.text
    assert guild.public(parent) == [notice]  # the game never wrote in the channel itself
    # Rematch in the archived thread opens it again, with the lobby in it.
    opened = await guild.click_label(people["bob"], final, "Rematch")
    assert opened.callback_type == CHANNEL_MESSAGE and not guild.archived(thread)
    assert "SPLIT — lobby" in guild.message(opened.original_message_id or 0).text
    cancelled = await guild.slash(people["bob"], thread, "game cancel")
    assert not cancelled.ephemeral
    await live_bot.wait_until(lambda: guild.archived(thread), POSTS_TIMEOUT,
                              "the thread archived after the cancel")

    # The server setting makes threads the default; thread:false still plays in the channel.
    ten = guild.channel_named("ten-flow")
    configured = await guild.slash(people["erin"], ten, "config", threads="on")
    assert configured.ephemeral, configured.callback_data
    await guild.slash(people["carol"], ten, "game new", game="ten")
    await live_bot.wait_until(lambda: guild.threads_of(ten), POSTS_TIMEOUT, "a thread")
    [ten_thread] = guild.threads_of(ten)
    await live_bot.wait_until(
        lambda: any("TEN — lobby" in m.text for m in guild.public(ten_thread)),
        POSTS_TIMEOUT, "the TEN lobby in its thread")
    await guild.slash(people["carol"], ten_thread, "game cancel")
    await live_bot.wait_until(lambda: guild.archived(ten_thread), POSTS_TIMEOUT, "archived")
    plain = await guild.slash(people["carol"], ten, "game new", game="ten", thread=False)
    assert "TEN — lobby" in guild.message(plain.original_message_id or 0).text
    assert guild.threads_of(ten) == [ten_thread]
    assert_clean_log(live_bot)
    assert guild.unknown_routes == [], live_bot.log_text()


async def test_a_ten_game_in_a_thread_is_played_to_its_end(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    """``thread:true`` for TEN: the whole game in the thread, under the stand-in's contract
    checks (the thread's creation, the posts in it and its archiving are all checked)."""
    people = users(guild)
    parent = guild.channel_named("ten-flow")
    table = TablePlay(guild, live_bot, parent, TenEngine(), Strategy(ten_rank, seed=18),
                      via_ping=True)
    await table.open("ten", people["alice"], people["bob"], people["carol"], thread=True)
    thread = table.channel
    assert thread.is_thread and thread.parent_id == parent.id
    await table.play_to_end()
    await live_bot.wait_until(lambda: guild.archived(thread), POSTS_TIMEOUT,
                              "the thread archived")
    final = bot_posts(guild, table)[-1]
    assert "tb:rematch" in str(final.components) and "final standings" in final.text
    [notice] = guild.public(parent)  # the game never wrote in the channel itself
    assert "opened a TEN table" in notice.text and not notice.interactive()
    routes = guild.calls_by_route()
    assert routes["POST /channels/{channel_id}/messages/{message_id}/threads"] == 1, routes
    assert routes["PATCH /channels/{channel_id}"] >= 1, routes
    assert guild.violations == []
    assert_clean_log(live_bot)
    assert guild.unknown_routes == [], live_bot.log_text()
