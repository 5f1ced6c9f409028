"""The token writes' HTTP/1.1 wire (``bot.process.http1``) against a scripted local server: the
request's bytes, keep-alive reuse, answers read by length, chunked or up to the close, the
retry of a dropped connection only where nothing can be acted on twice, and TLS with a
certificate made here (no network)."""

from __future__ import annotations

import asyncio
import gzip
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import trustme
import uvloop

from bot.process.http1 import BadAnswer, Dropped, Http1Pool
from tests.scripted_http import Reply, ScriptedServer, answer

UA = "DiscordBot (https://example.invalid 1.0) test"


@pytest.fixture
async def pool() -> AsyncIterator[Http1Pool]:
    pool = Http1Pool(user_agent=UA)
    yield pool
    await pool.close()


async def idle_closed(pool: Http1Pool) -> None:
    """Until the pool's idle connection saw the server close it."""
    idle = [c for stack in pool._idle.values() for c in stack]
    assert len(idle) == 1
    while idle[0].open:
        await asyncio.sleep(0)


async def test_a_request_is_written_whole_with_the_headers_discord_gets(pool: Http1Pool) -> None:
    async with ScriptedServer([answer(200, {"id": "1"}), answer(204, reason="No Content")]) \
            as server:
        host = server.base_url.removeprefix("http://")
        response = await pool.request("POST", f"{server.base_url}/api/v10/webhooks/1/t?wait=1",
                                      b'{"content":"hi"}', "application/json")
        assert (response.status, response.reason, response.body) == (200, "OK", b'{"id": "1"}')
        assert response.headers["content-type"] == "application/json"
        await pool.request("DELETE", f"{server.base_url}/api/v10/webhooks/1/t/messages/2")
    post, delete = server.seen
    assert post.head == ("POST /api/v10/webhooks/1/t?wait=1 HTTP/1.1\r\n"
                         f"Host: {host}\r\nUser-Agent: {UA}\r\nAccept-Encoding: identity\r\n"
                         "Content-Type: application/json\r\nContent-Length: 16")
    assert post.body == b'{"content":"hi"}'
    assert delete.head == ("DELETE /api/v10/webhooks/1/t/messages/2 HTTP/1.1\r\n"
                           f"Host: {host}\r\nUser-Agent: {UA}\r\nAccept-Encoding: identity\r\n"
                           "Content-Length: 0")  # as aiohttp sent it; no Authorization
    assert delete.body == b""


async def test_keep_alive_connections_are_reused(pool: Http1Pool) -> None:
    async with ScriptedServer([answer(200, b"a"), answer(200, b"b"), answer(200, b"c")]) \
            as server:
        for _ in range(3):
            await pool.request("PATCH", f"{server.base_url}/x", b"{}", "application/json")
    assert server.connections == pool.opened == 1
    assert [seen.connection for seen in server.seen] == [1, 1, 1]


async def test_concurrent_requests_get_their_own_connections(pool: Http1Pool) -> None:
    async with ScriptedServer([answer(200, b"a"), answer(200, b"b"), answer(200, b"c")]) \
            as server:
        url = f"{server.base_url}/x"
        bodies = await asyncio.gather(*(pool.request("GET", url) for _ in range(2)))
        assert sorted(r.body for r in bodies) == [b"a", b"b"]
        await pool.request("GET", url)  # one of the two, idle now
    assert server.connections == pool.opened == 2


async def test_connection_close_is_not_reused(pool: Http1Pool) -> None:
    async with ScriptedServer([answer(200, b"a", close=True), answer(200, b"b")]) as server:
        await pool.request("GET", f"{server.base_url}/x")
        assert (await pool.request("GET", f"{server.base_url}/x")).body == b"b"
    assert [seen.connection for seen in server.seen] == [1, 2]


async def test_a_chunked_answer_in_pieces(pool: Http1Pool) -> None:
    head = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    pieces = [head + b'5\r\n{"id"', b'\r\n5;ext=1\r\n: "7"', b"\r\n1\r\n}\r\n0\r\n",
              b"X-Trailer: t\r\n\r\n"]
    async with ScriptedServer([Reply(pieces), answer(200, b"next")]) as server:
        response = await pool.request("GET", f"{server.base_url}/x")
        assert response.body == b'{"id": "7"}'
        assert (await pool.request("GET", f"{server.base_url}/x")).body == b"next"
    assert server.connections == 1  # the chunked answer ended: the connection is reused


async def test_an_answer_up_to_the_close(pool: Http1Pool) -> None:
    pieces = [b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nfirst, ", b"then the rest"]
    async with ScriptedServer([Reply(pieces, close=True), answer(200, b"b")]) as server:
        response = await pool.request("GET", f"{server.base_url}/x")
        assert response.body == b"first, then the rest"
        await pool.request("GET", f"{server.base_url}/x")
    assert server.connections == 2


async def test_an_interim_answer_is_skipped_and_gzip_inflated(pool: Http1Pool) -> None:
    packed = gzip.compress(b'{"ok": true}')
    reply = Reply([b"HTTP/1.1 100 Continue\r\n\r\n" + answer(
        200, packed, headers={"Content-Encoding": "gzip"}).pieces[0]])
    async with ScriptedServer([reply]) as server:
        assert (await pool.request("GET", f"{server.base_url}/x")).body == b'{"ok": true}'


async def test_an_idle_connection_the_server_closed_is_not_written_on(pool: Http1Pool) -> None:
    # A keep-alive answer, then the server ends the idle connection (as Discord's edge does
    # after a while).
    idle_timeout = Reply(answer(200, b"a").pieces, close=True)
    async with ScriptedServer([idle_timeout, answer(200, b"b")]) as server:
        await pool.request("POST", f"{server.base_url}/x", b"1", "text/plain")
        await idle_closed(pool)
        response = await pool.request("POST", f"{server.base_url}/x", b"2", "text/plain")
    assert response.body == b"b"
    assert [(s.connection, s.body) for s in server.seen] == [(1, b"1"), (2, b"2")]
    assert pool.retried == 0  # nothing was written on the closed one


async def test_a_post_dropped_on_a_reused_connection_is_not_sent_again(pool: Http1Pool) -> None:
    async with ScriptedServer([answer(200, b"a"), Reply(close=True), answer(200, b"b")]) \
            as server:
        await pool.request("POST", f"{server.base_url}/x", b"1", "text/plain")
        with pytest.raises(Dropped) as dropped:
            await pool.request("POST", f"{server.base_url}/x", b"2", "text/plain")
        assert not dropped.value.answered
        assert (await pool.request("POST", f"{server.base_url}/x", b"3", "text/plain")).body \
            == b"b"
    # The follow-up may have been posted: it is not posted again.
    assert [(s.connection, s.body) for s in server.seen] == [(1, b"1"), (1, b"2"), (2, b"3")]
    assert pool.retried == 0


async def test_a_delete_dropped_on_a_reused_connection_is_sent_once_more(
        pool: Http1Pool) -> None:
    async with ScriptedServer([answer(200, b"a"), Reply(close=True), answer(204)]) as server:
        await pool.request("DELETE", f"{server.base_url}/m/1")
        response = await pool.request("DELETE", f"{server.base_url}/m/2")
    assert response.status == 204
    assert [(s.connection, s.request_line) for s in server.seen] == [
        (1, "DELETE /m/1 HTTP/1.1"), (1, "DELETE /m/2 HTTP/1.1"), (2, "DELETE /m/2 HTTP/1.1")]
    assert pool.retried == 1


async def test_a_connection_dropped_mid_answer_is_not_retried(pool: Http1Pool) -> None:
    half = Reply([b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf"], close=True)
    async with ScriptedServer([answer(204), half]) as server:
        await pool.request("DELETE", f"{server.base_url}/m/1")
        with pytest.raises(Dropped) as dropped:
            await pool.request("DELETE", f"{server.base_url}/m/2")
    assert dropped.value.answered
    assert len(server.seen) == 2 and pool.retried == 0


async def test_a_fresh_connection_dropped_is_not_retried(pool: Http1Pool) -> None:
    async with ScriptedServer([Reply(close=True)]) as server:
        with pytest.raises(Dropped):
            await pool.request("DELETE", f"{server.base_url}/m/1")
    assert len(server.seen) == 1 and pool.retried == 0


async def test_an_answer_that_is_not_http_raises() -> None:
    pool = Http1Pool(user_agent=UA)
    async with ScriptedServer([Reply([b"SSH-2.0-OpenSSH\r\n\r\n"])]) as server:
        with pytest.raises(BadAnswer):
            await pool.request("GET", f"{server.base_url}/x")
    await pool.close()


async def test_no_answer_in_time_raises_and_closes() -> None:
    pool = Http1Pool(user_agent=UA, timeout=0.05)
    async with ScriptedServer([Reply()]) as server:  # reads the request, never answers
        with pytest.raises(TimeoutError):
            await pool.request("GET", f"{server.base_url}/x")
        assert not pool._idle.get(server.base_url)
    await pool.close()


@pytest.fixture(scope="module")
def authority() -> trustme.CA:
    return trustme.CA()


async def test_tls_with_a_verified_certificate(authority: trustme.CA) -> None:
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(served)
    trusting = ssl.create_default_context()
    authority.configure_trust(trusting)
    pool = Http1Pool(user_agent=UA, ssl_context=trusting)
    async with ScriptedServer([answer(200, b"a"), answer(200, b"b")], ssl_context=served) \
            as server:
        assert server.base_url.startswith("https://")
        assert (await pool.request("GET", f"{server.base_url}/x")).body == b"a"
        assert (await pool.request("GET", f"{server.base_url}/x")).body == b"b"
        await pool.close()
    assert server.connections == 1


async def test_tls_refuses_a_certificate_the_system_does_not_trust(
        authority: trustme.CA) -> None:
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(served)
    pool = Http1Pool(user_agent=UA)  # the system's default verified context
    async with ScriptedServer([answer(200, b"a")], ssl_context=served) as server:
        with pytest.raises(ssl.SSLCertVerificationError):
            await pool.request("GET", f"{server.base_url}/x")
        await pool.close()
    assert not server.seen


ON_UVLOOP = [test_a_request_is_written_whole_with_the_headers_discord_gets,
             test_keep_alive_connections_are_reused, test_a_chunked_answer_in_pieces,
             test_an_answer_up_to_the_close,
             test_an_idle_connection_the_server_closed_is_not_written_on,
             test_a_post_dropped_on_a_reused_connection_is_not_sent_again,
             test_a_delete_dropped_on_a_reused_connection_is_sent_once_more]


@pytest.mark.parametrize("test", ON_UVLOOP, ids=lambda test: test.__name__.removeprefix("test_"))
def test_on_uvloop(test: Callable[[Http1Pool], Awaitable[None]]) -> None:
    """The same on uvloop's loop, which the bot runs on (the tests above run on asyncio's)."""

    async def run() -> None:
        pool = Http1Pool(user_agent=UA)
        try:
            await test(pool)
        finally:
            await pool.close()

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(run())


def test_tls_on_uvloop(authority: trustme.CA) -> None:
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(test_tls_with_a_verified_certificate(authority))
