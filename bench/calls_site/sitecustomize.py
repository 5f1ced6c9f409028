"""Bench-only: a cProfile of the bot process's event loop thread, and its cyclic garbage
collector's work, for ``python -m bench.action_cpu --calls`` and ``python -m bench.global_calls
--calls/--gc`` (on the bot's PYTHONPATH only there; never in a deployment).

In a ``python -m bot`` started with ``TB_CALLS_OUT`` set, SIGUSR2 starts the span and the next
SIGUSR2 ends it and writes into that folder ``bot-{pid}.prof`` (the profile; not with
``TB_CALLS_PROFILE=off``, which measures the collector alone, without the profiler's own cost)
and ``bot-{pid}.gc.json`` (per generation: the collections during the span, their time in
seconds of the thread's CPU, the objects collected, and the objects tracked at the end).
Signal handlers run on the main thread, which is the event loop's; the timer is the thread's
own CPU clock, so time spent preempted by other processes is not counted. The call and
collection counts are what the benches report: they do not depend on the machine's load.
"""

from __future__ import annotations

import os
import sys

if os.environ.get("TB_CALLS_OUT") and sys.orig_argv[-2:] == ["-m", "bot"]:
    import cProfile
    import gc
    import json
    import signal
    import time
    from types import FrameType
    from typing import Any

    _profiling = os.environ.get("TB_CALLS_PROFILE", "on") != "off"
    _profile = cProfile.Profile(time.thread_time_ns, 1e-9)
    _on = [False]
    _gc: dict[int, list[float]] = {}  # generation -> [collections, seconds, collected]
    _started = [0.0]

    def _collecting(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            _started[0] = time.thread_time()
            return
        entry = _gc.setdefault(info["generation"], [0, 0.0, 0])
        entry[0] += 1
        entry[1] += time.thread_time() - _started[0]
        entry[2] += info["collected"]

    def _write(path: str, write: Any) -> None:
        write(path + ".part")
        os.replace(path + ".part", path)  # the bench reads it once whole

    def _toggle(signum: int, frame: FrameType | None) -> None:
        if not _on[0]:
            _gc.clear()
            gc.callbacks.append(_collecting)
            if _profiling:
                _profile.enable()
            _on[0] = True
            return
        if _profiling:
            _profile.disable()
        gc.callbacks.remove(_collecting)
        _on[0] = False
        base = os.path.join(os.environ["TB_CALLS_OUT"], f"bot-{os.getpid()}")
        figures = {
            "generations": {str(g): {"collections": int(c), "seconds": s, "collected": int(n)}
                            for g, (c, s, n) in sorted(_gc.items())},
            "tracked": len(gc.get_objects()),
            "frozen": gc.get_freeze_count(),
            "thresholds": list(gc.get_threshold()),
        }

        def dump_gc(part: str) -> None:
            with open(part, "w") as out:
                json.dump(figures, out)

        _write(base + ".gc.json", dump_gc)
        if _profiling:
            _write(base + ".prof", _profile.dump_stats)

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
