"""A discord.py client's REST side against the stand-in, without a gateway: interactions are
built from the stand-in's records of them, as the gateway would deliver them, and written
through the client's aiohttp session (discord.py's own calls) or the token writes' own wire
(``Wire.lean``), each carrying the REST trace and a recorder of what goes out. For the token
writes' tests and bench (``bot.process.token_writes``)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord

from bot.ops.metrics import Metrics
from bot.ops.rest_trace import attempt_recorder, rest_trace
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.driver import APPLICATION_COMMAND, COMPONENT
from bot.playground.fakediscord.model import FakeChannel, FakeUser
from bot.process.token_requests import TokenRequests
from bot.process.token_writes import LeanWrites


class Wire:
    """The stand-in (``fd``), a discord.py client whose session it answers, the token writes'
    wire (``requests``), the trace's ``metrics`` and what went out (``sent``: method, URL and
    body of each attempt, on either)."""

    def __init__(self, fd: FakeDiscord, session: aiohttp.ClientSession, metrics: Metrics,
                 sent: list[dict[str, Any]]) -> None:
        self.fd, self.metrics, self.sent = fd, metrics, sent
        self.client = discord.Client(intents=discord.Intents.none())
        self.client.http._HTTPClient__session = session  # type: ignore[attr-defined]

        def went_out(method: str, url: str, body: bytes) -> None:
            sent.append({"method": method, "url": url, "body": body})

        self.requests = TokenRequests(user_agent=self.client.http.user_agent,
                                      trace=attempt_recorder(metrics), sent=went_out)
        state = self.client._connection
        state.user = discord.ClientUser(state=state, data={  # as after the gateway's READY
            "id": str(fd.bot_user.id), "username": "bot", "discriminator": "0",
            "avatar": None})
        self.user: FakeUser = fd.add_user("ana")
        self.channel: FakeChannel = fd.add_channel("table")

    async def interaction(self, *, on: int | None = None) -> tuple[discord.Interaction, Any]:
        """A slash command's interaction (``on``: a click on button ``b1`` of that message
        instead), as the gateway would deliver it; and its stand-in record."""
        fd = self.fd
        if on is None:
            record = await fd._interact(APPLICATION_COMMAND, self.user, self.channel,
                                        {"id": "1", "name": "t", "type": 1}, None, False)
        else:
            record = await fd._interact(COMPONENT, self.user, self.channel,
                                        {"custom_id": "b1", "component_type": 2},
                                        fd.message(on), False)
        state = self.client._connection
        return discord.Interaction(data=record.payload, state=state), record

    def lean(self) -> LeanWrites:
        """The token writes on this wire's own connections, as the bot makes them."""
        return LeanWrites(self.requests)

    def calls(self, route: str) -> float:
        """Attempts the REST trace counted on ``route`` (outside the global limit)."""
        value = self.metrics.registry.get_sample_value(
            "tablebot_rest_calls_total", {"route": route, "global_limit": "false"})
        return value or 0.0


@contextlib.asynccontextmanager
async def token_wire() -> AsyncIterator[Wire]:
    """The stand-in started (its contract check on) and a client pointed at it; discord.py's
    API base is restored at the end."""
    fd = FakeDiscord()
    metrics = Metrics()
    sent: list[dict[str, Any]] = []

    async def on_start(_s: object, _c: object, params: aiohttp.TraceRequestStartParams) -> None:
        sent.append({"method": params.method, "url": str(params.url), "body": b""})

    async def on_chunk(_s: object, _c: object,
                       params: aiohttp.TraceRequestChunkSentParams) -> None:
        sent[-1]["body"] += params.chunk

    recorder = aiohttp.TraceConfig()
    recorder.on_request_start.append(on_start)
    recorder.on_request_chunk_sent.append(on_chunk)

    async def delivered(*_args: object, **_kwargs: object) -> bool:
        return True  # the client reads the interaction's payload off its record

    base = discord.http.Route.BASE
    async with fd:
        fd.gateway.dispatch = delivered  # type: ignore[method-assign]
        discord.http.Route.BASE = f"{fd.base_url}/api/v10"
        try:
            async with aiohttp.ClientSession(
                    trace_configs=[rest_trace(metrics), recorder]) as session:
                wire = Wire(fd, session, metrics, sent)
                try:
                    yield wire
                finally:
                    await wire.requests.close()
        finally:
            discord.http.Route.BASE = base
