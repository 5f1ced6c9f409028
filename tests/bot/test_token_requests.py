"""The token writes' requests (``bot.process.token_requests``) keep what discord.py's webhook
adapter guaranteed: a 429 waited out (``retry_after``, else ``Retry-After``) and retried up to
5 tries, a 5xx retried, an empty bucket (``X-RateLimit-Remaining: 0``) holding the token's next
request for ``X-RateLimit-Reset-After``, errors as discord.py's types, multipart bodies as
aiohttp wrote them, every attempt traced; and the discord.py internals it uses keep their
shape. Against a scripted local server; the waits are seen, not slept."""

from __future__ import annotations

import asyncio
import inspect
import io
import re
import time
import weakref
from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import handle_message_parameters
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.process.http1 import Dropped, Http1Pool
from bot.process.token_requests import TokenRequests, TokenRoute, multipart_body, reset_after
from tests.scripted_http import Reply, ScriptedServer, answer

VIA = {"Via": "1.1 google"}
LIMITED = {"message": "You are being rate limited.", "retry_after": 0.25, "global": False}


class Waits:
    """The requests' waits, recorded; ``gate`` (when set) holds each wait until it opens."""

    def __init__(self) -> None:
        self.seen: list[float] = []
        self.gate: asyncio.Event | None = None
        self.waiting = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.seen.append(seconds)
        self.waiting.set()
        if self.gate is not None:
            await self.gate.wait()


class Traced:
    def __init__(self) -> None:
        self.attempts: list[tuple[str, str, int | None]] = []

    def __call__(self, method: str, path: str, status: int | None,
                 _headers: Mapping[str, str] | None) -> None:
        self.attempts.append((method, path, status))


@pytest.fixture
async def wire() -> AsyncIterator[tuple[TokenRequests, Waits, Traced]]:
    waits, traced = Waits(), Traced()
    requests = TokenRequests(user_agent="DiscordBot (test, 1)", trace=traced, sleep=waits)
    yield requests, waits, traced
    await requests.close()


Wire = tuple[TokenRequests, Waits, Traced]


def route(server: ScriptedServer, method: str = "PATCH", token: str = "tok") -> TokenRoute:
    return TokenRoute(method, f"{server.base_url}/api/v10/webhooks/9/{token}/messages/@original",
                      9, token)


async def test_a_429_is_waited_out_and_retried(wire: Wire) -> None:
    requests, waits, traced = wire
    replies = [answer(429, LIMITED, reason="Too Many Requests", headers=VIA),
               answer(200, {"id": "5"})]
    async with ScriptedServer(replies) as server:
        data = await requests.request(route(server), payload={"content": "x"})
    assert data == {"id": "5"}
    assert waits.seen == [0.25]
    assert [s.body for s in server.seen] == [b'{"content":"x"}'] * 2
    assert [status for _m, _p, status in traced.attempts] == [429, 200]
    assert traced.attempts[0][1].endswith("/webhooks/9/tok/messages/@original")


async def test_a_429_without_a_json_body_waits_for_retry_after(wire: Wire) -> None:
    requests, waits, _ = wire
    replies = [answer(429, b"slow down", headers={**VIA, "Retry-After": "2"}),
               answer(204, reason="No Content")]
    async with ScriptedServer(replies) as server:
        assert await requests.request(route(server, "DELETE")) == ""
    assert waits.seen == [2.0]


async def test_a_429_from_the_edge_without_via_raises_at_once(wire: Wire) -> None:
    requests, waits, _ = wire
    async with ScriptedServer([answer(429, LIMITED, reason="Too Many Requests")]) as server:
        with pytest.raises(discord.HTTPException) as caught:
            await requests.request(route(server), payload={})
    assert caught.value.status == 429 and len(server.seen) == 1 and waits.seen == []


async def test_five_429s_give_up(wire: Wire) -> None:
    requests, waits, traced = wire
    replies = [answer(429, LIMITED, reason="Too Many Requests", headers=VIA)] * 5
    async with ScriptedServer(replies) as server:
        with pytest.raises(discord.HTTPException) as caught:
            await requests.request(route(server), payload={})
    assert type(caught.value) is discord.HTTPException and caught.value.status == 429
    assert len(server.seen) == 5 and waits.seen == [0.25] * 5
    assert len(traced.attempts) == 5


async def test_a_5xx_is_retried_then_raised_as_a_server_error(wire: Wire) -> None:
    requests, waits, _ = wire
    async with ScriptedServer([answer(502, b"bad gateway", reason="Bad Gateway"),
                               answer(200, {"id": "1"})]) as server:
        assert await requests.request(route(server, "POST"), payload={}) == {"id": "1"}
    assert waits.seen == [1]
    waits.seen.clear()
    async with ScriptedServer([answer(503, reason="Service Unavailable")] * 5) as server:
        with pytest.raises(discord.DiscordServerError) as caught:
            await requests.request(route(server, "POST"), payload={})
    assert caught.value.status == 503 and len(server.seen) == 5
    assert waits.seen == [1, 3, 5, 7, 9]  # discord.py's 1 + 2 * attempt, after each try


async def test_an_empty_bucket_holds_the_tokens_next_request(wire: Wire) -> None:
    requests, waits, _ = wire
    empty = {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
             "X-RateLimit-Reset-After": "0.75", "X-RateLimit-Bucket": "b"}
    replies = [answer(200, {"id": "1"}, headers=empty), answer(200, {"id": "other"}),
               answer(200, {"id": "2"})]
    waits.gate = asyncio.Event()
    async with ScriptedServer(replies) as server:
        first = asyncio.create_task(requests.request(route(server), payload={"n": 1}))
        await asyncio.wait_for(waits.waiting.wait(), 10)  # answered; the lock held 0.75 s
        assert waits.seen == [0.75]
        same = asyncio.create_task(requests.request(route(server), payload={"n": 2}))
        other = asyncio.create_task(requests.request(route(server, token="t2"),
                                                     payload={"n": 3}))
        assert await other == {"id": "other"}  # another token's bucket does not wait
        waits.gate.set()
        assert await first == {"id": "1"} and await same == {"id": "2"}
    assert [s.body for s in server.seen] == [b'{"n":1}', b'{"n":3}', b'{"n":2}']


async def test_errors_come_out_as_discord_py_raises_them(wire: Wire) -> None:
    requests, _, _ = wire
    missing = {"message": "Missing Access", "code": 50001}
    invalid = {"message": "Invalid Form Body", "code": 50035,
               "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                                   "message": "Too long"}]}}}
    replies = [answer(403, missing, reason="Forbidden"),
               answer(404, {"message": "Unknown Message", "code": 10008}, reason="Not Found"),
               answer(400, invalid, reason="Bad Request"),
               answer(401, {"message": "Invalid Webhook Token", "code": 50027},
                      reason="Unauthorized")]
    seen = []
    async with ScriptedServer(replies) as server:
        for _ in replies:
            with pytest.raises(discord.HTTPException) as caught:
                await requests.request(route(server), payload={})
            seen.append((type(caught.value), caught.value.status, caught.value.code,
                         str(caught.value)))
    assert seen == [
        (discord.Forbidden, 403, 50001, "403 Forbidden (error code: 50001): Missing Access"),
        (discord.NotFound, 404, 10008, "404 Not Found (error code: 10008): Unknown Message"),
        (discord.HTTPException, 400, 50035, "400 Bad Request (error code: 50035): Invalid "
                                            "Form Body\nIn content: Too long"),
        (discord.HTTPException, 401, 50027,
         "401 Unauthorized (error code: 50027): Invalid Webhook Token")]


async def test_a_dropped_post_is_traced_and_not_sent_again(wire: Wire) -> None:
    requests, waits, traced = wire
    async with ScriptedServer([answer(200, {"id": "1"}), Reply(close=True)]) as server:
        await requests.request(route(server, "POST"), payload={"n": 1})
        with pytest.raises(Dropped):
            await requests.request(route(server, "POST"), payload={"n": 2})
    assert len(server.seen) == 2 and waits.seen == []
    assert [status for _m, _p, status in traced.attempts] == [200, None]


async def test_the_text_of_an_answer_that_is_not_json(wire: Wire) -> None:
    requests, _, _ = wire
    replies = [answer(200, b'{"id": "1"}', headers={"Content-Type": "text/plain"})]
    async with ScriptedServer(replies) as server:
        assert await requests.request(route(server), payload={}) == '{"id": "1"}'


async def aiohttp_form(parts: list[dict[str, Any]], boundary: str) -> bytes:
    """What discord.py's adapter sent: aiohttp's FormData of the same parts."""
    form = aiohttp.FormData(quote_fields=False)
    for part in parts:
        form.add_field(**part)
    writer = form()
    writer._boundary = boundary.encode()  # aiohttp's writer, made comparable
    out = bytearray()

    class Sink:
        async def write(self, data: bytes) -> None:
            out.extend(data)

    await writer.write(Sink())  # type: ignore[arg-type]
    return bytes(out)


async def test_multipart_bodies_are_written_as_aiohttp_wrote_them() -> None:
    png = b"\x89PNG\r\n\x1a\nnot really"
    embed = discord.Embed(title="Tablé").set_image(url="attachment://ta ble\"é.png")
    files = [discord.File(io.BytesIO(png), 'ta ble"é.png'), discord.File(io.BytesIO(b"2"), "b.png")]
    with handle_message_parameters(content="hi ✓", embeds=[embed], files=files) as params:
        mine_type, mine = multipart_body(params.multipart)
        for file in files:
            file.reset()
        boundary = mine_type.removeprefix("multipart/form-data; boundary=")
        assert re.fullmatch(r"[0-9a-f]{32}", boundary)
        assert mine == await aiohttp_form(params.multipart, boundary)
    assert mine.count(png) == 1


async def test_pictures_go_as_multipart_and_are_read_once_for_every_try(wire: Wire) -> None:
    requests, _, _ = wire
    files = [discord.File(io.BytesIO(b"PNGDATA"), "t.png")]
    replies = [answer(429, LIMITED, reason="Too Many Requests", headers=VIA),
               answer(200, {"id": "1"})]
    async with ScriptedServer(replies) as server:
        with handle_message_parameters(content="x", files=files) as params:
            await requests.request(route(server), multipart=params.multipart)
    first, second = server.seen
    assert first.body == second.body and b"\r\n\r\nPNGDATA\r\n--" in first.body
    assert "Content-Type: multipart/form-data; boundary=" in first.head


def test_discord_py_internals_keep_the_shape_the_requests_use() -> None:
    """Fails when discord.py changes what ``bot.process.token_requests`` reads or shares."""
    adapter = async_context.get()
    assert isinstance(adapter, AsyncWebhookAdapter)
    assert isinstance(adapter._locks, weakref.WeakValueDictionary)
    source = inspect.getsource(AsyncWebhookAdapter.request)
    assert "bucket = (route.webhook_id, route.webhook_token)" in source
    assert "self._locks[bucket]" in source
    for error in (discord.HTTPException, discord.Forbidden, discord.NotFound,
                  discord.DiscordServerError):
        assert list(inspect.signature(error).parameters) == ["response", "message"]
    from discord import utils
    assert callable(utils._to_json) and callable(utils._from_json)


async def test_the_lock_is_the_one_discord_py_takes_for_the_token(wire: Wire) -> None:
    requests, waits, _ = wire
    waits.gate = asyncio.Event()
    empty = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "1"}
    async with ScriptedServer([answer(200, {"id": "1"}, headers=empty)]) as server:
        task = asyncio.create_task(requests.request(route(server), payload={}))
        await asyncio.wait_for(waits.waiting.wait(), 10)
        lock = async_context.get()._locks[(9, "tok")]
        assert lock.locked()  # discord.py's own calls on this token wait for it too
        waits.gate.set()
        await task
    assert not lock.locked()


def test_a_pool_is_made_for_the_client_when_none_is_given() -> None:
    requests = TokenRequests(user_agent="DiscordBot (x, 1)")
    assert isinstance(requests.pool, Http1Pool)


def test_the_buckets_reset_is_read_from_either_header() -> None:
    assert reset_after({"x-ratelimit-reset-after": "1.5", "x-ratelimit-reset": "0"}) == 1.5
    assert 0 < reset_after({"x-ratelimit-reset": str(time.time() + 30)}) <= 30
    assert reset_after({}) == 0.0
