from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import discord
import pytest

from bot.process.client import TableBot, bot_intents
from bot.process.env_settings import Settings, load_settings
from bot.records.errors import ConfigError
from bot.store import open_store

REPO = Path(__file__).resolve().parents[2]
GOOD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    base["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env={**base, **env},
        capture_output=True, text=True, timeout=60,
    )


def test_missing_token_exits_2_with_one_line(tmp_path: Path) -> None:
    proc = run_bot(tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "DISCORD_TOKEN is not set" in proc.stderr
    assert "python -m bot.playground" in proc.stderr  # the way to try it without a token


def test_malformed_token_exits_2_without_echoing_it(tmp_path: Path) -> None:
    proc = run_bot(tmp_path, DISCORD_TOKEN="not-a-token-secret")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "DISCORD_TOKEN is invalid" in proc.stderr
    assert "not-a-token-secret" not in proc.stderr


def test_unwritable_database_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    proc = run_bot(tmp_path, DISCORD_TOKEN=GOOD_TOKEN, DATABASE_PATH=str(blocker / "db.sqlite3"))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "DATABASE_PATH" in proc.stderr


def test_settings_read_env_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "SESSION_IDLE_DAYS",
                 "GAME_SEED"):
        monkeypatch.delenv(name, raising=False)
    env = tmp_path / ".env"
    env.write_text(
        f"DISCORD_TOKEN={GOOD_TOKEN}\nDEV_GUILD_ID=\nSESSION_IDLE_DAYS=3\nGAME_SEED=\n"
    )
    settings = load_settings(env)
    assert settings.discord_token.get_secret_value() == GOOD_TOKEN
    assert settings.dev_guild_id is None and settings.game_seed is None
    env.write_text(f"DISCORD_TOKEN={GOOD_TOKEN}\nGAME_SEED=77\n")
    assert load_settings(env).game_seed == 77
    env.write_text(f"DISCORD_TOKEN={GOOD_TOKEN}\nDEV_GUILD_ID=\nSESSION_IDLE_DAYS=3\n")
    settings = load_settings(env)
    assert settings.session_idle_days == 3
    assert settings.database_path == Path("data/tablebot.sqlite3")
    env.write_text("DISCORD_TOKEN=a.b\n")
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is invalid"):
        load_settings(env)


def test_no_privileged_intents() -> None:
    intents = bot_intents()
    assert not intents.members and not intents.presences and not intents.message_content
    assert intents.guilds
    # Guild messages (not privileged): the messages below a table are counted, by id only.
    assert intents.guild_messages and not intents.dm_messages


async def test_global_sync_only_when_tree_changed(tmp_path: Path) -> None:
    from cogs.commands.game_commands import GameCog
    from cogs.table_services import TableServices
    from cogs.ui_registry import GameUIs

    settings = Settings(discord_token=GOOD_TOKEN, database_path=tmp_path / "db.sqlite3",
                        _env_file=None)  # type: ignore[call-arg]
    bot = TableBot(settings, engines={})
    bot.store = await open_store(settings.database_path)
    synced: list[object] = []

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[object]:
        synced.append(guild)
        return []

    bot.tree.sync = fake_sync  # type: ignore[method-assign]
    try:
        await bot.add_cog(GameCog(TableServices(GameUIs({}))))
        assert await bot.sync_commands() is True
        assert await bot.sync_commands() is False
        bot.tree.remove_command("rules")
        assert await bot.sync_commands() is True
        assert synced == [None, None]
    finally:
        await bot.close()  # closes the store too


async def test_setup_hook_restores_loads_cogs_and_registers_components(tmp_path: Path) -> None:
    from cogs.daily.commands import ShareButton
    from cogs.events.controls import EventButton
    from cogs.kit.custom_ids import ActButton, HintButton, ReviewButton
    from cogs.leaderboard.commands import LeaderboardPageButton
    from cogs.table_services import table_of
    from tests.testgame import CountEngine

    settings = Settings(discord_token=GOOD_TOKEN, database_path=tmp_path / "db.sqlite3",
                        dev_guild_id=123, _env_file=None)  # type: ignore[call-arg]
    bot = TableBot(settings, engines={"count": CountEngine()})
    synced: list[object] = []

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[object]:
        synced.append(guild.id if guild else None)
        return []

    bot.tree.sync = fake_sync  # type: ignore[method-assign]
    try:
        await bot.setup_hook()
        assert synced == [123]
        assert bot.get_cog("GameCog") is not None
        assert {c.name for c in bot.tree.get_commands()} == {
            "game", "rules", "leaderboard", "stats", "history", "config", "images", "language",
            "admin", "daily", "learn", "event",
        }
        # Each control kind registered once with its click: the table's and each feature's
        # (cogs.features), whose names the table keeps in loading order.
        registered = set(bot._connection._view_store._dynamic_items.values())
        assert len(registered) == 16
        features = table_of(bot).features
        for drawn in (ActButton, HintButton, ReviewButton, ShareButton, LeaderboardPageButton,
                      EventButton):
            assert drawn in registered and features.click(drawn.kind) is not None
        assert bot.dispatch_control is not None
        assert features.names == [
            "table", "hints", "reviews", "learn", "daily", "leaderboard", "events"]
        assert bot.daily.clock == bot.clock  # the daily deal shares the process's clock
        assert bot.leaderboards.min_games == 3
        assert bot.manager.engines.keys() == {"count"}
        # The leaderboard extension posts the ends of seasons; everything shares one clock.
        from cogs.seasons.season_announcer import SeasonAnnouncer
        assert isinstance(bot.season_watcher.notifier, SeasonAnnouncer)
        assert bot.season_watcher.games == ("count",)
        assert bot.manager.clock == bot.clock == bot.season_watcher.clock
        assert bot.leaderboards.clock == bot.clock
    finally:
        await bot.close()


async def test_the_clock_offset_shifts_the_process_clock(tmp_path: Path) -> None:
    from bot.records.session import utcnow

    settings = Settings(discord_token=GOOD_TOKEN, database_path=tmp_path / "db.sqlite3",
                        clock_offset_seconds=86_400, _env_file=None)  # type: ignore[call-arg]
    bot = TableBot(settings, engines={})
    try:
        before = utcnow()
        assert bot.clock() - before >= timedelta(days=1)
    finally:
        await bot.close()


async def test_the_client_pings_nobody_by_default(tmp_path: Path) -> None:
    settings = Settings(discord_token=GOOD_TOKEN, database_path=tmp_path / "db.sqlite3",
                        _env_file=None)  # type: ignore[call-arg]
    bot = TableBot(settings, engines={})
    try:
        assert bot.allowed_mentions is not None
        assert bot.allowed_mentions.to_dict() == {"parse": []}
    finally:
        await bot.close()
