"""``FakeDiscord``: start the stand-in, add users and channels, and act as those users."""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from bot.playground.fakediscord import commands, places
from bot.playground.fakediscord import components as comp
from bot.playground.fakediscord.app_emojis import MAX_EMOJIS_CODE, EmojiRefused
from bot.playground.fakediscord.gateway import Gateway
from bot.playground.fakediscord.ids import bot_token, interaction_token
from bot.playground.fakediscord.model import (
    FakeChannel,
    FakeUser,
    InteractionRecord,
    RouteCall,
    StoredMessage,
    Violation,
)
from bot.playground.fakediscord.ratelimit import Limits, counts_globally
from bot.playground.fakediscord.rest import RestApi
from bot.playground.fakediscord.server import StandInServer
from bot.playground.fakediscord.world import World

T = TypeVar("T")

APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
# Every stand-in made in this process: the e2e conftest fails a test whose stand-ins recorded
# contract violations it did not take.
INSTANCES: weakref.WeakSet[FakeDiscord] = weakref.WeakSet()


class NotVisible(LookupError):
    """The simulated user tried to use something they cannot see."""


class FakeDiscord:
    def __init__(
        self,
        *,
        guild_name: str = "Table Games",
        response_timeout: float = 10.0,
        rate_limits: bool | Limits = False,
    ) -> None:
        self.world = World(guild_name=guild_name)
        self.token = bot_token(self.world.bot_user.id)
        self.gateway = Gateway(self.world, self.token)
        self.rest = RestApi(self.world, self.gateway, self.token)
        self.set_rate_limits(rate_limits)
        self.server = StandInServer(self.world, self.gateway, self.rest)
        self.response_timeout = response_timeout
        self.general = self.add_channel("general")
        INSTANCES.add(self)

    # -- lifecycle ----

    async def start(self, *, port: int = 0) -> FakeDiscord:
        """Listen on 127.0.0.1 (``port`` 0: a free one). After ``stop`` it may start again,
        on the same port, keeping its state: Discord coming back after an outage."""
        await self.server.start(port=port or self.port)
        return self

    @property
    def port(self) -> int:
        return int(self.base_url.rsplit(":", 1)[1]) if self.base_url else 0

    async def stop(self) -> None:
        await self.server.stop()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return self.server.base_url

    @property
    def guild_id(self) -> int:
        return self.world.guild_id

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot_user

    # -- the guild ----

    def add_user(self, name: str, *, admin: bool = False, locale: str = "en-US") -> FakeUser:
        """A guild member; add users before the bot connects (GUILD_CREATE lists them).
        ``locale``: their Discord client language, sent with their interactions."""
        user = FakeUser(self.world.ids.next(), name, admin=admin, locale=locale)
        self.world.users[user.id] = user
        return user

    def add_role(self, name: str, *, permissions: int = 0, position: int = 1,
                 members: tuple[FakeUser, ...] = ()) -> int:
        """A role of the first guild (add it before the bot connects: GUILD_CREATE lists the
        roles), held by ``members`` (``fd.bot_user`` for the bot's own role); its id. A role
        option of a slash command takes the id."""
        role_id = self.world.ids.next()
        self.world.extra_roles.append((role_id, name, permissions, position))
        for member in members:
            current = self.world.member(member.id)
            assert current is not None, f"{member.name} is not a member"
            self.world.give_role(current, role_id)
        return role_id

    def add_channel(self, name: str, *, guild_id: int | None = None) -> FakeChannel:
        """A text channel of the first guild, or of ``guild_id`` (from ``add_guild``)."""
        channel = FakeChannel(self.world.ids.next(), name, position=len(self.world.channels),
                              guild_id=guild_id)
        self.world.channels[channel.id] = channel
        return channel

    def add_group_dm(self, name: str, installer: FakeUser, *others: FakeUser) -> FakeChannel:
        """A group DM of ``installer`` (who installed the app to their account) and
        ``others``; the bot is not in it (``fakediscord/places.py``)."""
        return places.add_group_dm(self.world, name, installer, *others)

    def add_dm(self, user: FakeUser) -> FakeChannel:
        """The DM of ``user`` with the bot (``user`` installed the app)."""
        return places.add_dm(self.world, user)

    def add_foreign_guild(self, name: str, channel_name: str,
                          *installers: FakeUser) -> FakeChannel:
        """A text channel of a server whose admin never invited the bot; ``installers``
        installed the app to their accounts (only they can run its commands there)."""
        return places.add_foreign_guild(self.world, name, channel_name, installers)

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> int:
        """Another guild (every user is a member); with ``shard=(id, count)`` its id falls
        on that shard. Add guilds before the bot connects (READY lists them)."""
        while True:
            guild_id = self.world.ids.next()
            if shard is None or (guild_id >> 22) % shard[1] == shard[0]:
                break
            # The next millisecond's ids fall on the next shard.
            time.sleep(0.001)
        self.world.guild_names[guild_id] = name
        return guild_id

    def set_shard_count(self, count: int) -> None:
        """What ``GET /gateway/bot`` recommends (1 unless set)."""
        self.rest.shard_count = count

    def threads_of(self, channel: FakeChannel) -> list[FakeChannel]:
        """The threads started from messages of ``channel``, oldest first."""
        return [c for c in self.world.channels.values() if c.parent_id == channel.id]

    def archived(self, thread: FakeChannel) -> bool:
        return thread.id in self.world.archived

    def channel_named(self, name: str) -> FakeChannel:
        found = [c for c in self.world.channels.values() if c.name == name]
        if len(found) != 1:
            raise LookupError(f"{len(found)} channels are named {name!r}")
        return found[0]

    def set_callback_deadline(self, seconds: float | None) -> None:
        """Refuse callbacks later than ``seconds`` with 10062 Unknown interaction, as Discord
        does after 3 s. Off by default: a slow machine then records latency instead of failing."""
        self.rest.callback_deadline = seconds

    def set_channel_delay(self, seconds: float) -> None:
        """Make every bot request on ``/channels/...`` (posts, edits, fetches) take ``seconds``,
        like a slow link or a rate-limited channel. Interaction callbacks are not delayed."""
        self.rest.channel_delay = seconds

    def set_rate_limits(self, limits: bool | Limits = True) -> None:
        """Turn Discord's rate limits on (``True`` or custom ``Limits``) or off (``False``).

        Off by default: the scenario games would otherwise wait ~1 s per channel write."""
        limiter = self.rest.limiter
        limiter.enabled = limits is not False
        if isinstance(limits, Limits):
            limiter.limits = limits
        limiter.reset()

    @property
    def rate_limited(self) -> Counter[str]:
        """429s answered so far, per bucket (``"channel-messages"``, ``"global"``, ...)."""
        return self.rest.limiter.limited

    def forbid_channel(self, channel: FakeChannel, forbidden: bool = True) -> None:
        """Make ``channel`` refuse the bot's posts and edits with 403 Missing Permissions (as a
        channel whose permissions deny it); interaction replies still work there, as on
        Discord, and ``app_permissions`` then lacks Send Messages."""
        if forbidden:
            self.world.forbidden_channels.add(channel.id)
            self.world.bot_permissions[channel.id] = self.world.bot_permissions_in(
                channel.id) & ~(1 << 11)
        else:
            self.world.forbidden_channels.discard(channel.id)
            self.world.bot_permissions.pop(channel.id, None)

    def set_bot_permissions(self, channel: FakeChannel, permissions: int | None) -> None:
        """The bot's permissions in ``channel`` as interactions there report them
        (``app_permissions``); ``None``: the default set."""
        if permissions is None:
            self.world.bot_permissions.pop(channel.id, None)
        else:
            self.world.bot_permissions[channel.id] = permissions

    def set_token_lifetime(self, seconds: float) -> None:
        """How long the tokens of interactions dispatched from now on serve their webhook
        routes (follow-ups, editing the original response); later calls answer 401 Invalid
        Webhook Token (50027)."""
        self.world.token_lifetime = seconds

    def expire_token(self, record: InteractionRecord) -> None:
        """The token of ``record`` stops serving its webhook routes now, as it would 15
        minutes after its dispatch on Discord (later calls answer 401 Invalid Webhook Token)."""
        self.world.token_expiry[record.token] = float("-inf")

    def set_outage(self, status: int | None) -> None:
        """Answer every REST request with ``status`` (e.g. 503), or serve again (``None``)."""
        self.rest.outage_status = status

    # -- Discord's contract ----

    @property
    def violations(self) -> list[Violation]:
        """Requests refused as breaking Discord's contract (400, 50035), not yet taken."""
        return list(self.world.violations)

    def take_violations(self) -> list[Violation]:
        """The violations so far, cleared: a test that provokes them on purpose takes them (the
        e2e conftest fails a test that leaves any)."""
        taken = list(self.world.violations)
        self.world.violations.clear()
        return taken

    def app_emojis(self) -> list[dict[str, Any]]:
        """The application's emojis, in the order they were created."""
        return list(self.world.app_emojis.of(self.world.app_id).values())

    def refuse_emoji_uploads(self, refuse: bool = True) -> None:
        """Refuse every Create Application Emoji as Discord does at its limit (400/30008);
        not recorded as a violation (the test asked for it)."""
        self.world.app_emojis.refuse_uploads = EmojiRefused(
            400, MAX_EMOJIS_CODE, "Maximum number of emojis reached (2000)", deliberate=True,
        ) if refuse else None

    def delete_app_emojis(self) -> None:
        """Delete every application emoji (as its owner may in the Developer Portal): a
        message naming one is then refused (400/50035 Invalid emoji), as a refusal the test
        asked for."""
        self.world.app_emojis.delete_all(self.world.app_id)

    def set_validation(self, on: bool) -> None:
        """Check every request against Discord's spec and limits (on by default)."""
        self.rest.validate = on

    def refuse_command_sync(
        self, command: str | None, field: str = "max_value", *, option: str = "",
        code: str = "NUMBER_TYPE_MAX", message: str = "int53 out of range",
    ) -> None:
        """Refuse every command registration that holds ``command`` (and its option path
        ``option``, e.g. ``"export session"``) with 400/50035 and that field's path, as Discord
        refuses a bad value; the commands it holds stay. ``None`` lifts it. Not recorded as a
        violation (the test asked for it)."""
        self.rest.command_refusal = (
            None if command is None else commands.Refusal(command, field, option, code, message)
        )

    def globally_limited(self, since: float = 0.0) -> list[RouteCall]:
        """The bot's REST calls made at or after ``since`` that Discord's global limit counts:
        every API route but the interaction endpoints (``ratelimit.counts_globally``), 429
        answers included."""
        return [c for c in self.world.calls if c.at >= since and counts_globally(c.path)]

    def calls_by_route(self, since: float = 0.0) -> Counter[str]:
        """Bot REST calls per ``METHOD /route/{template}`` made at or after ``since``
        (a ``time.monotonic()`` value), 429 answers included."""
        return Counter(f"{c.method} {c.route or c.path}" for c in self.world.calls if c.at >= since)

    async def drop_bot_gateway(self) -> int:
        """Cut the bot's gateway socket as a network failure would (no close frame, no op 7):
        its session stays resumable. Returns the last sequence number sent before the cut."""
        return await self.gateway.drop()

    # -- waiting ----

    async def wait_for(
        self, predicate: Callable[[], T], timeout: float = 10.0, what: str = "condition"
    ) -> T:
        """The first truthy ``predicate()``, re-checked after every request, event or edit."""
        return await self.world.wait_for(predicate, timeout, what)

    async def wait_ready(self, *, count: int = 1, timeout: float = 20.0) -> None:
        """Wait until ``count`` gateway sessions in total got READY + GUILD_CREATE (or RESUMED)."""
        await self.wait_for(
            lambda: self.gateway.ready_count >= count and self.gateway.connected,
            timeout,
            f"gateway session #{count}",
        )

    async def wait_commands(self, *names: str, timeout: float = 20.0) -> list[dict[str, Any]]:
        """Wait until slash commands with these top-level names are synced (any scope)."""

        def synced() -> list[dict[str, Any]]:
            found = self.commands()
            have = {c["name"] for c in found}
            return found if found and set(names) <= have else []

        return await self.wait_for(synced, timeout, f"commands {names} to be synced")

    def commands(self) -> list[dict[str, Any]]:
        return [c for scope in self.world.commands.values() for c in scope]

    # -- acting as users ----

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        *,
        wait: bool = True,
        **options: Any,
    ) -> InteractionRecord:
        """Run ``/command`` (``"game new"`` for a subcommand) with options named by keyword."""
        data = commands.build_slash_data(self.world, command.lstrip("/"), options)
        return await self._interact(APPLICATION_COMMAND, user, channel, data, None, wait)

    async def forged_slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: dict[str, Any],
        *,
        types: dict[str, int] | None = None,
        resolved: dict[str, dict[str, Any]] | None = None,
        wait: bool = True,
    ) -> InteractionRecord:
        """``/command`` as a forged interaction: ``options`` go as given, unchecked against the
        synced schema (see ``commands.forged_slash_data``). Discord's client cannot send
        these; a bot must still refuse them."""
        data = commands.forged_slash_data(self.world, command.lstrip("/"), options,
                                          types=types, resolved=resolved)
        return await self._interact(APPLICATION_COMMAND, user, channel, data, None, wait)

    async def forged_click(
        self,
        user: FakeUser,
        message: StoredMessage | int,
        custom_id: str,
        *,
        values: list[str] | None = None,
        alone: bool = False,
        wait: bool = True,
    ) -> InteractionRecord:
        """A click on ``message`` (which ``user`` can see) of a control it does NOT carry,
        ``custom_id`` (a select's when ``values`` is given): a forged component interaction.
        The control is placed on the message the interaction carries (an action row added
        below its own components; ``alone``: instead of them), as discord.py serves a
        control only when the message has it; the stored message is not changed."""
        current = self.message(message)
        if not self.world.visible_to(current, user):
            raise NotVisible(f"{user.name} cannot see message {current.id}")
        kind = comp.BUTTON if values is None else comp.STRING_SELECT
        placed: dict[str, Any] = {"type": kind, "custom_id": custom_id}
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is None:
            placed.update(style=2, label="forged")
        else:
            placed["options"] = [{"label": v, "value": v} for v in values]
            data["values"] = list(values)
        carried = self.world.message_json(current)
        carried["components"] = [*([] if alone else carried.get("components", [])),
                                 {"type": 1, "components": [placed]}]
        return await self._interact(COMPONENT, user, self._channel(current), data, current, wait,
                                    message_data=carried)

    async def autocomplete(
        self, user: FakeUser, channel: FakeChannel, command: str, focused: str, **options: Any
    ) -> list[dict[str, Any]]:
        data = commands.build_slash_data(self.world, command.lstrip("/"), options, focused=focused)
        record = await self._interact(AUTOCOMPLETE, user, channel, data, None, True)
        return record.choices or []

    async def click(
        self,
        user: FakeUser,
        message: StoredMessage | int,
        custom_id: str,
        *,
        wait: bool = True,
    ) -> InteractionRecord:
        """Press the button ``custom_id`` on a message ``user`` can see."""
        current, component = self._visible_component(user, message, custom_id)
        if component.get("type") != comp.BUTTON:
            raise ValueError(f"{custom_id!r} is not a button")
        data = {"custom_id": custom_id, "component_type": comp.BUTTON}
        return await self._interact(COMPONENT, user, self._channel(current), data, current, wait)

    async def click_label(
        self, user: FakeUser, message: StoredMessage | int, label: str, *, wait: bool = True
    ) -> InteractionRecord:
        """Press the one button whose label contains ``label``."""
        current = self.message(message)
        return await self.click(user, current, current.button(label)["custom_id"], wait=wait)

    async def select(
        self,
        user: FakeUser,
        message: StoredMessage | int,
        custom_id: str,
        values: list[str],
        *,
        wait: bool = True,
    ) -> InteractionRecord:
        """Choose ``values`` in the select ``custom_id`` (string selects check the options)."""
        current, component = self._visible_component(user, message, custom_id)
        kind = component.get("type")
        if kind not in comp.SELECT_TYPES:
            raise ValueError(f"{custom_id!r} is not a select")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"{custom_id!r} takes {low}..{high} values, got {len(values)}")
        if kind == comp.STRING_SELECT:
            offered = [o["value"] for o in component.get("options") or []]
            unknown = [v for v in values if v not in offered]
            if unknown:
                raise ValueError(f"{unknown} not among the options {offered}")
        data = {"custom_id": custom_id, "component_type": kind, "values": list(values)}
        return await self._interact(COMPONENT, user, self._channel(current), data, current, wait)

    async def submit_modal(
        self,
        user: FakeUser,
        shown_by: InteractionRecord,
        values: dict[str, str | list[str]],
        *,
        wait: bool = True,
    ) -> InteractionRecord:
        """Fill in and submit the modal the bot answered ``shown_by`` with.

        ``values`` maps text-input custom_ids to text (select custom_ids to lists of values).
        """
        modal = shown_by.modal
        if modal is None:
            raise NotVisible("the bot did not answer that interaction with a modal")
        if shown_by.user.id != user.id:
            raise NotVisible("a modal is shown only to the user who opened it")
        submitted = [self._submitted(c, values) for c in modal["components"]]
        known = {c.get("custom_id") for c in comp.walk(modal["components"])}
        stray = set(values) - known
        if stray:
            raise ValueError(f"modal has no inputs {sorted(stray)}")
        data = {"custom_id": modal["custom_id"], "components": submitted}
        source = self.world.messages.get(shown_by.source_message_id or 0)
        return await self._interact(MODAL_SUBMIT, user, shown_by.channel, data, source, wait)

    async def say(self, user: FakeUser, channel: FakeChannel, content: str) -> StoredMessage:
        """``user`` posts a plain message in ``channel`` (MESSAGE_CREATE goes to a bot with
        the guild-messages intent; without message_content, Discord leaves the content out
        unless the message mentions the bot)."""
        message = self.world.create_message(channel.id, {"content": content}, [], author=user)
        data = self.world.message_json(message)
        if self.bot_user.mention not in content:
            data["content"] = ""
        await self.gateway.dispatch_message_event("MESSAGE_CREATE", data)
        return message

    async def wait_response(self, record: InteractionRecord) -> InteractionRecord:
        await self.world.wait_answer(
            record,
            self.response_timeout,
            f"the bot to answer {record.data.get('name') or record.data.get('custom_id')!r}",
        )
        return record

    async def reconnect_bot(self, *, resumable: bool = True) -> None:
        """Make the connected bot reconnect: resume (op 7) or re-identify (op 9)."""
        await self.gateway.reconnect(resumable=resumable)

    # -- what users see ----

    def message(self, message: StoredMessage | int) -> StoredMessage:
        """The current state of a message (edits applied)."""
        message_id = message if isinstance(message, int) else message.id
        return self.world.messages[message_id]

    def public(self, channel: FakeChannel) -> list[StoredMessage]:
        """Non-ephemeral messages in ``channel``, oldest first, deleted ones left out."""
        return [
            m
            for m in self.world.in_channel.get(channel.id, ())
            if not m.ephemeral and not m.deleted
        ]

    def latest_public(self, channel: FakeChannel) -> StoredMessage | None:
        found = self.public(channel)
        return found[-1] if found else None

    def ephemerals(self, user: FakeUser) -> list[StoredMessage]:
        """Ephemeral messages only ``user`` sees, oldest first."""
        return [
            m for m in self.world.messages.values() if m.ephemeral_for == user.id and not m.deleted
        ]

    def latest_ephemeral(self, user: FakeUser) -> StoredMessage | None:
        found = self.ephemerals(user)
        return found[-1] if found else None

    def visible_to(self, user: FakeUser) -> list[StoredMessage]:
        return [m for m in self.world.messages.values() if self.world.visible_to(m, user)]

    def texts_seen_by(self, user: FakeUser) -> list[str]:
        """Every text of every version of every message ``user`` could ever see
        (public ones in all channels, their own ephemerals), deleted messages included."""
        return [
            text
            for m in self.world.messages.values()
            if m.ephemeral_for in (None, user.id)
            for text in m.all_texts()
        ]

    def public_texts(self) -> list[str]:
        """Every text of every version of every public message (what any member could see)."""
        return [t for m in self.world.messages.values() if not m.ephemeral for t in m.all_texts()]

    def mentions_of(self, user: FakeUser) -> list[StoredMessage]:
        """Messages ``user`` can see that mention them in their content (pings)."""
        return [m for m in self.visible_to(user) if user.id in m.mentions]

    @property
    def interactions(self) -> list[InteractionRecord]:
        return list(self.world.interactions)

    def latencies(self) -> list[float]:
        return [r.latency for r in self.world.interactions if r.latency is not None]

    @property
    def unknown_routes(self) -> list[str]:
        return [f"{c.method} {c.path}" for c in self.world.unknown_routes]

    # -- internals ----

    def _channel(self, message: StoredMessage) -> FakeChannel:
        return self.world.channels[message.channel_id]

    def _visible_component(
        self, user: FakeUser, message: StoredMessage | int, custom_id: str
    ) -> tuple[StoredMessage, dict[str, Any]]:
        current = self.message(message)
        if not self.world.visible_to(current, user):
            raise NotVisible(f"{user.name} cannot see message {current.id}")
        component = current.component(custom_id)
        if component is None:
            raise NotVisible(
                f"message {current.id} has no component {custom_id!r}: {current.custom_ids()}"
            )
        if component.get("disabled"):
            raise NotVisible(f"component {custom_id!r} is disabled")
        return current, component

    @staticmethod
    def _submitted(component: dict[str, Any], values: dict[str, str | list[str]]) -> dict[str, Any]:
        kind = component.get("type")
        if kind in (1, comp.LABEL):
            key = "components" if kind == 1 else "component"
            inner = component.get(key)
            children = inner if isinstance(inner, list) else [inner]
            out = [FakeDiscord._submitted(c, values) for c in children if c]
            body: dict[str, Any] = {"type": kind, "id": component.get("id", 0)}
            body[key] = out if kind == 1 else out[0]
            return body
        custom_id = component.get("custom_id")
        answer: dict[str, Any] = {
            "type": kind,
            "id": component.get("id", 0),
            "custom_id": custom_id,
        }
        if kind == comp.TEXT_INPUT:
            value = values.get(custom_id or "", component.get("value") or "")
            if component.get("required", True) and not value:
                raise ValueError(f"modal input {custom_id!r} is required")
            answer["value"] = value
        elif kind in comp.SELECT_TYPES:
            chosen = values.get(custom_id or "", [])
            answer["values"] = [chosen] if isinstance(chosen, str) else list(chosen)
        return answer

    async def _interact(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        source: StoredMessage | None,
        wait: bool,
        *,
        message_data: dict[str, Any] | None = None,
    ) -> InteractionRecord:
        world = self.world
        record = InteractionRecord(
            id=world.ids.next(),
            token=interaction_token(),
            type=kind,
            user=user,
            channel=channel,
            data=data,
            payload={},
            source_message_id=source.id if source is not None else None,
        )
        member = world.member_json(user)
        member["permissions"] = str(world.permissions_of(user))
        guild_id = world.guild_of(channel)
        channel_data = world.channel_json(channel)
        channel_data["permissions"] = str(world.permissions_of(user))
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(world.app_id),
            "type": kind,
            "data": data,
            "guild_id": str(guild_id),
            "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
            "channel_id": str(channel.id),
            "channel": channel_data,
            "member": member,
            "token": record.token,
            "version": 1,
            "app_permissions": str(world.bot_permissions_in(channel.id)),
            "locale": user.locale,
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if source is not None:
            payload["message"] = message_data or world.message_json(source)
        place = places.place_of(world, channel.id)
        route_guild: int | None = guild_id
        if place is not None:
            if source is None and kind == APPLICATION_COMMAND:
                places.check_command(world, place, user,
                                     commands.find_command(world, data["name"]))
            route_guild = places.adjust_payload(world, payload, place, user, channel)
            # A click on a message is authorized by the install of the command that made it.
            made_by = world.by_interaction_id.get(source.interaction_id or 0) \
                if source is not None else None
            if made_by is not None and made_by.payload.get("authorizing_integration_owners"):
                payload["authorizing_integration_owners"] = dict(
                    made_by.payload["authorizing_integration_owners"])
        record.payload = payload
        world.interactions.append(record)
        world.by_token[record.token] = record
        world.by_interaction_id[record.id] = record
        record.dispatched_at = time.monotonic()
        world.token_expiry[record.token] = record.dispatched_at + world.token_lifetime
        record.delivered = await self.gateway.dispatch(
            "INTERACTION_CREATE", payload, guild_id=route_guild
        )
        world.notify()
        if not record.delivered and self.gateway.dropped is None:
            raise ConnectionError("no bot is connected to the gateway; the interaction was lost")
        if wait:
            await self.wait_response(record)
        return record


async def gather_clicks(
    fd: FakeDiscord, users: list[FakeUser], message: StoredMessage | int, custom_id: str
) -> list[InteractionRecord]:
    """Dispatch one click per user at the same time, then wait for every answer.

    Every click is checked against the message as it is now and dispatched before the bot can
    answer any of them (the same user may appear many times: one control clicked N times).
    """
    records = await asyncio.gather(*(fd.click(u, message, custom_id, wait=False) for u in users))
    return list(await asyncio.gather(*(fd.wait_response(r) for r in records)))
