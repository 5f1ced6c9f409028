"""Issue 30 at the real bot (``python -m bot`` with ``HTTP_PORT=0``): the metrics move during
a game, ``/healthz`` answers 503 while the database is gone or the shard is disconnected and
200 again after, ``/admin health`` answers the owner only, ``LOG_FORMAT=json`` writes one JSON
object per line, and a backup taken during a game restores to the same rows."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from tests.e2e.ops_support import OPS_ENV, endpoint_of, healthz, scrape, total, until, value
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log
from tests.e2e.test_scenario_split import new_play

CALLBACK = "POST /interactions/{id}/{token}/callback"
# The table's edits go with the token that holds it (issue 32), out of the global limit.
# (the Start click's answer was on the table: its token edits the table as its original).
TABLE_EDIT = "PATCH /webhooks/{id}/{token}/messages/@original"


@pytest.fixture
async def ops_bot(guild: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    guild.gateway.heartbeat_interval_ms = 500  # a gateway latency within a second
    proc = BotProcess(guild, tmp_path / "bot", extra_env={**BOT_ENV, **OPS_ENV})
    try:
        await proc.start()
        await proc.wait_until(lambda: guild.commands(), 20.0, "the command sync")
        yield proc
    finally:
        await proc.close()


async def test_the_metrics_move_during_a_game_and_admin_health_answers_the_owner_only(
    guild: FakeDiscord, ops_bot: BotProcess
) -> None:
    alice, bob, carol = guild.world.users.values()  # alice owns the application
    base = await endpoint_of(ops_bot)
    before = await scrape(base)
    table = new_play(guild, ops_bot, seed=5)
    await table.open("split", alice, bob)
    during = await scrape(base)
    assert value(during, "tablebot_live_sessions", game="split", status="active") == 1
    refused = await guild.slash(carol, table.channel, "game new", game="split")
    assert refused.ephemeral  # a game is already open here
    await table.play_to_end()
    after = await until(lambda: scrape(base),
                        lambda s: value(s, "tablebot_games_finished_total", game="split") == 1,
                        10.0, "the finished game counted", ops_bot)

    def moved(name: str, **labels: str) -> float:
        return total(after, name, **labels) - total(before, name, **labels)

    assert moved("tablebot_actions_stored_total", game="split") == table.steps
    assert len(table.oracle.actions) == table.steps
    assert moved("tablebot_interactions_total", kind="command", outcome="answered") >= 1
    assert moved("tablebot_interactions_total", kind="command", outcome="refused") == 1
    assert moved("tablebot_interactions_total", kind="component", outcome="answered") \
        >= table.steps
    assert moved("tablebot_interactions_total", outcome="failed") == 0
    answered = sum(1 for r in guild.interactions if r.responded)
    assert moved("tablebot_interaction_ack_seconds_count") >= answered - 1  # the last may race
    assert moved("tablebot_interaction_ack_seconds_bucket", le="3.0") \
        == moved("tablebot_interaction_ack_seconds_count")
    assert moved("tablebot_store_write_seconds_count") >= table.steps
    assert moved("tablebot_rest_calls_total", route=CALLBACK, global_limit="false") >= answered - 1
    assert moved("tablebot_rest_calls_total", route=TABLE_EDIT, global_limit="false") > 0
    # Globally-limited calls: the whole game's, with its lobby, within 0.25 per action.
    assert moved("tablebot_global_calls_total") <= 0.25 * table.steps
    assert value(after, "tablebot_live_sessions", game="split", status="active") == 0
    latency = await until(lambda: scrape(base),
                          lambda s: ("tablebot_gateway_latency_seconds", (("shard", "0"),)) in s,
                          10.0, "a gateway latency", ops_bot)
    assert 0 <= value(latency, "tablebot_gateway_latency_seconds", shard="0") < 5

    shown = await guild.slash(alice, guild.general, "admin health")
    text = await guild.wait_for(
        lambda: shown.original_message_id
        and not guild.message(shown.original_message_id).loading
        and guild.message(shown.original_message_id).text,
        what="the health report",
    )
    assert guild.message(shown.original_message_id).ephemeral_for == alice.id
    for expected in ("**Health of this bot process**", "**Shards:** 1 of 1 connected",
                     "• shard 0: connected", "**Live games:**", "**Queues:**",
                     "**Errors logged:** 0 in the last hour", "**Rate limits:** 0 answers 429 in",
                     "**Memory:**", "**Database:** SQLite, answered in"):
        assert expected in text, text
    assert len(text) <= 2000
    for stranger in (bob, carol):
        no = await guild.slash(stranger, guild.general, "admin health")
        assert no.ephemeral and no.callback_data is not None
        assert no.callback_data["content"] == "Only the bot's owner may see its health."
    final = await scrape(base)
    assert total(final, "tablebot_interactions_total", kind="command", outcome="refused") \
        - total(after, "tablebot_interactions_total", kind="command", outcome="refused") == 2
    assert guild.unknown_routes == []
    assert_clean_log(ops_bot)


async def test_healthz_answers_503_while_the_database_is_gone_or_the_shard_is_down(
    guild: FakeDiscord, tmp_path: Path
) -> None:
    """The database "gone": its file moved away from its path (as a deleted file or a lost
    volume); the shard down: the socket cut while the gateway refuses new connections. Logs
    in JSON meanwhile."""
    bot = BotProcess(guild, tmp_path / "bot", extra_env={**OPS_ENV, "LOG_FORMAT": "json"})
    try:
        await bot.start()
        base = await endpoint_of(bot)
        status, body = await until(lambda: healthz(base), lambda a: a[0] == 200, 10.0,
                                   "a healthy answer", bot)
        assert body == {"role": "owner", "shards": {"0": "connected"}, "database": "ok",
                        "status": "ok"}

        database = bot.database_path
        away = database.with_name(database.name + ".away")
        database.rename(away)
        status, body = await healthz(base)
        assert status == 503 and body["status"] == "unhealthy", body
        assert body["database"].startswith("OperationalError"), body
        assert [p for p in body["problems"] if p.startswith("database: ")], body
        assert body["shards"] == {"0": "connected"}
        away.rename(database)
        status, body = await healthz(base)
        assert (status, body["database"]) == (200, "ok"), body

        guild.gateway.refusing = True
        await guild.drop_bot_gateway()
        status, body = await until(lambda: healthz(base), lambda a: a[0] == 503, 10.0,
                                   "an unhealthy answer after the drop", bot)
        assert body["shards"] == {"0": "disconnected"}, body
        assert "shard(s) 0 disconnected from the gateway" in body["problems"], body
        guild.gateway.refusing = False
        status, body = await until(lambda: healthz(base), lambda a: a[0] == 200, 60.0,
                                   "a healthy answer after the reconnection", bot)
        assert body["shards"] == {"0": "connected"}

        alice = next(iter(guild.world.users.values()))
        opened = await guild.slash(alice, guild.general, "game new", game="split")
        assert opened.callback_type == 4
        await bot.wait_until(lambda: "lobby opened" in bot.log_text(), 10.0, "the lobby log")
        assert await bot.terminate() == 0
    finally:
        await bot.close()
    entries = [json.loads(line) for line in bot.output]  # every line is one JSON object
    assert entries and all({"time", "level", "logger", "message"} <= set(e) for e in entries)
    lobby = next(e for e in entries if "lobby opened" in e["message"])
    assert lobby["guild"] == guild.guild_id and lobby["channel"] == guild.general.id
    assert lobby["session"] == int(lobby["message"].split()[1].rstrip(":"))
    assert lobby["level"] == "INFO" and lobby["logger"] == "bot.sessions.manager"


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(path)
    try:
        tables = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {table: sorted(conn.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
                for table in tables}
    finally:
        conn.close()


async def _tool(bot: BotProcess, module: str, *args: str) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", module, *args, cwd=bot.workdir, env=bot.env(),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode()


async def test_a_backup_taken_during_a_game_restores_to_the_same_rows(
    guild: FakeDiscord, live_bot: BotProcess, tmp_path: Path
) -> None:
    alice, bob, _ = guild.world.users.values()
    table = new_play(guild, live_bot, seed=5)
    await table.open("split", alice, bob)
    for _ in range(4):
        await table.step()
    backup = tmp_path / "backup.sqlite3"
    code, out = await _tool(live_bot, "bot.backup", str(backup))
    assert code == 0 and "backed up" in out and "actions 4" in out, out
    taken = _rows(backup)
    version = table.row().version
    assert taken == _rows(live_bot.database_path)  # between two moves: nothing written since
    assert len(taken["actions"]) == 4

    for _ in range(3):
        await table.step()
    code, out = await _tool(live_bot, "bot.restore", str(backup))
    assert code == 1 and "a bot is running on" in out, out
    assert len(_rows(live_bot.database_path)["actions"]) == 7  # nothing was touched

    assert await live_bot.terminate() == 0
    code, out = await _tool(live_bot, "bot.restore", str(backup))
    assert code == 0 and "restored" in out and "before-restore" in out, out
    assert _rows(live_bot.database_path) == taken
    kept = next(live_bot.database_path.parent.glob("*.before-restore-*[0-9]"))
    assert len(_rows(kept)["actions"]) == 7

    await live_bot.start()  # the game goes on from the backup's version
    assert table.row().version == version
    status = await guild.slash(alice, table.channel, "game status")
    shown = await guild.wait_for(
        lambda: status.original_message_id and guild.message(status.original_message_id),
        what="the status answer",
    )
    assert "There is no game" not in shown.text and "Alice" in shown.text, shown.text
    assert_clean_log(live_bot)
