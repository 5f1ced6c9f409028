"""Bench-only: a cProfile of the bot process's event loop thread, for ``python -m
bench.action_cpu --calls`` (on the bot's PYTHONPATH only there; never in a deployment).

In a ``python -m bot`` started with ``TB_CALLS_OUT`` set, SIGUSR2 starts the profile and the
next SIGUSR2 stops it and writes ``bot-{pid}.prof`` into that folder. Signal handlers run on
the main thread, which is the event loop's; the timer is the thread's own CPU clock, so time
spent preempted by other processes is not counted. The call counts are what the bench
reports: they do not depend on the machine's load.
"""

from __future__ import annotations

import os
import sys

if os.environ.get("TB_CALLS_OUT") and sys.orig_argv[-2:] == ["-m", "bot"]:
    import cProfile
    import signal
    import time
    from types import FrameType

    _profile = cProfile.Profile(time.thread_time_ns, 1e-9)
    _on = [False]

    def _toggle(signum: int, frame: FrameType | None) -> None:
        if not _on[0]:
            _profile.enable()
            _on[0] = True
            return
        _profile.disable()
        _on[0] = False
        path = os.path.join(os.environ["TB_CALLS_OUT"], f"bot-{os.getpid()}.prof")
        _profile.dump_stats(path + ".part")
        os.replace(path + ".part", path)  # the bench reads it once whole

    signal.signal(signal.SIGUSR2, _toggle)

if os.environ.get("TB_CALLS_OUT") and "cogs.render_workers" in sys.orig_argv:
    # A picture worker: after each picture, its strip cache's hits and misses (issue 42, sixth
    # pass) in ``workers-{pid}.strips`` (a worker may be killed rather than exit).
    try:
        from cogs.imaging import strips as _strips
    except ImportError:  # a tree before the strips
        pass
    else:
        _png_bytes = _strips.png_bytes

        def _counted(*args, **kwargs):  # type: ignore[no-untyped-def]
            data = _png_bytes(*args, **kwargs)
            path = os.path.join(os.environ["TB_CALLS_OUT"], f"workers-{os.getpid()}.strips")
            with open(path, "w") as out:
                out.write(f"{_strips.STRIPS.hits} {_strips.STRIPS.misses} {len(_strips.STRIPS)} "
                          f"{_strips.STRIPS.bytes}\n")
            return data

        _strips.png_bytes = _counted
