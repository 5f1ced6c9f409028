"""``LOG_FORMAT=json``: one JSON object per line.

Keys: ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``message`` and, where
known (``bot.ops.log_context``), ``guild``, ``channel``, ``session``, ``shard``; ``exc`` holds
a traceback. The message is the record's own text, so what INFO may say is what the text
format says (no hidden information at INFO and above; tests in ``tests/bot``).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

from bot.ops import log_context

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_FORMATS = ("text", "json")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        stamp = datetime.fromtimestamp(record.created, UTC)
        entry: dict[str, Any] = {
            "time": stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(log_context.current())
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False)


def configure(level: str, log_format: str) -> None:
    """The root logger's one handler (stderr), in ``log_format`` ("text" or "json")."""
    handler = logging.StreamHandler()
    formatter = JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    handler.setFormatter(formatter)
    logging.basicConfig(level=level, handlers=[handler], force=True)
