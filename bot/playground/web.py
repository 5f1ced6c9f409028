"""The playground's web server: the page, its static files, what a member sees (long-polled)
and what a member does (slash commands, autocomplete, buttons, selects, modals, chat), each
acted through the Discord stand-in exactly as Discord's client would send it."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.playground.fakediscord import FakeDiscord, FakeUser, InteractionRecord, NotVisible
from bot.playground.fakediscord.commands import find_command
from bot.playground.fakediscord.model import FakeChannel
from bot.playground.page_view import view_json

STATIC = Path(__file__).resolve().parent / "static"
POLL_SECONDS = 20.0  # a view request waits this long for a change before answering unchanged
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
INTEGER, BOOLEAN, USER, CHANNEL, NUMBER = 4, 5, 6, 7, 10


class ActionRefused(ValueError):
    """What the member tried cannot be sent (Discord's client would not let them)."""


class Playground:
    def __init__(self, fd: FakeDiscord, players: list[FakeUser]) -> None:
        self.fd = fd
        self.players = players

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.index)
        app.router.add_static("/static/", STATIC)
        app.router.add_get("/api/players", self.player_list)
        app.router.add_get("/api/view", self.view)
        app.router.add_post("/api/act", self.act)
        app.router.add_get("/attachments/{id}/{name}", self.attachment)
        return app

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def player_list(self, request: web.Request) -> web.Response:
        return web.json_response({
            "players": [{"id": str(u.id), "name": u.name} for u in self.players],
            "channel": str(self.fd.general.id),
        })

    async def view(self, request: web.Request) -> web.Response:
        """The member's view of a channel; with ``since`` (the ``changes`` count the page
        holds) it answers once something changed, or after ``POLL_SECONDS`` anyway."""
        user = self._user(request.query.get("user", ""))
        channel = self._channel(request.query.get("channel", ""))
        since = int(request.query.get("since", "-1"))
        world = self.fd.world
        if since == world.changes:
            with contextlib.suppress(TimeoutError):
                await world.wait_for(lambda: world.changes != since, POLL_SECONDS, "a change")
        return web.json_response(view_json(self.fd, user, channel.id))

    async def attachment(self, request: web.Request) -> web.Response:
        data = self.fd.world.attachments.get(int(request.match_info["id"]))
        if data is None:
            raise web.HTTPNotFound()
        kind = "image/png" if request.match_info["name"].endswith(".png") else None
        return web.Response(body=data, content_type=kind or "application/octet-stream")

    async def act(self, request: web.Request) -> web.Response:
        body = await request.json()
        try:
            user = self._user(str(body.get("user", "")))
            if body.get("kind") == "autocomplete":
                return web.json_response({"ok": True, "choices": await self._choices(user, body)})
            record = await self._perform(user, body)
        except (ActionRefused, NotVisible, LookupError, ValueError) as err:
            return web.json_response({"ok": False, "error": str(err)})
        except TimeoutError:
            return web.json_response({"ok": False, "error": "The application did not respond"})
        return web.json_response(self._outcome(record))

    async def _perform(self, user: FakeUser, body: dict[str, Any]) -> InteractionRecord | None:
        kind = body.get("kind")
        fd = self.fd
        if kind == "say":
            await fd.say(user, self._channel(str(body["channel"])), str(body["content"]))
            return None
        if kind == "slash":
            channel = self._channel(str(body["channel"]))
            path = str(body["command"]).strip().lstrip("/")
            options = self._typed_options(path, body.get("options") or {}, None)
            return await fd.slash(user, channel, path, **options)
        message_id = int(body["message"])
        custom_id = str(body["custom_id"])
        if kind == "click":
            return await fd.click(user, message_id, custom_id)
        if kind == "select":
            return await fd.select(user, message_id, custom_id, [str(v) for v in body["values"]])
        if kind == "modal":
            shown = fd.world.by_interaction_id.get(int(body["interaction"]))
            if shown is None:
                raise ActionRefused("that modal is gone")
            values = {str(k): v for k, v in (body.get("values") or {}).items()}
            return await fd.submit_modal(user, shown, values)
        raise ActionRefused(f"unknown action {kind!r}")

    async def _choices(self, user: FakeUser, body: dict[str, Any]) -> list[dict[str, Any]]:
        """The bot's autocomplete answer for the option the member is typing."""
        channel = self._channel(str(body["channel"]))
        path = str(body["command"]).strip().lstrip("/")
        focused = str(body["focused"])
        options = self._typed_options(path, body.get("options") or {}, focused)
        return await self.fd.autocomplete(user, channel, path, focused, **options)

    def _outcome(self, record: InteractionRecord | None) -> dict[str, Any]:
        if record is None:
            return {"ok": True}
        answer: dict[str, Any] = {"ok": not record.errors, "interaction": str(record.id)}
        if record.errors:
            answer["error"] = "; ".join(record.errors)
        if record.modal is not None:
            answer["modal"] = record.modal
        return answer

    def _typed_options(
        self, path: str, raw: dict[str, Any], focused: str | None
    ) -> dict[str, Any]:
        """The page's option values (strings) as the stand-in's driver takes them."""
        names = path.split()
        schema = find_command(self.fd.world, names[0]).get("options") or []
        for sub in names[1:]:
            found = [o for o in schema
                     if o["name"] == sub and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            if not found:
                raise ActionRefused(f"/{path}: no subcommand {sub!r}")
            schema = found[0].get("options") or []
        kinds = {o["name"]: o["type"] for o in schema}
        typed: dict[str, Any] = {}
        for name, value in raw.items():
            if value in ("", None) and name != focused:
                continue
            kind = kinds.get(name)
            if kind is None:
                raise ActionRefused(f"/{path} has no option {name!r}")
            if name == focused:
                typed[name] = str(value)
            elif kind == USER:
                typed[name] = self._user(str(value))
            elif kind == CHANNEL:
                typed[name] = self._channel(str(value))
            elif kind == BOOLEAN:
                typed[name] = str(value).lower() in ("true", "1", "yes")
            elif kind == INTEGER:
                typed[name] = int(value)
            elif kind == NUMBER:
                typed[name] = float(value)
            else:
                typed[name] = str(value)
        return typed

    def _user(self, raw: str) -> FakeUser:
        user = self.fd.world.users.get(int(raw)) if raw.isdigit() else None
        if user is None:
            raise ActionRefused(f"no member {raw!r}")
        return user

    def _channel(self, raw: str) -> FakeChannel:
        channel = self.fd.world.channels.get(int(raw)) if raw.isdigit() else None
        if channel is None:
            raise ActionRefused(f"no channel {raw!r}")
        return channel
