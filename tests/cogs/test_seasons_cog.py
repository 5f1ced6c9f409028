"""Seasons in the cogs: /config season, season_channel and champion_role (refused, changing
nothing, when the bot could not give the role), /leaderboard season:, /stats titles, and the
end-of-season post with its role (a logged, non-fatal skip when the role cannot be given)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.automation.season_watcher import SeasonEnd, SeasonWatcher
from bot.rankings.leaderboard import Leaderboards
from bot.rankings.seasons import parse_season
from cogs.i18n import Language, words_for
from cogs.kit.server_settings import CHAMPION_ROLE, SEASON, SEASON_CHANNEL
from cogs.leaderboard.commands import LeaderboardCog
from cogs.seasons.season_announcer import SeasonAnnouncer
from cogs.settings.config_command import ConfigCog
from tests.bot.test_leaderboard import finish
from tests.cogs.conftest import ANA, Table
from tests.cogs.test_leaderboard_cog import NOW, Room
from tests.fakes import FakeInteraction, invoke

MANAGE = discord.Permissions(manage_guild=True)
ES = words_for(Language.ES)
APRIL = parse_season("2024-04")


@dataclass(order=True)
class FakeRole:
    position: int
    id: int
    managed: bool = field(default=False, compare=False)
    guild: Any = field(default=None, compare=False)

    def is_default(self) -> bool:
        return self.id == 1


def bot_member(top: int, *, manage_roles: bool = True) -> Any:
    return SimpleNamespace(
        top_role=FakeRole(top, 7), guild_permissions=discord.Permissions(manage_roles=manage_roles))


def config_interaction(table: Table, *, manage_roles: bool = True, top: int = 5,
                       locale: discord.Locale = discord.Locale.american_english,
                       ) -> FakeInteraction:
    ia = table.interaction(ANA, permissions=MANAGE, locale=locale)
    ia.app_permissions = discord.Permissions(manage_roles=manage_roles)  # type: ignore[attr-defined]
    ia.guild.me = bot_member(top, manage_roles=manage_roles)  # type: ignore[attr-defined]
    return ia


def role(position: int, role_id: int = 50, guild: int = 1, **kwargs: Any) -> discord.Role:
    return cast(discord.Role, FakeRole(position, role_id, guild=SimpleNamespace(id=guild),
                                       **kwargs))


async def test_config_stores_the_season_settings(table: Table) -> None:
    hall = cast(discord.TextChannel, SimpleNamespace(id=77, guild=SimpleNamespace(id=1)))
    ia = config_interaction(table)
    await invoke(ConfigCog.config, ConfigCog(), ia,
                 season=discord.app_commands.Choice(name="quarter", value="quarter"),
                 season_channel=hall, champion_role=role(3))
    assert ia.last.ephemeral
    shown = ia.last.content or ""
    assert "Changed Seasons: a season every calendar month (UTC) → a season every calendar" \
        " quarter (UTC)" in shown
    assert "• Channel of the end-of-season post: <#77>" in shown.splitlines()
    assert "• Role of each game's season champion: <@&50>" in shown.splitlines()
    assert await table.manager.store.guild_settings(1) == {
        SEASON: "quarter", SEASON_CHANNEL: "77", CHAMPION_ROLE: "50"}
    ia = config_interaction(table)
    await invoke(ConfigCog.config, ConfigCog(), ia, no_champion_role=True)
    assert "• Role of each game's season champion: none" in (ia.last.content or "").splitlines()
    assert (await table.manager.store.guild_settings(1))[CHAMPION_ROLE] == "none"


@pytest.mark.parametrize(
    ("kwargs", "champion", "expected"),
    [
        ({"manage_roles": False}, role(3),
         "I need the Manage Roles permission to give the champion role; grant it to me, then"
         " choose the role again."),
        ({"top": 5}, role(5),
         "I can only give roles below my own highest role, and <@&50> is not; drag it below my"
         " role in the server's role settings, then choose it again."),
        ({"top": 5}, role(9),
         "I can only give roles below my own highest role, and <@&50> is not; drag it below my"
         " role in the server's role settings, then choose it again."),
        ({}, role(0, role_id=1),
         "The champion role must be a role of its own: not @everyone, and not a role that"
         " Discord or an app manages."),
        ({}, role(2, managed=True),
         "The champion role must be a role of its own: not @everyone, and not a role that"
         " Discord or an app manages."),
        ({}, role(2, guild=99), "That role is not in this server; choose one of its own roles."),
    ],
)
async def test_a_champion_role_the_bot_could_not_give_is_refused(
    table: Table, kwargs: dict[str, Any], champion: discord.Role, expected: str
) -> None:
    ia = config_interaction(table, **kwargs)
    await invoke(ConfigCog.config, ConfigCog(), ia, champion_role=champion,
                 season=discord.app_commands.Choice(name="off", value="off"))
    assert ia.last.ephemeral and ia.last.content == expected
    assert await table.manager.store.guild_settings(1) == {}  # not even the season


async def test_the_refusal_is_in_the_readers_language(table: Table) -> None:
    ia = config_interaction(table, manage_roles=False, locale=discord.Locale.spain_spanish)
    await invoke(ConfigCog.config, ConfigCog(), ia, champion_role=role(3))
    assert ia.last.content == ES.gettext(
        "I need the Manage Roles permission to give the champion role; grant it to me, then"
        " choose the role again.")


# --- /leaderboard season: and /stats ---------------------------------------------------------


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[Room]:
    from bot.store import open_store
    store = await open_store(tmp_path / "seasons.sqlite3")
    yield Room(store, min_games=1)
    await store.close()


async def april_and_may(room: Room) -> None:
    await finish(room.store, {"1": 1, "2": 2}, datetime(2024, 4, 10, tzinfo=UTC), channel=100)
    await finish(room.store, {"3": 1, "1": 2}, NOW - timedelta(days=1), channel=100)


async def test_a_past_season_shows_its_final_board(room: Room) -> None:
    await april_and_may(room)
    ia = room.interaction()
    await invoke(LeaderboardCog.leaderboard, room.cog, ia, game="count", season=" 2024-04")
    shown = ia.last
    assert not shown.ephemeral and shown.view is None
    assert "leaderboard · season 2024-04" in shown.text
    assert "**1.** <@1>" in shown.text and "<@3>" not in shown.text  # May's game is not in it
    assert "Season 2024-04: from" in shown.text


@pytest.mark.parametrize(("season", "expected"), [
    ("2024-05", "Season 2024-05 is not over yet; /leaderboard shows the standings so far."),
    ("2024-Q2", "Season 2024-Q2 is not over yet; /leaderboard shows the standings so far."),
    ("April", "That is not a season: write a month like 2026-11 or a quarter like 2026-Q4."),
    ("2024-13", "That is not a season: write a month like 2026-11 or a quarter like 2026-Q4."),
    (12, "That is not a season: write a month like 2026-11 or a quarter like 2026-Q4."),
])
async def test_a_season_that_is_not_over_or_not_a_season_is_refused(
    room: Room, season: object, expected: str
) -> None:
    ia = room.interaction()
    await invoke(LeaderboardCog.leaderboard, room.cog, ia, game="count", season=season)
    assert ia.last.ephemeral and ia.last.content == expected


async def test_the_season_autocomplete_lists_ended_seasons(room: Room) -> None:
    await april_and_may(room)
    ia = room.interaction()
    choices = await LeaderboardCog._season_choices(room.cog, ia, "2024")  # type: ignore[arg-type]
    assert [choice.value for choice in choices] == ["2024-04"]
    assert await LeaderboardCog._season_choices(room.cog, ia, "2023") == []  # type: ignore[arg-type]


async def test_stats_lists_the_players_season_titles(room: Room) -> None:
    await april_and_may(room)
    assert APRIL is not None
    posts: list[SeasonEnd] = []

    class Keep:
        async def season_ended(self, end: SeasonEnd) -> int | None:
            posts.append(end)
            return None

    watcher = SeasonWatcher(room.store, Leaderboards(room.store, min_games=1), ["count"],
                            clock=lambda: NOW, notifier=Keep())
    assert await watcher.tick() == 1 and posts[0].champions == {"count": "1"}
    ia = room.interaction(user=ANA)
    await invoke(LeaderboardCog.stats, room.cog, ia)
    assert "Season titles 🏆 2024-04 · COUNT champion" in ia.last.text
    other = room.interaction(user=SimpleNamespace(id=3, display_name="Cy"))  # type: ignore[arg-type]
    await invoke(LeaderboardCog.stats, room.cog, other)
    assert "Season titles" not in other.last.text


# --- the post and the role ---------------------------------------------------------------------


class FakeHttp:
    def __init__(self) -> None:
        self.roles: list[tuple[int, int, int]] = []
        self.removed: list[tuple[int, int, int]] = []

    async def add_role(self, guild_id: int, user_id: int, role_id: int, *,
                       reason: str | None = None) -> None:
        self.roles.append((guild_id, user_id, role_id))

    async def remove_role(self, guild_id: int, user_id: int, role_id: int, *,
                          reason: str | None = None) -> None:
        self.removed.append((guild_id, user_id, role_id))


def guild_with(role_position: int, *, top: int = 5, manage_roles: bool = True) -> Any:
    roles = {50: FakeRole(role_position, 50)}
    return SimpleNamespace(id=1, preferred_locale=discord.Locale.american_english,
                           me=bot_member(top, manage_roles=manage_roles),
                           get_role=roles.get)


async def season_end(room: Room, *, role_id: int | None = 50,
                     former: tuple[str, ...] = ()) -> SeasonEnd:
    assert APRIL is not None
    board = await Leaderboards(room.store, min_games=1).season_board(1, "count", APRIL)
    return SeasonEnd(1, APRIL, (board,), {"count": "1"}, 77, role_id, former)


async def test_the_post_names_the_champion_and_the_role_is_given(room: Room) -> None:
    await april_and_may(room)
    http = FakeHttp()
    room.client.http = http  # type: ignore[attr-defined]
    room.client.guilds[1] = guild_with(3)
    announcer = SeasonAnnouncer(room.client, room.client.services.routes.budget)  # type: ignore[arg-type]
    message_id = await announcer.season_ended(await season_end(room))
    [post] = room.client.channel(77).sent
    assert post.message is not None and post.message.id == message_id
    assert "COUNT · season 2024-04 is over" in post.text
    assert "🏆 Champion: <@1>" in post.text and "**1.** <@1>" in post.text
    assert post.allowed_mentions is not None and not post.allowed_mentions.users
    assert http.roles == [(1, 1, 50)] and http.removed == []


async def test_the_role_moves_on_from_the_former_champions(room: Room) -> None:
    await april_and_may(room)
    http = FakeHttp()
    room.client.http = http  # type: ignore[attr-defined]
    room.client.guilds[1] = guild_with(3)
    announcer = SeasonAnnouncer(room.client, room.client.services.routes.budget)  # type: ignore[arg-type]
    assert await announcer.award(await season_end(room, former=("2", "3"))) == 1
    assert http.roles == [(1, 1, 50)]
    assert http.removed == [(1, 2, 50), (1, 3, 50)]


@pytest.mark.parametrize(("guild", "reason"), [
    (guild_with(5), "not below the bot's highest role"),
    (guild_with(3, manage_roles=False), "lacks Manage Roles"),
    (None, "not known to this process"),
])
async def test_a_role_that_cannot_be_given_is_a_logged_skip(
    room: Room, guild: Any, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    await april_and_may(room)
    http = FakeHttp()
    room.client.http = http  # type: ignore[attr-defined]
    if guild is not None:
        room.client.guilds[1] = guild
    announcer = SeasonAnnouncer(room.client, room.client.services.routes.budget)  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="cogs.seasons.season_announcer"):
        assert await announcer.season_ended(await season_end(room)) is not None
    assert http.roles == [] and len(room.client.channel(77).sent) == 1
    assert http.removed == []
    assert reason in caplog.text
