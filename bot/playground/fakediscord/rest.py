"""The REST routes discord.py calls, under ``/api/v10``."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import BodyPartReader, web

from bot.playground.fakediscord import commands, contract, forms, places, validation
from bot.playground.fakediscord.app_emojis import INVALID_EMOJI, EmojiRefused
from bot.playground.fakediscord.discord_limits import FieldError
from bot.playground.fakediscord.gateway import Gateway
from bot.playground.fakediscord.model import (
    COMPONENTS_V2,
    EPHEMERAL,
    LOADING,
    FakeChannel,
    FakeUser,
    InteractionRecord,
    RawJson,
    RouteCall,
    StoredMessage,
    Violation,
)
from bot.playground.fakediscord.ratelimit import RateLimiter
from bot.playground.fakediscord.world import World

API = "/api/v10"
Files = list[tuple[str, str, bytes]]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

PONG, CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
COMPONENT_INTERACTIONS = (3, 5)  # component, modal submit


MANAGE_EVENTS = 1 << 33
CREATE_EVENTS = 1 << 44


class ApiError(Exception):
    """An error answer; a 400/50035 is recorded as a contract violation unless ``deliberate``
    (a refusal a test asked for)."""

    def __init__(
        self, status: int, code: int, message: str, *, errors: list[FieldError] | None = None,
        deliberate: bool = False,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.errors = errors or []
        self.deliberate = deliberate


class ContractBroken(Exception):
    """The request breaks Discord's contract (its spec or the limits beside it)."""

    def __init__(self, operation: str, errors: list[FieldError]) -> None:
        super().__init__(operation)
        self.operation, self.errors = operation, errors


class RateLimited(Exception):
    """Answered 429 with the limiter's body (its headers are added to every answer)."""

    def __init__(self, body: dict[str, object]) -> None:
        super().__init__(body["message"])
        self.body = body


def route_template(request: web.Request) -> str:
    """The route as Discord's documentation names it: ``/channels/{channel_id}/messages``."""
    resource = request.match_info.route.resource
    canonical = resource.canonical if resource is not None else request.path
    if canonical == "/{tail}" or "{tail" in canonical:
        return request.path
    return canonical.removeprefix(API)


def json_response(data: Any, status: int = 200) -> web.Response:
    return encoded_response(json.dumps(data), status)


def encoded_response(text: str, status: int = 200) -> web.Response:
    """An answer whose JSON is already encoded (``json.dumps``), e.g. a message's, which its
    gateway event reuses (``Gateway.dispatch_message_event``)."""
    # discord.py only parses bodies whose content-type is exactly "application/json".
    return web.Response(
        body=text.encode(), status=status, headers={"Content-Type": "application/json"}
    )


# When the request came in: a callback's latency does not include the contract check's time.
RECEIVED_KEY = web.RequestKey("fakediscord.received", float)
# The parsed body, read once (by the contract check) and kept for the route's handler.
BODY_KEY = web.RequestKey("fakediscord.body", tuple)
# Set when the spec check is off: a multipart form is split in one pass (``forms``).
QUICK_FORMS_KEY = web.RequestKey("fakediscord.quick_forms", bool)


async def read_body(request: web.Request) -> tuple[Any, Files]:
    """JSON body, or a multipart form with ``payload_json`` and ``files[n]`` parts."""
    if BODY_KEY in request:
        return request[BODY_KEY]
    request[BODY_KEY] = await _parse_body(request)
    return request[BODY_KEY]


async def _parse_body(request: web.Request) -> tuple[Any, Files]:
    if not request.can_read_body:
        return None, []
    if request.content_type.startswith("multipart/") and request.get(QUICK_FORMS_KEY):
        return forms.split_form(await request.read(), request.headers["Content-Type"])
    if request.content_type.startswith("multipart/"):
        payload: Any = None
        files: Files = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            data = await part.read()
            if part.name == "payload_json":
                payload = json.loads(data)
            elif part.filename:
                content_type = part.headers.get("Content-Type", "application/octet-stream")
                files.append((part.filename, content_type, bytes(data)))
        return payload, files
    text = await request.text()
    return (json.loads(text) if text else None), []


class RestApi:
    def __init__(self, world: World, gateway: Gateway, token: str) -> None:
        self.world = world
        self.gateway = gateway
        self.token = token
        self.shard_count = 1  # what GET /gateway/bot recommends
        # Interaction callbacks later than this many seconds get Discord's 10062 error.
        self.callback_deadline: float | None = None
        # Seconds every bot request on /channels/ takes (a slow or rate-limited channel).
        self.channel_delay = 0.0
        # Discord's rate limits; off unless a test turns them on (FakeDiscord(rate_limits=True)).
        self.limiter = RateLimiter(enabled=False)
        # Every REST request answers this status (a Discord outage), when set.
        self.outage_status: int | None = None
        # Check every API request against Discord's spec and unstated limits (``contract``).
        self.validate = True
        # A command registration to refuse as Discord would (``FakeDiscord.refuse_command_sync``).
        self.command_refusal: commands.Refusal | None = None

    def routes(self) -> list[web.RouteDef]:
        r = web.route
        return [
            r("GET", API + "/users/@me", self.get_me),
            r("GET", API + "/users/{user_id}", self.get_user),
            r("GET", API + "/oauth2/applications/@me", self.get_application),
            r("GET", API + "/applications/@me", self.get_application),
            r("GET", API + "/gateway/bot", self.get_gateway_bot),
            r("GET", API + "/gateway", self.get_gateway),
            r("GET", API + "/applications/{app_id}/commands", self.get_commands),
            r("PUT", API + "/applications/{app_id}/commands", self.put_commands),
            r("GET", API + "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands),
            r("PUT", API + "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            r("GET", API + "/applications/{app_id}/emojis", self.list_app_emojis),
            r("POST", API + "/applications/{app_id}/emojis", self.create_app_emoji),
            r("POST", API + "/interactions/{interaction_id}/{token}/callback", self.callback),
            r("POST", API + "/webhooks/{app_id}/{token}", self.followup),
            r(
                "GET",
                API + "/webhooks/{app_id}/{token}/messages/{message_id}",
                self.get_webhook_msg,
            ),
            r(
                "PATCH",
                API + "/webhooks/{app_id}/{token}/messages/{message_id}",
                self.edit_webhook_msg,
            ),
            r(
                "DELETE",
                API + "/webhooks/{app_id}/{token}/messages/{message_id}",
                self.del_webhook_msg,
            ),
            r("GET", API + "/channels/{channel_id}", self.get_channel),
            r("PATCH", API + "/channels/{channel_id}", self.edit_channel),
            r(
                "POST",
                API + "/channels/{channel_id}/messages/{message_id}/threads",
                self.start_thread,
            ),
            r("GET", API + "/channels/{channel_id}/messages", self.list_messages),
            r("POST", API + "/channels/{channel_id}/messages", self.send_message),
            r("GET", API + "/channels/{channel_id}/messages/{message_id}", self.get_message),
            r("PATCH", API + "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            r("DELETE", API + "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            r("POST", API + "/channels/{channel_id}/typing", self.typing),
            r("GET", API + "/guilds/{guild_id}", self.get_guild),
            r("GET", API + "/guilds/{guild_id}/channels", self.get_guild_channels),
            r("GET", API + "/guilds/{guild_id}/roles", self.get_roles),
            r("GET", API + "/guilds/{guild_id}/members/{user_id}", self.get_member),
            r(
                "PUT",
                API + "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
                self.add_member_role,
            ),
            r(
                "DELETE",
                API + "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
                self.remove_member_role,
            ),
            r("POST", API + "/guilds/{guild_id}/scheduled-events", self.create_scheduled_event),
            r("GET", "/attachments/{attachment_id}/{filename}", self.get_attachment),
            r("*", "/{tail:.*}", self.unknown),
        ]

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path in ("/", "/gateway"):  # the websocket
            return await handler(request)
        needs_auth = request.path.startswith(API) and not re.match(
            rf"{API}/(interactions|webhooks)/", request.path
        )
        request[RECEIVED_KEY] = time.monotonic()
        if not self.validate:
            request[QUICK_FORMS_KEY] = True
        body = None
        route = route_template(request)
        limit_headers: dict[str, str] = {}
        try:
            if self.outage_status is not None and request.path.startswith(API):
                raise ApiError(self.outage_status, 0, f"{self.outage_status}: Service Unavailable")
            if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise ApiError(401, 0, "401: Unauthorized")
            verdict = self.limiter.check(request.method, request.path, route)
            if verdict is not None:
                limit_headers = verdict.headers
                if verdict.limited:
                    raise RateLimited(verdict.body())
            if self.channel_delay and request.path.startswith(API + "/channels/"):
                await asyncio.sleep(self.channel_delay)
            if self.validate and request.path.startswith(API):
                await self._check_contract(request)
            response = await handler(request)
        except RateLimited as err:
            response = json_response(err.body, 429)
        except ApiError as err:
            answer: dict[str, Any] = {"message": err.message, "code": err.code}
            if err.errors:
                answer["errors"] = contract.errors_object(err.errors)
            response = json_response(answer, err.status)
            if err.status == 400 and err.code == 50035 and not err.deliberate:
                errors = err.errors or [FieldError((), "INVALID", err.message)]
                self._violated(request, "the stand-in's check", errors)
        except EmojiRefused as err:
            answer = {"message": err.message, "code": err.code}
            errors = [FieldError(err.path, err.field_code, "Invalid emoji"
                                 if err.field_code == INVALID_EMOJI else err.message)] \
                if err.field_code else []
            if errors:
                answer["errors"] = contract.errors_object(errors)
            response = json_response(answer, err.status)
            if not err.deliberate:
                self._violated(request, "the stand-in's emoji check",
                               errors or [FieldError((), "INVALID", err.message)])
        except ContractBroken as err:
            response = json_response({"message": "Invalid Form Body", "code": 50035,
                                      "errors": contract.errors_object(err.errors)}, 400)
            self._violated(request, err.operation, err.errors)
        except validation.Invalid as err:
            errors = [FieldError(err.path, "INVALID", str(err))]
            message = "Invalid Form Body" if err.code == 50035 else str(err)
            response = json_response(
                {"message": message, "code": err.code, "errors": contract.errors_object(errors)},
                400,
            )
            self._violated(request, "the stand-in's message check", errors)
        response.headers.update(limit_headers)
        if isinstance(response, web.Response) and isinstance(response.body, bytes):
            body = RawJson(response.body)  # decoded if a test reads it
        call = RouteCall(
            request.method, request.path, response.status, body, time.monotonic(), route
        )
        self.world.calls.append(call)
        token = request.match_info.get("token")
        if token and token in self.world.by_token:
            self.world.by_token[token].calls.append(call)
        self.world.notify()
        return response

    async def _check_contract(self, request: web.Request) -> None:
        try:
            body, _ = await read_body(request)
        except ValueError as err:  # not JSON
            raise ContractBroken("(unreadable body)",
                                 [FieldError((), "INVALID_JSON", f"not JSON: {err}")]) from None
        operation, errors = contract.check_request(
            request.method,
            request.path.removeprefix(API),
            dict(request.query.items()),
            body,
            multipart=request.content_type.startswith("multipart/"),
        )
        if errors:
            raise ContractBroken(str(operation or "no operation"), errors)

    def _violated(self, request: web.Request, operation: str, errors: list[FieldError]) -> None:
        self.world.violations.append(
            Violation(request.method, request.path_qs, operation, tuple(errors))
        )

    # -- identity and gateway ----

    async def get_me(self, request: web.Request) -> web.Response:
        return json_response(self.world.user_json(self.world.bot_user))

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(self.world.user_json(user))

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response(self.world.application_json())

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.world.base_url.replace("http", "ws", 1)})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.world.base_url.replace("http", "ws", 1),
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    # -- application commands ----

    def _scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app_id"]) != self.world.app_id:
            raise ApiError(403, 50001, "Missing Access")
        guild = request.match_info.get("guild_id")
        if guild is not None and int(guild) not in self.world.guild_names:
            raise ApiError(403, 50001, "Missing Access")
        return int(guild) if guild is not None else None

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.world.commands.get(self._scope(request), []))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await read_body(request)
        if self.command_refusal is not None:
            error = self.command_refusal.error_for(list(body or []))
            if error is not None:
                raise ApiError(400, 50035, "Invalid Form Body", errors=[error], deliberate=True)
        return json_response(commands.overwrite(self.world, scope, list(body or [])))

    # -- application emojis ----

    def _app(self, request: web.Request) -> int:
        app_id = int(request.match_info["app_id"])
        if app_id != self.world.app_id:
            raise ApiError(403, 50001, "Missing Access")
        return app_id

    async def list_app_emojis(self, request: web.Request) -> web.Response:
        """Discord's "List Application Emojis": ``{"items": [...]}``."""
        emojis = self.world.app_emojis.of(self._app(request))
        return json_response({"items": list(emojis.values())})

    async def create_app_emoji(self, request: web.Request) -> web.Response:
        """Discord's "Create Application Emoji" (``app_emojis.AppEmojis.create``): 201."""
        app_id = self._app(request)
        body, _ = await read_body(request)
        emoji = self.world.app_emojis.create(app_id, self.world.ids.next(), dict(body or {}),
                                             self.world.user_json(self.world.bot_user))
        self.world.notify()
        return json_response(emoji, status=201)

    # -- interactions ----

    def _record(self, token: str) -> InteractionRecord:
        record = self.world.by_token.get(token)
        if record is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if time.monotonic() > self.world.token_expiry.get(token, float("inf")):
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return record

    async def callback(self, request: web.Request) -> web.Response:
        received = request.get(RECEIVED_KEY) or time.monotonic()
        record = self.world.by_token.get(request.match_info["token"])
        if record is None or str(record.id) != request.match_info["interaction_id"]:
            raise ApiError(404, 10062, "Unknown interaction")
        body, files = await read_body(request)
        if record.responded:
            record.errors.append("second callback: interaction already acknowledged")
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        late = self.callback_deadline is not None and (
            received - record.dispatched_at > self.callback_deadline
        )
        if late:
            record.errors.append("callback after the deadline")
            raise ApiError(404, 10062, "Unknown interaction")
        kind = int(body["type"])
        data = dict(body.get("data") or {})
        try:
            message = self._apply_callback(record, kind, data, files)
        except validation.Invalid as err:
            raise err.under("data") from None
        record.callback_type, record.callback_data, record.callback_at = kind, data, received
        self.world.answered(record)
        self.world.notify()
        shown = None  # the message's JSON and its text, encoded once for the event and answer
        if message is not None and kind in (CHANNEL_MESSAGE, DEFERRED_MESSAGE, UPDATE_MESSAGE):
            data = self.world.message_json(message)
            shown = data, json.dumps(data)
        if (
            shown is not None
            and not message.ephemeral  # type: ignore[union-attr]
            and kind in (CHANNEL_MESSAGE, DEFERRED_MESSAGE)
        ):
            await self.gateway.dispatch_message_event("MESSAGE_CREATE", *shown)
        elif shown is not None and not message.ephemeral and kind == UPDATE_MESSAGE:  # type: ignore[union-attr]
            await self.gateway.dispatch_message_event("MESSAGE_UPDATE", *shown)
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_loading": kind == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
        if shown is not None:
            # json.dumps of {**answer, "resource": {"type": kind, "message": data}}, byte for
            # byte, around the message's text encoded above.
            return encoded_response(f'{json.dumps(answer)[:-1]}, "resource": {{"type": {kind},'
                                    f' "message": {shown[1]}}}}}')
        return json_response(answer)

    def _apply_callback(
        self, record: InteractionRecord, kind: int, data: dict[str, Any], files: Files
    ) -> StoredMessage | None:
        world = self.world
        is_component = record.type in COMPONENT_INTERACTIONS and record.source_message_id
        if kind in (CHANNEL_MESSAGE, DEFERRED_MESSAGE):
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            if kind == DEFERRED_MESSAGE and int(data.get("flags") or 0) & COMPONENTS_V2:
                # Discord ignores the flag on a "thinking" answer: the edit or follow-up that
                # replaces it sets it (discord/discord-api-docs#7515, #7560).
                data = {**data, "flags": int(data["flags"]) & ~COMPONENTS_V2}
            message = world.create_message(
                record.channel.id,
                data,
                files,
                interaction=record,
                ephemeral_for=record.user.id if ephemeral else None,
                extra_flags=LOADING if kind == DEFERRED_MESSAGE else 0,
            )
            record.original_message_id = message.id
            return message
        if kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            if not is_component:
                raise ApiError(400, 50035, "Interaction callback type is only valid for components")
            source = world.messages[record.source_message_id]  # type: ignore[index]
            record.original_message_id = source.id
            if kind == UPDATE_MESSAGE:
                world.edit_message(source, data, files)
            return source
        if kind == MODAL:
            if record.type == 5:
                raise ApiError(400, 50035, "A modal cannot answer a modal submit")
            validation.check_modal(data)
            record.modal = data
            return None
        if kind == AUTOCOMPLETE_RESULT:
            if record.type != 4:
                raise ApiError(400, 50035, "Autocomplete results only answer autocomplete")
            record.choices = list(data.get("choices") or [])
            return None
        if kind == PONG:
            return None
        raise ApiError(400, 50035, f"Invalid interaction callback type {kind}")

    async def followup(self, request: web.Request) -> web.Response:
        record = self._record(request.match_info["token"])
        if int(request.match_info["app_id"]) != self.world.app_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        if not record.responded:
            raise ApiError(404, 10015, "Unknown Webhook")
        if places.user_app_only(record.payload) and \
                len(record.followup_ids) >= places.USER_APP_FOLLOWUPS:
            raise ApiError(400, places.TOO_MANY_FOLLOWUPS,
                           "This interaction has hit the maximum number of follow up messages")
        body, files = await read_body(request)
        body = dict(body or {})
        text: str | None = None  # the message's JSON, when its event was encoded
        original = self.world.messages.get(record.original_message_id or 0)
        if record.callback_type == DEFERRED_MESSAGE and original is not None and original.loading:
            # After a "thinking" defer, Discord turns the first follow-up into the original.
            message = self.world.edit_message(original, body, files)
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
            message = self.world.create_message(
                record.channel.id,
                body,
                files,
                interaction=record,
                ephemeral_for=record.user.id if ephemeral else None,
            )
            if not message.ephemeral:
                data = self.world.message_json(message)
                text = json.dumps(data)
                await self.gateway.dispatch_message_event("MESSAGE_CREATE", data, text)
        record.followup_ids.append(message.id)
        self.world.notify()
        if request.query.get("wait") in ("true", "1", "True"):
            return encoded_response(text) if text is not None else \
                json_response(self.world.message_json(message))
        return web.Response(status=204)

    def _webhook_message(self, request: web.Request) -> StoredMessage:
        record = self._record(request.match_info["token"])
        raw = request.match_info["message_id"]
        if raw == "@original":
            if not record.responded or record.original_message_id is None:
                raise ApiError(404, 10008, "Unknown Message")
            message_id = record.original_message_id
        else:
            message_id = int(raw)
            if message_id not in (record.original_message_id, *record.followup_ids):
                raise ApiError(404, 10008, "Unknown Message")
        message = self.world.messages.get(message_id)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def get_webhook_msg(self, request: web.Request) -> web.Response:
        return json_response(self.world.message_json(self._webhook_message(request)))

    async def edit_webhook_msg(self, request: web.Request) -> web.Response:
        message = self._webhook_message(request)
        body, files = await read_body(request)
        self.world.edit_message(message, dict(body or {}), files)
        data = self.world.message_json(message)
        text = json.dumps(data)
        if not message.ephemeral:
            await self.gateway.dispatch_message_event("MESSAGE_UPDATE", data, text)
        return encoded_response(text)

    async def del_webhook_msg(self, request: web.Request) -> web.Response:
        message = self._webhook_message(request)
        await self._delete(message)
        return web.Response(status=204)

    # -- channels and messages ----

    def _channel_id(self, request: web.Request) -> int:
        channel_id = int(request.match_info["channel_id"])
        if channel_id not in self.world.channels:
            raise ApiError(404, 10003, "Unknown Channel")
        if places.refused_channel(self.world, channel_id):  # the bot is not in it
            raise ApiError(403, places.MISSING_ACCESS, "Missing Access")
        return channel_id

    def _channel_message(self, request: web.Request) -> StoredMessage:
        channel_id = self._channel_id(request)
        message = self.world.messages.get(int(request.match_info["message_id"]))
        if (
            message is None
            or message.deleted
            or message.channel_id != channel_id
            or message.ephemeral
        ):
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def get_channel(self, request: web.Request) -> web.Response:
        channel_id = self._channel_id(request)
        return json_response(self.world.channel_json(self.world.channels[channel_id]))

    async def edit_channel(self, request: web.Request) -> web.Response:
        """Only what the bot does with a thread: archive it (or open it again)."""
        channel = self.world.channels[self._channel_id(request)]
        body, _ = await read_body(request)
        body = dict(body or {})
        if not channel.is_thread or set(body) - {"archived", "locked"}:
            raise ApiError(400, 50035, "the stand-in edits only a thread's archived flag")
        if body.get("archived"):
            self.world.archived.add(channel.id)
        else:
            self.world.archived.discard(channel.id)
        self.world.notify()
        data = self.world.channel_json(channel)
        await self.gateway.dispatch("THREAD_UPDATE", data, guild_id=self.world.guild_of(channel))
        return json_response(data)

    async def start_thread(self, request: web.Request) -> web.Response:
        """A public thread from a message: the thread's id is the message's, as on Discord."""
        message = self._channel_message(request)
        parent = self.world.channels[message.channel_id]
        if parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if message.id in self.world.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        body, _ = await read_body(request)
        name = str((body or {}).get("name") or "")
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body: name must be 1 to 100 characters")
        thread = FakeChannel(message.id, name, guild_id=parent.guild_id, parent_id=parent.id)
        self.world.channels[thread.id] = thread
        self.world.notify()
        data = self.world.channel_json(thread)
        await self.gateway.dispatch("THREAD_CREATE", {**data, "newly_created": True},
                                    guild_id=self.world.guild_of(thread))
        return json_response(data, status=201)

    async def list_messages(self, request: web.Request) -> web.Response:
        channel_id = self._channel_id(request)
        limit = int(request.query.get("limit", 50))
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0)) or None
        found = [
            m
            for m in self.world.messages.values()
            if m.channel_id == channel_id
            and not m.deleted
            and not m.ephemeral
            and (before is None or m.id < before)
            and (after is None or m.id > after)
        ]
        found.sort(key=lambda m: m.id, reverse=True)  # newest first, as Discord answers
        return json_response([self.world.message_json(m) for m in found[:limit]])

    def _writable(self, channel_id: int) -> None:
        if channel_id in self.world.forbidden_channels:
            raise ApiError(403, 50013, "Missing Permissions")

    async def send_message(self, request: web.Request) -> web.Response:
        channel_id = self._channel_id(request)
        self._writable(channel_id)
        self.world.archived.discard(channel_id)  # a post opens an archived thread again
        body, files = await read_body(request)
        message = self.world.create_message(channel_id, dict(body or {}), files)
        data = self.world.message_json(message)
        text = json.dumps(data)
        await self.gateway.dispatch_message_event("MESSAGE_CREATE", data, text)
        return encoded_response(text)

    async def get_message(self, request: web.Request) -> web.Response:
        return json_response(self.world.message_json(self._channel_message(request)))

    async def edit_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        self._writable(message.channel_id)
        body, files = await read_body(request)
        self.world.edit_message(message, dict(body or {}), files)
        data = self.world.message_json(message)
        text = json.dumps(data)
        await self.gateway.dispatch_message_event("MESSAGE_UPDATE", data, text)
        return encoded_response(text)

    async def delete_message(self, request: web.Request) -> web.Response:
        await self._delete(self._channel_message(request))
        return web.Response(status=204)

    async def _delete(self, message: StoredMessage) -> None:
        self.world.delete_message(message)
        if not message.ephemeral:
            await self.gateway.dispatch_message_event(
                "MESSAGE_DELETE", {"id": str(message.id), "channel_id": str(message.channel_id)}
            )

    async def typing(self, request: web.Request) -> web.Response:
        self._channel_id(request)
        return web.Response(status=204)

    # -- guild ----

    def _guild(self, request: web.Request) -> int:
        guild_id = int(request.match_info["guild_id"])
        if guild_id not in self.world.guild_names:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild_id

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.world.guild_json(guild_id=self._guild(request))
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            guild.pop(key)
        return json_response(guild)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild_id = self._guild(request)
        return json_response([self.world.channel_json(c) for c in self.world.channels.values()
                              if self.world.guild_of(c) == guild_id])

    async def get_roles(self, request: web.Request) -> web.Response:
        return json_response(self.world.roles_json(self._guild(request)))

    async def create_scheduled_event(self, request: web.Request) -> web.Response:
        """Discord's "Create Guild Scheduled Event" (the body was checked against the spec):
        the event, scheduled (status 1); 403/50013 unless the bot may manage or create events
        in the server (``world.bot_guild_permissions``)."""
        guild_id = self._guild(request)
        if not self.world.bot_guild_permissions & (MANAGE_EVENTS | CREATE_EVENTS):
            raise ApiError(403, 50013, "Missing Permissions")
        body = await request.json()
        event_id = self.world.ids.next()
        stored: dict[str, Any] = {
            "id": str(event_id), "guild_id": str(guild_id),
            "channel_id": body.get("channel_id"), "creator_id": str(self.world.bot_user.id),
            "name": body["name"], "description": body.get("description"),
            "scheduled_start_time": body["scheduled_start_time"],
            "scheduled_end_time": body.get("scheduled_end_time"),
            "privacy_level": body["privacy_level"], "status": 1,
            "entity_type": body["entity_type"], "entity_id": None,
            "entity_metadata": body.get("entity_metadata"), "user_count": 0,
        }
        self.world.scheduled_events[event_id] = stored
        self.world.notify()
        return json_response(stored)

    async def get_member(self, request: web.Request) -> web.Response:
        self._guild(request)
        user_id = int(request.match_info["user_id"])
        user = self.world.users.get(user_id)
        if user_id == self.world.bot_user.id:
            user = self.world.bot_user
        if user is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(self.world.member_json(user))

    async def add_member_role(self, request: web.Request) -> web.Response:
        """Discord's "Add Guild Member Role": 204; a role the bot's highest role is not above,
        or without Manage Roles, 403/50013 as Discord answers it."""
        guild_id, user, role_id = self._managed_role(request)
        self.world.give_role(user, role_id)
        self.world.role_grants.append((guild_id, user.id, role_id))
        self.world.notify()
        return web.Response(status=204)

    async def remove_member_role(self, request: web.Request) -> web.Response:
        """Discord's "Remove Guild Member Role": 204 (also when the member lacks the role),
        refused as adding is."""
        guild_id, user, role_id = self._managed_role(request)
        self.world.take_role(user, role_id)
        self.world.role_removals.append((guild_id, user.id, role_id))
        self.world.notify()
        return web.Response(status=204)

    def _managed_role(self, request: web.Request) -> tuple[int, FakeUser, int]:
        """(guild id, member, role id) of a member-role route the bot may use, else the
        error Discord answers."""
        guild_id = self._guild(request)
        user = self.world.member(int(request.match_info["user_id"]))
        if user is None:
            raise ApiError(404, 10007, "Unknown Member")
        role_id = int(request.match_info["role_id"])
        role = self.world.role_json(role_id, guild_id)
        if role is None or role_id == guild_id:
            raise ApiError(404, 10011, "Unknown Role")
        bot_roles = [self.world.role_json(r, guild_id) for r in self.world.bot_user.role_ids]
        top = max((r["position"] for r in bot_roles if r is not None), default=0)
        manage_roles = any(int(r["permissions"]) & ((1 << 28) | (1 << 3))
                           for r in bot_roles if r is not None)
        if not manage_roles or role["position"] >= top:
            raise ApiError(403, 50013, "Missing Permissions")
        return guild_id, user, role_id

    async def get_attachment(self, request: web.Request) -> web.Response:
        data = self.world.attachments.get(int(request.match_info["attachment_id"]))
        if data is None:
            raise web.HTTPNotFound()
        return web.Response(body=data)

    async def unknown(self, request: web.Request) -> web.Response:
        """Routes the stand-in lacks: answered 404 and listed in ``world.unknown_routes``."""
        body, _ = await read_body(request) if request.can_read_body else (None, [])
        self.world.unknown_routes.append(
            RouteCall(request.method, request.path, 404, body, time.monotonic())
        )
        raise ApiError(
            404, 0, f"404: Not Found (the stand-in has no {request.method} {request.path})"
        )
