"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, dispatch.

Shards: a client that IDENTIFYs with ``shard: [id, count]`` gets READY and GUILD_CREATE for the
guilds of that shard only (``(guild_id >> 22) % count == id``), and an event of a guild goes
only to the session of its shard (:meth:`Gateway.dispatch` with ``guild_id``). Without
``shard`` a session gets every guild.

discord.py asks for ``compress=zlib-stream`` but only inflates binary frames, so plain JSON text
frames are valid answers and keep the traffic readable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from bot.playground.fakediscord import places
from bot.playground.fakediscord.world import World

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME = 0, 1, 2, 3, 6
RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 7, 8, 9, 10, 11
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9


@dataclass
class Session:
    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    invalid: bool = False


class Gateway:
    def __init__(self, world: World, token: str, *, heartbeat_interval_ms: int = 41_250) -> None:
        self.world = world
        self.token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None  # the newest identified (or resumed) session
        self.by_shard: dict[int, Session] = {}  # shard id -> its newest session
        self.identifies = 0
        self.resumes = 0
        self.ready_count = 0  # sessions that got READY + GUILD_CREATE (identify or resume)
        self.opcodes_seen: list[int] = []
        # Keeps frames on the wire in sequence order when several dispatches run at once.
        self._send_lock = asyncio.Lock()
        self._requests: dict[web.WebSocketResponse, web.Request] = {}
        # The session whose socket ``drop`` cut; dispatches wait in it for a RESUME.
        self.dropped: Session | None = None
        self.drops = 0
        # While True, new gateway connections are refused (503): with ``drop`` a shard stays
        # disconnected until it is set back to False.
        self.refusing = False

    @property
    def connected(self) -> bool:
        return self.current is not None and self.current.ws is not None

    def shard_connected(self, shard_id: int) -> bool:
        session = self.by_shard.get(shard_id)
        return session is not None and session.ws is not None and not session.invalid

    def session_for(self, guild_id: int | None) -> Session | None:
        """The session that gets ``guild_id``'s events: that of its shard when sessions are
        sharded, else the current one."""
        if not self.by_shard:
            return self.current
        if guild_id is None:  # DMs and group DMs: Discord sends their events to shard 0
            return self.by_shard.get(0)
        count = next(iter(self.by_shard.values())).shard[1]  # type: ignore[index]
        return self.by_shard.get((guild_id >> 22) % count)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if self.refusing:  # the gateway is down: the handshake fails, the client backs off
            return web.Response(status=503, text="gateway unavailable")
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self._requests[ws] = request
        await self._send(ws, {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        session: Session | None = None
        close_code = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                self.opcodes_seen.append(op)
                if op == HEARTBEAT:
                    await self._send(ws, {"op": HEARTBEAT_ACK})
                elif op == IDENTIFY:
                    session = await self._identify(ws, frame["d"])
                elif op == RESUME:
                    session = await self._resume(ws, frame["d"])
                elif op == REQUEST_MEMBERS and session is not None:
                    await self._member_chunk(session, frame["d"])
                elif op == PRESENCE:
                    pass
                else:
                    log.warning("fake gateway: unhandled opcode %s", op)
        finally:
            self._requests.pop(ws, None)
            close_code = ws.close_code
            if session is not None and session.ws is ws:
                session.ws = None
                # A client closing with 1000/1001 ends its session, as on Discord.
                if close_code in (1000, 1001):
                    session.invalid = True
            self.world.notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        self.identifies += 1
        session = Session(
            id=secrets.token_hex(16), intents=int(data.get("intents") or 0), shard=data.get("shard")
        )
        self.sessions[session.id] = session
        self.dropped = None
        session.ws = ws
        self.current = session
        if session.shard is not None:
            self.by_shard[int(session.shard[0])] = session
        guilds = self.world.guilds_on_shard(session.shard)
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.world.user_json(self.world.bot_user),
            "guilds": [{"id": str(guild), "unavailable": True} for guild in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.world.base_url.replace("http", "ws", 1),
            "application": {"id": str(self.world.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await self._dispatch_to(session, "READY", ready)
        all_members = bool(session.intents & GUILD_MEMBERS_INTENT)
        for guild in guilds:
            await self._dispatch_to(
                session, "GUILD_CREATE",
                self.world.guild_json(all_members=all_members, guild_id=guild),
            )
        self.ready_count += 1
        self.world.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.token or session is None or session.invalid:
            await self._send(ws, {"op": INVALID_SESSION, "d": False})
            return None
        self.resumes += 1
        async with self._send_lock:
            session.ws = ws
            self.current = session
            if session.shard is not None:
                self.by_shard[int(session.shard[0])] = session
            if self.dropped is session:
                self.dropped = None
            after = int(data.get("seq") or 0)
            for frame in session.sent:
                if frame["s"] > after:
                    await self._send(ws, frame)
        await self._dispatch_to(session, "RESUMED", {})
        self.ready_count += 1
        self.world.notify()
        return session

    async def _member_chunk(self, session: Session, data: dict[str, Any]) -> None:
        members = [
            self.world.member_json(u) for u in [self.world.bot_user, *self.world.users.values()]
        ]
        chunk = {
            "guild_id": str(data.get("guild_id") or self.world.guild_id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self._dispatch_to(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def dispatch(
        self, event: str, data: dict[str, Any], *, guild_id: int | None = None
    ) -> bool:
        """Send an event on the session of ``guild_id``'s shard (the current session when
        None or unsharded); it is kept for replay on RESUME.

        Returns whether a connected client received it.
        """
        return await self._dispatch_to(self.session_for(guild_id), event, data)

    async def _dispatch_to(self, session: Session | None, event: str, data: dict[str, Any],
                           encoded: str | None = None) -> bool:
        """``encoded``: ``json.dumps(data)``, when the caller has it (the frame is then built
        around it, byte for byte what encoding the whole frame gives)."""
        async with self._send_lock:
            if session is None or session.invalid:
                return False
            session.seq += 1
            frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
            session.sent.append(frame)
            if session.ws is None or session.ws.closed:
                return False
            try:
                if encoded is None:
                    await self._send(session.ws, frame)
                else:
                    await session.ws.send_str(
                        f'{{"op": {DISPATCH}, "t": {json.dumps(event)}, "s": {session.seq},'
                        f' "d": {encoded}}}')
            except ConnectionError:
                return False
        return True

    async def dispatch_message_event(self, event: str, data: dict[str, Any],
                                     encoded: str | None = None) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE, sent only to a client that asked for guild messages.
        ``encoded``: ``json.dumps(data)`` when the caller has it (the REST answer's text): the
        event's ``d`` is that text with ``guild_id`` appended, as encoding it again gives."""
        channel = self.world.channels.get(int(data.get("channel_id") or 0))
        if channel is not None and places.place_of(self.world, channel.id) is not None:
            return  # a place the bot is in through a user's install: it hears nothing there
        guild = self.world.guild_of(channel) if channel is not None else self.world.guild_id
        session = self.session_for(guild)
        if session is not None and session.intents & GUILD_MESSAGES_INTENT:
            with_guild = {**data, "guild_id": str(guild)}
            if encoded is not None and data and "guild_id" not in data \
                    and encoded.endswith("}"):
                encoded = f'{encoded[:-1]}, "guild_id": {json.dumps(str(guild))}}}'
            else:
                encoded = None
            await self._dispatch_to(session, event, with_guild, encoded)

    async def reconnect(self, *, resumable: bool = True) -> None:
        """Ask the client to reconnect: op 7 (it resumes) or op 9 false (it identifies anew)."""
        session = self.current
        if session is None or session.ws is None:
            raise RuntimeError("no connected client")
        if resumable:
            await self._send(session.ws, {"op": RECONNECT, "d": None})
        else:
            session.invalid = True
            await self._send(session.ws, {"op": INVALID_SESSION, "d": False})

    async def drop(self) -> int:
        """Cut the current socket without a close frame (a network failure). The session stays
        resumable: what is dispatched meanwhile is replayed on RESUME. Returns the last
        sequence number sent on the cut socket."""
        async with self._send_lock:
            session = self.current
            if session is None or session.ws is None:
                raise RuntimeError("no connected client")
            request = self._requests.get(session.ws)
            session.ws = None
            self.dropped = session
            self.drops += 1
            if request is not None and request.transport is not None:
                request.transport.abort()
            seq = session.seq
        self.world.notify()
        return seq

    async def close_all(self) -> None:
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed:
                await session.ws.close(code=4000, message=b"stand-in stopping")

    @staticmethod
    async def _send(ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        await ws.send_str(json.dumps(frame))
