"""Issue 43 at the real bot: a Swiss event of six players, three rounds at tables of three
(TEN), that runs itself: it starts at its time (the clock offset puts the bot past it), each
table plays in its own thread, the next round begins when the last table ends, the bot is
SIGKILLed in the middle of round 2 and carries on, and the final standings are checked
against an independent computation from the stored results. Then the bad inputs: joining
twice, joining a started Swiss, a forged Join from another server, and a channel where the
bot cannot create threads, each refused privately."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import FakeChannel, FakeUser, StoredMessage
from bot.playground.fakediscord.world import BOT_PERMISSIONS
from game.ten import TenEngine
from tests.e2e.players import Replica, Strategy
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log
from tests.e2e.table_play import POSTS_TIMEOUT, TablePlay
from tests.e2e.test_scenario_ten import ten_rank

PLAYERS = ("ana", "ben", "cai", "dia", "eli", "fay")
EPHEMERAL = 64
CREATE_PUBLIC_THREADS = 1 << 35
MANAGE_EVENTS = 1 << 33
ROUND_TIMEOUT = 60.0


@pytest.fixture
async def guild() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    for name in (*PLAYERS, "late"):
        fake.add_user(name)
    fake.add_user("olga", admin=True)  # Administrator: Manage Events
    fake.add_role("organisers", members=(users(fake)["dia"],))
    fake.add_channel("events")
    fake.add_channel("no-threads")
    other = fake.add_guild("Other Server")
    fake.add_channel("elsewhere", guild_id=other)
    async with fake:
        yield fake


@pytest.fixture
async def live_bot(guild: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    proc = BotProcess(guild, tmp_path / "bot", extra_env=dict(BOT_ENV))
    try:
        await proc.start()
        await proc.wait_until(lambda: guild.commands(), 20.0, "the command sync")
        yield proc
    finally:
        await proc.close()


def users(fd: FakeDiscord) -> dict[str, FakeUser]:
    return {user.name: user for user in fd.world.users.values()}


def query(bot: BotProcess, sql: str, *args: object) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(bot.database_path, timeout=10.0)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


async def stored_soon(bot: BotProcess, predicate: Callable[[], bool], what: str) -> None:
    """Wait for what the bot stores without a request to the stand-in (looked at every 20 ms,
    as ``TablePlay.poll`` does)."""
    async with asyncio.timeout(POSTS_TIMEOUT):
        while not predicate():
            await bot.wait_until(lambda: True, 1.0, what)  # fails at once if the bot exited
            await asyncio.sleep(0.02)


def refusal(fd: FakeDiscord, user: FakeUser) -> str:
    latest = fd.latest_ephemeral(user)
    assert latest is not None
    return latest.text


def adopt(fd: FakeDiscord, bot: BotProcess, thread: FakeChannel,
          people: dict[str, FakeUser], seed: int) -> TablePlay:
    """Scripted players take over the event table running in ``thread``."""
    play = TablePlay(fd, bot, thread, TenEngine(), Strategy(ten_rank, seed=seed),
                     via_ping=True)
    row = play.row()
    assert row.status == "active" and row.state is not None
    seated = set(row.state["players"])
    play.users = {str(user.id): user for user in people.values() if str(user.id) in seated}
    play.session_id = row.id
    play.replica = Replica.from_row(play.engine, row)
    play.oracle.sync(play.db, row.id)
    return play


def table_threads(fd: FakeDiscord, channel: FakeChannel) -> list[FakeChannel]:
    return fd.threads_of(channel)


def active_in(bot: BotProcess, thread: FakeChannel) -> bool:
    rows = query(bot, "SELECT status, table_message_id FROM sessions WHERE channel_id = ?",
                 thread.id)
    return bool(rows) and rows[-1][0] == "active" and rows[-1][1] is not None


async def round_tables(fd: FakeDiscord, bot: BotProcess, channel: FakeChannel,
                       count: int) -> list[FakeChannel]:
    """The threads of the round that makes ``count`` threads in all, once their games run."""
    await bot.wait_until(
        lambda: len(table_threads(fd, channel)) >= count
        and all(active_in(bot, t) for t in table_threads(fd, channel)[count - 2:count]),
        ROUND_TIMEOUT, f"the tables up to thread {count}")
    return table_threads(fd, channel)[count - 2:count]


def expected_points(bot: BotProcess, event_id: int) -> dict[str, Fraction]:
    """Independent of bot.events: from the results rows of the event's sessions, at a table
    of n each player scores (players placed below + ½ per tie) / (n - 1)."""
    points: dict[str, Fraction] = {}
    sessions = [sid for (sid,) in query(
        bot, "SELECT session_id FROM event_tables WHERE event_id = ?", event_id)]
    assert len(sessions) == 6 and all(sessions)
    for session_id in sessions:
        places = dict(query(bot, "SELECT user_id, placement FROM results WHERE session_id = ?",
                            session_id))
        assert len(places) == 3
        for player, place in places.items():
            below = sum(1 for other in places.values() if other > place)
            tied = sum(1 for other in places.values() if other == place) - 1
            points[player] = points.get(player, Fraction(0)) + Fraction(2 * below + tied, 4)
    return points


LINE = re.compile(r"(\d+)\. <@(\d+)> · ([0-9.]+) pts")


def shown_standings(message: StoredMessage) -> list[tuple[int, str, Fraction]]:
    return [(int(rank), player, Fraction(points))
            for rank, player, points in LINE.findall(message.text)]


async def test_a_six_player_swiss_runs_itself_through_a_crash(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    people = users(guild)
    events = guild.channel_named("events")
    opened = await guild.slash(people["olga"], events, "event new", game="ten",
                               format="swiss", name="Friday Swiss", start_in=30, rounds=3,
                               players=3, turn_minutes=5)
    assert opened.callback_type == 4 and opened.original_message_id is not None
    post = guild.message(opened.original_message_id)
    assert "Friday Swiss" in post.text and "<t:" in post.text  # the reader's time zone
    for name in PLAYERS:
        joined = await guild.click_label(people[name], post, "Join")
        assert joined.callback_type == 7, joined.callback_data
    assert all(f"<@{people[name].id}>" in guild.message(post.id).text for name in PLAYERS)
    twice = await guild.click_label(people["ana"], post, "Join")
    assert twice.callback_type == 4 and twice.callback_data["flags"] == EPHEMERAL
    assert "joined this event already" in refusal(guild, people["ana"])
    [(event_id,)] = query(live_bot, "SELECT id FROM events")
    assert query(live_bot, "SELECT count(*) FROM event_players") == [(6,)]

    # Half an hour later (the clock offset, across a clean restart) the event starts.
    live_bot.extra_env["CLOCK_OFFSET_SECONDS"] = str(31 * 60)
    await live_bot.restart(hard=False)
    seen_players: set[str] = set()
    for round_no in (1, 2, 3):
        threads = await round_tables(guild, live_bot, events, 2 * round_no)
        if round_no == 1:
            late = await guild.forged_click(people["late"], post, f"tb:ev:join:{event_id}")
            assert late.callback_data["flags"] == EPHEMERAL
            assert "has started" in refusal(guild, people["late"])
        for index, thread in enumerate(threads):
            table = adopt(guild, live_bot, thread, people, seed=round_no * 10 + index)
            seen_players |= set(table.users)
            assert len(table.users) == 3
            if round_no == 2 and index == 0:
                for _ in range(5):
                    await table.step()
                await live_bot.kill()  # SIGKILL mid-round
                await live_bot.start()
                table.oracle.sync(table.db, table.session_id)
            await table.play_to_end()
    assert seen_players == {str(people[name].id) for name in PLAYERS}

    def final_post() -> StoredMessage | None:
        return next((m for m in guild.public(events) if "final standings" in m.text), None)

    await live_bot.wait_until(final_post, ROUND_TIMEOUT, "the final post")
    final = final_post()
    assert final is not None
    shown = shown_standings(final)
    expected = expected_points(live_bot, event_id)
    assert {player: points for _, player, points in shown} == expected
    assert [points for _, _, points in shown] == sorted(expected.values(), reverse=True)
    assert f"The winner is <@{shown[0][1]}>" in final.content  # the winner named
    assert "The event is over." in guild.message(post.id).text  # the event post too
    standings_posts = [m for m in guild.public(events) if "standings after round" in m.text]
    assert len(standings_posts) == 2
    assert query(live_bot, "SELECT status, round FROM events") == [("finished", 3)]
    # the event shows in /history of its channel and in the players' /stats
    winner = next(user for user in people.values() if str(user.id) == shown[0][1])
    history = await guild.slash(people["ana"], events, "history")
    assert history.callback_data["flags"] == EPHEMERAL
    told = guild.latest_ephemeral(people["ana"])
    assert told is not None and "Events in this channel" in told.text
    assert f"**Friday Swiss** · Swiss · 6 players · won by <@{winner.id}>" in told.text
    await guild.slash(winner, events, "stats")

    def stats_text() -> str:
        latest = guild.latest_ephemeral(winner)
        return latest.text if latest is not None else ""

    await live_bot.wait_until(lambda: "Server events" in stats_text(), POSTS_TIMEOUT,
                              "the winner's /stats")
    assert "1 event played · 1 won · best place: 1" in stats_text()
    # every table's game counts as an ordinary rated game
    assert query(live_bot, "SELECT count(*), sum(rated) FROM results r JOIN event_tables t"
                           " ON t.session_id = r.session_id") == [(18, 18)]
    assert guild.violations == []
    assert_clean_log(live_bot)
    assert guild.unknown_routes == [], live_bot.log_text()


async def test_bad_event_inputs_are_refused_privately(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    people = users(guild)
    events = guild.channel_named("events")
    stranger = await guild.slash(people["ana"], events, "event new", game="ten",
                                 format="swiss", name="Mine")
    assert stranger.callback_data["flags"] == EPHEMERAL
    assert "manage events" in refusal(guild, people["ana"])
    no_threads = guild.channel_named("no-threads")
    guild.set_bot_permissions(no_threads, BOT_PERMISSIONS & ~CREATE_PUBLIC_THREADS)
    refused = await guild.slash(people["olga"], no_threads, "event new", game="ten",
                                format="swiss", name="Nope")
    assert refused.callback_data["flags"] == EPHEMERAL
    assert "cannot create threads" in refusal(guild, people["olga"])
    opened = await guild.slash(people["olga"], events, "event new", game="ten",
                               format="swiss", name="Saturday", scheduled=True)
    post = guild.message(opened.original_message_id or 0)
    await live_bot.wait_until(lambda: "Manage Events permission" in refusal(
        guild, people["olga"]), POSTS_TIMEOUT, "the note that Discord refused the event")
    assert guild.world.scheduled_events == {}  # the bot lacks Manage Events there
    [(event_id,)] = query(live_bot, "SELECT id FROM events")
    elsewhere = guild.channel_named("elsewhere")
    await guild.say(people["ben"], elsewhere, "hello")
    [chat] = guild.public(elsewhere)
    forged = await guild.forged_click(people["ben"], chat, f"tb:ev:join:{event_id}")
    assert forged.callback_data["flags"] == EPHEMERAL
    assert "another server" in refusal(guild, people["ben"])
    cancel = await guild.click_label(people["ben"], post, "Cancel")
    assert cancel.callback_data["flags"] == EPHEMERAL
    assert "manage events" in refusal(guild, people["ben"])
    leave = await guild.click_label(people["ben"], post, "Leave")
    assert "not playing in this event" in refusal(guild, people["ben"])
    assert leave.callback_data["flags"] == EPHEMERAL
    assert query(live_bot, "SELECT count(*) FROM event_players") == [(0,)]
    assert query(live_bot, "SELECT count(*) FROM events") == [(1,)]
    await guild.click_label(people["olga"], post, "Cancel")
    await live_bot.wait_until(
        lambda: any("ended without a winner" in m.text for m in guild.public(events)),
        POSTS_TIMEOUT, "the cancelled event's post")
    assert query(live_bot, "SELECT status FROM events") == [("cancelled",)]
    # With Manage Events, the event is in the server's Discord events too.
    guild.world.bot_guild_permissions |= MANAGE_EVENTS
    await guild.slash(people["olga"], events, "event new", game="ten", format="arena",
                      name="Sunday Arena", start_in=60, minutes=30, scheduled=True)
    await live_bot.wait_until(lambda: guild.world.scheduled_events, POSTS_TIMEOUT,
                              "the Discord scheduled event")
    [made] = guild.world.scheduled_events.values()
    assert made["name"] == "Sunday Arena" and made["entity_type"] == 3
    # /config event_role: its members may open events too
    [(role_id, *_)] = guild.world.extra_roles
    refused = await guild.slash(people["dia"], events, "event new", game="ten",
                                format="swiss", name="Dia's")
    assert "manage events" in refusal(guild, people["dia"])
    await guild.slash(people["olga"], events, "config", event_role=role_id)
    allowed = await guild.slash(people["dia"], events, "event new", game="ten",
                                format="swiss", name="Dia's")
    assert allowed.callback_type == 4 and allowed.callback_data.get("flags") != EPHEMERAL
    await stored_soon(live_bot, lambda: made["id"] in query(
        live_bot, "SELECT settings FROM events WHERE name = 'Sunday Arena'")[0][0],
        "the scheduled event's id stored with the event")
    assert guild.violations == []
    assert_clean_log(live_bot)
    assert guild.unknown_routes == [], live_bot.log_text()


def arena_points(bot: BotProcess, session_ids: list[int]) -> dict[str, int]:
    """Independent of bot.events: lichess's arena points over the given games in order (2 a
    win, 1 a shared first place, 0 otherwise, doubled after two wins in a row)."""
    points: dict[str, int] = {}
    run: dict[str, int] = {}
    for session_id in session_ids:
        places = dict(query(bot, "SELECT user_id, placement FROM results WHERE session_id = ?",
                            session_id))
        best = min(places.values())
        firsts = sum(1 for place in places.values() if place == best)
        for player, place in places.items():
            base = 0 if place != best else (2 if firsts == 1 else 1)
            points[player] = points.get(player, 0) + base * (2 if run.get(player, 0) >= 2 else 1)
            run[player] = run.get(player, 0) + 1 if base == 2 else 0
    return points


async def test_a_twenty_minute_arena_compressed_by_the_clock_offset(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    """The arena starts a minute after it is opened and lasts 20: the clock offset puts the
    bot past its start, then (after a SIGKILL mid-game) past its end. A table that ends seats
    its players again at once; the games that ended in time count, lichess's way."""
    people = users(guild)
    events = guild.channel_named("events")
    opened = await guild.slash(people["olga"], events, "event new", game="ten",
                               format="arena", name="Arena Night", start_in=1, minutes=20,
                               players=3, turn_minutes=5)
    post = guild.message(opened.original_message_id or 0)
    assert "Arena" in post.text
    for name in PLAYERS:
        await guild.click_label(people[name], post, "Join")
    [(event_id,)] = query(live_bot, "SELECT id FROM events")
    live_bot.extra_env["CLOCK_OFFSET_SECONDS"] = str(2 * 60)
    await live_bot.restart(hard=False)
    first_two = await round_tables(guild, live_bot, events, 2)
    counted: list[int] = []
    for index, thread in enumerate(first_two):
        table = adopt(guild, live_bot, thread, people, seed=40 + index)
        await table.play_to_end()
        counted.append(table.session_id)
        # its three players sit down again at once, at a new table
        again = (await round_tables(guild, live_bot, events, 3 + index))[-1]
        seated = set(adopt(guild, live_bot, again, people, seed=0).users)
        assert seated == set(table.users)
        # live standings on the event post: the points of the games that ended so far
        so_far = arena_points(live_bot, counted)
        await live_bot.wait_until(
            lambda so_far=so_far: all(
                f"<@{player}> · {points} pts" in guild.message(post.id).text
                for player, points in so_far.items()),
            POSTS_TIMEOUT, "the event post's live standings")
    live = adopt(guild, live_bot, table_threads(guild, events)[2], people, seed=50)
    for _ in range(3):
        await live.step()
    await live_bot.kill()  # SIGKILL mid-game; the bot comes back after the arena's end
    live_bot.extra_env["CLOCK_OFFSET_SECONDS"] = str(23 * 60)
    await live_bot.start()

    def final_post() -> StoredMessage | None:
        return next((m for m in guild.public(events) if "final standings" in m.text), None)

    await live_bot.wait_until(final_post, ROUND_TIMEOUT, "the arena's final post")
    final = final_post()
    assert final is not None
    shown = {player: int(points) for _, player, points in shown_standings(final)}
    expected = arena_points(live_bot, counted)
    assert shown == {str(people[name].id): expected.get(str(people[name].id), 0)
                     for name in PLAYERS}
    assert query(live_bot, "SELECT status FROM events WHERE id = ?", event_id) == [
        ("finished",)]
    assert guild.violations == []
    assert_clean_log(live_bot)
    assert guild.unknown_routes == [], live_bot.log_text()
