"""What ``tree.sync`` sends: every command, option and choice of the real bot carries its
es-ES and es-419 localisations (the catalog translator installed by the table extension)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
from pydantic import SecretStr

from bot.process.client import TableBot
from bot.process.env_settings import Settings
from tests.testgame import CountEngine

SPANISH = {"es-ES", "es-419"}
SAME_IN_SPANISH = ("normal", "arena")  # choice names whose Spanish is the English word


Place = tuple[str, str, dict[str, str]]


def localised(payload: dict[str, Any], path: str = "") -> Iterator[Place]:
    """(where, key, localisations) of every name and description in a command payload."""
    where = f"{path}/{payload['name']}"
    yield where, "name", payload.get("name_localizations") or {}
    if "description" in payload:
        yield where, "description", payload.get("description_localizations") or {}
    for choice in payload.get("choices") or []:
        yield f"{where}={choice['name']}", "choice", choice.get("name_localizations") or {}
    for option in payload.get("options") or []:
        yield from localised(option, where)


async def test_synced_commands_carry_spanish_localisations(tmp_path: Path) -> None:
    settings = Settings(discord_token=SecretStr("fake.discord.token"),
                        database_path=tmp_path / "db.sqlite3", dev_guild_id=1,
                        _env_file=None)  # type: ignore[call-arg]
    bot = TableBot(settings, engines={"count": CountEngine()})
    sent: list[list[dict[str, Any]]] = []

    async def fake_sync(*, guild: discord.abc.Snowflake | None = None) -> list[object]:
        translator = bot.tree.translator
        assert translator is not None  # installed before the sync
        sent.append([await command.get_translated_payload(bot.tree, translator)
                     for command in bot.tree.get_commands(guild=guild)])
        return []

    bot.tree.sync = fake_sync  # type: ignore[method-assign]
    try:
        await bot.setup_hook()
    finally:
        await bot.close()
    (payloads,) = sent
    names = {payload["name"] for payload in payloads}
    assert names == {
        "game", "rules", "leaderboard", "stats", "history", "config", "language", "images",
        "admin", "daily", "learn", "event",
    }
    places = [entry for payload in payloads for entry in localised(payload)]
    assert len(places) > 75, len(places)
    # A Spanish word spelled as the English one ("normal") needs no localisation: Discord shows
    # the English, which reads the same.
    same = {f"={text}" for text in SAME_IN_SPANISH}
    untranslated = [(where, key) for where, key, found in places
                    if set(found) != SPANISH and not any(where.endswith(s) for s in same)]
    assert untranslated == []
    game = next(p for p in payloads if p["name"] == "game")
    assert game["name_localizations"] == {"es-ES": "partida", "es-419": "partida"}
    new = next(o for o in game["options"] if o["name"] == "new")
    spanish = "Abre una sala para una partida en este canal"
    assert new["description_localizations"]["es-419"] == spanish
