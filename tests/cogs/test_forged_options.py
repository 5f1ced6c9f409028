"""Forged slash commands (issue 34): option values that Discord's client cannot send are
refused before the command runs (``cogs.commands.option_check``), and the commands refuse them too
when called with them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.records import errors
from bot.sessions.deadlines import MAX_TURN_MINUTES
from cogs.commands.game_commands import GameCog
from cogs.commands.option_check import (
    MISSING_OPTION,
    NO_SUCH_OPTION,
    NOT_A_CHOICE,
    OTHER_CHANNEL,
    OUT_OF_RANGE,
    UNKNOWN_USER,
    WRONG_VALUE,
    option_problem,
    shown_name,
)
from cogs.leaderboard.commands import NO_SUCH_MEMBER, LeaderboardCog
from cogs.settings.config_command import ConfigCog
from tests.cogs.conftest import ANA, Table
from tests.fakes import invoke

STRING, INTEGER, BOOLEAN, USER, CHANNEL = 3, 4, 5, 6, 7
HERE = 100


class Guild:
    """A guild whose only channel is text channel ``HERE``."""

    def get_channel_or_thread(self, channel_id: int) -> Any:
        if channel_id == HERE:
            return SimpleNamespace(id=HERE, type=discord.ChannelType.text)
        return None


def data(sub: str | None, *options: tuple[str, int, object],
         resolved: dict[str, Any] | None = None) -> dict[str, Any]:
    leaf = [{"name": name, "type": kind, "value": value} for name, kind, value in options]
    body: dict[str, Any] = {"options": [{"name": sub, "type": 1, "options": leaf}]
                            if sub else leaf}
    if resolved:
        body["resolved"] = resolved
    return body


def problem(command: Any, sub: str | None, *options: tuple[str, int, object],
            resolved: dict[str, Any] | None = None) -> Any:
    found = option_problem(command, data(sub, *options, resolved=resolved), Guild())  # type: ignore[arg-type]
    return None if found is None else found.message


def test_what_discord_could_send_passes() -> None:
    assert problem(GameCog.new, "new", ("game", STRING, "split"), ("turn_minutes", INTEGER, 5),
                   ("thread", BOOLEAN, True), ("level", STRING, "expert")) is None
    assert problem(LeaderboardCog.stats, None, ("user", USER, "42"),
                   resolved={"users": {"42": {"id": "42"}}}) is None
    assert problem(ConfigCog.config, None, ("add_channel", CHANNEL, str(HERE)),
                   ("leaderboard_min_games", INTEGER, 100),
                   resolved={"channels": {str(HERE): {"id": str(HERE)}}}) is None


def test_forged_values_are_found() -> None:
    new = GameCog.new
    game = ("game", STRING, "split")
    assert problem(new, "new", game, ("level", STRING, "godlike")) is NOT_A_CHOICE
    assert problem(new, "new", game, ("turn_minutes", STRING, "5")) is WRONG_VALUE
    assert problem(new, "new", game, ("turn_minutes", INTEGER, "5")) is WRONG_VALUE
    assert problem(new, "new", game, ("turn_minutes", INTEGER, True)) is WRONG_VALUE
    assert problem(new, "new", game, ("turn_minutes", INTEGER, 10**9)) is OUT_OF_RANGE
    assert problem(new, "new", game, ("thread", BOOLEAN, "yes")) is WRONG_VALUE
    assert problem(new, "new", ("game", STRING, "x" * 33)) is WRONG_VALUE
    assert problem(new, "new", ("turn_minutes", INTEGER, 5)) is MISSING_OPTION
    assert problem(new, "new", game, ("seed", INTEGER, 5)) is NO_SUCH_OPTION
    assert problem(new, "new", game, game) is NO_SUCH_OPTION
    config = ConfigCog.config
    assert problem(config, None, ("turn_minutes", INTEGER, -1)) is OUT_OF_RANGE
    assert problem(config, None, ("leaderboard_min_games", INTEGER, -5)) is OUT_OF_RANGE
    assert problem(config, None, ("language", STRING, "xx")) is NOT_A_CHOICE
    assert problem(config, None, ("add_channel", CHANNEL, "555"),
                   resolved={"channels": {"555": {"id": "555"}}}) is OTHER_CHANNEL
    assert problem(config, None, ("add_channel", CHANNEL, "555")) is WRONG_VALUE
    stats = LeaderboardCog.stats
    assert problem(stats, None, ("user", USER, "42")) is UNKNOWN_USER
    assert problem(stats, None, ("user", USER, "٤٢"),
                   resolved={"users": {"٤٢": {}}}) is UNKNOWN_USER


def test_an_option_is_named_as_the_members_discord_shows_it() -> None:
    minutes = next(p for p in GameCog.new.parameters if p.display_name == "turn_minutes")
    assert shown_name(minutes, discord.Locale.american_english) == "turn_minutes"
    assert shown_name(minutes, None) == "turn_minutes"
    spanish = shown_name(minutes, discord.Locale.spain_spanish)
    assert spanish != "turn_minutes" and spanish.isascii()


async def test_new_refuses_minutes_that_are_not_a_whole_number_in_range(table: Table) -> None:
    for minutes in ("5", -1, 10**9, 2.5):
        ia = table.interaction(ANA)
        await invoke(GameCog.new, table.cog, ia, game="count", turn_minutes=minutes)
        assert ia.last.ephemeral and ia.last.content == errors.BAD_TURN_MINUTES.format(
            most=MAX_TURN_MINUTES), minutes
    assert table.manager.in_channel(HERE) is None


async def test_stats_of_a_user_discord_did_not_resolve_is_refused(table: Table) -> None:
    ia = table.interaction(ANA)
    cog = LeaderboardCog(table.client.services)
    await invoke(LeaderboardCog.stats, cog, ia, user=discord.Object(id=42),
                 game=None)
    assert ia.last.ephemeral and ia.last.content == NO_SUCH_MEMBER.text


def test_a_forged_role_or_season_is_found() -> None:
    role = 8
    assert problem(ConfigCog.config, None, ("champion_role", role, "55"),
                   resolved={"roles": {"55": {"id": "55"}}}) is None
    assert problem(ConfigCog.config, None, ("champion_role", role, "55")) is WRONG_VALUE
    assert problem(ConfigCog.config, None, ("champion_role", role, "@mods")) is WRONG_VALUE
    assert problem(ConfigCog.config, None, ("season", STRING, "weekly")) is NOT_A_CHOICE
    board = LeaderboardCog.leaderboard
    assert problem(board, None, ("game", STRING, "ten"), ("season", STRING, "2026-11")) is None
    assert problem(board, None, ("game", STRING, "ten"),
                   ("season", STRING, "2026-11" * 3)) is WRONG_VALUE
