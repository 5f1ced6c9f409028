"""What a table control's click may carry and what it calls.

The closed vocabularies of the controls' ids (what an info button shows, what a lobby button
or a host's select does, which replay button) and :class:`TableClicks`, the click handlers
(``cogs.clicks.table_clicks``) as the controls of ``cogs.kit.custom_ids`` see them. The services
(``cogs.table_services``)
hold the handlers; the controls reach them with :func:`clicks_of`, which asks only for the
handlers, so ``cogs.kit.custom_ids`` stays below every module that draws a control.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

import discord

from bot.process.client import TableBot

Interaction = discord.Interaction[Any]


class InfoKind(StrEnum):
    """What an info button shows (``tb:info:{session}:{kind}``)."""

    TABLE = "table"
    RULES = "rules"
    SCORES = "scores"
    LOG = "log"


class HostTool(StrEnum):
    """What a lobby's host select does (``tb:host:{tool}:{session}``)."""

    REMOVE = "remove"  # take a seated player's seat away
    PASS = "pass"  # pass the host role


class LobbyAction(StrEnum):
    """What a lobby button does (``tb:lobby:{action}:{session}``)."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    BOT_EASY = "bot-easy"
    BOT_NORMAL = "bot-normal"
    BOT_EXPERT = "bot-expert"
    UNBOT = "unbot"
    HINTS = "hints"  # the host turns hints on or off


class ReplayTag(StrEnum):
    """Which replay button (``tb:rp:{session}:{step}:{tag}``), or review button
    (``tb:rv:{session}:{page}:{tag}``)."""

    OPEN = "o"
    FIRST = "f"
    PREVIOUS = "p"
    NEXT = "n"
    LAST = "l"


class TableClicks(Protocol):
    """What a table control's click calls (``cogs.clicks.table_clicks`` is one)."""

    async def act_click(self, interaction: Interaction, session_id: int, version: int,
                        payload: str, values: Sequence[str] | None) -> None: ...

    async def hand_click(self, interaction: Interaction, session_id: int) -> None: ...

    async def info_click(self, interaction: Interaction, session_id: int,
                         what: InfoKind) -> None: ...

    async def back_click(self, interaction: Interaction, session_id: int) -> None: ...

    async def hint_click(self, interaction: Interaction, session_id: int,
                         version: int) -> None: ...

    async def lobby_click(self, interaction: Interaction, action: LobbyAction,
                          session_id: int) -> None: ...

    async def rules_click(self, interaction: Interaction, game: str, page: int) -> None: ...

    async def host_select(self, interaction: Interaction, tool: HostTool, session_id: int,
                          values: Sequence[str]) -> None: ...

    async def replay_click(self, interaction: Interaction, session_id: int, step: int,
                           fresh: bool) -> None: ...

    async def review_click(self, interaction: Interaction, session_id: int, page: int,
                           fresh: bool) -> None: ...

    async def rematch_click(self, interaction: Interaction, session_id: int) -> None: ...


@runtime_checkable
class HoldsClicks(Protocol):
    """Services that hold the click handlers (``cogs.table_services.TableServices`` does)."""

    @property
    def clicks(self) -> TableClicks: ...


def clicks_of(client: TableBot) -> TableClicks:
    """The click handlers of ``client`` (set up by the table extension)."""
    services = client.services
    if not isinstance(services, HoldsClicks):
        raise RuntimeError("the table extension (cogs.table_extension) is not loaded")
    return services.clicks
