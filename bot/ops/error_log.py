"""The errors this process logged lately, for ``/admin health``: a logging handler that keeps
the last :data:`KEEP` records at ERROR or above (time, logger, the message's first line,
shortened) and counts them all."""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import dataclass

KEEP = 20
MESSAGE_CHARS = 150


@dataclass(frozen=True)
class LoggedError:
    at: float  # time.time()
    logger: str
    message: str


class ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.recent: deque[LoggedError] = deque(maxlen=KEEP)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
        except (TypeError, ValueError, KeyError):  # what ``msg % args`` raises when malformed
            text = str(record.msg)
        line = text.splitlines()[0] if text else ""
        if len(line) > MESSAGE_CHARS:
            line = line[: MESSAGE_CHARS - 1] + "…"
        self.recent.append(LoggedError(record.created, record.name, line))
        self.count += 1

    def since(self, seconds: float, now: float | None = None) -> int:
        """How many of the kept errors are younger than ``seconds``."""
        now = time.time() if now is None else now
        return sum(1 for error in self.recent if now - error.at < seconds)


ERRORS = ErrorLog()


def install() -> None:
    """Attach :data:`ERRORS` to the root logger (once)."""
    root = logging.getLogger()
    if ERRORS not in root.handlers:
        root.addHandler(ERRORS)
