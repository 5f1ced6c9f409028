"""What the stand-in remembers: users, channels, messages (with every version) and interactions."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from bot.playground.fakediscord import components as comp
from bot.playground.fakediscord.discord_limits import FieldError

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15


@dataclass(frozen=True)
class FakeUser:
    id: int
    name: str
    role_ids: tuple[int, ...] = ()
    admin: bool = False
    bot: bool = False
    locale: str = "en-US"  # the user's Discord client language (an interaction's ``locale``)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(frozen=True)
class FakeChannel:
    id: int
    name: str
    position: int = 0
    guild_id: int | None = None  # None: the stand-in's first guild
    parent_id: int | None = None  # a public thread's channel (its id is its starter message's)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.parent_id is not None


@dataclass(frozen=True)
class RawJson:
    """An answer's JSON bytes, decoded only when a test reads ``RouteCall.body`` (a load run
    records every request and reads few)."""

    data: bytes


@dataclass(frozen=True)
class RouteCall:
    """One REST request the bot made; ``answer``: the body it was answered with (decoded, or
    ``RawJson`` read through ``body``)."""

    method: str
    path: str
    status: int
    answer: Any
    at: float
    route: str = ""  # the route template, e.g. "/channels/{channel_id}/messages"

    @property
    def body(self) -> Any:
        """The answer's JSON (None when it was none, or not JSON)."""
        if not isinstance(self.answer, RawJson):
            return self.answer
        try:
            decoded = json.loads(self.answer.data)
        except (TypeError, ValueError):
            decoded = None
        object.__setattr__(self, "answer", decoded)
        return decoded


@dataclass(frozen=True)
class Violation:
    """A request Discord would refuse (answered 400 with its ``errors``): the test that
    caused it fails (``tests/e2e/conftest.py``) unless it takes it (``fd.take_violations()``)."""

    method: str
    path: str  # the request's path, query included
    operation: str  # the spec's operation, e.g. "POST /channels/{channel_id}/messages (...)"
    errors: tuple[FieldError, ...]

    def __str__(self) -> str:
        fields = "; ".join(str(e) for e in self.errors)
        return f"{self.method} {self.path} [{self.operation}]: {fields}"

    def paths(self) -> list[str]:
        """Each refused field's path, dotted: ``"0.options.0.max_value"``."""
        return [".".join(str(p) for p in e.path) for e in self.errors]


@dataclass
class MessageVersion:
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int

    def texts(self) -> list[str]:
        found = [self.content] if self.content else []
        for embed in self.embeds:
            found.extend(_embed_texts(embed))
        found.extend(comp.texts(self.components))
        return found


@dataclass(frozen=True)
class Upload:
    """A file the bot sent (with a message or an edit): its attachment id, name and size."""

    attachment_id: int
    filename: str
    size: int
    at: float  # time.monotonic() when it arrived
    # The message carried a file of that name with these very bytes already: an upload
    # that changed nothing (keeping the attachment by its id would have done the same).
    unchanged: bool = False


@dataclass
class StoredMessage:
    """A message as users see it; ``versions`` keeps every state it was ever shown in."""

    id: int
    channel_id: int
    author: dict[str, Any]
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[dict[str, Any]]
    flags: int
    type: int
    timestamp: str
    ephemeral_for: int | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    edited_timestamp: str | None = None
    deleted: bool = False
    mentions: list[int] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None  # as the bot sent it (None: not sent)
    versions: list[MessageVersion] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def snapshot(self) -> None:
        self.versions.append(
            MessageVersion(self.content, list(self.embeds), list(self.components), self.flags)
        )

    def texts(self) -> list[str]:
        """Text of the current version: content, embeds, component labels and text displays."""
        return self.versions[-1].texts() if self.versions else []

    def all_texts(self) -> list[str]:
        """Text of every version the message ever had."""
        return [text for version in self.versions for text in version.texts()]

    @property
    def text(self) -> str:
        return "\n".join(self.texts())

    @property
    def card(self) -> bool:
        """Whether it is a Components V2 message (flag ``IS_COMPONENTS_V2``)."""
        return bool(self.flags & COMPONENTS_V2)

    def pictures(self) -> list[tuple[str, str | None]]:
        """The pictures it shows: each media URL with its alt text, a card's media items
        first, then its embeds' images (which carry no alt text)."""
        shown: list[tuple[str, str | None]] = []
        for c in comp.walk(self.components):
            if c.get("type") == comp.MEDIA_GALLERY:
                shown += [(str(item["media"]["url"]), item.get("description"))
                          for item in c.get("items") or []]
            elif c.get("type") == comp.THUMBNAIL:
                shown.append((str(c["media"]["url"]), c.get("description")))
        shown += [(str(e["image"]["url"]), None) for e in self.embeds
                  if isinstance(e.get("image"), dict) and e["image"].get("url")]
        return shown

    def interactive(self) -> list[dict[str, Any]]:
        return comp.interactive(self.components)

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return comp.find(self.components, custom_id)

    def button(self, label: str) -> dict[str, Any]:
        """The button whose label contains ``label`` (exactly one must match)."""
        matches = [
            c
            for c in self.interactive()
            if c.get("type") == comp.BUTTON and label in (c.get("label") or "")
        ]
        if len(matches) != 1:
            labels = [c.get("label") for c in self.interactive()]
            raise LookupError(f"{len(matches)} buttons match {label!r}; buttons: {labels}")
        return matches[0]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.interactive()]


@dataclass
class InteractionRecord:
    """One simulated user action and everything the bot did with its token."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    data: dict[str, Any]
    payload: dict[str, Any]
    source_message_id: int | None = None
    dispatched_at: float = field(default_factory=time.monotonic)
    delivered: bool = False
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    callback_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    calls: list[RouteCall] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # Set by the callback: wakes ``World.wait_answer`` (created by the first waiter).
    answer_event: asyncio.Event | None = field(default=None, repr=False, compare=False)

    @property
    def responded(self) -> bool:
        return self.callback_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from dispatching INTERACTION_CREATE to the bot's first callback."""
        if self.callback_at is None:
            return None
        return self.callback_at - self.dispatched_at

    @property
    def ephemeral(self) -> bool:
        data = self.callback_data or {}
        return bool(int(data.get("flags") or 0) & EPHEMERAL)


def _embed_texts(embed: dict[str, Any]) -> list[str]:
    found = [str(embed[k]) for k in ("title", "description") if embed.get(k)]
    for key in ("author", "footer"):
        part = embed.get(key) or {}
        if part.get("name") or part.get("text"):
            found.append(str(part.get("name") or part.get("text")))
    for f in embed.get("fields") or []:
        found.extend(str(f[k]) for k in ("name", "value") if f.get(k))
    return found
