"""The lock a bot holds on its SQLite file, so that ``python -m bot.restore`` can tell that a
bot runs on it.

An advisory ``flock`` on ``<database>.lock`` next to the file: every bot process on the file
holds it shared for as long as it runs (the kernel drops it when the process ends, however it
ends); a restore takes it exclusive, without waiting, so it fails while any bot holds it, and
a bot started during a restore fails to take its shared lock and says so.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from bot.records.errors import ConfigError


class FileBusy(Exception):
    """Another process holds the lock in a way that excludes ours."""


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


class FileLock:
    """``FileLock.hold(path, shared=...)``; released by :meth:`release` or the process's end."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    @classmethod
    def hold(cls, database: Path, *, shared: bool) -> FileLock:
        """Take the lock of ``database`` now (raises :class:`FileBusy` when held so that
        ours cannot be taken)."""
        path = lock_path(database)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise FileBusy(str(path)) from None
        except BaseException:  # the descriptor is closed whatever went wrong, then re-raised
            os.close(fd)
            raise
        return cls(fd, path)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None


def hold_for_bot(database: Path) -> FileLock:
    """The bot's shared hold; ConfigError (exit 2) while a restore has the file."""
    try:
        return FileLock.hold(database, shared=True)
    except FileBusy:
        raise ConfigError(
            f"the SQLite file {str(database)!r} is being restored (python -m bot.restore);"
            " start the bot once the restore is done"
        ) from None
    except OSError as err:
        raise ConfigError(
            f"cannot create the lock file of {str(database)!r}: {err.strerror or err}"
        ) from None
