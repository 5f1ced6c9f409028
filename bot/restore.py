"""``python -m bot.restore SRC``: put a backup (``python -m bot.backup``) back in place.

SQLite: refuses while a bot runs on the configured file (it holds the file's lock,
``bot.ops.file_lock``); else verifies ``SRC``, keeps the current file as
``<file>.before-restore-<time>`` and copies ``SRC`` over it. PostgreSQL: prints the
``pg_restore`` command (stop the bots first). Exit 0 when done, 1 when refused or failed,
2 when the settings are unusable.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.backups.cli import file_and_database, print_command
from bot.backups.copies import BackupError, pg_restore_command, restore_sqlite
from bot.ops.file_lock import FileBusy, FileLock


def main(argv: list[str] | None = None) -> int:
    found = file_and_database("python -m bot.restore", __doc__ or "", "src",
                              "the backup file to restore", argv)
    if isinstance(found, int):
        return found
    src, database = found
    if database.backend == "postgresql":
        assert database.dsn is not None
        print_command("PostgreSQL is restored with its own tool; stop every bot on the"
                      " database, then run:", *pg_restore_command(database.dsn, src))
        return 0
    assert database.path is not None
    try:
        lock = FileLock.hold(database.path, shared=False)
    except FileBusy:
        print(f"tablebot: a bot is running on {database.path}; stop it before restoring",
              file=sys.stderr)
        return 1
    try:
        restored, kept = restore_sqlite(Path(src), database.path)
    except BackupError as err:
        print(f"tablebot: {err}", file=sys.stderr)
        return 1
    finally:
        lock.release()
    if kept is not None:
        print(f"the previous file is kept as {kept}")
    print(f"restored {src} to {database.path}: {restored.summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
