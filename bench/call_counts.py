"""Python function calls per stored action in the bot process (``bench.action_cpu --calls``).

A ``cProfile`` on the bot's event loop thread, started and stopped with the bench's CPU meter
(``bench/calls_hook/sitecustomize.py``, put on the bot's ``PYTHONPATH``): the counts do not
depend on the machine's load (a seeded run repeats them within ~0.1 %), unlike the CPU
figures. Printed per run: calls per action, ``discord/message.py`` objects built, and calls
into discord.py's HTTP client, its webhook module, aiohttp and yarl.
"""

from __future__ import annotations

import asyncio
import os
import pstats
import signal
import time
from pathlib import Path

HOOK = Path(__file__).resolve().parent / "calls_hook"
DONE_WAIT = 30.0  # seconds for the bot to dump its profile

# (label, path fragment) of the calls counted apart.
PARTS = (
    ("discord/http.py", "discord/http.py"),
    ("discord/webhook/async_.py", "discord/webhook/async_.py"),
    ("aiohttp", "/aiohttp/"),
    ("yarl", "/yarl/"),
)


class CallCounter:
    """The bot's profile of one run, written to ``out``."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.done = Path(f"{out}.done")

    def env(self, python_path: str) -> dict[str, str]:
        """The bot process's environment additions (``python_path``: its own path)."""
        return {"PYTHONPATH": os.pathsep.join(filter(None, [str(HOOK), python_path])),
                "TABLEBOT_CALLS_OUT": str(self.out)}

    def start(self, pid: int) -> None:
        self.done.unlink(missing_ok=True)
        os.kill(pid, signal.SIGRTMIN + 1)  # the hook's START

    async def stop(self, pid: int) -> None:
        os.kill(pid, signal.SIGRTMIN + 2)  # the hook's STOP
        deadline = time.monotonic() + DONE_WAIT
        while not self.done.exists():
            if time.monotonic() > deadline:
                raise TimeoutError("the bot process did not dump its profile")
            await asyncio.sleep(0.05)

    def lines(self, actions: int) -> list[str]:
        stats = pstats.Stats(str(self.out))
        rows = stats.stats  # type: ignore[attr-defined]
        per = max(actions, 1)

        def calls(fragment: str, name: str | None = None) -> float:
            return sum(v[1] for (path, _line, func), v in rows.items()
                       if fragment in path and (name is None or func == name)) / per

        total = stats.total_calls / per  # type: ignore[attr-defined]
        out = [f"Python function calls per stored action: {total:,.1f}",
               f"discord/message.py objects built per action: "
               f"{calls('discord/message.py', '__init__'):.2f}"]
        out += [f"calls into {label} per action: {calls(fragment):.1f}"
                for label, fragment in PARTS]
        return out

