"""The token writes' requests on the bot's own HTTP/1.1 wire (``bot.process.http1``), with the
guarantees discord.py's webhook adapter (``AsyncWebhookAdapter.request``) gave them, in our
code (issue 42: aiohttp's request was the largest share of the event loop's time).

Per request, as the adapter:

* **one request at a time per token** (the webhook bucket ``(webhook_id, webhook_token)``):
  the lock is taken from the adapter's own table of locks (``async_context.get()._locks``,
  weakly held), so a token's writes made here and those discord.py still makes itself
  (commands' answers, refusals, pages) wait for each other as before;
* **an empty bucket is waited out** before the lock is released: an answer other than a 429
  with ``X-RateLimit-Remaining: 0`` holds the token's next request for
  ``X-RateLimit-Reset-After`` seconds (else ``X-RateLimit-Reset``, an epoch time, minus now);
* **a 429 is waited out and retried**, up to 5 tries in all: for ``retry_after`` seconds (the
  JSON body's), else the ``Retry-After`` header's; a 429 without ``Via`` (not from Discord's
  API but from its edge, Cloudflare: a ban) raises at once, as discord.py does;
* **a 5xx is retried** after 1, 3, 5, 7 s; after the 5th try ``DiscordServerError``;
* **errors** as discord.py raises them, built from the answer (``status``, ``reason``) and its
  JSON: 403 ``Forbidden``, 404 ``NotFound``, other 4xx ``HTTPException``;
* **bodies** as discord.py sends them: JSON (``discord.utils._to_json``, ``application/json``)
  or ``multipart/form-data`` written here byte for byte as aiohttp's ``FormData
  (quote_fields=False)`` writes discord.py's parts (``payload_json`` as ``text/plain;
  charset=utf-8``, each file as ``application/octet-stream`` with its filename; a random
  boundary), each file read once, from where it stands, for every try;
* **answers** read as ``json_or_text``: JSON when ``Content-Type`` is ``application/json``,
  else the text;
* **no ``Authorization``**: the interaction routes carry their token in the URL, and
  discord.py's adapter sends none on them either. Headers: ``Host``, ``User-Agent`` (the
  client's, ``DiscordBot (https://github.com/Rapptz/discord.py ...)``, the form Discord asks
  for, https://discord.com/developers/docs/reference#user-agent; aiohttp sent its own default
  ``Python/3.x aiohttp/3.x`` on these routes), ``Accept-Encoding: identity``, and the body's
  ``Content-Type`` and ``Content-Length`` (also 0 with no body, as aiohttp sent).

The headers are Discord's (https://discord.com/developers/docs/topics/rate-limits, "Header
Format" and "Exceeding A Rate Limit": ``X-RateLimit-Remaining``, ``X-RateLimit-Reset-After`` in
seconds, a 429's JSON ``retry_after`` in seconds and ``global``, the ``Retry-After`` header;
the same in Discord's OpenAPI spec, ``ClientRatelimitedResponse``). Every attempt
is traced (``trace``: ``bot.ops.rest_trace.attempt_recorder``), a failed one with no status.
A connection that drops is retried only as ``bot.process.http1`` says: never a POST or PATCH
once written (a follow-up would post twice); a DELETE once, on a fresh connection, when a kept-
alive connection closed before any byte of the answer (aiohttp's retry): if Discord had acted on
the first, the second answers 404 Unknown Message, which the callers read as "gone already"
(``cogs.kit.message_routes``), and nothing is deleted twice. Token writes are outside Discord's
global limit, so none waits in the process's request budget (``bot.ops.request_budget``), as
before. No HTTP proxy: the bot's client is given none (``TableBot``); a REST proxy is an API
base (``DISCORD_API_BASE_URL``, ``bot.process.api_base``), which the routes' URLs follow.

Uses discord.py internals: the adapter's lock table, ``utils._to_json``/``_from_json`` and the
error classes' constructors (a response-like object with ``status`` and ``reason``);
``tests/bot/test_token_requests.py`` fails when their shape changes.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, NamedTuple

import discord
from discord.utils import _from_json, _to_json
from discord.webhook.async_ import async_context

from bot.process.http1 import Http1Pool, Response

MAX_TRIES = 5  # discord.py's tries of one request (429s and 5xx)

Trace = Callable[[str, str, int | None, Mapping[str, str] | None], None]
Sent = Callable[[str, str, bytes], None]
Sleep = Callable[[float], Awaitable[object]]


class TokenRoute(NamedTuple):
    """What a request is sent to: the method, the URL (its query included) and the webhook
    bucket (``webhook_id``, ``webhook_token``), as discord.py's ``Route`` has them."""

    method: str
    url: str
    webhook_id: int
    webhook_token: str


def _locks() -> Any:
    """discord.py's webhook adapter's locks, by bucket (a ``WeakValueDictionary``)."""
    return async_context.get()._locks


class TokenRequests:
    """The token writes' requests (see the module's doc). ``trace``: called after each attempt
    with the method, the URL's path, the status (None: no answer) and the headers; ``sent``
    (tests): called with the method, URL and body of each attempt; ``sleep``: the waits
    (``asyncio.sleep``; tests see them)."""

    def __init__(self, *, user_agent: str, trace: Trace | None = None,
                 pool: Http1Pool | None = None, sent: Sent | None = None,
                 sleep: Sleep = asyncio.sleep) -> None:
        self.pool = pool or Http1Pool(user_agent=user_agent)
        self._trace, self._sent, self._sleep = trace, sent, sleep

    async def close(self) -> None:
        await self.pool.close()

    async def request(self, route: TokenRoute, *, payload: dict[str, Any] | None = None,
                      multipart: Sequence[dict[str, Any]] | None = None,
                      files: Sequence[discord.File] = ()) -> Any:
        """Send ``payload`` as JSON, or ``multipart``'s parts as a form (discord.py's
        ``MultipartParameters``), or no body; the answer's JSON or text. ``files``: the files
        the parts read (the adapter's keywords), each read once from where it stands; a caller
        that sends the request again (``cogs.kit.card_emojis``'s fallback) rewinds them."""
        content_type: str | None = None
        body = b""
        if multipart:
            content_type, body = multipart_body(multipart)
        elif payload is not None:
            content_type, body = "application/json", _to_json(payload).encode()
        locks = _locks()
        bucket = (route.webhook_id, route.webhook_token)
        lock = locks.get(bucket)
        if lock is None:
            lock = locks[bucket] = asyncio.Lock()
        await lock.acquire()
        delay = 0.0
        try:
            method, url = route.method, route.url
            for attempt in range(MAX_TRIES):
                response = await self._attempt(method, url, body, content_type)
                text = response.body.decode("utf-8")
                headers = response.headers
                data = (_from_json(text) if headers.get("content-type") == "application/json"
                        else text)
                status = response.status
                if status != 429 and headers.get("x-ratelimit-remaining") == "0":
                    delay = reset_after(headers)
                if 200 <= status < 300:
                    return data
                if status == 429:
                    if not headers.get("via"):
                        raise discord.HTTPException(response, data)  # the edge's ban
                    await self._sleep(retry_after(data, headers, response))
                    continue
                if status >= 500:
                    await self._sleep(1 + attempt * 2)
                    continue
                if status == 403:
                    raise discord.Forbidden(response, data)
                if status == 404:
                    raise discord.NotFound(response, data)
                raise discord.HTTPException(response, data)
            if status >= 500:
                raise discord.DiscordServerError(response, data)
            raise discord.HTTPException(response, data)
        finally:
            try:
                if delay > 0:
                    await self._sleep(delay)  # the bucket is empty: the next one waits
            finally:
                lock.release()

    async def _attempt(self, method: str, url: str, body: bytes,
                       content_type: str | None) -> Response:
        if self._sent is not None:
            self._sent(method, url, body)
        trace = self._trace
        try:
            response = await self.pool.request(method, url, body, content_type)
        except BaseException:
            if trace is not None:
                trace(method, url.partition("?")[0], None, None)
            raise
        if trace is not None:
            trace(method, url.partition("?")[0], response.status, response.headers)
        return response


def reset_after(headers: Mapping[str, str]) -> float:
    """Seconds until the bucket refills: ``X-RateLimit-Reset-After``, else ``X-RateLimit-Reset``
    (epoch seconds) minus now (as ``discord.utils._parse_ratelimit_header``); 0 when Discord
    gives neither (discord.py would fail with a KeyError)."""
    after = headers.get("x-ratelimit-reset-after")
    if after:
        return float(after)
    reset = headers.get("x-ratelimit-reset")
    return float(reset) - time.time() if reset else 0.0


def retry_after(data: Any, headers: Mapping[str, str], response: Response) -> float:
    """A 429's wait: the JSON's ``retry_after`` (seconds), else ``Retry-After``."""
    if isinstance(data, dict) and isinstance(data.get("retry_after"), int | float):
        return float(data["retry_after"])
    header = headers.get("retry-after")
    try:
        return float(header)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise discord.HTTPException(response, data) from None


def _quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def multipart_body(parts: Sequence[dict[str, Any]]) -> tuple[str, bytes]:
    """discord.py's multipart parts (``name``, ``value``; a file's ``filename`` and
    ``content_type``) as ``multipart/form-data``: the Content-Type and the body, as aiohttp's
    ``FormData(quote_fields=False)`` writes them."""
    boundary = os.urandom(16).hex()
    delimiter = f"--{boundary}\r\n".encode()
    out = bytearray()
    for part in parts:
        name, value = part["name"], part["value"]
        filename, content_type = part.get("filename"), part.get("content_type")
        if isinstance(value, str) and filename is None and content_type is None:
            head = ("Content-Type: text/plain; charset=utf-8\r\n"
                    f'Content-Disposition: form-data; name="{_quoted(name)}"\r\n\r\n')
            data = value.encode()
        elif filename is not None and content_type is not None and hasattr(value, "read"):
            head = (f"Content-Type: {content_type}\r\nContent-Disposition: form-data; "
                    f'name="{_quoted(name)}"; filename="{_quoted(filename)}"\r\n\r\n')
            data = value.read()
        else:
            raise ValueError(f"a multipart part of a shape discord.py does not send: {name!r}")
        out += delimiter
        out += head.encode()
        out += data
        out += b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return f"multipart/form-data; boundary={boundary}", bytes(out)
