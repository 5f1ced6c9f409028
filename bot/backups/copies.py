"""Backups of the database, for ``python -m bot.backup`` and ``python -m bot.restore``.

SQLite: SQLite's online backup API copies a live database as one consistent snapshot (the
bot may go on writing: WAL readers are not blocked), into a temporary file that is renamed
into place once it is verified (``PRAGMA integrity_check`` and the row counts of every
table, which must equal the source's in the same snapshot). A restore verifies the copy the
same way, keeps the current file aside, and copies the backup over it, only while no bot
holds the file (``bot.ops.file_lock``).

PostgreSQL: the server's own tools do it; these print the ``pg_dump`` / ``pg_restore`` command
for the configured database, without the password (``PGPASSWORD`` or ``~/.pgpass`` give it).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from bot.store.migrations import MIGRATIONS


class BackupError(Exception):
    """The backup or the restore could not be made or verified (the message says why)."""


@dataclass(frozen=True)
class Verified:
    """A verified copy: its schema version and the rows of each table."""

    schema_version: int
    rows: dict[str, int]

    def summary(self) -> str:
        counts = ", ".join(f"{table} {count}" for table, count in sorted(self.rows.items()))
        return f"schema version {self.schema_version}; rows: {counts}"


@contextlib.contextmanager
def _connect(path: Path, *, read_only: bool = False) -> Iterator[sqlite3.Connection]:
    if read_only:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=10.0)
    else:
        conn = sqlite3.connect(path, timeout=10.0)
    try:
        yield conn
    finally:
        conn.close()


def row_counts(conn: sqlite3.Connection) -> dict[str, int]:
    tables = [name for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )]
    return {table: int(conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])
            for table in tables}


def verify(path: Path) -> Verified:
    """Check a tablebot SQLite file: intact, with the bot's tables, a known schema version."""
    try:
        with _connect(path, read_only=True) as conn:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError(f"{path}: integrity check failed: {'; '.join(problems[:3])}")
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            rows = row_counts(conn)
    except sqlite3.DatabaseError as err:
        raise BackupError(f"{path}: not a readable SQLite database ({err})") from None
    if "sessions" not in rows or "actions" not in rows:
        raise BackupError(f"{path}: not a tablebot database (no sessions or actions table)")
    if not 1 <= version <= len(MIGRATIONS):
        raise BackupError(
            f"{path}: schema version {version} is not one this bot knows (1-{len(MIGRATIONS)})"
        )
    return Verified(version, rows)


def backup_sqlite(source: Path, dest: Path) -> Verified:
    """Copy the live database ``source`` to ``dest`` (which must not exist) and verify it."""
    if not source.is_file():
        raise BackupError(f"{source}: no such database file")
    if dest.exists():
        raise BackupError(f"{dest} exists already; name a new file")
    partial = dest.with_name(f".{dest.name}.partial-{os.getpid()}")
    try:
        with _connect(source) as src, _connect(partial) as out:
            # One read transaction: the counts and the copy see the same snapshot.
            src.execute("BEGIN")
            expected = row_counts(src)
            src.backup(out)
            src.execute("COMMIT")
            out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        copied = verify(partial)
        if copied.rows != expected:
            raise BackupError(f"the copy's rows {copied.rows} differ from the source's {expected}")
        partial.rename(dest)
        return copied
    except sqlite3.Error as err:
        raise BackupError(f"backup failed: {err}") from None
    finally:
        partial.unlink(missing_ok=True)


def restore_sqlite(backup: Path, database: Path) -> tuple[Verified, Path | None]:
    """Copy ``backup`` over ``database`` (the caller holds the file's exclusive lock). The
    current file, if any, is kept as ``<database>.before-restore-<time>``; returns the
    restored copy's verification and that path."""
    checked = verify(backup)
    kept: Path | None = None
    if database.exists():
        # As it is, even damaged (no bot runs on it: the caller holds the lock).
        stamp = time.strftime("%Y%m%d-%H%M%S")
        kept = database.with_name(f"{database.name}.before-restore-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            part = database.with_name(database.name + suffix)
            if part.exists():
                shutil.copy2(part, kept.with_name(kept.name + suffix))
    database.parent.mkdir(parents=True, exist_ok=True)
    try:
        with _connect(backup, read_only=True) as src, _connect(database) as out:
            src.backup(out)
    except sqlite3.Error as err:
        raise BackupError(f"restore failed: {err}") from None
    restored = verify(database)
    if restored.rows != checked.rows:
        raise BackupError(f"the restored rows {restored.rows} differ from the backup's")
    return restored, kept


def _without_password(dsn: str) -> tuple[str, bool]:
    """The DSN without its password (in the user part or a ``password=`` parameter)."""
    parts = urlsplit(dsn)
    had = parts.password is not None
    netloc = parts.netloc
    if had:
        host = netloc.rsplit("@", 1)[1]
        netloc = f"{parts.username}@{host}" if parts.username else host
    query = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(key, value) for key, value in query if key != "password"]
    had = had or len(kept) != len(query)
    return urlunsplit(parts._replace(netloc=netloc, query=urlencode(kept))), had


def pg_dump_command(dsn: str, dest: str) -> tuple[str, bool]:
    """The ``pg_dump`` line for ``dest``; True when a password was left out."""
    url, had = _without_password(dsn)
    return shlex.join(["pg_dump", "--format=custom", f"--file={dest}", f"--dbname={url}"]), had


def pg_restore_command(dsn: str, source: str) -> tuple[str, bool]:
    url, had = _without_password(dsn)
    line = shlex.join(["pg_restore", "--clean", "--if-exists", "--no-owner",
                       f"--dbname={url}", source])
    return line, had
