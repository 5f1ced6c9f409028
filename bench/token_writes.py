"""Python function calls per token write, discord.py's own calls against the lean path
(issue 42, ``bot.process.token_writes``).

The stand-in runs on a thread of its own (its contract check on), so only the client's side is
profiled: each write of ``--rounds`` rounds is made under ``cProfile`` (deterministic: counts,
not time) through discord.py's calls (``DiscordWrites``, on aiohttp) and through the lean path
(``LeanWrites``, on the bot's own HTTP/1.1 wire, ``bot.process.token_requests``; discord.py's
side with ``bot.process.lean_answers`` installed, as the bot before this path had it), on the
same small message (a line of text, an embed, a button). Per write: Python function calls,
``discord/message.py`` objects built, calls into aiohttp and yarl, calls into the own wire
(``bot/process/http1.py``, ``bot/process/token_requests.py``). The
payload builders (the embeds' and views' dicts) are the same on both paths and grow with the
message; the rest is per call.

    python -m bench.token_writes --rounds 50
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import threading
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar

import discord

from bench._common import machine_line, table
from bot.playground.fakediscord import FakeDiscord
from bot.process import lean_answers
from bot.process.token_writes import DiscordWrites, TokenWrites
from tests.token_wire import Wire

Result = TypeVar("Result")
WIRE = ("bot/process/http1.py", "bot/process/token_requests.py")
KINDS = ("callback: new message", "callback: update", "follow-up: send", "follow-up: edit",
         "original: edit", "follow-up: delete", "original: delete")


class StandIn:
    """The stand-in on its own thread and event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.fd = FakeDiscord()

    async def run(self, coro: Coroutine[Any, Any, Result]) -> Result:
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    async def stop(self) -> None:
        await self.run(self.fd.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()


class ThreadedWire(Wire):
    def __init__(self, stand_in: StandIn, *args: Any) -> None:
        super().__init__(stand_in.fd, *args)
        self.stand_in = stand_in

    async def interaction(self, *, on: int | None = None) -> tuple[discord.Interaction, Any]:
        fd = self.fd
        data: dict[str, Any] = ({"id": "1", "name": "t", "type": 1} if on is None else
                                {"custom_id": "b1", "component_type": 2})
        record = await self.stand_in.run(fd._interact(
            2 if on is None else 3, self.user, self.channel, data,
            None if on is None else fd.message(on), False))
        return discord.Interaction(data=record.payload, state=self.client._connection), record


class Counts:
    """A profile per write kind."""

    def __init__(self) -> None:
        self.profiles = {kind: cProfile.Profile() for kind in KINDS}

    async def measure(self, kind: str, call: Callable[[], Awaitable[Result]]) -> Result:
        profile = self.profiles[kind]
        profile.enable()
        try:
            return await call()
        finally:
            profile.disable()

    def figures(self, kind: str, rounds: int) -> list[float]:
        stats = pstats.Stats(self.profiles[kind])
        rows: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]

        def calls(match: Callable[[str, str], bool]) -> float:
            return sum(v[1] for (path, _line, name), v in rows.items() if match(path, name))

        return [stats.total_calls / rounds,  # type: ignore[attr-defined]
                calls(lambda p, n: p.endswith("discord/message.py") and n == "__init__") / rounds,
                calls(lambda p, n: "/aiohttp/" in p) / rounds,
                calls(lambda p, n: "/yarl/" in p) / rounds,
                calls(lambda p, n: p.replace("\\", "/").endswith(WIRE)) / rounds]


def button_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Go", custom_id="b1"))
    return view


async def one_round(wire: Wire, writes: TokenWrites, counts: Counts) -> None:
    slash, _ = await wire.interaction()
    embed = discord.Embed(title="Table", description="Ana 12 · Ben 9 · Cy 7")
    answer_id = await counts.measure(KINDS[0], lambda: writes.send_message(
        slash, content="Your turn", embeds=[embed], view=button_view()))
    assert answer_id is not None
    click, _ = await wire.interaction(on=answer_id)
    await counts.measure(KINDS[1], lambda: writes.update_message(
        click, content="Played", embeds=[embed], view=button_view()))
    sent = await counts.measure(KINDS[2], lambda: writes.send_followup(
        click, content="Ben's turn", embeds=[embed], view=button_view()))
    await counts.measure(KINDS[3], lambda: writes.edit_followup(
        click, sent.id, content="Ben's turn", embeds=[embed], view=button_view()))
    await counts.measure(KINDS[4], lambda: writes.edit_original(
        click, content="Played", embeds=[embed], view=button_view()))
    await counts.measure(KINDS[5], lambda: writes.delete_followup(click, sent.id))
    await counts.measure(KINDS[6], lambda: writes.delete_original(slash))


async def run(rounds: int) -> dict[str, Counts]:
    from bot.ops.metrics import Metrics
    from bot.ops.rest_trace import rest_trace

    stand_in = StandIn()
    await stand_in.run(stand_in.fd.start())
    stand_in.fd.gateway.dispatch = _delivered  # type: ignore[method-assign]
    base = discord.http.Route.BASE
    discord.http.Route.BASE = f"{stand_in.fd.base_url}/api/v10"
    out: dict[str, Counts] = {}
    try:
        import aiohttp
        async with aiohttp.ClientSession(trace_configs=[rest_trace(Metrics())]) as session:
            wire = ThreadedWire(stand_in, session, Metrics(), [])
            try:
                for name, writes in (("discord.py", DiscordWrites()), ("lean", wire.lean())):
                    counts = out[name] = Counts()
                    await one_round(wire, writes, Counts())  # warm-up: imports, caches
                    for _ in range(rounds):
                        await one_round(wire, writes, counts)
            finally:
                await wire.requests.close()
        violations = stand_in.fd.take_violations()
        if violations:
            raise RuntimeError(f"the stand-in refused a request: {violations[0]}")
    finally:
        discord.http.Route.BASE = base
        await stand_in.stop()
    return out


async def _delivered(*_args: object, **_kwargs: object) -> bool:
    return True  # this process is the client: it reads each interaction off its record


def report(out: dict[str, Counts], rounds: int) -> str:
    rows = []
    for kind in KINDS:
        before = out["discord.py"].figures(kind, rounds)
        after = out["lean"].figures(kind, rounds)
        rows.append([kind, *(f"{b:.1f} → {a:.1f}" for b, a in zip(before, after, strict=True))])
    return table(["write", "Python calls", "message.py objects", "aiohttp calls", "yarl calls",
                  "own wire calls"], rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50, help="rounds of every write (50)")
    args = parser.parse_args(argv)
    print(machine_line(), flush=True)
    lean_answers.install()  # as in the bot: a callback's answer is not made a message
    out = asyncio.run(run(args.rounds))
    print(f"per write, discord.py's calls → the lean path ({args.rounds} rounds)")
    print(report(out, args.rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
