"""Counting the bot's REST traffic: an aiohttp trace on discord.py's HTTP session, and the same
count for the token writes' own wire.

discord.py takes the trace as ``http_trace`` (``bot.process.client``) and sees every attempt it
makes, retries after a 429 included, which is what Discord counts; the token writes
(``bot.process.token_requests``) call :func:`attempt_recorder`'s recorder after each of
theirs. Each request to the API is counted under its route template (``POST
/channels/{id}/messages``: ids and tokens replaced, so the label set stays small) and whether
Discord's global limit counts it (interaction endpoints, the callback and the interaction
webhooks, are outside it); each 429 under its scope. A successful interaction callback is the
interaction's acknowledgement: its latency is measured from the interaction's creation, the
time in its id (Discord's clock; the deadline Discord gives is measured from the same moment).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any

import aiohttp

from bot.ops.metrics import METRICS, Metrics, add, observed

DISCORD_EPOCH = 1_420_070_400  # seconds, the time of snowflake 0
_API = re.compile(r"/api/v\d+(/.*)$")
_SNOWFLAKE = re.compile(r"[0-9]{5,20}")
# Endpoints Discord keeps out of the global rate limit.
_NOT_GLOBAL = ("/interactions/", "/webhooks/")
_CALLBACK = re.compile(r"/interactions/([0-9]+)/[^/]+/callback$")


def snowflake_time(snowflake: int) -> float:
    """The creation time (``time.time()`` scale) in a Discord id."""
    return (snowflake >> 22) / 1000 + DISCORD_EPOCH


# A token's place (the 4th part after the version: /interactions/{id}/{token}/...,
# /webhooks/{id}/{token}/...) and an id anywhere else (a whole part of 5-20 digits).
_TOKEN_PART = re.compile(r"/(?:interactions|webhooks)/[^/]*/")
_ID_PART = re.compile(r"(?<=/)[0-9]{5,20}(?=/|$)")


def route_of(path: str) -> str | None:
    """``/api/v10/channels/123/messages/456`` -> ``/channels/{id}/messages/{id}``; None for a
    path outside the API (the gateway, attachments). Two substitutions in C, not a loop over
    the parts (issue 42: every request the bot makes goes through here)."""
    found = _API.search(path)
    if found is None:
        return None
    rest = found.group(1)
    token = _TOKEN_PART.match(rest)
    if token is None:
        return _ID_PART.sub("{id}", rest)
    end = rest.find("/", token.end())
    tail = "" if end < 0 else _ID_PART.sub("{id}", rest[end:])
    return f"{_ID_PART.sub('{id}', token.group())}{{token}}{tail}"


def counts_globally(route: str) -> bool:
    return not route.startswith(_NOT_GLOBAL)


def record(metrics: Metrics, method: str, path: str, status: int | None,
           headers: Any = None, now: float | None = None,
           counters: dict[tuple[str, str], Any] | None = None) -> None:
    """Count one answered (``status``) or failed (None) request. ``counters``: the labelled
    counters already looked up, by (method, route) (a few dozen routes: issue 42 keeps the
    lookup out of every call)."""
    route = route_of(path)
    if route is None:
        return
    counted = counts_globally(route)
    key = (method, route)
    counter = counters.get(key) if counters is not None else None
    if counter is None:
        counter = metrics.rest_calls.labels(
            route=f"{method.upper()} {route}", global_limit=str(counted).lower())
        if counters is not None:
            counters[key] = counter
    add(counter)
    if counted:
        add(metrics.global_calls)
    if status == 429:
        # Lowercased names: aiohttp's headers ignore case, the token wire's are lowercased.
        scope = headers.get("x-ratelimit-scope") if headers is not None else None
        if not scope:
            is_global = headers is not None and headers.get("x-ratelimit-global") == "true"
            scope = "global" if is_global else "unknown"
        metrics.rate_limited.labels(scope=scope).inc()
    if status is not None and status < 300 and method.upper() == "POST":
        callback = _CALLBACK.search(path)
        if callback is not None:
            now = time.time() if now is None else now
            observed(metrics.ack_latency, max(0.0, now - snowflake_time(int(callback[1]))))


def attempt_recorder(metrics: Metrics = METRICS) -> Callable[
        [str, str, int | None, Mapping[str, str] | None], None]:
    """``record`` for a wire of the bot's own: called after each attempt with the method, the
    URL (no query), the status (None: no answer) and the headers (lowercased names)."""
    counters: dict[tuple[str, str], Any] = {}  # (method, route) -> its labelled counter

    def recorded(method: str, path: str, status: int | None,
                 headers: Mapping[str, str] | None) -> None:
        record(metrics, method, path, status, headers, counters=counters)

    return recorded


def rest_trace(metrics: Metrics = METRICS) -> aiohttp.TraceConfig:
    trace = aiohttp.TraceConfig()
    counters: dict[tuple[str, str], Any] = {}  # (method, route) -> its labelled counter

    async def on_end(_session: aiohttp.ClientSession, _context: SimpleNamespace,
                     params: aiohttp.TraceRequestEndParams) -> None:
        record(metrics, params.method, params.url.path, params.response.status,
               params.response.headers, counters=counters)

    async def on_exception(_session: aiohttp.ClientSession, _context: SimpleNamespace,
                           params: aiohttp.TraceRequestExceptionParams) -> None:
        record(metrics, params.method, params.url.path, None)

    trace.on_request_end.append(on_end)
    trace.on_request_exception.append(on_exception)
    return trace
