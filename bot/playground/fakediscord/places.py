"""Where a user-installed app is used: DMs, group DMs, and servers that never invited the bot.

Discord lets a person install an app to their own account and use it wherever the command's
``contexts`` allow: in servers (context 0, ``GUILD``), in the DM with the app's bot (1,
``BOT_DM``) and in other DMs and group DMs (2, ``PRIVATE_CHANNEL``); an interaction says
where it came from in ``context`` and who installed what made it possible in
``authorizing_integration_owners`` (``"0"``: the guild that installed the app, ``"1"``: the
user who did)
(https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-context-types,
"Authorizing Integration Owners Object";
https://discord.com/developers/docs/resources/application#installation-context).

What the stand-in models of it:

* a group DM (:data:`GROUP_DM`, channel type 3) of some users, one of whom installed the app;
  the bot is not a recipient. Only the installer may run the app's slash commands there, and
  only commands declaring user install (``integration_types`` 1) and ``contexts`` 2; anyone in
  it may click the app's components, and each click's ``authorizing_integration_owners`` is
  the installer's (as the command that made the message);
* the DM of a user with the bot (:data:`DM`, type 1, context 1);
* a text channel of a server the bot was never invited to (:func:`add_foreign_guild`), where
  only users who installed the app can run it (context 0, owners ``{"1": user}``);
* the channel routes of a place the bot is not in answered 403 Missing Access (code 50001) as
  Discord answers them, and no gateway message events from it;
* at most :data:`USER_APP_FOLLOWUPS` follow-ups per interaction where only a user installed
  the app ("Apps are limited to 5 followup messages per interaction if it was initiated from a
  user-installed app and isn't installed in the server":
  https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages),
  the next answered 400 with code 40094.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.playground.fakediscord.model import FakeChannel, FakeUser

DM, GROUP_DM = 1, 3  # channel types
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1
USER_APP_FOLLOWUPS = 5
MISSING_ACCESS = 50001
TOO_MANY_FOLLOWUPS = 40094


@dataclass(frozen=True)
class Place:
    """A channel where the bot is there only through a user's install (or a DM with it).

    ``installer``: who installed the app for this place (a DM's user); ``members``: who is in
    it (a foreign server: every user); ``bot_member``: whether the bot can use channel routes
    there (a DM with the bot)."""

    channel_id: int
    kind: int  # DM, GROUP_DM, or 0: a text channel of a foreign server
    installer: int
    members: tuple[int, ...]
    bot_member: bool = False
    guild_id: int | None = None  # a foreign server's id

    @property
    def context(self) -> int:
        if self.kind == DM:
            return BOT_DM_CONTEXT
        if self.kind == GROUP_DM:
            return PRIVATE_CHANNEL_CONTEXT
        return GUILD_CONTEXT


def places_of(world: Any) -> dict[int, Place]:
    """The world's places by channel id (made on first use: the world knows nothing of them)."""
    found: dict[int, Place] | None = getattr(world, "user_places", None)
    if found is None:
        found = {}
        world.user_places = found
    return found


def foreign_guilds(world: Any) -> set[int]:
    found: set[int] | None = getattr(world, "foreign_guild_ids", None)
    if found is None:
        found = set()
        world.foreign_guild_ids = found
    return found


def place_of(world: Any, channel_id: int) -> Place | None:
    return places_of(world).get(channel_id)


def add_group_dm(world: Any, name: str, installer: FakeUser, *others: FakeUser) -> FakeChannel:
    """A group DM of ``installer`` (who installed the app) and ``others``; the bot is not in
    it."""
    channel = FakeChannel(world.ids.next(), name, position=len(world.channels), guild_id=0)
    world.channels[channel.id] = channel
    members = (installer.id, *(u.id for u in others))
    places_of(world)[channel.id] = Place(channel.id, GROUP_DM, installer.id, members)
    return channel


def add_dm(world: Any, user: FakeUser) -> FakeChannel:
    """The DM of ``user`` with the bot (``user`` installed the app)."""
    channel = FakeChannel(world.ids.next(), f"dm-{user.name}", position=len(world.channels),
                          guild_id=0)
    world.channels[channel.id] = channel
    places_of(world)[channel.id] = Place(channel.id, DM, user.id, (user.id,), bot_member=True)
    return channel


def add_foreign_guild(world: Any, name: str, channel_name: str,
                      installers: tuple[FakeUser, ...]) -> FakeChannel:
    """A server that never invited the bot (not in READY, no GUILD_CREATE), with one text
    channel; ``installers`` installed the app to their accounts."""
    guild_id = world.ids.next()
    foreign_guilds(world).add(guild_id)
    channel = FakeChannel(world.ids.next(), channel_name, position=0, guild_id=guild_id)
    world.channels[channel.id] = channel
    installed = tuple(u.id for u in installers)
    places_of(world)[channel.id] = Place(channel.id, 0, installed[0] if installed else 0,
                                         tuple(world.users), guild_id=guild_id)
    world.foreign_installers = {**getattr(world, "foreign_installers", {}),
                                channel.id: set(installed)}
    world.foreign_guild_names = {**getattr(world, "foreign_guild_names", {}), guild_id: name}
    return channel


def refused_channel(world: Any, channel_id: int) -> bool:
    """Whether the bot's channel routes there answer 403 Missing Access."""
    place = place_of(world, channel_id)
    return place is not None and not place.bot_member


def channel_json(world: Any, channel: FakeChannel) -> dict[str, Any] | None:
    """A DM's or group DM's channel object (None: not such a place)."""
    place = place_of(world, channel.id)
    if place is None or place.kind not in (DM, GROUP_DM):
        return None
    recipients = [world.user_json(world.users[m]) for m in place.members if m in world.users]
    data: dict[str, Any] = {"id": str(channel.id), "type": place.kind, "last_message_id": None,
                            "flags": 0, "recipients": recipients}
    if place.kind == GROUP_DM:
        data.update(name=channel.name, icon=None, owner_id=str(place.installer))
    return data


def check_command(world: Any, place: Place, user: FakeUser, command: dict[str, Any]) -> None:
    """Refuse (PermissionError) what Discord's client would not offer: a server's command
    (synced to one guild) outside that server, a command that does not declare user install
    and this context, or one run by someone who did not install the app."""
    scope = command.get("guild_id")
    if scope is not None and (place.kind != 0 or str(place.guild_id) != str(scope)):
        raise PermissionError(f"/{command['name']} is a command of server {scope} only")
    if place.kind == 0:
        allowed = getattr(world, "foreign_installers", {}).get(place.channel_id, set())
        if user.id not in allowed:
            raise PermissionError(f"{user.name} did not install the app: no commands here")
    elif place.kind == GROUP_DM and user.id != place.installer:
        raise PermissionError(f"only the installer may run /{command['name']} in a group DM")
    installs = command.get("integration_types") or [GUILD_INSTALL]
    contexts = command.get("contexts") or [GUILD_CONTEXT, BOT_DM_CONTEXT]
    if USER_INSTALL not in installs or place.context not in contexts:
        raise PermissionError(
            f"/{command['name']} declares installs {installs} and contexts {contexts}:"
            f" not usable in context {place.context} by a user install")


def adjust_payload(world: Any, payload: dict[str, Any], place: Place, user: FakeUser,
                   channel: FakeChannel) -> int | None:
    """Make ``payload`` (an INTERACTION_CREATE built for a server) one from ``place``; the
    guild id the gateway routes it by (None: a DM's, which goes to shard 0)."""
    payload["context"] = place.context
    payload["authorizing_integration_owners"] = {str(USER_INSTALL): str(place.installer)}
    if place.kind == 0:
        owners = getattr(world, "foreign_installers", {}).get(channel.id, set())
        if user.id in owners:
            payload["authorizing_integration_owners"] = {str(USER_INSTALL): str(user.id)}
        guild_id = place.guild_id
        payload["guild_id"] = str(guild_id)
        payload["guild"] = {"id": str(guild_id), "locale": "en-US", "features": []}
        payload["app_permissions"] = str(USER_APP_PERMISSIONS)
        return guild_id
    for key in ("guild_id", "guild", "member", "guild_locale"):
        payload.pop(key, None)
    payload["user"] = world.user_json(user)
    payload["channel"] = channel_json(world, channel)
    payload["app_permissions"] = str(USER_APP_PERMISSIONS)
    if place.kind == DM:
        payload["authorizing_integration_owners"] = {str(USER_INSTALL): str(user.id)}
    return None


# What an app is allowed where only a user installed it: send messages, embed links, attach
# files, read history, use external emojis (answers and follow-ups; no channel access).
USER_APP_PERMISSIONS = (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 18)


def user_app_only(payload: dict[str, Any]) -> bool:
    """Whether an interaction was made possible only by a user's install (no guild install):
    its follow-ups are limited to :data:`USER_APP_FOLLOWUPS`."""
    owners = payload.get("authorizing_integration_owners") or {}
    return str(GUILD_INSTALL) not in owners
