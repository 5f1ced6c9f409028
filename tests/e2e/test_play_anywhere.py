"""Issue 39 at the real bot: a game where the bot is not in the channel (a group DM of a user
who installed the app, a server that never invited it) is played through interaction tokens
alone: 0 requests to channel routes (which Discord answers 403 Missing Access there)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord, InteractionRecord, StoredMessage
from bot.rankings.seasons import season_of
from cogs.commands.game_threads import NO_THREADS_IN_A_CHAT, NO_THREADS_WITHOUT_THE_BOT
from cogs.i18n.catalogs import words_for
from cogs.i18n.common_words import JOIN
from cogs.i18n.language import Language
from game.split import SplitEngine
from game.ten import TenEngine
from tests.e2e.players import Strategy, choices_on
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log, assert_leaderboard_ranks
from tests.e2e.table_play import POSTS_TIMEOUT, TablePlay
from tests.e2e.test_daily import Daily
from tests.e2e.test_learn import Learner, _embed
from tests.e2e.test_scenario_split import split_rank
from tests.e2e.test_scenario_ten import ten_rank

KEEPS_UP = "the table keeps up through your clicks"
TIMED_OUT = "timed out (1 in a row)"  # logged once the turn clock's moves are stored
OWED = "waits for the next click there"  # logged when a write is owed to a chat's next click
LAPSE = 45.0  # seconds a token serves in the test of a lapse while the bot runs


def stored_place(table: TablePlay) -> tuple[int, dict[str, object]]:
    """The stored session's place (its ``guild_id`` column) and options."""
    with sqlite3.connect(table.db.path) as conn:
        guild_id, options = conn.execute(
            "SELECT guild_id, options FROM sessions WHERE id = ?", (table.session_id,)
        ).fetchone()
    return int(guild_id), dict(json.loads(options))


def final_post(fd: FakeDiscord, table: TablePlay) -> StoredMessage | None:
    """The game's final post (its Rematch button), once the bot has posted it."""
    found = [m for m in fd.public(table.channel)
             if any("Rematch" in (c.get("label") or "") for c in m.interactive())]
    assert len(found) <= 1, [m.text for m in fd.public(table.channel)]
    return found[0] if found else None


def channel_calls(fd: FakeDiscord, since: int = 0) -> list[str]:
    """The bot's requests to channel routes (``/channels/...``), from call ``since`` on."""
    return [f"{c.method} {c.path} -> {c.status}" for c in fd.world.calls[since:]
            if c.route.startswith("/channels/")]


async def play_with_machines(table: TablePlay, *, until: Callable[[], bool]) -> None:
    """The people step when awaited, the machine seats move meanwhile, until ``until()``."""
    while not until():
        assert table.steps < 2000, "no end"
        # A machine seat may have moved since the oracle last read the store.
        table.oracle.sync(table.db, table.session_id)
        if table.oracle.awaiting()[0] in table.users:
            await table.step()
        else:
            await table.machine_moves()


@pytest.fixture
async def anywhere() -> AsyncIterator[FakeDiscord]:
    """alice installed the app to her account; she, bob and carol share a group DM."""
    fake = FakeDiscord()
    for name in ("alice", "bob", "carol"):
        fake.add_user(name)
    async with fake:
        yield fake


@pytest.fixture
async def anywhere_bot(anywhere: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    # Global commands: a server's own (DEV_GUILD_ID) exist in that server only.
    proc = BotProcess(anywhere, tmp_path / "bot", extra_env=BOT_ENV, dev_guild=False)
    try:
        await proc.start()
        await proc.wait_until(lambda: anywhere.commands(), 20.0, "the command sync")
        yield proc
    finally:
        await proc.close()


async def test_a_three_player_split_game_in_a_group_dm_uses_tokens_only(
    anywhere: FakeDiscord, anywhere_bot: BotProcess
) -> None:
    alice, bob, carol = anywhere.world.users.values()
    group = anywhere.add_group_dm("friends", alice, bob, carol)
    table = TablePlay(anywhere, anywhere_bot, group, SplitEngine(), Strategy(split_rank, seed=3))
    await table.open("split", alice, bob, carol)
    # A group DM is its own place (results, boards), and its table rides on tokens only.
    assert stored_place(table) == (group.id, {"reach": "tokens"})
    assert KEEPS_UP in table.table().text.lower()

    async def killed_after_every_token_ended() -> None:
        """Every token lapses and the process is killed: it comes back with no token to
        write with; the table waits, and the next player's first click brings it back."""
        for record in anywhere.interactions:
            anywhere.expire_token(record)
        shown = table.row().table_message_id
        await anywhere_bot.kill()
        await anywhere_bot.start()
        assert table.row().table_message_id == shown
        assert table.oracle.matches_stored(table.row())

    await table.play_to_end(at_step={12: killed_after_every_token_ended})
    await anywhere_bot.wait_until(lambda: final_post(anywhere, table), POSTS_TIMEOUT,
                                  "the final post")
    post = final_post(anywhere, table)
    assert post is not None
    # The group's own board: only the installer can run the app's commands there.
    await assert_leaderboard_ranks(anywhere, alice, group, "split", "SPLIT",
                                   table.db.results(table.session_id))
    with pytest.raises(PermissionError):
        await anywhere.slash(bob, group, "leaderboard", game="split")
    stats = await anywhere.slash(alice, group, "stats", game="split")
    shown = await anywhere.wait_for(lambda: stats.original_message_id and not anywhere.message(
        stats.original_message_id).loading and anywhere.message(stats.original_message_id),
        what="the stats")
    assert shown.ephemeral and "SPLIT" in shown.text
    history = await anywhere.slash(alice, group, "history")
    assert history.ephemeral
    assert all(user.mention in reply_text(anywhere, history) for user in (alice, bob, carol))
    # Friends click what the installer's command made: Replay (privately), Rematch (a lobby).
    replay = await anywhere.click_label(carol, table.table(), "Replay")
    assert replay.ephemeral, replay.callback_data
    rematch = await anywhere.click_label(bob, post, "Rematch")
    assert rematch.callback_type == 4 and not rematch.ephemeral, rematch.callback_data
    lobby = anywhere.message(rematch.original_message_id or 0)
    assert "Bob" in lobby.text and KEEPS_UP not in lobby.text.lower()
    joined = await anywhere.click_label(carol, post, "Rematch")
    assert joined.ephemeral
    assert channel_calls(anywhere) == []
    assert_clean_log(anywhere_bot)


async def test_ten_with_a_bot_seat_in_a_group_dm_waits_out_a_long_pause_and_a_kill(
    anywhere: FakeDiscord, anywhere_bot: BotProcess
) -> None:
    alice, bob, _ = anywhere.world.users.values()
    group = anywhere.add_group_dm("pair", alice, bob)
    table = TablePlay(anywhere, anywhere_bot, group, TenEngine(), Strategy(ten_rank, seed=5))
    await table.open("ten", alice, bob, level="easy", turn_minutes=1)
    await play_with_machines(table, until=lambda: table.steps >= 6
                             and table.oracle.awaiting()[0] in table.users)
    assert channel_calls(anywhere) == []
    # A pause longer than a token's life: every token ends (as 15 minutes after its click), the
    # process is killed and comes back 20 minutes later by its clock; the awaited player's
    # minute is long gone, so the turn clock plays for them.
    for record in anywhere.interactions:
        anywhere.expire_token(record)
    calls = len(anywhere.world.calls)
    shown = {m.id: len(m.versions) for m in anywhere.public(group)}
    await anywhere_bot.kill()
    anywhere_bot.extra_env["CLOCK_OFFSET_SECONDS"] = str(20 * 60)
    await anywhere_bot.start()
    # The clock plays the default moves until the game no longer awaits the player, each
    # stored on its own, and logs the time-out after the last: the oracle reads them then (in
    # between, the store would show the player still awaited).
    await anywhere_bot.wait_until(lambda: TIMED_OUT in anywhere_bot.log_text(), POSTS_TIMEOUT,
                                  "the turn clock's moves")
    assert table.oracle.sync(table.db, table.session_id) > 0
    # Stored, and nothing sent: no token can carry it and the channel is out of reach.
    assert channel_calls(anywhere, calls) == []
    assert {m.id: len(m.versions) for m in anywhere.public(group)} == shown
    # The next click brings the table up to date and carries what waited for it (the clock's
    # notice, the ping): the game goes on to its end.
    old_table = table.row().table_message_id
    await play_with_machines(table, until=lambda: table.row().table_message_id != old_table)
    await anywhere_bot.wait_until(
        lambda: any("ran out of time" in m.content for m in anywhere.public(group)),
        POSTS_TIMEOUT, "the turn clock's notice, carried by the next click")
    await play_with_machines(table, until=lambda: table.oracle.over)
    assert table.row().table_message_id != old_table
    await anywhere_bot.wait_until(lambda: final_post(anywhere, table), POSTS_TIMEOUT,
                                  "the final post")
    assert channel_calls(anywhere) == []
    assert_clean_log(anywhere_bot)


async def test_the_turn_clock_plays_after_the_last_token_lapsed_while_the_bot_runs(
    anywhere: FakeDiscord, tmp_path: Path
) -> None:
    """No restart: nobody clicks for longer than a token lives (shortened to LAPSE seconds in
    the stand-in and the bot alike), the player's minute runs out, the clock plays for them and
    the machine seat moves on. Nothing is sent meanwhile (no channel route, no lapsed token):
    it is owed, and the next click carries the table and the clock's notice."""
    alice, bob, _ = anywhere.world.users.values()
    group = anywhere.add_group_dm("lapse", alice, bob)
    anywhere.set_token_lifetime(LAPSE)
    env = {**BOT_ENV, "TOKEN_LIFETIME_SECONDS": str(LAPSE)}
    proc = BotProcess(anywhere, tmp_path / "lapse", extra_env=env, dev_guild=False)
    try:
        await proc.start()
        await proc.wait_until(lambda: anywhere.commands(), 20.0, "the command sync")
        table = TablePlay(anywhere, proc, group, TenEngine(), Strategy(ten_rank, seed=5))
        await table.open("ten", alice, bob, level="easy", turn_minutes=1)
        await play_with_machines(table, until=lambda: table.steps >= 4
                                 and table.oracle.awaiting()[0] in table.users)
        waiting, seq = table.oracle.awaiting()[0], table.oracle.seq
        # Nobody clicks. The last click's token still carries what that step made (the table,
        # the machine seat's moves); then it lapses, a quarter of a minute before the player's
        # minute runs out (their turn began with that click or after it).
        lapsed_at = anywhere.interactions[-1].dispatched_at + LAPSE
        await table.poll(lambda: time.monotonic() > lapsed_at, LAPSE + 5, "every token lapsed")
        assert table.oracle.sync(table.db, table.session_id) == 0  # the clock has not played
        calls = len(anywhere.world.calls)
        shown = {m.id: len(m.versions) for m in anywhere.public(group)}
        owed_before = owed_lines(proc)
        await proc.wait_until(lambda: TIMED_OUT in proc.log_text(), 60.0, "the turn clock")
        # The clock's notice and the table are owed to the next click (logged once owed).
        await proc.wait_until(
            lambda: {"notice", "table"} <= {line.split()[0] for line in
                                             owed_lines(proc)[len(owed_before):]},
            POSTS_TIMEOUT, "the clock's writes owed to the next click")
        [(_, player, _), *_] = table.db.actions(table.session_id, seq)
        assert player == waiting  # the clock's move, stored
        await table.machine_moves()
        # Nothing was sent: no channel route, no token (each one lapsed), nothing changed.
        assert webhook_or_channel_calls(anywhere, calls) == []
        assert {m.id: len(m.versions) for m in anywhere.public(group)} == shown
        # The next click brings the table up to date and carries the clock's notice.
        old_table = table.row().table_message_id
        assert old_table is not None
        clicks = len(anywhere.interactions)
        await table.step()
        await proc.wait_until(
            lambda: any("ran out of time" in m.content for m in anywhere.public(group)),
            POSTS_TIMEOUT, "the turn clock's notice, carried by the next click")
        await proc.wait_until(lambda: table.row().table_message_id != old_table,
                              POSTS_TIMEOUT, "the table posted anew by the next click")
        new_table = table.row().table_message_id
        notice = next(m for m in anywhere.public(group) if "ran out of time" in m.content)
        for shown_now in (notice.id, new_table):  # each a follow-up of a click since
            assert [r.user for r in anywhere.interactions[clicks:]
                    if shown_now in r.followup_ids] in ([alice], [bob])
        assert len(anywhere.message(old_table).versions) == shown[old_table]  # left as it was
        await play_with_machines(table, until=lambda: table.steps >= 12)
        assert table.oracle.matches_stored(table.row())
        assert channel_calls(anywhere) == []
        assert [c.path for c in anywhere.world.calls if c.status == 401] == []
        assert_clean_log(proc)
    finally:
        await proc.close()


def owed_lines(proc: BotProcess) -> list[str]:
    """What the bot logged as owed to a chat's next click (``MessageRoutes.owe``): "table",
    "ping", "notice 1", ..."""
    return [line.split(": the ", 1)[1] for line in proc.log_text().splitlines()
            if OWED in line]


def webhook_or_channel_calls(fd: FakeDiscord, since: int) -> list[str]:
    """The bot's requests with an interaction's token or to a channel, from call ``since`` on."""
    return [f"{c.method} {c.path} -> {c.status}" for c in fd.world.calls[since:]
            if c.route.startswith(("/channels/", "/webhooks/", "/interactions/"))]


@pytest.mark.parametrize("language", list(Language))
async def test_learn_and_the_daily_in_a_dm_with_the_bot(
    anywhere: FakeDiscord, anywhere_bot: BotProcess, language: Language
) -> None:
    alice = next(iter(anywhere.world.users.values()))
    dm = anywhere.add_dm(alice)
    chosen = await anywhere.slash(alice, dm, "language", language=language.value)
    assert chosen.ephemeral
    opened = await anywhere.slash(alice, dm, "learn", game="split")
    assert opened.callback_type == 4 and opened.ephemeral
    learner = Learner(anywhere, anywhere_bot, alice, language)
    final = await learner.play("suggested")
    assert _embed(final, learner.learned) is not None
    daily = Daily(anywhere, anywhere_bot, alice, "ten",
                  words_for(language).gettext("Your score"))
    record = await anywhere.slash(alice, dm, "daily play", game="ten")
    assert record.ephemeral
    message = await daily.play(await daily.message(record))
    assert daily.row()[1] == "finished", message.text
    assert channel_calls(anywhere) == []
    assert anywhere.public(dm) == []
    assert_clean_log(anywhere_bot)


async def test_a_game_in_a_server_that_never_invited_the_bot(
    anywhere: FakeDiscord, anywhere_bot: BotProcess
) -> None:
    alice, bob, _ = anywhere.world.users.values()
    games = anywhere.add_foreign_guild("Elsewhere", "games", alice)
    declared = {c["name"]: (c.get("integration_types"), c.get("contexts"))
                for c in anywhere.commands()}
    for name in ("game", "rules", "learn", "daily", "leaderboard", "stats", "history",
                 "config", "language", "images"):
        assert declared[name] == ([0, 1], [0, 1, 2]), (name, declared[name])
    assert declared["admin"][0] in (None, [0])  # the owner's, in servers only
    # Only alice installed the app: the others may click its messages, not run its commands.
    with pytest.raises(PermissionError):
        await anywhere.slash(bob, games, "game new", game="split")
    table = TablePlay(anywhere, anywhere_bot, games, SplitEngine(), Strategy(split_rank, seed=4))
    await table.open("split", alice, bob)
    assert stored_place(table) == (games.guild_id, {"reach": "tokens"})  # the server's place
    await table.play_to_end()
    await anywhere_bot.wait_until(lambda: final_post(anywhere, table), POSTS_TIMEOUT,
                                  "the final post")
    assert channel_calls(anywhere) == []
    assert_clean_log(anywhere_bot)


async def test_controls_of_another_group_or_another_dm_are_refused_privately(
    anywhere: FakeDiscord, anywhere_bot: BotProcess
) -> None:
    alice, bob, carol = anywhere.world.users.values()
    one = anywhere.add_group_dm("one", alice, bob)
    two = anywhere.add_group_dm("two", carol, bob)
    # A chat's settings: its installer sets the language of its public messages.
    configured = await anywhere.slash(alice, one, "config", language="es")
    assert configured.ephemeral and "this chat's settings" in reply_text(anywhere, configured)
    with pytest.raises(PermissionError):  # Discord offers bob no command in alice's group
        await anywhere.slash(bob, one, "config", language="en")
    refused = await anywhere.slash(alice, one, "config", threads="on")
    assert refused.ephemeral and "a chat has none of them" in reply_text(anywhere, refused)
    spanish = words_for(Language.ES)
    first = await anywhere.slash(alice, one, "game new", game="split")
    lobby_one = anywhere.message(first.original_message_id or 0)
    join_one = lobby_one.button(spanish.text(JOIN))["custom_id"]
    second = await anywhere.slash(carol, two, "game new", game="split")
    lobby_two = anywhere.message(second.original_message_id or 0)
    assert lobby_two.button("Join")  # group two has no settings: English
    forged = await anywhere.forged_click(bob, lobby_two, join_one)
    assert forged.ephemeral and "another table" in reply_text(anywhere, forged)
    assert "Bob" not in anywhere.message(lobby_one.id).text
    # A control of alice's daily, in her DM, clicked in bob's DM.
    alices_dm, bobs_dm = anywhere.add_dm(alice), anywhere.add_dm(bob)
    daily = await anywhere.slash(alice, alices_dm, "daily play", game="split")
    alices = Daily(anywhere, anywhere_bot, alice, "split")
    shown = await alices.message(daily)
    _, version, _ = await alices.settled(shown)  # her turn, her controls shown
    control = next(c for c in choices_on(anywhere.message(shown.id)) if c.is_game_control)
    rules = await anywhere.slash(bob, bobs_dm, "rules", game="split")
    stolen = await anywhere.forged_click(bob, rules.original_message_id or 0, control.custom_id)
    assert stolen.ephemeral and "another table" in reply_text(anywhere, stolen)
    assert alices.row()[2] == version
    assert channel_calls(anywhere) == []
    assert_clean_log(anywhere_bot)


async def test_a_thread_asked_for_where_the_bot_cannot_open_one_is_refused_privately(
    anywhere: FakeDiscord, anywhere_bot: BotProcess
) -> None:
    """``/game new thread:true`` in a group DM (a chat has no threads) or in a server that
    never invited the bot (it cannot open one there): refused privately, in the player's
    language, nothing opened; without the option the lobby opens in the chat."""
    alice, bob, _ = anywhere.world.users.values()
    group = anywhere.add_group_dm("threads", alice, bob)
    games = anywhere.add_foreign_guild("Elsewhere", "games", alice)
    dm = anywhere.add_dm(alice)
    for language in Language:
        await anywhere.slash(alice, dm, "language", language=language.value)
        words = words_for(language)
        for place, refusal in ((group, NO_THREADS_IN_A_CHAT), (games, NO_THREADS_WITHOUT_THE_BOT)):
            refused = await anywhere.slash(alice, place, "game new", game="split", thread=True)
            assert refused.ephemeral, (language, refused.callback_data)
            assert reply_text(anywhere, refused) == words.text(refusal), language
    assert anywhere.public(group) == [] and anywhere.public(games) == []
    with sqlite3.connect(anywhere_bot.database_path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM sessions").fetchone() == (0,)
    opened = await anywhere.slash(alice, group, "game new", game="split", thread=False)
    assert opened.callback_type == 4 and not opened.ephemeral
    assert channel_calls(anywhere) == []
    assert_clean_log(anywhere_bot)


async def test_a_chats_season_end_rides_on_its_next_click(
    anywhere: FakeDiscord, anywhere_bot: BotProcess
) -> None:
    """A group DM is its own place: when its season is over, nothing can be posted there (no
    season channel, no channel route), so the end is owed to the chat's next click, which
    carries the champion and the final board as its follow-up."""
    alice, bob, _ = anywhere.world.users.values()
    group = anywhere.add_group_dm("season", alice, bob)
    table = TablePlay(anywhere, anywhere_bot, group, SplitEngine(), Strategy(split_rank, seed=4))
    await table.open("split", alice, bob)
    await table.play_to_end()
    await anywhere_bot.wait_until(lambda: final_post(anywhere, table), POSTS_TIMEOUT,
                                  "the final post")
    results = table.db.results(table.session_id)
    winner = next(player for player, (place, _) in results.items() if place == 1)
    season = season_of("month", datetime.now(UTC))
    # The bot comes back with its clock past the month's end: the season is over.
    offset = season.end + timedelta(minutes=5) - datetime.now(UTC)
    anywhere_bot.extra_env["CLOCK_OFFSET_SECONDS"] = str(offset.total_seconds())
    await anywhere_bot.restart(hard=False)
    await anywhere_bot.wait_until(
        lambda: f"the season {season.name} waits for the next click" in anywhere_bot.log_text(),
        30.0, "the season's end owed to the chat")

    def season_posts() -> list[StoredMessage]:
        return [m for m in anywhere.public(group) if f"season {season.name} is over" in m.text]

    assert season_posts() == []
    replay = await anywhere.click_label(bob, table.table(), "Replay")
    assert replay.ephemeral
    await anywhere_bot.wait_until(season_posts, POSTS_TIMEOUT, "the season's end, carried")
    [post] = season_posts()
    assert post.id in replay.followup_ids
    assert f"<@{winner}>" in post.embeds[0]["description"].splitlines()[0]  # the champion
    assert channel_calls(anywhere) == []
    assert_clean_log(anywhere_bot)


def reply_text(fd: FakeDiscord, record: InteractionRecord) -> str:
    """What the bot answered ``record`` with (its message's text, or the callback's)."""
    if record.original_message_id:
        return fd.message(record.original_message_id).text
    return str((record.callback_data or {}).get("content", ""))


async def test_pictures_in_a_group_dm_ride_on_tokens(
    anywhere: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, _ = anywhere.world.users.values()
    group = anywhere.add_group_dm("pictures", alice, bob)
    env = {**BOT_ENV, "IMAGES": "on"}
    proc = BotProcess(anywhere, tmp_path / "pictures", extra_env=env, dev_guild=False)
    try:
        await proc.start()
        await proc.wait_until(lambda: anywhere.commands(), 20.0, "the command sync")
        table = TablePlay(anywhere, proc, group, SplitEngine(), Strategy(split_rank, seed=4))
        await table.open("split", alice, bob)
        for _ in range(6):
            await table.step()
        await proc.wait_until(lambda: [a["filename"] for a in table.table().attachments]
                              == ["table.png"], POSTS_TIMEOUT, "the table picture")
        hands = [anywhere.message(m) for m in table.private.values()]
        await proc.wait_until(lambda: any(
            [a["filename"] for a in anywhere.message(h.id).attachments] == ["hand.png"]
            for h in hands), POSTS_TIMEOUT, "a hand picture")
        assert channel_calls(anywhere) == []
        assert_clean_log(proc)
    finally:
        await proc.close()
