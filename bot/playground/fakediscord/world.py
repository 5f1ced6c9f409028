"""The stand-in's state: guilds (the first one, ``guild_id``, and any added with
``add_guild``), their users (members of every guild) and channels, messages, interactions and
commands.

Also builds the Discord JSON objects for them, so REST answers and gateway events agree.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from bot.playground.fakediscord import places, validation
from bot.playground.fakediscord.app_emojis import AppEmojis
from bot.playground.fakediscord.components import walk
from bot.playground.fakediscord.ids import SnowflakeFactory, iso_now
from bot.playground.fakediscord.model import (
    COMPONENTS_V2,
    EPHEMERAL,
    LOADING,
    FakeChannel,
    FakeUser,
    InteractionRecord,
    RouteCall,
    StoredMessage,
    Upload,
    Violation,
)

T = TypeVar("T")

# View channel, send messages, embed links, attach files, read history, add reactions,
# use external emojis, use application commands.
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6)
MEMBER_PERMISSIONS |= (1 << 18) | (1 << 31)
ADMINISTRATOR = 1 << 3
# What the bot may do in every channel: the member set plus manage messages and threads.
BOT_PERMISSIONS = MEMBER_PERMISSIONS | (1 << 13) | (1 << 34) | (1 << 35) | (1 << 38)

_USER_MENTION = re.compile(r"<@!?(\d+)>")


class World:
    def __init__(self, *, guild_name: str = "Table Games") -> None:
        self.ids = SnowflakeFactory()
        self.app_id = self.ids.next()
        self.bot_user = FakeUser(self.ids.next(), "tablebot", bot=True)
        self.guild_id = self.ids.next()
        self.guild_name = guild_name
        self.guild_names: dict[int, str] = {self.guild_id: guild_name}  # every guild, in order
        self.admin_role_id = self.ids.next()
        # Roles added with ``FakeDiscord.add_role`` (first guild): (id, name, permissions,
        # position); and every role the bot gave (guild, user, role), in order.
        self.extra_roles: list[tuple[int, str, int, int]] = []
        self.role_grants: list[tuple[int, int, int]] = []
        self.role_removals: list[tuple[int, int, int]] = []
        # Guild scheduled events the bot created (id -> the object Discord answered), and the
        # bot's server-wide permissions they need (Manage Events or Create Events).
        self.scheduled_events: dict[int, dict[str, Any]] = {}
        self.bot_guild_permissions = BOT_PERMISSIONS
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, StoredMessage] = {}
        # The same messages by channel, oldest first (an index: a table's player reads its
        # channel without going through every message of every table).
        self.in_channel: dict[int, list[StoredMessage]] = {}
        self.interactions: list[InteractionRecord] = []
        self.by_token: dict[str, InteractionRecord] = {}
        self.by_interaction_id: dict[int, InteractionRecord] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None = global)
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.calls: list[RouteCall] = []
        self.unknown_routes: list[RouteCall] = []
        self.violations: list[Violation] = []  # requests refused as Discord would (contract)
        self.attachments: dict[int, bytes] = {}
        self.app_emojis = AppEmojis()  # every application's emojis (app_emojis.py)
        self.archived: set[int] = set()  # ids of archived threads
        self.uploads: list[Upload] = []  # every file the bot sent, in order
        self.command_syncs = 0
        self.base_url = ""
        # Channels whose permissions refuse the bot: posts and edits there answer 403 (50013).
        self.forbidden_channels: set[int] = set()
        # The bot's permissions per channel where they differ from BOT_PERMISSIONS.
        self.bot_permissions: dict[int, int] = {}
        # Seconds an interaction token is valid for its webhook routes (Discord: 15 minutes),
        # and when each token stops serving them (set as the interaction is dispatched).
        self.token_lifetime = 15 * 60.0
        self.token_expiry: dict[str, float] = {}
        self._changed = asyncio.Event()
        self.changes = 0  # how many times notify ran: the playground's page polls on it

    # -- change notification ----

    def notify(self) -> None:
        """Wake every ``wait_for``: something the predicates read has changed."""
        self.changes += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], T], timeout: float = 10.0, what: str = "condition"
    ) -> T:
        """Return the first truthy value of ``predicate()``, re-checked after every change."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    changed = self._changed
                    result = predicate()
                    if result:
                        return result
                    await changed.wait()
        except TimeoutError:
            detail = f"timed out after {timeout}s waiting for {what}; {self.summary()}"
            raise TimeoutError(detail) from None

    @staticmethod
    def answered(record: InteractionRecord) -> None:
        """Wake :meth:`wait_answer` for ``record`` (its callback came)."""
        if record.answer_event is not None:
            record.answer_event.set()

    async def wait_answer(self, record: InteractionRecord, timeout: float, what: str) -> None:
        """Until ``record`` is answered: :meth:`wait_for` ``record.responded``, woken only by
        that record's callback (:meth:`answered`), not by every change of the world (with
        hundreds of tables, every request woke every waiting click)."""
        try:
            async with asyncio.timeout(timeout):
                while not record.responded:
                    if record.answer_event is None:
                        record.answer_event = asyncio.Event()
                    await record.answer_event.wait()
        except TimeoutError:
            detail = f"timed out after {timeout}s waiting for {what}; {self.summary()}"
            raise TimeoutError(detail) from None

    def summary(self) -> str:
        last = [f"{c.method} {c.path} -> {c.status}" for c in self.calls[-8:]]
        unknown = [f"{c.method} {c.path}" for c in self.unknown_routes]
        return f"last REST calls: {last}; unknown routes: {unknown}"

    # -- JSON objects ----------------------------------------------------------------------------

    def user_json(self, user: FakeUser) -> dict[str, Any]:
        return {
            "id": str(user.id),
            "username": user.name,
            "global_name": user.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": user.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }

    def bot_permissions_in(self, channel_id: int) -> int:
        """What the bot may do in a channel: ``interaction.app_permissions`` there."""
        return self.bot_permissions.get(channel_id, BOT_PERMISSIONS)

    def permissions_of(self, user: FakeUser) -> int:
        if user.bot:
            return BOT_PERMISSIONS
        return MEMBER_PERMISSIONS | (ADMINISTRATOR if user.admin else 0)

    def member_json(self, user: FakeUser, *, with_user: bool = True) -> dict[str, Any]:
        roles = [str(r) for r in user.role_ids]
        if user.admin:
            roles.append(str(self.admin_role_id))
        member: dict[str, Any] = {
            "roles": roles,
            "nick": None,
            "avatar": None,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            member["user"] = self.user_json(user)
        return member

    def channel_json(
        self, channel: FakeChannel, *, in_guild_create: bool = False
    ) -> dict[str, Any]:
        private = places.channel_json(self, channel)
        if private is not None:
            return private
        data: dict[str, Any] = {
            "id": str(channel.id),
            "type": 0,
            "name": channel.name,
            "position": channel.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if not in_guild_create:
            data["guild_id"] = str(self.guild_of(channel))
        if channel.is_thread:
            data.update({
                "type": 11,
                "guild_id": str(self.guild_of(channel)),
                "parent_id": str(channel.parent_id),
                "owner_id": str(self.bot_user.id),
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "thread_metadata": {
                    "archived": channel.id in self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(),
                    "locked": False,
                    "create_timestamp": iso_now(),
                },
            })
            data.pop("position", None)
            data.pop("permission_overwrites", None)
            data.pop("topic", None)
            data.pop("nsfw", None)
        return data

    def guild_of(self, channel: FakeChannel) -> int:
        return channel.guild_id if channel.guild_id is not None else self.guild_id

    def guilds_on_shard(self, shard: list[int] | None) -> list[int]:
        """The guilds Discord delivers on ``shard`` (``[id, count]``; None: unsharded, all)."""
        if shard is None:
            return list(self.guild_names)
        shard_id, count = shard
        return [g for g in self.guild_names if (g >> 22) % count == shard_id]

    def roles_json(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        def role(role_id: int, name: str, permissions: int, position: int) -> dict[str, Any]:
            return {
                "id": str(role_id),
                "name": name,
                "color": 0,
                "hoist": False,
                "icon": None,
                "unicode_emoji": None,
                "position": position,
                "permissions": str(permissions),
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }

        extra = [role(*fields) for fields in self.extra_roles]
        return [
            role(guild_id or self.guild_id, "@everyone", MEMBER_PERMISSIONS, 0),
            role(self.admin_role_id, "admin", ADMINISTRATOR, 1),
            *(extra if guild_id in (None, self.guild_id) else []),
        ]

    def role_json(self, role_id: int, guild_id: int | None = None) -> dict[str, Any] | None:
        return next((r for r in self.roles_json(guild_id) if r["id"] == str(role_id)), None)

    def member(self, user_id: int) -> FakeUser | None:
        """A member of the guild by id, the bot included."""
        if user_id == self.bot_user.id:
            return self.bot_user
        return self.users.get(user_id)

    def give_role(self, user: FakeUser, role_id: int) -> FakeUser:
        """``user`` with ``role_id`` among their roles (users are immutable: replaced)."""
        if role_id in user.role_ids:
            return user
        changed = replace(user, role_ids=(*user.role_ids, role_id))
        if user.id == self.bot_user.id:
            self.bot_user = changed
        else:
            self.users[user.id] = changed
        return changed

    def take_role(self, user: FakeUser, role_id: int) -> FakeUser:
        """``user`` without ``role_id`` (replaced, as in :meth:`give_role`)."""
        if role_id not in user.role_ids:
            return user
        changed = replace(user, role_ids=tuple(r for r in user.role_ids if r != role_id))
        if user.id == self.bot_user.id:
            self.bot_user = changed
        else:
            self.users[user.id] = changed
        return changed

    def guild_json(
        self, *, all_members: bool = True, guild_id: int | None = None
    ) -> dict[str, Any]:
        """The GUILD_CREATE object; without the members intent Discord lists only the bot."""
        guild = self.guild_id if guild_id is None else guild_id
        everyone = [self.bot_user, *self.users.values()]
        members = [self.member_json(u) for u in (everyone if all_members else everyone[:1])]
        return {
            "id": str(guild),
            "name": self.guild_names[guild],
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(next(iter(self.users), self.bot_user.id)),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "features": [],
            "roles": self.roles_json(guild),
            "emojis": [],
            "stickers": [],
            "max_members": 500000,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "large": False,
            "unavailable": False,
            "member_count": len(everyone),
            "members": members,
            "channels": [
                self.channel_json(c, in_guild_create=True) for c in self.channels.values()
                if self.guild_of(c) == guild and not c.is_thread
            ],
            "threads": [  # the active ones, as Discord lists them
                self.channel_json(c) for c in self.channels.values()
                if self.guild_of(c) == guild and c.is_thread and c.id not in self.archived
            ],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def application_json(self) -> dict[str, Any]:
        owner = next(iter(self.users.values()), self.bot_user)
        return {
            "id": str(self.app_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "bot_public": False,
            "bot_require_code_grant": False,
            "owner": self.user_json(owner),
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "bot": self.user_json(self.bot_user),
        }

    def message_json(self, message: StoredMessage) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "author": message.author,
            "content": message.content,
            "timestamp": message.timestamp,
            "edited_timestamp": message.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [
                self.user_json(self.users[i]) for i in message.mentions if i in self.users
            ],
            "mention_roles": [],
            "attachments": message.attachments,
            "embeds": message.embeds,
            "components": message.components,
            "pinned": False,
            "type": message.type,
            "flags": message.flags,
        }
        if message.webhook_id is not None:
            data["webhook_id"] = str(message.webhook_id)
            data["application_id"] = str(self.app_id)
        record = self.by_interaction_id.get(message.interaction_id or 0)
        if record is not None:
            data["interaction_metadata"] = {
                "id": str(record.id),
                "type": record.type,
                "user": self.user_json(record.user),
                "authorizing_integration_owners": record.payload.get(
                    "authorizing_integration_owners", {"0": str(self.guild_id)}),
            }
            if record.type == 2:
                data["interaction_metadata"]["name"] = record.data.get("name", "")
                data["interaction"] = {
                    "id": str(record.id),
                    "type": record.type,
                    "name": record.data.get("name", ""),
                    "user": self.user_json(record.user),
                }
        return data

    # -- messages ----

    def visible_to(self, message: StoredMessage, user: FakeUser) -> bool:
        return not message.deleted and message.ephemeral_for in (None, user.id)

    def create_message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[tuple[str, str, bytes]],
        *,
        interaction: InteractionRecord | None = None,
        ephemeral_for: int | None = None,
        extra_flags: int = 0,
        author: FakeUser | None = None,
    ) -> StoredMessage:
        """Store a new message (the bot's, or ``author``'s); raises ``validation.Invalid`` for
        bodies Discord would reject."""
        flags = int(body.get("flags") or 0) | extra_flags
        if ephemeral_for is not None:
            flags |= EPHEMERAL
        else:
            flags &= ~EPHEMERAL
        validation.check_message(
            body, flags=flags, has_files=bool(files), allow_empty=bool(flags & LOADING),
            filenames={filename for filename, _, _ in files},
        )
        self.app_emojis.check_components(list(body.get("components") or []))
        validation.check_files(files)
        author_json = self.user_json(author or self.bot_user)
        message_type = 0
        if interaction is not None and interaction.type == 2:
            message_type = 20
        message = StoredMessage(
            id=self.ids.next(),
            channel_id=channel_id,
            author=author_json,
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=self._with_component_ids(list(body.get("components") or [])),
            attachments=self._attachments(body, files, []),
            flags=flags,
            type=message_type,
            timestamp=iso_now(),
            ephemeral_for=ephemeral_for,
            interaction_id=interaction.id if interaction else None,
            webhook_id=self.app_id if interaction else None,
        )
        message.mentions = self._mentions(message.content, body)
        message.allowed_mentions = body.get("allowed_mentions")
        message.snapshot()
        self.messages[message.id] = message
        self.in_channel.setdefault(channel_id, []).append(message)
        self.notify()
        return message

    def edit_message(
        self,
        message: StoredMessage,
        body: dict[str, Any],
        files: list[tuple[str, str, bytes]],
        *,
        clear_loading: bool = True,
    ) -> StoredMessage:
        """Apply a PATCH-style edit: fields present replace, fields absent are kept."""
        flags = message.flags
        if "flags" in body and body["flags"] is not None:
            flags = (flags & (EPHEMERAL | COMPONENTS_V2)) | int(body["flags"])
        if clear_loading:
            flags &= ~LOADING
        merged = {
            "content": body.get("content", message.content),
            "embeds": body.get("embeds", message.embeds),
            "components": body.get("components", message.components),
        }
        validation.check_message(
            merged, flags=flags, has_files=bool(files or message.attachments), allow_empty=False,
            filenames=self._filenames_after(body, files, message.attachments),
        )
        self.app_emojis.check_components(list(merged["components"] or []))
        validation.check_files(files)
        if "content" in body:
            message.content = str(body["content"] or "")
            message.mentions = self._mentions(message.content, body)
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = self._with_component_ids(list(body["components"] or []))
        if "attachments" in body or files:
            message.attachments = self._attachments(body, files, message.attachments)
        message.flags = flags
        message.edited_timestamp = iso_now()
        message.snapshot()
        self.notify()
        return message

    def delete_message(self, message: StoredMessage) -> None:
        message.deleted = True
        self.notify()

    def _mentions(self, content: str, body: dict[str, Any]) -> list[int]:
        allowed = body.get("allowed_mentions")
        found = [int(m) for m in _USER_MENTION.findall(content)]
        if isinstance(allowed, dict):
            parse = allowed.get("parse") or []
            listed = {int(u) for u in allowed.get("users") or []}
            found = [u for u in found if "users" in parse or u in listed]
        return list(dict.fromkeys(found))

    def _with_component_ids(self, components: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Number components without an ``id`` the way Discord does (1, 2, ... depth first)."""
        tree = walk(components)
        taken = {c["id"] for c in tree if isinstance(c.get("id"), int)}
        counter = 1
        for component in tree:
            if "id" not in component:
                while counter in taken:
                    counter += 1
                component["id"] = counter
                taken.add(counter)
        return components

    @staticmethod
    def _filenames_after(body: dict[str, Any], files: list[tuple[str, str, bytes]],
                         existing: list[dict[str, Any]]) -> set[str]:
        """The file names a message holds after an edit: the kept attachments and the new."""
        keep_ids = None
        if "attachments" in body:
            keep_ids = {str(a.get("id")) for a in body.get("attachments") or []}
        kept = {str(a["filename"]) for a in existing if keep_ids is None or a["id"] in keep_ids}
        return kept | {filename for filename, _, _ in files}

    def _attachments(
        self,
        body: dict[str, Any],
        files: list[tuple[str, str, bytes]],
        existing: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        keep_ids = None
        if "attachments" in body:
            keep_ids = {str(a.get("id")) for a in body.get("attachments") or []}
        kept = [a for a in existing if keep_ids is None or a["id"] in keep_ids]
        carried = {a["filename"]: self.attachments.get(int(a["id"])) for a in existing}
        for filename, content_type, data in files:
            attachment_id = self.ids.next()
            self.attachments[attachment_id] = data
            self.uploads.append(Upload(attachment_id, filename, len(data), time.monotonic(),
                                       unchanged=carried.get(filename) == data))
            url = f"{self.base_url}/attachments/{attachment_id}/{filename}"
            kept.append(
                {
                    "id": str(attachment_id),
                    "filename": filename,
                    "size": len(data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": content_type,
                }
            )
        return kept
