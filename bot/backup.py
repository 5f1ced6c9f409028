"""``python -m bot.backup DEST``: a consistent copy of the configured database.

SQLite: copies the live file (the bot may keep running) to ``DEST`` with SQLite's online
backup API, verifies it and prints its row counts; exit 0. PostgreSQL: prints the ``pg_dump``
command for the configured database (the password left out). Exit 1 when the backup failed,
2 when the settings are unusable. See ``bot.backups.copies``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.backups.cli import file_and_database, print_command
from bot.backups.copies import BackupError, backup_sqlite, pg_dump_command


def main(argv: list[str] | None = None) -> int:
    found = file_and_database("python -m bot.backup", __doc__ or "", "dest",
                              "the backup file to write (must not exist)", argv)
    if isinstance(found, int):
        return found
    dest, database = found
    if database.backend == "postgresql":
        assert database.dsn is not None
        print_command("PostgreSQL is backed up with its own tool; run:",
                      *pg_dump_command(database.dsn, dest))
        return 0
    assert database.path is not None
    try:
        copied = backup_sqlite(database.path, Path(dest))
    except BackupError as err:
        print(f"tablebot: {err}", file=sys.stderr)
        return 1
    print(f"backed up {database.path} to {dest}: {copied.summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
