"""A local HTTP/1.1 server that answers each request it reads with the bytes a test scripted,
for the token writes' wire (``bot.process.http1``, ``bot.process.token_requests``): what it
read (``seen``: each request's connection, head and body) and how many connections it got."""

from __future__ import annotations

import asyncio
import json
import ssl
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    """What the server does with one request: write ``pieces`` (each flushed before the next,
    so the client reads them apart), then close the connection when ``close``."""

    pieces: list[bytes] = field(default_factory=list)
    close: bool = False


@dataclass
class Seen:
    connection: int  # 1 for the first connection the server accepted
    head: str  # the request line and headers, as sent
    body: bytes

    @property
    def request_line(self) -> str:
        return self.head.split("\r\n", 1)[0]


def answer(status: int = 200, body: bytes | dict[str, Any] | None = None, *,
           reason: str = "OK", headers: dict[str, str] | None = None,
           close: bool = False) -> Reply:
    """A whole answer with its Content-Length (a dict body: JSON)."""
    content = b""
    fields = dict(headers or {})
    if isinstance(body, dict):
        content = json.dumps(body).encode()
        fields.setdefault("Content-Type", "application/json")
    elif body is not None:
        content = body
    fields["Content-Length"] = str(len(content))
    if close:
        fields["Connection"] = "close"
    head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items())
    return Reply([head.encode() + b"\r\n" + content], close=close)


class ScriptedServer:
    """Answers the n-th request it reads with ``replies[n]``; a request past the script is
    answered 500."""

    def __init__(self, replies: list[Reply], *, ssl_context: ssl.SSLContext | None = None):
        self.replies = replies
        self.seen: list[Seen] = []
        self.connections = 0
        self._ssl = ssl_context
        self._server: asyncio.Server | None = None
        self._arrived = asyncio.Event()

    @property
    def base_url(self) -> str:
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"{'https' if self._ssl else 'http'}://127.0.0.1:{port}"

    async def wait_for(self, count: int) -> None:
        """Until ``count`` requests were read."""
        while len(self.seen) < count:
            self._arrived.clear()
            await self._arrived.wait()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        number = self.connections
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                text = head.decode("latin-1")
                length = 0
                for line in text.split("\r\n")[1:]:
                    name, _, value = line.partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                body = await reader.readexactly(length)
                index = len(self.seen)
                self.seen.append(Seen(number, text[:-4], body))
                self._arrived.set()
                reply = self.replies[index] if index < len(self.replies) else answer(500)
                for piece in reply.pieces:
                    writer.write(piece)
                    await writer.drain()
                if reply.close:
                    return
        finally:
            writer.close()

    async def __aenter__(self) -> ScriptedServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self._ssl)
        return self

    async def __aexit__(self, *_exc: object) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

