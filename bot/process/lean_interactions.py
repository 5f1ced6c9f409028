"""A gateway INTERACTION_CREATE parsed only as far as the bot reads it (issue 42).

Every click arrives as an INTERACTION_CREATE carrying the whole clicked message (its author,
embeds, mentions and every component of a Components V2 card). discord.py's
``Interaction._from_data`` turns it into a ``discord.Message`` at once: about 3.4 % of the
event loop's CPU (cumulative) per stored TEN action, half of it the card's components made into
``discord.components`` objects (``python -m bench.action_cpu --calls``). What the bot reads of
the clicked message is its ``id`` (the view store, the token writes, the routes of public
messages), its ``flags`` (ephemeral or not), its custom ids (a control acts only on its own
table, ``cogs.kit.page_controls.controls_on``; the clicked component, ``bot.process.
lean_dispatch``), and on a turn ping's click its ``content`` and whether it has ``embeds``.

Here the interaction's message is a :class:`ClickedMessage`: a ``discord.Message`` made with
``id``, ``channel``, ``guild``, ``flags`` and ``content`` set from the payload and the rest
left to be read on demand: ``components`` and ``embeds`` are parsed (by discord.py's own
code) the first time they are read, and reading any other attribute completes the message
with discord.py's ``Message.__init__`` on the same payload, so any reader gets what
discord.py would have given it. The custom ids and the clicked component are read from the
payload's component dicts (:meth:`ClickedMessage.custom_ids`,
:meth:`ClickedMessage.component`), making only the clicked component.

Besides: :func:`heard` says whether a gateway event has a listener at all; the client does
not dispatch one nobody listens to (``socket_event_type`` at every gateway frame and
``interaction`` at every interaction are listened to by nobody here: discord.py looks each
up anew, ``TableBot.dispatch``).

Uses discord.py internals: ``discord.interactions.Message`` (the name ``Interaction._from_data``
builds the clicked message with; :func:`install` points it at :class:`ClickedMessage`),
``Message.__init__``, ``Message._handle_components`` and ``discord.components.
_component_factory``; ``tests/bot/test_lean_interactions.py`` fails when their shape
changes, and compares each interaction with discord.py's own on payloads of every place a
click comes from (guild channel, thread, DM, group DM, a server that never invited the bot).

Installed once, by ``bot.process.client`` (the process's one client).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
import discord.interactions
from discord.components import _component_factory

_INSTALLED = "__tablebot_lean_interactions__"
# Component types whose children are read (discord.py parses the children of these alone):
# an action row, a section (its accessory too), a container.
ACTION_ROW, SECTION, CONTAINER = 1, 9, 17
_NESTING = frozenset({ACTION_ROW, SECTION, CONTAINER})


class ClickedMessage(discord.Message):
    """The message an interaction came from, made as far as it is read (see the module)."""

    __slots__ = ("_payload", "_whole")

    def __init__(self, *, state: Any, channel: Any, data: Any) -> None:
        self._state = state
        self._payload: dict[str, Any] = data
        self._whole = False
        self.channel = channel
        self.id = int(data["id"])
        data["type"]  # as Message.__init__: without a type there is no message (KeyError)
        self.flags = discord.MessageFlags._from_value(data.get("flags", 0))
        self.content = data["content"]
        # As discord.py's Message.__init__: the channel's guild, else the payload's (the
        # interaction then gives it its own guild when it has one, as for a Message).
        try:
            self.guild = channel.guild
        except AttributeError:
            self.guild = state._get_guild(discord.utils._get_as_snowflake(data, "guild_id"))

    def __getattr__(self, name: str) -> Any:
        # Called only for an attribute not set yet (a slot left empty).
        if name.startswith("__") or name.startswith("_cs_"):
            # Cached properties compute their value when the slot is empty: their own
            # reads complete the message when they need it.
            raise AttributeError(name)
        if name == "components":
            self._handle_components(self._payload.get("components", []))
            return self.components
        if name == "embeds":
            self.embeds = [discord.Embed.from_dict(embed)
                           for embed in self._payload.get("embeds", [])]
            return self.embeds
        if self._whole:
            raise AttributeError(name)
        self.complete()
        return object.__getattribute__(self, name)

    def complete(self) -> None:
        """Make the rest of the message, as discord.py's ``Message.__init__`` does (the guild
        the interaction gave it is kept)."""
        if self._whole:
            return
        guild = self.guild
        discord.Message.__init__(self, state=self._state, channel=self.channel,
                                 data=self._payload)  # type: ignore[arg-type]
        self._whole = True
        if self.guild is None:
            self.guild = guild

    def custom_ids(self) -> list[str]:
        """The custom ids of the message's components, nested ones included, in order (what
        walking ``components`` gives), read from the payload."""
        found: list[str] = []
        _collect(self._payload.get("components") or (), found)
        return found

    def component(self, component_type: int, custom_id: str) -> Any | None:
        """The ``discord.components`` object of the component of type ``component_type`` with
        ``custom_id`` (None when the message has none): that one component is made."""
        data = _find(self._payload.get("components") or (), component_type, custom_id)
        return None if data is None else _component_factory(data)  # type: ignore[arg-type]


# The walks below are written for the interpreter: a call per nesting level, not per
# component, and no method call per key (membership tests and subscripts instead).

def _collect(components: Iterable[dict[str, Any]], found: list[str]) -> None:
    """Append the custom ids in ``components`` and in those nested in them, depth first in
    their order (a section's children before its accessory), as discord.py's parsed
    ``children`` are walked."""
    for data in components:
        if "custom_id" in data:
            custom_id = data["custom_id"]
            if type(custom_id) is str:
                found.append(custom_id)
        if data["type"] in _NESTING:
            if "components" in data:
                _collect(data["components"], found)
            if "accessory" in data:
                _collect((data["accessory"],), found)


def _find(components: Iterable[dict[str, Any]], component_type: int,
          custom_id: str) -> dict[str, Any] | None:
    """The first component of ``components`` and those nested in them (in :func:`_collect`'s
    order) of type ``component_type`` with ``custom_id``; None when there is none."""
    for data in components:
        if "custom_id" in data and data["custom_id"] == custom_id \
                and data["type"] == component_type:
            return data
        if data["type"] in _NESTING:
            if "components" in data:
                found = _find(data["components"], component_type, custom_id)
                if found is not None:
                    return found
            if "accessory" in data:
                found = _find((data["accessory"],), component_type, custom_id)
                if found is not None:
                    return found
    return None


def heard(client: Any, event: str) -> bool:
    """Whether ``client`` (a ``commands.Bot``) has a listener of ``event``: a waiter
    (``wait_for``), an extra listener (cogs, ``add_listener``) or an ``on_`` method of its
    own (``Client.dispatch`` then ``Bot.dispatch`` look for exactly these)."""
    method = "on_" + event
    return bool(client._listeners.get(event) or client.extra_events.get(method)
                or hasattr(client, method))


def install() -> None:
    """Interactions are made with :class:`ClickedMessage` (idempotent)."""
    if getattr(discord.interactions, _INSTALLED, False):
        return
    discord.interactions.Message = ClickedMessage  # type: ignore[misc]
    setattr(discord.interactions, _INSTALLED, True)
