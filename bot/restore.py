"""``python -m bot.restore SRC``: put a backup (``python -m bot.backup``) back in place.

SQLite: refuses while a bot runs on the configured file (it holds the file's lock,
``bot.ops.file_lock``); else verifies ``SRC``, keeps the current file as
``<file>.before-restore-<time>`` and copies ``SRC`` over it. PostgreSQL: prints the
``pg_restore`` command (stop the bots first). Exit 0 when done, 1 when refused or failed,
2 when the settings are unusable.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.backup import PASSWORD_NOTE
from bot.errors import ConfigError
from bot.ops.backups import BackupError, pg_restore_command, restore_sqlite
from bot.ops.file_lock import FileBusy, FileLock
from bot.process.env_settings import load_database_settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.restore",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("src", help="the backup file to restore")
    args = parser.parse_args(argv)
    try:
        database = load_database_settings().database
    except ConfigError as err:
        print(f"tablebot: {err}", file=sys.stderr)
        return 2
    if database.backend == "postgresql":
        assert database.dsn is not None
        line, hidden = pg_restore_command(database.dsn, args.src)
        print("PostgreSQL is restored with its own tool; stop every bot on the database, then run:")
        print(line)
        if hidden:
            print(PASSWORD_NOTE)
        return 0
    assert database.path is not None
    try:
        lock = FileLock.hold(database.path, shared=False)
    except FileBusy:
        print(f"tablebot: a bot is running on {database.path}; stop it before restoring",
              file=sys.stderr)
        return 1
    try:
        restored, kept = restore_sqlite(Path(args.src), database.path)
    except BackupError as err:
        print(f"tablebot: {err}", file=sys.stderr)
        return 1
    finally:
        lock.release()
    if kept is not None:
        print(f"the previous file is kept as {kept}")
    print(f"restored {args.src} to {database.path}: {restored.summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
