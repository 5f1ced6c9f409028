"""``DATABASE_URL``: which database the store opens.

- ``sqlite:///relative/path.sqlite3`` or ``sqlite:////absolute/path.sqlite3`` (the default,
  ``sqlite:///data/tablebot.sqlite3``): one SQLite file, created if needed;
- ``postgresql://user:password@host:port/dbname`` (or ``postgres://``), any libpq URL that
  asyncpg accepts, e.g. ``postgresql://tablebot@/tablebot?host=/run/postgresql`` for a unix
  socket.

A plain path (no ``scheme://``) given to :func:`bot.store.open_store` is a SQLite file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

Backend = Literal["sqlite", "postgresql"]
SQLITE_PREFIX = "sqlite:///"
_POSTGRES_SCHEMES = ("postgresql", "postgres")
_HINT = "use sqlite:///path/to/file.sqlite3 or postgresql://user@host:port/dbname"


@dataclass(frozen=True)
class DatabaseUrl:
    """A parsed ``DATABASE_URL``: a SQLite ``path``, or a PostgreSQL ``dsn``."""

    backend: Backend
    path: Path | None = None
    dsn: str | None = None

    @classmethod
    def sqlite(cls, path: Path | str) -> DatabaseUrl:
        return cls("sqlite", path=Path(path))

    def __str__(self) -> str:
        """The URL without its password (safe to log)."""
        if self.backend == "sqlite":
            return f"{SQLITE_PREFIX}{self.path}"
        assert self.dsn is not None
        parts = urlsplit(self.dsn)
        if parts.password is None:
            return self.dsn
        netloc = parts.netloc.rsplit("@", 1)[1]
        user = parts.username or ""
        return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


def parse_database_url(value: str | Path) -> DatabaseUrl:
    """Parse ``value``; a malformed URL raises ValueError with a message that never repeats a
    password."""
    if isinstance(value, Path):
        return DatabaseUrl.sqlite(value)
    text = value.strip()
    if "://" not in text:
        raise ValueError(f"no scheme; {_HINT}")
    scheme = text.split("://", 1)[0].lower()
    if scheme == "sqlite":
        if not text.startswith(SQLITE_PREFIX) or len(text) == len(SQLITE_PREFIX):
            raise ValueError(f"a SQLite URL names a file after three slashes; {_HINT}")
        return DatabaseUrl.sqlite(text[len(SQLITE_PREFIX):])
    if scheme in _POSTGRES_SCHEMES:
        return DatabaseUrl("postgresql", dsn=_checked_postgres(text))
    raise ValueError(f"unknown scheme {scheme!r}; {_HINT}")


def _checked_postgres(text: str) -> str:
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError:
        raise ValueError(f"a PostgreSQL URL with a malformed host or port; {_HINT}") from None
    if parts.fragment:
        raise ValueError(f"a PostgreSQL URL takes no #fragment; {_HINT}")
    if parts.path not in ("", "/") and "/" in parts.path[1:]:
        raise ValueError(f"a PostgreSQL URL names one database after the host; {_HINT}")
    return text


def open_target(value: str | Path) -> DatabaseUrl:
    """What :func:`bot.store.open_store` was given: a URL, or a plain SQLite path."""
    if isinstance(value, str) and "://" not in value:
        return DatabaseUrl.sqlite(value)
    return parse_database_url(value)
