"""``bot.ops`` without Discord: the REST trace's routes and counts, interaction outcomes,
``/healthz`` in every state, the JSON log format, the kept errors, the settings, backups and
the lock that keeps a restore away from a running bot."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import sqlite3
from pathlib import Path

import pytest
from multidict import CIMultiDict

from bot.backups.copies import (
    BackupError,
    backup_sqlite,
    pg_dump_command,
    pg_restore_command,
    restore_sqlite,
    verify,
)
from bot.ops import log_context, outcomes
from bot.ops.error_log import ErrorLog
from bot.ops.file_lock import FileBusy, FileLock, hold_for_bot
from bot.ops.health import OWNER, STANDBY, STARTING, Health
from bot.ops.json_logs import JsonFormatter
from bot.ops.metrics import Metrics
from bot.ops.rest_trace import DISCORD_EPOCH, counts_globally, record, route_of
from bot.process.env_settings import load_settings
from bot.records.errors import ConfigError
from bot.store import open_store

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.mark.parametrize(("path", "route", "global_limit"), [
    ("/api/v10/channels/123456789012345678/messages", "/channels/{id}/messages", True),
    ("/api/v10/channels/123456789012345678/messages/223456789012345678",
     "/channels/{id}/messages/{id}", True),
    ("/api/v10/interactions/123456789012345678/aW50ZXJhY3Rpb246dG9rZW4/callback",
     "/interactions/{id}/{token}/callback", False),
    ("/api/v10/webhooks/123456789012345678/aW50ZXJhY3Rpb24/messages/@original",
     "/webhooks/{id}/{token}/messages/@original", False),
    ("/api/v10/applications/123456789012345678/guilds/223456789012345678/commands",
     "/applications/{id}/guilds/{id}/commands", True),
    ("/api/v10/users/@me", "/users/@me", True),
])
def test_routes_are_templates_and_interaction_endpoints_are_outside_the_global_limit(
    path: str, route: str, global_limit: bool
) -> None:
    assert route_of(path) == route
    assert counts_globally(route) is global_limit


def _route_by_parts(path: str) -> str | None:
    """``route_of`` as it was before issue 42's fifth pass (a loop over the parts): the
    oracle of the two substitutions that replaced it."""
    import re

    found = re.search(r"/api/v\d+(/.*)$", path)
    if found is None:
        return None
    parts = found.group(1).split("/")
    shaped = []
    for index, part in enumerate(parts):
        before = parts[index - 2] if index >= 2 else ""
        if index == 3 and before in ("interactions", "webhooks"):
            shaped.append("{token}")
        elif re.fullmatch(r"[0-9]{5,20}", part):
            shaped.append("{id}")
        else:
            shaped.append(part)
    return "/".join(shaped)


def test_route_of_shapes_every_path_as_the_loop_over_its_parts_did() -> None:
    import random

    rng = random.Random(42)
    pieces = ["interactions", "webhooks", "channels", "messages", "@original", "callback",
              "", "1234", "12345", "12345678901234567890", "123456789012345678901",
              "aW50ZXJhY3Rpb24", "9" * 18, "x12345", "12345x", "users", "@me", "v10"]
    paths = ["/api/v10", "/api/v10/", "/gateway", "/api/v9/interactions/1/2",
             "/api/v10/interactions/123456789012345678", "/api/v10/interactions/12345/",
             "/api/v10/webhooks//tok/messages/123456"]
    for _ in range(3000):
        parts = [rng.choice(pieces) for _ in range(rng.randint(0, 7))]
        paths.append(f"/api/v{rng.choice(['10', '9'])}/" + "/".join(parts))
    for path in paths:
        assert route_of(path) == _route_by_parts(path), path


def test_paths_outside_the_api_are_not_counted() -> None:
    metrics = Metrics()
    record(metrics, "GET", "/attachments/1/2/table.png", 200)
    record(metrics, "GET", "/", 101)  # the gateway
    assert metrics.total("tablebot_rest_calls_total") == 0


def test_each_attempt_and_each_429_is_counted_by_scope() -> None:
    metrics = Metrics()
    path = "/api/v10/channels/123456789012345678/messages"
    record(metrics, "POST", path, 429, CIMultiDict({"X-RateLimit-Scope": "user"}))
    record(metrics, "POST", path, 429, CIMultiDict({"X-RateLimit-Global": "true"}))
    record(metrics, "POST", path, 200, CIMultiDict())
    record(metrics, "POST", path, None)  # no answer (connection error): still an attempt
    labels = {"route": "POST /channels/{id}/messages", "global_limit": "true"}
    assert metrics.value("tablebot_rest_calls_total", labels) == 4
    assert metrics.value("tablebot_rest_429_total", {"scope": "user"}) == 1
    assert metrics.value("tablebot_rest_429_total", {"scope": "global"}) == 1


def test_an_answered_callback_is_the_acknowledgement_timed_from_the_interaction_id() -> None:
    metrics = Metrics()
    created = DISCORD_EPOCH + 1_000_000.0
    snowflake = int((created - DISCORD_EPOCH) * 1000) << 22
    path = f"/api/v10/interactions/{snowflake}/token/callback"
    record(metrics, "POST", path, 204, CIMultiDict(), now=created + 0.4)
    record(metrics, "POST", path, 400, CIMultiDict(), now=created + 9)  # refused: no ack
    record(metrics, "PATCH", "/api/v10/webhooks/1/token/messages/@original", 200, CIMultiDict(),
           now=created + 9)
    assert metrics.value("tablebot_interaction_ack_seconds_count") == 1
    assert metrics.value("tablebot_interaction_ack_seconds_bucket", {"le": "0.25"}) == 0
    assert metrics.value("tablebot_interaction_ack_seconds_bucket", {"le": "0.5"}) == 1


def test_an_outcome_is_counted_once_and_an_error_wins_over_a_refusal() -> None:
    metrics = Metrics()
    plain: dict[str, object] = {}
    assert outcomes.finish(plain, "component", metrics) == "answered"
    assert outcomes.finish(plain, "component", metrics) == "answered"
    refused: dict[str, object] = {}
    outcomes.mark(refused, outcomes.REFUSED)
    outcomes.finish(refused, "command", metrics)
    failed: dict[str, object] = {}
    outcomes.mark(failed, outcomes.FAILED)
    outcomes.mark(failed, outcomes.REFUSED)
    outcomes.finish(failed, "command", metrics)

    def count(kind: str, outcome: str) -> float:
        return metrics.value("tablebot_interactions_total", {"kind": kind, "outcome": outcome})

    assert count("component", "answered") == 1
    assert count("command", "refused") == 1 and count("command", "failed") == 1


def test_live_sessions_latency_and_queue_are_read_at_scrape_time() -> None:
    metrics = Metrics()
    live = {("split", "active"): 2, ("ten", "lobby"): 1}
    metrics.watch(live=lambda: live, latencies=lambda: {0: 0.042, 1: 0.05},
                  publish_queue=lambda: 3)
    text = metrics.render().decode()
    assert 'tablebot_live_sessions{game="split",status="active"} 2.0' in text
    assert 'tablebot_gateway_latency_seconds{shard="1"} 0.05' in text
    assert "tablebot_publish_queue 3.0" in text
    live[("split", "active")] = 0
    assert metrics.value("tablebot_live_sessions", {"game": "split", "status": "active"}) == 0


# --- /healthz -------------------------------------------------------------------------------


async def _answers() -> None:
    return None


async def test_healthy_when_owner_connected_and_the_database_answers(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "h.sqlite3")
    try:
        health = Health(role=OWNER, shards=lambda: {0: True}, expected_shards=(0,),
                        database=lambda: store.query("SELECT 1"),
                        sqlite_path=tmp_path / "h.sqlite3", lease_lost=asyncio.Event())
        assert await health.check() == (200, {"role": "owner", "shards": {"0": "connected"},
                                              "database": "ok", "status": "ok"})
    finally:
        await store.close()


async def test_a_standby_is_healthy_and_says_so() -> None:
    assert await Health(role=STANDBY).check() == (200, {"role": "standby", "status": "ok"})


async def test_a_starting_process_is_not_healthy_yet() -> None:
    status, body = await Health(role=STARTING, expected_shards=(0,)).check()
    assert status == 503
    assert body["problems"] == ["process is starting", "not connected to Discord yet",
                                "database: not open yet"]
    assert body["shards"] == {"0": "disconnected"}


async def test_a_missing_shard_a_lost_lease_and_a_slow_database_are_named() -> None:
    async def slow() -> None:
        await asyncio.sleep(30)

    lost = asyncio.Event()
    lost.set()
    health = Health(role=OWNER, shards=lambda: {2: True}, expected_shards=(2, 3),
                    database=slow, lease_lost=lost)
    status, body = await health.check()
    assert status == 503
    assert body["shards"] == {"2": "connected", "3": "disconnected"}
    assert body["problems"] == ["lease of the shard set is lost",
                                "shard(s) 3 disconnected from the gateway",
                                "database: no answer within 1 s"]


async def test_a_closed_store_and_a_moved_file_are_a_database_gone(tmp_path: Path) -> None:
    path = tmp_path / "gone.sqlite3"
    store = await open_store(path)
    health = Health(role=OWNER, shards=lambda: {0: True}, expected_shards=(0,),
                    database=lambda: store.query("SELECT 1"), sqlite_path=path)
    path.rename(tmp_path / "elsewhere.sqlite3")
    status, body = await health.check()
    assert status == 503 and body["database"].startswith("OperationalError"), body
    (tmp_path / "elsewhere.sqlite3").rename(path)
    assert (await health.check())[0] == 200
    await store.close()
    status, body = await health.check()
    assert status == 503 and body["database"] != "ok", body


# --- logs -------------------------------------------------------------------------------------


def test_json_lines_carry_the_context_and_the_traceback() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("tests.ops.json")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        async def in_a_task() -> None:
            with log_context.bound(guild=1, channel=2, session=3, shard=0):
                started = asyncio.create_task(inherits())
                logger.warning("session %s: plain words", 3)
            logger.warning("after the block: no context")
            await started

        async def inherits() -> None:
            logger.warning("a task started in the block")

        asyncio.run(in_a_task())
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("with a traceback")
    finally:
        logger.removeHandler(handler)
    first, after, child, third = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["message"] == "session 3: plain words" and first["level"] == "WARNING"
    assert (first["guild"], first["channel"], first["session"], first["shard"]) == (1, 2, 3, 0)
    assert first["logger"] == "tests.ops.json" and first["time"].endswith("Z")
    assert "guild" not in after and "session" not in after  # the block ended
    assert (child["session"], child["guild"]) == (3, 1)  # a task inherits what was bound
    assert third["exc"].startswith("Traceback") and "ValueError: boom" in third["exc"]


def test_the_error_log_keeps_the_last_errors_shortened() -> None:
    errors = ErrorLog()
    logger = logging.getLogger("tests.ops.errors")
    logger.addHandler(errors)
    logger.propagate = False
    try:
        logger.warning("not kept")
        for number in range(25):
            logger.error("error %d\nsecond line", number)
        logger.error("x" * 400)
    finally:
        logger.removeHandler(errors)
    assert errors.count == 26 and len(errors.recent) == 20
    assert errors.recent[0].message == "error 6"
    assert len(errors.recent[-1].message) == 150 and errors.recent[-1].message.endswith("…")
    assert errors.since(60) == 20 and errors.since(60, now=errors.recent[-1].at + 120) == 0


def test_the_error_log_keeps_a_malformed_record_as_written() -> None:
    errors = ErrorLog()
    for msg, args in (("%d of them", ("many",)), ("%(who)s left", ({"whom": 1},)),
                      ("two %s", ("a", "b")), ("bad %y", (1,))):
        errors.handle(logging.LogRecord("tests.ops.errors", logging.ERROR, __file__, 1, msg,
                                        args, None))
    assert [error.message for error in errors.recent] == [
        "%d of them", "%(who)s left", "two %s", "bad %y"]


# --- settings ---------------------------------------------------------------------------------


def test_the_endpoint_is_off_by_default_and_bound_to_localhost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    settings = load_settings(env_file=None)
    assert settings.http_port is None and settings.http_host == "127.0.0.1"
    assert (settings.log_format, settings.event_loop) == ("text", "uvloop")
    monkeypatch.setenv("HTTP_PORT", "9100")
    monkeypatch.setenv("LOG_FORMAT", "JSON")
    monkeypatch.setenv("EVENT_LOOP", " Asyncio")
    settings = load_settings(env_file=None)
    assert (settings.http_port, settings.log_format, settings.event_loop) == (
        9100, "json", "asyncio")


@pytest.mark.parametrize(("name", "value", "problem"), [
    ("HTTP_PORT", "70000", "HTTP_PORT is invalid"),
    ("HTTP_PORT", "web", "HTTP_PORT is invalid"),
    ("LOG_FORMAT", "xml", "LOG_FORMAT is invalid: Value error, use text or json"),
    ("EVENT_LOOP", "trio", "EVENT_LOOP is invalid: Value error, use uvloop or asyncio"),
])
def test_a_bad_endpoint_or_log_setting_is_a_configuration_error(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, problem: str
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=problem):
        load_settings(env_file=None)


# --- backups ----------------------------------------------------------------------------------


async def test_a_backup_of_a_live_database_is_a_consistent_verified_copy(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    store = await open_store(path)  # WAL, an open connection: a running bot
    try:
        await store.set_meta("marker", "before")
        copied = await asyncio.to_thread(backup_sqlite, path, tmp_path / "copy.sqlite3")
        await store.set_meta("marker", "after")
    finally:
        await store.close()
    assert copied.rows["meta"] >= 1 and "sessions" in copied.rows
    conn = sqlite3.connect(tmp_path / "copy.sqlite3")
    try:
        assert conn.execute("SELECT value FROM meta WHERE key = 'marker'").fetchone() == ("before",)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    finally:
        conn.close()
    with pytest.raises(BackupError, match="exists already"):
        backup_sqlite(path, tmp_path / "copy.sqlite3")
    assert sorted(p.name for p in tmp_path.iterdir() if "partial" in p.name) == []


def test_a_file_that_is_not_a_tablebot_database_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(BackupError, match="not a tablebot database"):
        verify(other)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(BackupError, match="not a readable SQLite database"):
        verify(junk)
    with pytest.raises(BackupError, match="not a tablebot database"):
        restore_sqlite(other, tmp_path / "target.sqlite3")
    assert not (tmp_path / "target.sqlite3").exists()


def test_a_restore_cannot_take_the_file_while_a_bot_holds_it(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    bot = hold_for_bot(database)
    second = hold_for_bot(database)  # two bots may share it (nothing changes for them)
    with pytest.raises(FileBusy):
        FileLock.hold(database, shared=False)
    bot.release()
    second.release()
    restore = FileLock.hold(database, shared=False)
    with pytest.raises(ConfigError, match="is being restored"):
        hold_for_bot(database)
    restore.release()
    hold_for_bot(database).release()


def test_postgres_commands_leave_the_password_out() -> None:
    line, hidden = pg_dump_command("postgresql://bot:s3cret@db.example:5432/tablebot", "b.dump")
    assert hidden and "s3cret" not in line
    assert line == ("pg_dump --format=custom --file=b.dump"
                    " --dbname=postgresql://bot@db.example:5432/tablebot")
    line, hidden = pg_restore_command("postgresql://bot@/tablebot?host=/run/pg&password=x", "b")
    assert hidden and "password" not in line and "host=%2Frun%2Fpg" in line
    line, hidden = pg_dump_command("postgresql://bot@localhost/tablebot", "b.dump")
    assert not hidden


# --- the service's exit codes ---------------------------------------------------------------


def test_the_systemd_unit_restarts_on_every_failure_but_a_configuration_error() -> None:
    from bot.__main__ import LEASE_LOST_EXIT

    unit = (Path(__file__).parents[2] / "docs" / "tablebot.service").read_text()
    settings = dict(line.split("=", 1) for line in unit.splitlines()
                    if "=" in line and not line.startswith("#"))
    assert settings["Restart"] == "on-failure"  # any code but 0, and a death by signal
    assert settings["RestartPreventExitStatus"].split() == ["2"]
    assert LEASE_LOST_EXIT == 3 and settings["ExecStart"].endswith("python -m bot")


def test_the_bot_exits_2_while_a_restore_holds_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import main

    database = tmp_path / "db.sqlite3"
    monkeypatch.chdir(tmp_path)  # no .env of the checkout
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    restore = FileLock.hold(database, shared=False)
    try:
        assert main() == 2
    finally:
        restore.release()
    assert "is being restored" in capsys.readouterr().err


async def test_a_port_in_use_is_a_configuration_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    from bot.__main__ import run

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    monkeypatch.setenv("HTTP_PORT", str(taken.getsockname()[1]))
    try:
        with pytest.raises(ConfigError, match=r"HTTP_PORT: cannot listen on 127\.0\.0\.1"):
            await run(load_settings(env_file=None))
    finally:
        taken.close()


def test_a_labelled_child_is_looked_up_once_and_counts_as_labels_would() -> None:
    metrics = Metrics()
    child = metrics.child(metrics.interactions, kind="component", outcome="answered")
    assert metrics.child(metrics.interactions, kind="component", outcome="answered") is child
    assert child is metrics.interactions.labels(kind="component", outcome="answered")
    other = metrics.child(metrics.interactions, kind="command", outcome="answered")
    assert other is not child
    child.inc()
    assert metrics.value("tablebot_interactions_total",
                         {"kind": "component", "outcome": "answered"}) == 1
    with metrics.timed(metrics.store_write):
        pass
    assert metrics.value("tablebot_store_write_seconds_count") == 1


def test_the_children_held_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.ops import metrics as metrics_module

    monkeypatch.setattr(metrics_module, "CHILDREN_KEPT", 3)
    metrics = Metrics()
    for number in range(10):
        metrics.child(metrics.actions_stored, game=f"g{number}").inc()
    assert len(metrics._children) == 3
    assert metrics.value("tablebot_actions_stored_total", {"game": "g9"}) == 1


def test_bound_nests_and_restores_as_before() -> None:
    with log_context.bound(guild=1, session=2):
        with log_context.bound(session=3, shard=0):
            assert log_context.current() == {"guild": 1, "session": 3, "shard": 0}
        assert log_context.current() == {"guild": 1, "session": 2}
    assert log_context.current() == {}
