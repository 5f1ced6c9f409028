"""Which database the process opens, read from the environment and ``.env`` (the part of the
process settings, ``bot.process.env_settings``, that tools without a Discord token read too:
``python -m bot.backup``, ``python -m bot.rankings.rebuild_ratings``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.records.errors import ConfigError
from bot.store.database_url import SQLITE_PREFIX, DatabaseUrl, parse_database_url

DEFAULT_DATABASE_PATH = Path("data/tablebot.sqlite3")
_Loaded = TypeVar("_Loaded", bound=BaseSettings)


class DatabaseSettings(BaseSettings):
    """Which database: ``DATABASE_URL`` (``sqlite:///path`` or ``postgresql://...``), or the
    older ``DATABASE_PATH`` (a SQLite file; an alias, used when DATABASE_URL is not set)."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    database_url: str | None = None
    database_path: Path = DEFAULT_DATABASE_PATH

    @field_validator("database_url")
    @classmethod
    def _url_shape(cls, value: str | None) -> str | None:
        if value is not None:
            parse_database_url(value)  # the ValueError names the problem, never a password
        return value

    @model_validator(mode="after")
    def _one_database(self) -> DatabaseSettings:
        if self.database_url is None:
            self.database_url = f"{SQLITE_PREFIX}{self.database_path}"
        elif (url := self.database).backend == "sqlite" and url.path is not None:
            self.database_path = url.path  # DATABASE_URL wins; the path follows it
        return self

    @property
    def database(self) -> DatabaseUrl:
        assert self.database_url is not None
        return parse_database_url(self.database_url)


def load_database_settings(env_file: str | Path | None = ".env") -> DatabaseSettings:
    """Only the database settings (for tools such as ``python -m bot.rankings.rebuild_ratings``)."""
    return load_env(DatabaseSettings, env_file)


def load_env(kind: type[_Loaded], env_file: str | Path | None,
             hints: Mapping[str, str] | None = None) -> _Loaded:
    """``kind`` read from the environment and ``env_file``; a missing or malformed value
    raises ConfigError with one clear line (never the value: it may be a secret). ``hints``:
    what to do instead, by the name of a setting that is missing."""
    try:
        return kind(_env_file=env_file)
    except ValidationError as err:
        problems = []
        for error in err.errors():
            name = ".".join(str(part) for part in error["loc"]).upper() or "settings"
            if error["type"] == "missing":
                problems.append(f"{name} is not set (put it in the environment or .env)"
                                + (hints or {}).get(name, ""))
            else:
                # The message, never the input: the input may be a secret.
                problems.append(f"{name} is invalid: {error['msg']}")
        raise ConfigError("; ".join(problems)) from None
