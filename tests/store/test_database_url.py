"""DATABASE_URL: parsing, the DATABASE_PATH alias, and a malformed URL stopping the process
with one line (exit code 2) that never shows a password."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.process.env_settings import Settings
from bot.records.errors import ConfigError
from bot.store.database_settings import load_database_settings
from bot.store.database_url import DatabaseUrl, open_target, parse_database_url
from tests.bot.test_process import GOOD_TOKEN, run_bot


@pytest.mark.parametrize(("text", "path"), [
    ("sqlite:///data/tablebot.sqlite3", Path("data/tablebot.sqlite3")),
    ("sqlite:////var/lib/tablebot/db.sqlite3", Path("/var/lib/tablebot/db.sqlite3")),
])
def test_sqlite_urls(text: str, path: Path) -> None:
    assert parse_database_url(text) == DatabaseUrl("sqlite", path=path)
    assert str(parse_database_url(text)) == text


@pytest.mark.parametrize("text", [
    "postgresql://tablebot:pw@db.internal:5432/tablebot",
    "postgres://tablebot@/tablebot?host=/run/postgresql",
    "postgresql://localhost",
])
def test_postgres_urls(text: str) -> None:
    url = parse_database_url(text)
    assert url.backend == "postgresql" and url.dsn == text


def test_a_password_never_shows_in_the_printed_url() -> None:
    url = parse_database_url("postgresql://bot:s3cret@db:5432/tablebot")
    assert "s3cret" not in str(url) and str(url) == "postgresql://bot:***@db:5432/tablebot"


@pytest.mark.parametrize(("text", "problem"), [
    ("data/tablebot.sqlite3", "no scheme"),
    ("sqlite://data.sqlite3", "three slashes"),
    ("sqlite:///", "three slashes"),
    ("mysql://db/tablebot", "unknown scheme 'mysql'"),
    ("postgresql://bot:pw@db:port/tablebot", "malformed host or port"),
    ("postgresql://db/a/b", "one database"),
    ("postgresql://db/tablebot#x", "no #fragment"),
])
def test_malformed_urls(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_database_url(text)


def test_store_open_takes_a_plain_path_as_sqlite(tmp_path: Path) -> None:
    assert open_target(str(tmp_path / "x.sqlite3")) == DatabaseUrl.sqlite(tmp_path / "x.sqlite3")
    assert open_target(tmp_path / "x.sqlite3") == DatabaseUrl.sqlite(tmp_path / "x.sqlite3")


def test_database_path_is_an_alias_and_the_url_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    default = Settings(discord_token=GOOD_TOKEN)  # type: ignore[arg-type]
    assert default.database == DatabaseUrl.sqlite("data/tablebot.sqlite3")
    aliased = Settings(discord_token=GOOD_TOKEN, database_path=Path("x/y.sqlite3"))  # type: ignore[arg-type]
    assert aliased.database_url == "sqlite:///x/y.sqlite3"
    monkeypatch.setenv("DATABASE_PATH", "ignored.sqlite3")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@db/tablebot")
    both = load_database_settings(env_file=None)
    assert both.database == DatabaseUrl("postgresql", dsn="postgresql://bot@db/tablebot")


def test_a_malformed_url_is_a_config_error_without_the_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:s3cret@db:port/x")
    with pytest.raises(ConfigError) as err:
        load_database_settings(env_file=None)
    assert str(err.value).startswith("DATABASE_URL is invalid: ")
    assert "s3cret" not in str(err.value)


def test_a_malformed_url_exits_2_with_one_line(tmp_path: Path) -> None:
    proc = run_bot(tmp_path, DISCORD_TOKEN=GOOD_TOKEN,
                   DATABASE_URL="postgresql://bot:s3cret@db:port/x")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "DATABASE_URL is invalid" in proc.stderr and "s3cret" not in proc.stderr


def test_an_unreachable_server_exits_2_with_one_line(tmp_path: Path) -> None:
    proc = run_bot(tmp_path, DISCORD_TOKEN=GOOD_TOKEN,
                   DATABASE_URL="postgresql://bot:s3cret@127.0.0.1:1/x")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "cannot connect" in proc.stderr and "s3cret" not in proc.stderr
