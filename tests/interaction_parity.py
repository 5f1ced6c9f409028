"""An INTERACTION_CREATE parsed the bot's way (``bot.process.lean_interactions``) against the
same payload parsed by discord.py alone: what the cogs and discord.py's dispatch read of the
interaction and of its message must be the same, and so must the rest of the message once
it is read. Used by ``tests/bot/test_lean_interactions.py`` on payloads of every place and by
the e2e suites on every interaction their stand-ins sent (``tests/e2e/conftest.py``)."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from typing import Any

import discord
import discord.interactions

import bot.process.client  # noqa: F401  (installs the lean interactions, as the process does)
from bot.process.lean_dispatch import clicked
from bot.process.lean_interactions import ClickedMessage


def a_state(bot_user: dict[str, Any]) -> Any:
    """A client's connection state, as logged in as ``bot_user`` (a user payload)."""
    client = discord.Client(intents=discord.Intents.default())
    state = client._connection
    state.user = discord.ClientUser(state=state, data=bot_user)  # type: ignore[arg-type]
    return state


@contextlib.contextmanager
def discord_messages() -> Iterator[None]:
    """discord.py's own ``Message`` for the interactions made meanwhile (synchronous use)."""
    lean = discord.interactions.Message
    discord.interactions.Message = discord.Message  # type: ignore[misc]
    try:
        yield
    finally:
        discord.interactions.Message = lean  # type: ignore[misc]


def both(payload: dict[str, Any], state: Any) -> tuple[Any, Any]:
    """(the bot's interaction, discord.py's) from copies of ``payload``."""
    lean = discord.Interaction(data=copy.deepcopy(payload), state=state)  # type: ignore[arg-type]
    with discord_messages():
        whole = discord.Interaction(data=copy.deepcopy(payload), state=state)  # type: ignore[arg-type]
    return lean, whole


def _user(user: Any) -> Any:
    if user is None or user is discord.utils.MISSING:
        return user
    return (type(user).__name__, user.id, user.name, user.display_name, user.bot,
            getattr(getattr(user, "guild", None), "id", None))


def _channel(channel: Any) -> Any:
    if channel is None:
        return None
    return (type(channel).__name__, channel.id, channel.type, getattr(channel, "name", None),
            getattr(getattr(channel, "guild", None), "id", None),
            getattr(channel, "parent_id", None))


def interaction_view(interaction: Any) -> dict[str, Any]:
    """What is read of an interaction, its message aside (plain values)."""
    guild = interaction.guild
    return {
        "id": interaction.id, "type": interaction.type, "token": interaction.token,
        "application_id": interaction.application_id, "guild_id": interaction.guild_id,
        "guild": None if guild is None else (guild.id, guild.preferred_locale),
        "channel_id": interaction.channel_id, "channel": _channel(interaction.channel),
        "user": _user(interaction.user), "permissions": interaction.permissions.value,
        "app_permissions": interaction.app_permissions.value, "locale": interaction.locale,
        "guild_locale": interaction.guild_locale, "data": interaction.data,
        "context": (interaction.context.guild, interaction.context.dm_channel,
                    interaction.context.private_channel),
        "guild_integration": interaction.is_guild_integration(),
        "user_integration": interaction.is_user_integration(),
        "extras": interaction.extras, "entitlements": interaction.entitlement_sku_ids,
        "filesize_limit": interaction.filesize_limit,
        "has_message": interaction.message is not None,
    }


def _ids_in(components: Any) -> list[str]:
    return [custom_id for _, custom_id in _types_in(components)]


def _types_in(components: Any) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            found.append((component.type.value, custom_id))
        inner = list(getattr(component, "children", None) or [])
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            inner.append(accessory)
        found.extend(_types_in(inner))
    return found


def read_view(message: Any) -> dict[str, Any]:
    """What the bot and discord.py's dispatch read of a clicked message."""
    return {
        "id": message.id, "flags": message.flags.value, "content": message.content,
        "guild": getattr(message.guild, "id", None), "channel": _channel(message.channel),
        "embeds": [embed.to_dict() for embed in message.embeds],
    }


def rest_view(message: Any) -> dict[str, Any]:
    """The rest of a message, read on demand."""
    metadata = message.interaction_metadata
    reference = message.reference
    return {
        "components": [component.to_dict() for component in message.components],
        "author": _user(message.author), "type": message.type,
        "created_at": message.created_at, "edited_at": message.edited_at,
        "jump_url": message.jump_url, "webhook_id": message.webhook_id,
        "application_id": message.application_id, "pinned": message.pinned,
        "tts": message.tts, "mention_everyone": message.mention_everyone,
        "mentions": [user.id for user in message.mentions],
        "raw_mentions": message.raw_mentions, "attachments": [a.id for a in message.attachments],
        "stickers": [s.id for s in message.stickers], "reactions": len(message.reactions),
        "metadata": None if metadata is None else (metadata.id, metadata.type, metadata.user.id),
        "reference": None if reference is None else (reference.message_id, reference.channel_id),
        "thread": getattr(message.thread, "id", None), "position": message.position,
        "clean_content": message.clean_content, "system_content": message.system_content,
    }


def differences(payload: dict[str, Any], state: Any) -> list[str]:
    """How the bot's interaction of ``payload`` differs from discord.py's (empty: none)."""
    lean, whole = both(payload, state)
    out: list[str] = []

    def compare(what: str, mine: Any, theirs: Any) -> None:
        if mine != theirs:
            out.append(f"{what}: {mine!r} != {theirs!r}")

    for key, value in interaction_view(whole).items():
        compare(f"interaction.{key}", interaction_view(lean)[key], value)
    if whole.message is None:
        compare("message", lean.message, None)
        return out
    mine, theirs = lean.message, whole.message
    if not isinstance(mine, ClickedMessage):
        return [*out, f"message is a {type(mine).__name__}, not a ClickedMessage"]
    for key, value in read_view(theirs).items():
        compare(f"message.{key}", read_view(mine)[key], value)
    compare("message.custom_ids()", mine.custom_ids(), _ids_in(theirs.components))
    for component_type, custom_id in _types_in(theirs.components):
        found = mine.component(component_type, custom_id)
        expected = clicked(theirs.components, component_type, custom_id)
        compare(f"message.component({component_type}, {custom_id!r})",
                None if found is None else found.to_dict(),
                None if expected is None else expected.to_dict())
    compare("message.component(absent)", mine.component(2, "tb:absent"), None)
    for key, value in rest_view(theirs).items():
        compare(f"message.{key}", rest_view(mine)[key], value)
    return out
