"""``python -m bot.backup DEST``: a consistent copy of the configured database.

SQLite: copies the live file (the bot may keep running) to ``DEST`` with SQLite's online
backup API, verifies it and prints its row counts; exit 0. PostgreSQL: prints the ``pg_dump``
command for the configured database (the password left out). Exit 1 when the backup failed,
2 when the settings are unusable. See ``bot.ops.backups``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.errors import ConfigError
from bot.ops.backups import BackupError, backup_sqlite, pg_dump_command
from bot.process.env_settings import load_database_settings

PASSWORD_NOTE = "(the password is left out: give it with PGPASSWORD or ~/.pgpass)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.backup",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("dest", help="the backup file to write (must not exist)")
    args = parser.parse_args(argv)
    try:
        database = load_database_settings().database
    except ConfigError as err:
        print(f"tablebot: {err}", file=sys.stderr)
        return 2
    if database.backend == "postgresql":
        assert database.dsn is not None
        line, hidden = pg_dump_command(database.dsn, args.dest)
        print("PostgreSQL is backed up with its own tool; run:")
        print(line)
        if hidden:
            print(PASSWORD_NOTE)
        return 0
    assert database.path is not None
    try:
        copied = backup_sqlite(database.path, Path(args.dest))
    except BackupError as err:
        print(f"tablebot: {err}", file=sys.stderr)
        return 1
    print(f"backed up {database.path} to {args.dest}: {copied.summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
