"""Run the real bot (``python -m bot``) as a subprocess pointed at a ``FakeDiscord``."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections import deque
from pathlib import Path

from bot.playground.fakediscord import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]


class BotExited(RuntimeError):
    """The bot process ended while a test waited for it."""


class BotProcess:
    """One ``python -m bot`` at a time; ``restart`` keeps the same database file.

    The process runs in ``workdir`` (so a developer's ``.env`` in the checkout is not read) with
    the checkout on PYTHONPATH. Its stdout and stderr are kept in ``output`` for failure messages.
    """

    def __init__(
        self,
        fd: FakeDiscord,
        workdir: Path,
        *,
        log_level: str = "INFO",
        dev_guild: bool = True,
        extra_env: dict[str, str] | None = None,
        keep_lines: int = 400,
        shard: int | None = None,
    ) -> None:
        """``shard``: the bot runs that shard (SHARD_COUNT/SHARD_IDS in ``extra_env``); its
        gateway session, not the stand-in's newest one, tells whether it is connected."""
        self.fd = fd
        self.workdir = workdir
        self.database_path = workdir / "tablebot.sqlite3"
        self.log_level = log_level
        self.dev_guild = dev_guild
        # A copy: a test that changes its bot's environment (a clock offset before a restart)
        # must not change that of the tests after it (callers pass shared dicts, BOT_ENV).
        self.extra_env = dict(extra_env or {})
        self.shard = shard
        self.output: deque[str] = deque(maxlen=keep_lines)
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self.starts = 0

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
        env.update(
            DISCORD_TOKEN=self.fd.token,
            DISCORD_API_BASE_URL=self.fd.base_url,
            DATABASE_PATH=str(self.database_path),
            LOG_LEVEL=self.log_level,
            PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")])),
            PYTHONUNBUFFERED="1",
        )
        if self.dev_guild:
            env["DEV_GUILD_ID"] = str(self.fd.guild_id)
        # Pictures (issue 16) cost render time the text scenarios do not need; the tests that
        # check them turn them on (extra_env IMAGES=on).
        env.setdefault("IMAGES", "off")
        # Card emojis (issue 41) upload about 110 faces at each start, which the request counts
        # of the other scenarios do not expect; their tests turn them on (CARD_EMOJIS=on).
        env.setdefault("CARD_EMOJIS", "off")
        env.update(self.extra_env)
        return env

    def connected(self) -> bool:
        """Its gateway session is connected (that of its shard when it runs one)."""
        if self.shard is not None:
            return self.fd.gateway.shard_connected(self.shard)
        return self.fd.gateway.connected

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def returncode(self) -> int | None:
        return None if self.proc is None else self.proc.returncode

    def log_text(self) -> str:
        return "\n".join(self.output)

    async def start(self, *, wait_ready: bool = True, timeout: float = 30.0) -> None:
        """Start the bot; by default wait until it has a gateway session with READY."""
        if self.running:
            raise RuntimeError("the bot is already running")
        self.workdir.mkdir(parents=True, exist_ok=True)
        sessions_before = self.fd.gateway.ready_count
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=self.workdir,
            env=self.env(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self.starts += 1
        self._reader = asyncio.create_task(self._read(self.proc))
        if wait_ready:
            await self.wait_until(
                lambda: self.fd.gateway.ready_count > sessions_before and self.connected(),
                timeout,
                "the bot to connect to the gateway",
            )

    async def wait_until(self, predicate: object, timeout: float, what: str) -> None:
        """``fd.wait_for`` that fails at once, with the bot's output, if the bot exits; each
        line of its output wakes it too (``predicate`` may read ``log_text()``)."""

        def check() -> bool:
            if not self.running:
                raise BotExited(f"bot exited with {self.returncode} while waiting for {what}")
            return bool(predicate())  # type: ignore[operator]

        try:
            await self.fd.wait_for(check, timeout, what)
        except (BotExited, TimeoutError) as err:
            raise type(err)(f"{err}\n--- bot output ---\n{self.log_text()}") from None

    async def exited(self, timeout: float) -> int:
        """Wait until the process has exited on its own and all its output is read; its exit
        code."""
        assert self.proc is not None, "the bot was never started"
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        if self._reader is not None:
            await self._reader
        return code

    async def kill(self) -> int:
        """SIGKILL: no cleanup at all, like a crash or a pulled plug."""
        return await self._signal(signal.SIGKILL, timeout=10.0)

    async def terminate(self, timeout: float = 15.0) -> int:
        """SIGTERM: the bot's graceful shutdown; SIGKILL if it outlives ``timeout``."""
        return await self._signal(signal.SIGTERM, timeout=timeout)

    async def restart(self, *, hard: bool = True, timeout: float = 30.0) -> None:
        await (self.kill() if hard else self.terminate())
        await self.start(timeout=timeout)

    async def _signal(self, sig: signal.Signals, timeout: float) -> int:
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return proc.returncode if proc is not None else 0  # type: ignore[return-value]
        proc.send_signal(sig)
        try:
            code = await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            proc.kill()
            code = await proc.wait()
        if self._reader is not None:
            await self._reader
        # Let the stand-in notice the closed websocket before anything dispatches again.
        await self.fd.wait_for(lambda: not self.connected(), 5.0, "the gateway to drop")
        return code

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        while line := await proc.stdout.readline():
            self.output.append(line.decode(errors="replace").rstrip())
            self.fd.world.notify()  # a wait_for on the bot's output re-checks
        await proc.wait()
        self.fd.world.notify()

    async def close(self) -> None:
        """Stop the bot if it still runs (for fixture teardown)."""
        if self.running:
            await self.terminate(timeout=5.0)
