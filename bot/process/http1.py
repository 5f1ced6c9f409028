"""A lean HTTP/1.1 client: keep-alive connections pooled per origin, each request written at
once, each answer read off an asyncio protocol (issue 42: the token writes' wire,
``bot.process.token_requests``).

What it does: ``http`` and ``https`` (TLS with the system's default verified context,
``ssl.create_default_context()``, unless a context is given); the request's bytes (request
line, ``Host``, ``User-Agent``, ``Accept-Encoding: identity``, the body's ``Content-Type`` and
``Content-Length``, then the body) written in one ``transport.write``; the answer read with its
``Content-Length``, chunked (``Transfer-Encoding: chunked``, trailers skipped) or up to the
connection's close; interim 1xx answers skipped. No compression is asked for
(``identity``); an answer compressed anyway (``gzip``, ``deflate``) is inflated. Header names
are lowercased (``Response.headers``); repeated headers are joined with ``", "``.

Connections: one request at a time on each; after a whole answer that does not say
``Connection: close`` (HTTP/1.1; ``keep-alive`` for 1.0) the connection goes back to its
origin's idle stack (the most recent first) and is reused for up to ``keepalive`` seconds
(15 s, aiohttp's default), at most ``max_idle`` per origin. A connection that the server
closed while idle, or that sent bytes nobody asked for, is not reused: nothing is written on
it.

A dropped connection (closed or reset before the whole answer came) raises :class:`Dropped`,
and is retried once, on a fresh connection, only when nothing of the request can have been
acted on twice: the connection was a reused one (the likely cause is the server closing it
while idle), no byte of an answer came, and the method is idempotent (RFC 9110 9.2.2: ``GET``,
``HEAD``, ``OPTIONS``, ``TRACE``, ``PUT``, ``DELETE``), so a request the server did act on
has the same effect twice; this is the retry aiohttp makes (``ClientSession._request``). A
``POST`` or ``PATCH`` is never sent again once written: the server may have acted on it (a
follow-up posted twice), and HTTP/1.1 gives no way to know (RFC 9112 9.3.1). Failures to
connect raise (``OSError``, ``ssl.SSLError``) without a retry, as aiohttp's; no answer within
``timeout`` seconds (300, aiohttp's default total) raises ``TimeoutError`` and closes the
connection; so does a cancellation.

Discord-free: a request is a method, a URL and a body.
"""

from __future__ import annotations

import asyncio
import ssl
import zlib
from collections import deque
from typing import NamedTuple
from urllib.parse import urlsplit

IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})  # RFC 9110 9.2.2
KEEPALIVE = 15.0  # seconds an idle connection is kept (aiohttp's TCPConnector default)
TIMEOUT = 300.0  # seconds for a whole attempt (aiohttp's default ClientTimeout.total)
CONNECT_TIMEOUT = 30.0  # seconds to connect (and shake hands, for TLS)
MAX_IDLE = 64  # idle connections kept per origin
MAX_HEAD = 64 * 1024  # bytes of an answer's status line and headers

_HEAD, _LENGTH, _CHUNKED, _UNTIL_CLOSE, _IDLE = range(5)
_NO_BODY = frozenset({204, 304})


class Dropped(ConnectionError):
    """The connection closed before the whole answer came. ``answered``: some of the answer
    had come (the request was surely received)."""

    def __init__(self, message: str, *, answered: bool) -> None:
        super().__init__(message)
        self.answered = answered


class BadAnswer(ConnectionError):
    """An answer that is not HTTP/1.x as this client reads it."""


class Response:
    """A whole answer: ``status``, ``reason``, ``headers`` (lowercased names) and ``body``.
    Also what discord.py's ``HTTPException`` reads of a response (``status``, ``reason``)."""

    __slots__ = ("body", "headers", "reason", "status")

    def __init__(self, status: int, reason: str, headers: dict[str, str], body: bytes) -> None:
        self.status, self.reason, self.headers, self.body = status, reason, headers, body

    def __repr__(self) -> str:
        return f"<Response {self.status} {self.reason}>"


class _Origin(NamedTuple):
    host: str  # to connect to (an IPv6 literal without its brackets)
    port: int
    host_header: str  # the URL's host[:port] as written
    tls: bool


class _Connection(asyncio.Protocol):
    """One connection and the answer being read on it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        self.open = False
        self.idle_since = 0.0
        self.keep = False  # the last answer allows another request
        self._waiter: asyncio.Future[Response] | None = None
        self._buffer = bytearray()
        self._received = 0  # bytes of the current answer
        self._mode = _IDLE
        self._head_only = False
        self._status = 0
        self._reason = ""
        self._headers: dict[str, str] = {}
        self._length = 0  # _LENGTH: body bytes; _CHUNKED: bytes of the chunk left (+ CRLF)
        self._chunks = bytearray()

    # --- asyncio.Protocol -----------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.open = True

    def data_received(self, data: bytes) -> None:
        waiter = self._waiter
        if waiter is None or waiter.done():
            self.close()  # bytes nobody asked for: the connection's state is unknown
            return
        self._received += len(data)
        self._buffer += data
        try:
            response = self._parse()
        except BadAnswer as error:
            self._waiter = None
            self.close()
            waiter.set_exception(error)
            return
        if response is not None:
            self._waiter = None
            waiter.set_result(response)

    def eof_received(self) -> bool:
        self._ended(None)
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended(exc)

    # --- requests -------------------------------------------------------------------------

    def send(self, data: bytes, *, head_only: bool) -> asyncio.Future[Response]:
        """Write one request; its answer comes in the future returned."""
        waiter = self._waiter = self.loop.create_future()
        self._mode, self._received, self._head_only, self.keep = _HEAD, 0, head_only, False
        self.transport.write(data)  # type: ignore[union-attr]
        return waiter

    def expire(self) -> None:
        """The answer did not come in time."""
        waiter = self._waiter
        self._waiter = None
        self.close()
        if waiter is not None and not waiter.done():
            waiter.set_exception(TimeoutError("no answer in time"))

    def close(self) -> None:
        self.open = self.keep = False
        if self.transport is not None:
            self.transport.close()

    def _ended(self, exc: Exception | None) -> None:
        self.open = self.keep = False
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        self._waiter = None
        if self._mode == _UNTIL_CLOSE and exc is None:
            waiter.set_result(self._finish(bytes(self._buffer)))
            return
        answered = self._received > 0
        dropped = Dropped("the connection closed before the whole answer"
                          if answered else "the connection closed before any answer",
                          answered=answered)
        dropped.__cause__ = exc
        waiter.set_exception(dropped)

    # --- reading the answer ---------------------------------------------------------------

    def _parse(self) -> Response | None:
        buffer = self._buffer
        while self._mode == _HEAD:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(buffer) > MAX_HEAD:
                    raise BadAnswer("the answer's head is too long")
                return None
            head = buffer[:end].decode("latin-1")
            del buffer[:end + 4]
            self._read_head(head)
        if self._mode == _LENGTH:
            length = self._length
            if len(buffer) < length:
                return None
            if len(buffer) == length:
                body = bytes(buffer)
                buffer.clear()
            else:  # more than the answer: nothing else was asked for
                body = bytes(buffer[:length])
                self.keep = False
            return self._finish(body)
        if self._mode == _CHUNKED:
            chunked = self._chunked()
            return None if chunked is None else self._finish(chunked)
        return None  # up to the close

    def _read_head(self, head: str) -> None:
        lines = head.split("\r\n")
        version, _, rest = lines[0].partition(" ")
        code, _, reason = rest.partition(" ")
        if not version.startswith("HTTP/1.") or not code.isdigit() or len(code) != 3:
            raise BadAnswer(f"not an HTTP/1.x status line: {lines[0][:80]!r}")
        status = int(code)
        if 100 <= status < 200:
            return  # an interim answer (this client sends no Expect): the real one follows
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, colon, value = line.partition(":")
            if not colon:
                raise BadAnswer(f"not a header line: {line[:80]!r}")
            name = name.lower()
            value = value.strip()
            if name in headers:
                headers[name] = f"{headers[name]}, {value}"
            else:
                headers[name] = value
        self._status, self._reason, self._headers = status, reason, headers
        connection = headers.get("connection", "").lower()
        self.keep = ("close" not in connection if version == "HTTP/1.1"
                     else "keep-alive" in connection)
        if self._head_only or status in _NO_BODY:
            self._mode, self._length = _LENGTH, 0
        elif "chunked" in headers.get("transfer-encoding", "").lower():
            self._mode, self._length = _CHUNKED, 0
            self._chunks = bytearray()
        elif "content-length" in headers:
            length = headers["content-length"]
            if not length.isdigit():
                raise BadAnswer(f"a Content-Length that is not a length: {length[:40]!r}")
            self._mode, self._length = _LENGTH, int(length)
        else:
            self._mode, self.keep = _UNTIL_CLOSE, False

    def _chunked(self) -> bytes | None:
        buffer, chunks = self._buffer, self._chunks
        while True:
            if self._length == 0:  # a chunk's size line
                end = buffer.find(b"\r\n")
                if end < 0:
                    if len(buffer) > MAX_HEAD:
                        raise BadAnswer("a chunk's size line is too long")
                    return None
                size_text = bytes(buffer[:end]).partition(b";")[0].strip()
                try:
                    size = int(size_text, 16)
                except ValueError:
                    raise BadAnswer(f"not a chunk size: {size_text[:20]!r}") from None
                if size == 0:  # the last chunk: trailers (skipped) up to an empty line
                    last = buffer.find(b"\r\n\r\n", end)
                    if last < 0:
                        return None
                    if len(buffer) > last + 4:
                        self.keep = False
                    buffer.clear()
                    return bytes(chunks)
                del buffer[:end + 2]
                self._length = size + 2
            length = self._length
            if len(buffer) < length:
                return None
            if buffer[length - 2:length] != b"\r\n":
                raise BadAnswer("a chunk not followed by CRLF")
            chunks += buffer[:length - 2]
            del buffer[:length]
            self._length = 0

    def _finish(self, body: bytes) -> Response:
        self._mode = _IDLE
        headers = self._headers
        encoding = headers.get("content-encoding")
        if encoding is not None and encoding.lower() != "identity":
            body = _inflated(body, encoding.lower())
        self.idle_since = self.loop.time()
        return Response(self._status, self._reason, headers, body)


def _inflated(body: bytes, encoding: str) -> bytes:
    if encoding in ("gzip", "x-gzip", "deflate"):
        try:
            return zlib.decompress(body, 47)  # 32 + 15: a gzip or zlib header, found out
        except zlib.error:
            if encoding != "deflate":
                raise BadAnswer("a gzip body that does not inflate") from None
            try:
                return zlib.decompress(body, -15)  # raw deflate, as some servers send it
            except zlib.error:
                raise BadAnswer("a deflate body that does not inflate") from None
    raise BadAnswer(f"an answer in an encoding not asked for: {encoding!r}")


class Http1Pool:
    """Requests over pooled keep-alive HTTP/1.1 connections (see the module's doc)."""

    def __init__(self, *, user_agent: str, ssl_context: ssl.SSLContext | None = None,
                 keepalive: float = KEEPALIVE, timeout: float = TIMEOUT,
                 connect_timeout: float = CONNECT_TIMEOUT, max_idle: int = MAX_IDLE) -> None:
        if "\r" in user_agent or "\n" in user_agent:
            raise ValueError("a User-Agent on more than one line")
        self._fixed = f"User-Agent: {user_agent}\r\nAccept-Encoding: identity\r\n"
        self._ssl = ssl_context
        self._keepalive, self._timeout = keepalive, timeout
        self._connect_timeout, self._max_idle = connect_timeout, max_idle
        self._origins: dict[str, _Origin] = {}
        self._idle: dict[str, deque[_Connection]] = {}
        self._closed = False
        self.opened = 0  # connections opened so far
        self.retried = 0  # requests sent again after a dropped connection

    async def request(self, method: str, url: str, body: bytes = b"",
                      content_type: str | None = None) -> Response:
        """Send one request; its whole answer. Raises :class:`Dropped`, :class:`BadAnswer`,
        ``TimeoutError`` or a connection's ``OSError``."""
        if self._closed:
            raise RuntimeError("the pool is closed")
        slash = url.find("/", 8)  # after "https://h" or "http://h"
        key, target = (url, "/") if slash < 0 else (url[:slash], url[slash:])
        origin = self._origins.get(key) or self._origin(key)
        head = f"{method} {target} HTTP/1.1\r\nHost: {origin.host_header}\r\n{self._fixed}"
        if content_type is not None:
            head = f"{head}Content-Type: {content_type}\r\n"
        data = f"{head}Content-Length: {len(body)}\r\n\r\n".encode("ascii")
        if body:
            data += body
        head_only = method == "HEAD"
        connection, reused = self._idle_connection(key), True
        if connection is None:
            connection, reused = await self._connect(origin), False
        try:
            response = await self._exchange(connection, data, head_only)
        except Dropped as dropped:
            if not reused or dropped.answered or method not in IDEMPOTENT:
                raise
            self.retried += 1
            connection = await self._connect(origin)
            response = await self._exchange(connection, data, head_only)
        self._release(key, connection)
        return response

    async def close(self) -> None:
        """Close the idle connections; a connection in use closes when its answer is in."""
        self._closed = True
        for idle in self._idle.values():
            while idle:
                idle.pop().close()
        self._idle.clear()

    def _origin(self, key: str) -> _Origin:
        parts = urlsplit(key)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {key!r}")
        tls = parts.scheme == "https"
        host_header = parts.netloc.rpartition("@")[2]
        origin = _Origin(parts.hostname, parts.port or (443 if tls else 80), host_header, tls)
        self._origins[key] = origin
        return origin

    def _idle_connection(self, key: str) -> _Connection | None:
        idle = self._idle.get(key)
        if not idle:
            return None
        now = idle[-1].loop.time()
        while idle:
            connection = idle.pop()
            if connection.open and now - connection.idle_since < self._keepalive:
                return connection
            connection.close()  # closed by the server meanwhile, or idle too long
        return None

    async def _connect(self, origin: _Origin) -> _Connection:
        loop = asyncio.get_running_loop()
        connection = _Connection(loop)
        context = None
        if origin.tls:
            if self._ssl is None:
                self._ssl = ssl.create_default_context()
            context = self._ssl
        async with asyncio.timeout(self._connect_timeout):
            await loop.create_connection(
                lambda: connection, origin.host, origin.port, ssl=context,
                server_hostname=origin.host if context is not None else None)
        self.opened += 1
        return connection

    async def _exchange(self, connection: _Connection, data: bytes,
                        head_only: bool) -> Response:
        waiter = connection.send(data, head_only=head_only)
        timer = connection.loop.call_later(self._timeout, connection.expire)
        try:
            return await waiter
        except BaseException:
            connection.close()  # cancelled, timed out or dropped: not reusable
            raise
        finally:
            timer.cancel()

    def _release(self, key: str, connection: _Connection) -> None:
        if self._closed or not connection.keep or not connection.open:
            connection.close()
            return
        idle = self._idle.get(key)
        if idle is None:
            idle = self._idle[key] = deque()
        if len(idle) >= self._max_idle:
            connection.close()
        else:
            idle.append(connection)
