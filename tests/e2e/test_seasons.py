"""Issue 33 (seasons) at the real bot: a champion role the bot could not give is refused at
``/config``; a TEN game is played this month; the bot is restarted with its clock moved past
the month's end (``CLOCK_OFFSET_SECONDS``, a test-only setting) and posts the season's champion
and final board in the server's season channel, once, and gives the champion the role: a
second restart (SIGKILL) sees the season through without posting again; last month's champion
loses the role. Then
``/leaderboard season:`` (with its autocomplete) shows the past season and ``/stats`` the
champion's title."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import InteractionRecord, StoredMessage
from bot.playground.fakediscord.world import BOT_PERMISSIONS
from bot.rankings.seasons import season_of
from game.ten import TenEngine
from tests.e2e.players import Strategy
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log, reply_content, synced_bot
from tests.e2e.table_play import TablePlay
from tests.e2e.test_scenario_ten import ten_rank

PAST_THE_END = timedelta(minutes=5)
MANAGE_ROLES = 1 << 28  # where the moved clock lands after the month's end


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.add_user("dana", admin=True)  # Manage Server, for /config
    fake.add_user("alice")
    fake.add_user("bob")
    for name in ("ten-table", "hall"):
        fake.add_channel(name)
    fake.add_role("Champion", position=1)
    fake.add_role("tablebot", permissions=MANAGE_ROLES, position=3, members=(fake.bot_user,))
    fake.add_role("Moderators", position=5)
    async with fake:
        yield fake


@pytest.fixture
async def bot(fd: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    # Enough kept lines for a whole game's log and three starts.
    async with synced_bot(fd, tmp_path / "bot", BOT_ENV, keep_lines=20_000) as proc:
        yield proc


async def answer(fd: FakeDiscord, record: InteractionRecord, what: str) -> StoredMessage:
    """The message an interaction was answered with (at once or after "thinking")."""
    def shown() -> StoredMessage | None:
        if not record.original_message_id:
            return None
        message = fd.message(record.original_message_id)
        return None if message.loading else message
    return await fd.wait_for(shown, 20.0, what)


def record_champion(db: Path, guild_id: int, season: str, user_id: int) -> None:
    """A champion of an earlier season, as the bot stores one (written while it runs: WAL)."""
    conn = sqlite3.connect(db, timeout=10.0)
    try:
        with conn:
            conn.execute("INSERT INTO season_posts (guild_id, season, claimed_by, claimed_at,"
                         " posted_at) VALUES (?, ?, 'earlier', '2000-01-01', '2000-01-01')",
                         (guild_id, season))
            conn.execute("INSERT INTO season_champions VALUES (?, ?, 'ten', ?)",
                         (guild_id, season, str(user_id)))
    finally:
        conn.close()


def season_posts(fd: FakeDiscord, name: str) -> list[StoredMessage]:
    hall = fd.channel_named("hall")
    return [m for m in fd.public(hall) if f"season {name} is over" in m.text]


async def test_a_season_end_is_posted_once_across_restarts(
    fd: FakeDiscord, bot: BotProcess
) -> None:
    dana, alice, bob = fd.world.users.values()
    hall = fd.channel_named("hall")
    champion_role, _, moderators = (role[0] for role in fd.world.extra_roles)
    # Without Manage Roles (the default app_permissions), and a role above the bot's own.
    refused = await fd.slash(dana, hall, "config", champion_role=champion_role)
    assert refused.ephemeral and "I need the Manage Roles permission" in reply_content(refused)
    fd.set_bot_permissions(hall, BOT_PERMISSIONS | MANAGE_ROLES)
    refused = await fd.slash(dana, hall, "config", champion_role=moderators)
    assert refused.ephemeral and "below my own highest role" in reply_content(refused)
    assert "setting champion_role changed" not in bot.log_text()

    configured = await fd.slash(dana, hall, "config", season_channel=hall,
                                champion_role=champion_role)
    assert configured.ephemeral, configured.callback_data
    assert f"Channel of the end-of-season post: <#{hall.id}>" in reply_content(configured)
    assert f"Role of each game's season champion: <@&{champion_role}>" in reply_content(configured)

    table = TablePlay(fd, bot, fd.channel_named("ten-table"), TenEngine(),
                      Strategy(ten_rank, seed=33))
    await table.open("ten", alice, bob)
    await table.play_to_end()
    results = table.db.results(table.session_id)  # player -> (placement, score)
    winner = next(player for player, (place, _) in results.items() if place == 1)
    season = season_of("month", datetime.now(UTC))
    assert season_posts(fd, season.name) == []

    # Dana was last month's champion and holds the role: it moves on to this month's.
    fd.world.give_role(dana, champion_role)
    record_champion(table.db.path, fd.guild_id, season.previous().name, dana.id)

    # The clock moves past the month's end: the season is over.
    offset = season.end + PAST_THE_END - datetime.now(UTC)
    bot.extra_env["CLOCK_OFFSET_SECONDS"] = str(offset.total_seconds())
    await bot.restart(hard=False)
    await bot.wait_until(lambda: season_posts(fd, season.name), 30.0,
                         "the end-of-season post")
    [post] = season_posts(fd, season.name)
    assert f"<@{winner}>" in post.embeds[0]["description"].splitlines()[0]  # the champion
    assert "TEN · season" in post.text and "**1.**" in post.text
    await bot.wait_until(lambda: fd.world.role_grants, 20.0, "the champion role")
    assert fd.world.role_grants == [(fd.guild_id, int(winner), champion_role)]
    await bot.wait_until(lambda: fd.world.role_removals, 20.0, "the former champion's role")
    assert fd.world.role_removals == [(fd.guild_id, dana.id, champion_role)]
    assert champion_role not in fd.world.users[dana.id].role_ids
    assert champion_role in fd.world.users[int(winner)].role_ids

    # A crash and a new process: the season is seen through, nothing is posted again.
    seen = f"season {season.name}: seen through"
    await bot.wait_until(lambda: seen in bot.log_text(), 20.0, "the post marked done")
    mark = len(bot.output)
    await bot.restart(hard=True)
    await bot.wait_until(
        lambda: any(seen in line for line in list(bot.output)[mark:]),
        30.0, "the watcher's first tick after the restart")
    assert len(season_posts(fd, season.name)) == 1

    choices = await fd.autocomplete(alice, hall, "leaderboard", "season", game="ten",
                                    season=season.name[:4])
    assert season.name in [choice["value"] for choice in choices]
    shown = await fd.slash(alice, hall, "leaderboard", game="ten", season=season.name)
    board = await answer(fd, shown, "the season's board")
    assert not board.ephemeral and f"season {season.name}" in board.text
    assert f"**1.** <@{winner}>" in board.text
    refused = await fd.slash(alice, hall, "leaderboard", game="ten", season="2026-13")
    assert refused.ephemeral and "not a season" in reply_content(refused)

    champion = fd.world.users[int(winner)]
    stats = await answer(fd, await fd.slash(champion, hall, "stats", game="ten"), "the stats")
    assert stats.ephemeral and f"🏆 {season.name} · TEN champion" in stats.text, stats.text
    assert_clean_log(bot)
    assert fd.unknown_routes == [], bot.log_text()
