"""Bench-only (``python -m bench.action_cpu --calls``): a deterministic profile of the bot
process's event loop thread, with no change to the bot.

This folder is put first on the bot process's ``PYTHONPATH`` by the bench, so Python imports
this module at start-up. With ``TABLEBOT_CALLS_OUT`` set, ``cProfile`` (timed by the thread's
own CPU clock) is started on the main thread (the event loop's) by SIGRTMIN+1 and stopped and
dumped to that file by SIGRTMIN+2; ``<file>.done`` says the dump is complete. The bot's own
signals (SIGTERM, SIGUSR1) are not touched.
"""

from __future__ import annotations

import cProfile
import os
import signal
import time
from pathlib import Path
from types import FrameType

START = signal.SIGRTMIN + 1
STOP = signal.SIGRTMIN + 2

_out = os.environ.get("TABLEBOT_CALLS_OUT")
if _out:
    _profile = cProfile.Profile(time.thread_time_ns, 1e-9)

    def _start(_signal: int, _frame: FrameType | None) -> None:
        _profile.enable()

    def _stop(_signal: int, _frame: FrameType | None) -> None:
        _profile.disable()
        _profile.dump_stats(_out)
        Path(f"{_out}.done").touch()

    signal.signal(START, _start)
    signal.signal(STOP, _stop)
