"""A command registration Discord refuses: named in one ERROR line, never fatal, retried."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.process.client import TREE_HASH_KEY, TableBot
from bot.process.env_settings import Settings
from bot.process.sync_refusal import refusal_text
from bot.store import open_store

GOOD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"

PAYLOAD: list[dict[str, Any]] = [
    {"name": "rules", "type": 1},
    {"name": "game", "type": 1, "options": [
        {"name": "new", "type": 1, "options": [{"name": "game", "type": 3}]},
        {"name": "export", "type": 1, "options": [{"name": "session", "type": 4}]},
    ]},
]


def _error(code: str, message: str) -> dict[str, Any]:
    return {"_errors": [{"code": code, "message": message}]}


def test_indexes_are_named_from_the_payload() -> None:
    errors = {"1": {"options": {"1": {"options": {"0": {
        "max_value": _error("NUMBER_TYPE_MAX", "int53 out of range")}}}}}}
    assert refusal_text(errors, PAYLOAD) == (
        "/game export, option session, field max_value: NUMBER_TYPE_MAX int53 out of range"
    )


def test_several_fields_and_a_command_level_field() -> None:
    errors = {
        "0": {"name_localizations": {"es": _error("LOCALE_INVALID", "Invalid locale")}},
        "1": {"options": {"0": {"description": _error("BASE_TYPE_REQUIRED", "required")}}},
    }
    assert refusal_text(errors, PAYLOAD) == (
        "/rules, field name_localizations.es: LOCALE_INVALID Invalid locale; "
        "/game new, field description: BASE_TYPE_REQUIRED required"
    )


def test_an_index_beyond_the_payload_is_shown_as_a_path() -> None:
    errors = {"7": {"name": _error("X", "bad")}, "_errors": [{"code": "Y", "message": "all"}]}
    assert refusal_text(errors, PAYLOAD) == "field 7.name: X bad; field (the registration): Y all"


def _refusal(errors: dict[str, Any]) -> app_commands.CommandSyncFailure:
    response = SimpleNamespace(status=400, reason="Bad Request")
    http = discord.HTTPException(
        response,  # type: ignore[arg-type]
        {"code": 50035, "message": "Invalid Form Body", "errors": errors},
    )
    return app_commands.CommandSyncFailure(http, [])


async def test_a_refused_global_sync_logs_one_error_and_is_tried_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(discord_token=GOOD_TOKEN, database_path=tmp_path / "db.sqlite3",
                        _env_file=None)  # type: ignore[call-arg]
    bot = TableBot(settings, engines={})
    bot.store = await open_store(settings.database_path)
    refuse = True
    attempts: list[object] = []

    @bot.tree.command(name="game", description="d")
    async def game(interaction: discord.Interaction, session: int) -> None:
        """Stands for /game."""

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[object]:
        attempts.append(guild)
        if refuse:
            raise _refusal({"0": {"options": {"0": {
                "max_value": _error("NUMBER_TYPE_MAX", "int53 out of range")}}}})
        return []

    bot.tree.sync = fake_sync  # type: ignore[method-assign]
    try:
        with caplog.at_level(logging.INFO, logger="bot.process.client"):
            assert await bot.sync_commands() is False
        errors = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(errors) == 1
        assert "/game, option session, field max_value: NUMBER_TYPE_MAX" in errors[0].message
        assert await bot.store.get_meta(TREE_HASH_KEY) is None  # not recorded as synced
        refuse = False
        assert await bot.sync_commands() is True  # the next start tries again
        assert await bot.store.get_meta(TREE_HASH_KEY) == bot.command_tree_hash()
        assert attempts == [None, None]
    finally:
        await bot.close()


async def test_an_unreachable_discord_does_not_stop_a_guild_sync(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(discord_token=GOOD_TOKEN, database_path=tmp_path / "db.sqlite3",
                        dev_guild_id=123, _env_file=None)  # type: ignore[call-arg]
    bot = TableBot(settings, engines={})
    bot.store = await open_store(settings.database_path)

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[object]:
        raise discord.DiscordServerError(SimpleNamespace(status=503, reason="Unavailable"),
                                         "upstream")  # type: ignore[arg-type]

    bot.tree.sync = fake_sync  # type: ignore[method-assign]
    try:
        with caplog.at_level(logging.ERROR, logger="bot.process.client"):
            assert await bot.sync_commands() is False
        assert [r.levelno for r in caplog.records] == [logging.ERROR]
        assert "HTTP 503" in caplog.records[0].message
    finally:
        await bot.close()
