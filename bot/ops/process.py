"""The process itself: how long it has run and how much memory it holds."""

from __future__ import annotations

import contextlib
import resource
import time

from bot.ops.metrics import METRICS


def uptime_seconds(now: float | None = None) -> float:
    return (time.time() if now is None else now) - METRICS.started


def resident_bytes() -> int:
    """Resident memory (``VmRSS`` in /proc), or the peak from ``getrusage`` elsewhere."""
    with contextlib.suppress(OSError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
