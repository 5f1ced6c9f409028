"""Process settings, read from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.errors import ConfigError

# A bot token is three dot-separated base64url parts (user id, timestamp, HMAC).
_TOKEN = re.compile(r"[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]+={0,2}")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: SecretStr
    database_path: Path = Path("data/tablebot.sqlite3")
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    discord_api_base_url: str | None = None
    session_idle_days: float = Field(default=7.0, gt=0)
    turn_minutes: int = Field(default=5, ge=0, le=30)  # a new game's turn clock; 0 = off
    leaderboard_min_games: int = Field(default=3, ge=1)
    game_seed: int | None = None  # tests and replays only; never logged

    @field_validator("discord_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not _TOKEN.fullmatch(value.get_secret_value().strip()):
            raise ValueError("not three dot-separated base64url parts")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("log_level")
    @classmethod
    def _level_name(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("use DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read the settings; a missing or malformed value raises ConfigError with one clear line."""
    try:
        return Settings(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as err:
        problems = []
        for error in err.errors():
            name = ".".join(str(part) for part in error["loc"]).upper() or "settings"
            if error["type"] == "missing":
                problems.append(f"{name} is not set (put it in the environment or .env)")
            else:
                # The message, never the input: the input may be a secret.
                problems.append(f"{name} is invalid: {error['msg']}")
        raise ConfigError("; ".join(problems)) from None
