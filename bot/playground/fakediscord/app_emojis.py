"""Application emojis in the stand-in (issue 41): stored per application, listed and created
as Discord's "List Application Emojis" and "Create Application Emoji" routes do, and the
emojis a message's components name checked against them.

What Discord states and does (https://discord.com/developers/docs/resources/emoji): an
application owns up to 2,000 emojis ("Application-Owned Emoji"); ``POST
/applications/{application.id}/emojis`` takes ``name`` and ``image`` (image data: a data URI,
https://discord.com/developers/docs/reference, "Image Data") and answers 201 with the emoji;
an image over 256 KiB is a 400 without a JSON error code. What its answers show (its
libraries' handling of them): a name outside ``[A-Za-z0-9_]{2,32}`` is a 400/50035 on
``name``; a name the application already has is a 400/50035 ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``
on ``name``; the 2,000th is refused with 30008 "Maximum number of emojis reached". A
component naming a custom emoji that is not the application's (nor a server's: the stand-in
has none) is a 400/50035 ``BUTTON_COMPONENT_INVALID_EMOJI`` on the emoji's ``name``
(discord/discord-api-docs#8071). A text naming one as ``<:name:id>`` is not refused: the
client shows ``:name:``."""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from typing import Any

from bot.playground.fakediscord import components as comp

NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
DATA_URI = re.compile(r"data:image/(png|jpeg|gif|webp|avif);base64,(.*)", re.DOTALL)
MAX_EMOJIS = 2000
MAX_BYTES = 256 * 1024
MAX_EMOJIS_CODE = 30008
INVALID_EMOJI = "BUTTON_COMPONENT_INVALID_EMOJI"
NAME_TAKEN = "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"


class EmojiRefused(Exception):
    """An emoji request Discord refuses: ``status``, ``code``, the field errors' code."""

    def __init__(self, status: int, code: int, message: str, field_code: str | None = None,
                 path: tuple[str | int, ...] = (), *, deliberate: bool = False) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.field_code, self.path = field_code, path
        self.deliberate = deliberate  # a refusal a test asked for, not a contract violation


@dataclass
class AppEmojis:
    """Every application's emojis (application id -> emoji id -> the stored emoji), the ids
    a test deleted (a message naming one is refused, as a deliberate refusal), and a refusal
    of every upload a test asked for."""

    by_app: dict[int, dict[int, dict[str, Any]]] = field(default_factory=dict)
    deleted: set[int] = field(default_factory=set)
    refuse_uploads: EmojiRefused | None = None
    images: dict[int, bytes] = field(default_factory=dict)

    def of(self, app_id: int) -> dict[int, dict[str, Any]]:
        return self.by_app.setdefault(app_id, {})

    def create(self, app_id: int, emoji_id: int, body: dict[str, Any],
               user: dict[str, Any]) -> dict[str, Any]:
        if self.refuse_uploads is not None:
            raise self.refuse_uploads
        name = str(body.get("name") or "")
        if not NAME.fullmatch(name):
            raise EmojiRefused(400, 50035, "Invalid Form Body", "STRING_TYPE_REGEX", ("name",))
        stored = self.of(app_id)
        if any(emoji["name"] == name for emoji in stored.values()):
            raise EmojiRefused(400, 50035, "Invalid Form Body", NAME_TAKEN, ("name",))
        found = DATA_URI.fullmatch(str(body.get("image") or ""))
        if found is None:
            raise EmojiRefused(400, 50035, "Invalid Form Body", "IMAGE_INVALID", ("image",))
        try:
            data = base64.b64decode(found.group(2), validate=True)
        except (binascii.Error, ValueError):
            raise EmojiRefused(400, 50035, "Invalid Form Body", "IMAGE_INVALID",
                               ("image",)) from None
        if len(data) > MAX_BYTES:
            raise EmojiRefused(400, 0, f"Asset exceeds maximum size: {MAX_BYTES}")
        if len(stored) >= MAX_EMOJIS:
            raise EmojiRefused(400, MAX_EMOJIS_CODE, "Maximum number of emojis reached (2000)")
        emoji: dict[str, Any] = {"id": str(emoji_id), "name": name, "roles": [], "user": user,
                 "require_colons": True, "managed": False,
                 "animated": found.group(1) == "gif", "available": True}
        stored[emoji_id] = emoji
        self.images[emoji_id] = data
        return emoji

    def delete_all(self, app_id: int) -> None:
        """Every emoji of the application removed (as in the Developer Portal)."""
        self.deleted.update(self.of(app_id))
        self.of(app_id).clear()

    def known(self, emoji_id: int) -> bool:
        return any(emoji_id in emojis for emojis in self.by_app.values())

    def check_components(self, components: list[dict[str, Any]]) -> None:
        """A custom emoji of a component (button, select option) must exist; raises
        :class:`EmojiRefused` for the first that does not."""
        for component in comp.walk(components):
            for emoji in [component.get("emoji"),
                          *[o.get("emoji") for o in component.get("options") or []]]:
                if not isinstance(emoji, dict) or emoji.get("id") in (None, ""):
                    continue
                emoji_id = int(emoji["id"])
                if not self.known(emoji_id):
                    raise EmojiRefused(400, 50035, "Invalid Form Body", INVALID_EMOJI,
                                       ("components", "emoji", "name"),
                                       deliberate=emoji_id in self.deleted)
