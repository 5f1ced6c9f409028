"""What one member sees, as the page's JSON: the server's channels and threads, the messages of
one channel (public ones and that member's own ephemeral ones, never another's), the names the
page needs to show mentions, the synced slash commands, and Discord's contract violations."""

from __future__ import annotations

from typing import Any

from bot.playground.fakediscord import FakeDiscord, FakeUser, StoredMessage
from bot.playground.fakediscord.model import LOADING

MESSAGES_SHOWN = 60  # the newest messages of a channel the page shows


def channels_json(fd: FakeDiscord) -> list[dict[str, Any]]:
    """Text channels of the first guild, each followed by its threads (archived ones marked)."""
    world = fd.world
    shown: list[dict[str, Any]] = []
    for channel in world.channels.values():
        if channel.is_thread or world.guild_of(channel) != fd.guild_id:
            continue
        shown.append({"id": str(channel.id), "name": channel.name, "thread": False})
        for thread in fd.threads_of(channel):
            shown.append({"id": str(thread.id), "name": thread.name, "thread": True,
                          "parent": str(channel.id), "archived": fd.archived(thread)})
    return shown


def message_json(fd: FakeDiscord, message: StoredMessage) -> dict[str, Any]:
    """A message as the page draws it; attachments are served by the page's own origin."""
    record = fd.world.by_interaction_id.get(message.interaction_id or 0)
    used = None
    if record is not None and record.type == 2:  # an application command
        used = {"user": record.user.name, "command": _command_path(record.data)}
    attachments = [
        {**a, "url": f"/attachments/{a['id']}/{a['filename']}"} for a in message.attachments
    ]
    return {
        "id": str(message.id),
        "author": message.author.get("username") or "",
        "bot": bool(message.author.get("bot")),
        "content": message.content,
        "embeds": message.embeds,
        "components": message.components,
        "attachments": attachments,
        "flags": message.flags,
        "ephemeral": message.ephemeral,
        "loading": bool(message.flags & LOADING),
        "timestamp": message.timestamp,
        "edited": message.edited_timestamp is not None,
        "mentions": [str(i) for i in message.mentions],
        "used": used,
    }


def view_json(fd: FakeDiscord, user: FakeUser, channel_id: int) -> dict[str, Any]:
    world = fd.world
    messages = [
        m for m in world.messages.values()
        if m.channel_id == channel_id and world.visible_to(m, user)
    ][-MESSAGES_SHOWN:]
    return {
        "changes": world.changes,
        "guild": world.guild_name,
        "me": str(user.id),
        "channel": str(channel_id),
        "channels": channels_json(fd),
        "users": {str(u.id): u.name for u in [*world.users.values(), world.bot_user]},
        "roles": {str(r[0]): r[1] for r in world.extra_roles},
        "commands": fd.commands(),
        "messages": [message_json(fd, m) for m in messages],
        "violations": [str(v) for v in world.violations],
    }


def _command_path(data: dict[str, Any]) -> str:
    """``game new`` from a command's data (its name and nested subcommand names)."""
    names = [str(data.get("name", ""))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        names.append(str(options[0]["name"]))
        options = options[0].get("options") or []
    return " ".join(names)
