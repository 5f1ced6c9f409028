"""Process settings, read from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import Field, SecretStr, field_validator, model_validator

from bot.ops.json_logs import LOG_FORMATS
from bot.process.event_loop import LOOPS
from bot.records.shards import MAX_SHARD_COUNT, ShardSet, parse_shard_ids
from bot.sessions.transitions import BOT_LEVELS
from bot.store.database_settings import DatabaseSettings, load_env

# A bot token is three dot-separated base64url parts (user id, timestamp, HMAC).
_TOKEN = re.compile(r"[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]+={0,2}")


class Settings(DatabaseSettings):
    discord_token: SecretStr
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    log_format: str = "text"  # or "json": one object per line (bot.ops.json_logs)
    # The event loop (bot.process.event_loop): uvloop where installed, or asyncio's own.
    event_loop: str = "uvloop"
    # The operations endpoint, /healthz and /metrics (bot.ops.http_server): off unless a port
    # is set (0: any free port, logged).
    http_port: int | None = Field(default=None, ge=0, le=65535)
    http_host: str = "127.0.0.1"
    discord_api_base_url: str | None = None
    session_idle_days: float = Field(default=7.0, gt=0)
    turn_minutes: int = Field(default=5, ge=0, le=30)  # a new game's turn clock; 0 = off
    leaderboard_min_games: int = Field(default=3, ge=1)
    # Server defaults that /config overrides per server (cogs.kit.server_settings).
    # Pictures of tables and hands (cogs.pictures): a server's /config images setting and
    # a person's /images choice win; this is the default where neither is set.
    images: bool = True
    # Cards as the application's emojis (cogs.card_emoji_upload): uploaded once at start and
    # shown beside the card names of controls and card texts; off: plain card names only.
    card_emojis: bool = True
    threads: bool = False  # each game in its own thread
    # Seconds the public table waits for a player's next step in their turn
    # (cogs.listeners.table_publisher).
    table_run_debounce: float = Field(default=0.4, ge=0, le=2)
    # This process's share of Discord's global limit of 50 requests per second per bot token
    # (bot.ops.request_budget): 0.5 each when two processes of the bot run.
    global_rate_share: float = Field(default=1.0, gt=0, le=1)
    # Worker processes that draw them (0: threads of the bot process; cogs.pictures).
    image_processes: int = Field(default=1, ge=0, le=8)
    game_seed: int | None = None  # tests and replays only; never logged
    # The daily deal's key (bot.daily.deal): every process of one bot must have the same one.
    # Unset: a key generated once and kept in the database. Never logged.
    daily_secret: SecretStr | None = None
    # End-to-end tests only: seconds added to the process's clock (sessions, turn clock,
    # leaderboards, seasons), so a test can put the bot past a season's end. 0 in production.
    clock_offset_seconds: float = 0.0
    # End-to-end tests only: how long the bot takes an interaction's token to serve
    # (cogs.kit.message_routes; Discord's 15 minutes), shortened together with the stand-in's
    # (FakeDiscord.set_token_lifetime) so tokens lapse while the bot runs. 900 in production.
    token_lifetime_seconds: float = Field(default=900.0, ge=45, le=900)
    # Machine seats (bot.automation.decision_pool): the levels the lobby offers, the worker
    # processes that search expert moves, and the hard deadline of one expert move.
    bot_levels: str = "easy,normal,expert"
    expert_workers: int = Field(default=1, ge=1, le=32)
    expert_deadline_ms: int = Field(default=400, ge=20, le=10_000)
    # The expert's reviews of finished games (bot.reviews): their worker processes (lowest
    # priority, apart from the expert's) and the CPU seconds one player's review of one game
    # may use, spread over their decisions.
    # REVIEW_AT_END off (the default): a review is computed only when its player first asks
    # for it (bot.reviews.reviewer says why); REVIEW_BACKLOG: the reviews queued or being
    # computed, at most (a request past it is answered "busy", nothing queued).
    review_workers: int = Field(default=1, ge=1, le=8)
    review_cpu_seconds: float = Field(default=60.0, gt=0, le=3600)
    review_at_end: bool = False
    review_backlog: int = Field(default=20, ge=1, le=10_000)
    # Shards (``bot.records.shards``): SHARD_COUNT runs an AutoShardedBot; SHARD_IDS (e.g. "0,1",
    # empty for all) the shards of this process, which owns the sessions of their guilds.
    shard_count: int | None = Field(default=None, ge=1, le=MAX_SHARD_COUNT)
    shard_ids: str | None = None

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids_shape(cls, value: str | None) -> str | None:
        parse_shard_ids(value)  # ValueError: names the part that is not an id
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        ids = parse_shard_ids(self.shard_ids)
        if self.shard_count is None:
            if ids is not None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT")
            return self
        shards = ShardSet.of(self.shard_count, ids)  # ValueError: an id >= SHARD_COUNT
        if shards.is_partial and self.database.backend == "sqlite":
            raise ValueError(
                f"SHARD_IDS {self.shard_ids} is part of {self.shard_count} shards, and the other"
                " processes cannot share a SQLite file: set DATABASE_URL=postgresql://..."
            )
        return self

    @property
    def shards(self) -> ShardSet:
        """This process's shard set (every guild when SHARD_COUNT is not set)."""
        if self.shard_count is None:
            return ShardSet.whole()
        return ShardSet.of(self.shard_count, parse_shard_ids(self.shard_ids))

    @field_validator("bot_levels")
    @classmethod
    def _known_levels(cls, value: str) -> str:
        levels = parse_bot_levels(value)
        if not levels:
            raise ValueError(f"name at least one of {', '.join(BOT_LEVELS)}")
        return ",".join(levels)

    @property
    def offered_bot_levels(self) -> tuple[str, ...]:
        """The bot levels the lobby offers, in BOT_LEVELS order."""
        return parse_bot_levels(self.bot_levels)

    @field_validator("discord_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not _TOKEN.fullmatch(value.get_secret_value().strip()):
            raise ValueError("not three dot-separated base64url parts")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("log_format")
    @classmethod
    def _log_format(cls, value: str) -> str:
        shape = value.strip().lower()
        if shape not in LOG_FORMATS:
            raise ValueError(f"use {' or '.join(LOG_FORMATS)}")
        return shape

    @field_validator("event_loop")
    @classmethod
    def _event_loop(cls, value: str) -> str:
        name = value.strip().lower()
        if name not in LOOPS:
            raise ValueError(f"use {' or '.join(LOOPS)}")
        return name

    @field_validator("log_level")
    @classmethod
    def _level_name(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("use DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level


def parse_bot_levels(value: str) -> tuple[str, ...]:
    """``"normal, expert"`` -> ("normal", "expert"); ValueError names an unknown level."""
    named = {part.strip().lower() for part in value.split(",") if part.strip()}
    unknown = sorted(named - set(BOT_LEVELS))
    if unknown:
        raise ValueError(f"unknown bot level {unknown[0]!r} (use {', '.join(BOT_LEVELS)})")
    return tuple(level for level in BOT_LEVELS if level in named)


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read the settings; a missing or malformed value raises ConfigError with one clear line."""
    return load_env(Settings, env_file, hints=MISSING_HINTS)


# What to do instead, for a setting whose absence means the operator has not set anything up.
MISSING_HINTS = {
    "DISCORD_TOKEN": "; to try tablebot without Discord, run: python -m bot.playground",
}
