"""/config: every setting shown with its value and whether it is a default, Manage Server
only, changes logged, stored per server, and read by the next game, the leaderboard and the
language of public messages; /language for a person's private answers."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from discord import app_commands

from bot.records.session import Status
from cogs.commands.game_commands import GameCog
from cogs.i18n import Language, words_for
from cogs.i18n.settings_cache import StoredSettings
from cogs.kit.server_settings import (
    CHANNELS,
    LANGUAGE,
    TURN_MINUTES,
    ServerDefaults,
    resolve,
)
from cogs.settings.config_command import ConfigCog
from cogs.settings.language_command import LanguageCog
from tests.cogs.conftest import ANA, BEN, Table
from tests.fakes import FakeChannel, FakeInteraction, click, invoke

MANAGE = discord.Permissions(manage_guild=True)
ES = words_for(Language.ES)
SQ = words_for(Language.SQ)


def choice(value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=value, value=value)


def text_channel(channel: FakeChannel) -> discord.TextChannel:
    return cast(discord.TextChannel, SimpleNamespace(id=channel.id))


async def configure(table: Table, **options: Any) -> FakeInteraction:
    ia = table.interaction(ANA, permissions=MANAGE)
    await invoke(ConfigCog.config, ConfigCog(), ia, **options)
    assert ia.last.ephemeral
    return ia


async def test_without_manage_server_nothing_changes(table: Table) -> None:
    ia = table.interaction(BEN, locale=discord.Locale.spain_spanish)
    await invoke(ConfigCog.config, ConfigCog(), ia, turn_minutes=9)
    assert ia.last.ephemeral
    assert ia.last.content == ES.gettext(
        "Only members with Manage Server may change this server's settings.")
    assert await table.manager.store.guild_settings(1) == {}


async def test_shows_every_setting_and_which_are_defaults(table: Table) -> None:
    shown = (await configure(table)).last.content or ""
    lines = shown.splitlines()
    assert lines[0] == "**This server's settings** (/config changes them):"
    assert "• Turn clock of a new game: off (default)" in lines  # the table fixture's clock
    assert "• Rated games before a player is ranked: 3 (default)" in lines
    assert "• Channels where games may start: every channel (default)" in lines
    assert any(line.startswith("• Language of public messages: automatic") for line in lines)
    assert "• Seasons: a season every calendar month (UTC) (default)" in lines
    assert "• Channel of the end-of-season post: none: the end of a season is not posted" \
        " (default)" in lines
    assert "• Role of each game's season champion: none (default)" in lines
    assert "• Hints in a new game (such games are not rated): off (default)" in lines
    assert "• Role that may open server events (beside Manage Events): none (default)" in lines
    assert len(lines) == 13

    changed = (await configure(table, turn_minutes=4)).last.content or ""
    assert changed.splitlines()[0] == "Changed Turn clock of a new game: off → 4 min per move"
    assert "• Turn clock of a new game: 4 min per move" in changed.splitlines()  # no (default)


async def test_a_change_is_logged_with_who_old_and_new(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="cogs.settings.config_command"):
        await configure(table, leaderboard_min_games=5)
        await configure(table, leaderboard_min_games=2)
    lines = [r.getMessage() for r in caplog.records if r.name == "cogs.settings.config_command"]
    assert lines == [
        f"guild 1: setting leaderboard_min_games changed from '(default)' to '5' by {ANA.id}",
        f"guild 1: setting leaderboard_min_games changed from '5' to '2' by {ANA.id}",
    ]


async def test_the_next_lobby_uses_the_servers_turn_clock(table: Table) -> None:
    await configure(table, turn_minutes=7)
    assert await table.manager.store.guild_settings(1) == {TURN_MINUTES: "7"}
    ia = table.interaction(ANA)
    await invoke(GameCog.new, table.cog, ia, game="count")
    assert "**Turn limit**\n7 min per move" in ia.last.text
    session = table.manager.in_channel(100)
    assert session is not None and session.turn_minutes == 7
    # /game new turn_minutes: still wins for its own game.
    await invoke(GameCog.cancel, table.cog, table.interaction(ANA))
    ia = table.interaction(ANA)
    await invoke(GameCog.new, table.cog, ia, game="count", turn_minutes=0)
    assert "**Turn limit**\noff" in ia.last.text


async def test_games_start_only_in_the_servers_game_channels(table: Table) -> None:
    games = table.client.channel(200)
    other = table.client.channel(300)
    await configure(table, add_channel=text_channel(games))
    await configure(table, add_channel=text_channel(other))
    await configure(table, remove_channel=text_channel(other))
    assert await table.manager.store.guild_settings(1) == {CHANNELS: "200"}

    refused = table.interaction(BEN, locale=discord.Locale.latin_american_spanish)
    await invoke(GameCog.new, table.cog, refused, game="count")
    assert refused.last.ephemeral
    assert refused.last.content == (
        "En este servidor las partidas solo empiezan en este canal: <#200>.")
    assert table.manager.in_channel(100) is None

    there = FakeInteraction(table.client, user=BEN, channel=games)
    await invoke(GameCog.new, table.cog, there, game="count")
    assert not there.last.ephemeral and table.manager.in_channel(200) is not None

    await configure(table, all_channels=True)
    assert await table.manager.store.guild_settings(1) == {CHANNELS: ""}
    anywhere = table.interaction(BEN)
    await invoke(GameCog.new, table.cog, anywhere, game="count")
    assert table.manager.in_channel(100) is not None


async def test_public_messages_speak_the_servers_language(table: Table) -> None:
    await configure(table, language=choice("sq"))
    ia = table.interaction(ANA)  # Ana's own Discord is in English
    await invoke(GameCog.new, table.cog, ia, game="count")
    assert SQ.gettext("{title} — lobby", title="COUNT") in ia.last.text
    session = table.manager.in_channel(100)
    assert session is not None
    joined = table.interaction(BEN, ia.last.message)
    await click(joined, f"tb:lobby:join:{session.id}")
    assert "COUNT — salla e pritjes" in joined.last.text  # the lobby, redrawn
    again = table.interaction(BEN, ia.last.message)
    await click(again, f"tb:lobby:join:{session.id}")
    assert again.last.content == "You are already seated at this table."  # Ben's: English

    await configure(table, language=choice("auto"))
    status = table.interaction(ANA)
    await invoke(GameCog.status, table.cog, status)
    assert "COUNT — lobby" in status.last.text  # the guild's preferred locale: en-US


async def test_language_is_a_persons_choice_for_private_answers(table: Table) -> None:
    ia = table.interaction(BEN, locale=discord.Locale.spain_spanish)
    await invoke(LanguageCog.language, LanguageCog(), ia, language=choice("gu"))
    assert ia.last.ephemeral and "ગુજરાતી" in (ia.last.content or "")
    assert await table.manager.store.user_settings(BEN.id) == {LANGUAGE: "gu"}
    leave = table.interaction(BEN, locale=discord.Locale.spain_spanish)
    await invoke(GameCog.leave, table.cog, leave)
    # No command ids are known here (no sync ran): the command is named in the reader's
    # language, as Discord shows it to them (Gujarati clients show the English names).
    assert leave.last.content == "આ ચેનલમાં કોઈ રમત નથી. /game new વડે એક ખોલો."

    forget = table.interaction(BEN, locale=discord.Locale.spain_spanish)
    await invoke(LanguageCog.language, LanguageCog(), forget, language=choice("auto"))
    assert forget.last.content == "Vuelvo a seguir tu idioma de Discord: Español."
    assert await table.manager.store.user_settings(BEN.id) == {}
    again = table.interaction(BEN, locale=discord.Locale.spain_spanish)
    await invoke(GameCog.leave, table.cog, again)
    assert again.last.content == (
        "No hay ninguna partida en este canal. Abre una con /partida nueva.")


async def test_settings_survive_a_new_process(table: Table) -> None:
    """What /config stored is read back by a fresh cache over the same database."""
    await configure(table, language=choice("es"), turn_minutes=3, images=choice("off"),
                    threads=choice("on"), leaderboard_min_games=6)
    fresh = StoredSettings(table.manager.store)
    settings = resolve(await fresh.guild(1), ServerDefaults())
    assert settings.language is Language.ES and settings.turn_minutes == 3
    assert (settings.images, settings.threads, settings.leaderboard_min_games) == (False, True, 6)
    assert settings.stored == {"language", "turn_minutes", "images", "threads",
                               "leaderboard_min_games"}


async def test_a_host_tool_refusal_comes_in_the_users_language(table: Table) -> None:
    ia = table.interaction(ANA)
    await invoke(GameCog.new, table.cog, ia, game="count")
    session = table.manager.in_channel(100)
    assert session is not None and session.status is Status.LOBBY
    spanish = table.interaction(BEN, ia.last.message, locale=discord.Locale.spain_spanish)
    await click(spanish, f"tb:host:remove:{session.id}", values=[str(ANA.id)])
    assert spanish.last.ephemeral and spanish.last.content == "Solo el anfitrión puede hacer eso."


async def test_at_most_25_game_channels(table: Table) -> None:
    for channel_id in range(1000, 1025):
        await configure(table, add_channel=text_channel(table.client.channel(channel_id)))
    stored = await table.manager.store.guild_settings(1)
    ia = await configure(table, add_channel=text_channel(table.client.channel(2000)))
    assert ia.last.content == "A server may name at most 25 game channels."
    assert await table.manager.store.guild_settings(1) == stored
    assert len(stored[CHANNELS].split(",")) == 25


async def test_integers_out_of_range_are_refused_and_not_stored(table: Table) -> None:
    """Discord keeps the options in range; a forged command need not (issue 34)."""
    for options in ({"turn_minutes": 10**9}, {"turn_minutes": -1}, {"turn_minutes": "5"},
                    {"leaderboard_min_games": -5}, {"leaderboard_min_games": 0},
                    {"leaderboard_min_games": True}):
        ia = await configure(table, **options)
        assert "must be" in (ia.last.content or ""), options
        assert "Changed" not in (ia.last.content or "")
    assert await table.manager.store.guild_settings(1) == {}
    ia = table.interaction(ANA, permissions=MANAGE, locale=discord.Locale.spain_spanish)
    await invoke(ConfigCog.config, ConfigCog(), ia, leaderboard_min_games=500)
    assert ia.last.ephemeral and ia.last.content == ES.gettext(
        "The rated games before a player is ranked must be from 1 to {most}.", most="100")


async def test_another_servers_channel_is_refused(table: Table) -> None:
    elsewhere = cast(discord.TextChannel, SimpleNamespace(id=555, guild=SimpleNamespace(id=2)))
    ia = await configure(table, add_channel=elsewhere)
    assert ia.last.content == "That channel is not in this server; name one of its own channels."
    assert await table.manager.store.guild_settings(1) == {}


async def test_a_setting_given_its_own_value_is_said_unchanged(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    await configure(table, images=choice("off"))
    with caplog.at_level(logging.INFO, logger="cogs.settings.config_command"):
        again = (await configure(table, images=choice("off"))).last.content or ""
    assert again.splitlines()[0] == "Tables drawn as images: unchanged (off)"
    assert "→" not in again and "changed from" not in caplog.text
    minutes = (await configure(table, turn_minutes=0)).last.content or ""  # off by default
    assert minutes.splitlines()[0] == "Turn clock of a new game: unchanged (off)"
