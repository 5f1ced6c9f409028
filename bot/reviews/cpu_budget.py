"""A ``game.search`` budget on the worker's CPU time (``game/`` reads no clock).

A review's worker runs at the lowest priority, so its wall-clock time depends on what else
the machine does; its CPU time is what the review costs. ``time.process_time()`` counts this
process's CPU only."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class CpuDeadline:
    """Exhausted once the process has used ``until`` seconds of CPU (``process_time``)."""

    until: float

    @classmethod
    def after(cls, seconds: float) -> CpuDeadline:
        return cls(time.process_time() + seconds)

    def exhausted(self, simulations: int) -> bool:
        return time.process_time() >= self.until
