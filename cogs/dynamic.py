"""DynamicItems: parse incoming custom_ids (scheme in ``cogs.game_ui``) and call the handlers.

They survive restarts because the bot registers them with ``add_dynamic_items`` in
``setup_hook``; the message's buttons are plain components with matching ids.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs import handlers
from cogs.components import (
    ACT_TEMPLATE,
    BACK_TEMPLATE,
    HAND_TEMPLATE,
    INFO_TEMPLATE,
    LOBBY_TEMPLATE,
    RULES_TEMPLATE,
    SELECT_TEMPLATE,
)

Interaction = discord.Interaction[Any]
Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]


class LobbyButton(discord.ui.DynamicItem[Button], template=LOBBY_TEMPLATE):
    def __init__(self, item: Button, action: str, session_id: int) -> None:
        super().__init__(item)
        self.action = action
        self.session_id = session_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(item, match["action"], int(match["sid"]))  # type: ignore[arg-type]

    async def callback(self, interaction: Interaction) -> None:
        await handlers.lobby_click(interaction, self.action, self.session_id)


class ActButton(discord.ui.DynamicItem[Button], template=ACT_TEMPLATE):
    def __init__(self, item: Button, session_id: int, version: int, payload: str) -> None:
        super().__init__(item)
        self.session_id = session_id
        self.version = version
        self.payload = payload

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActButton:
        return cls(item, int(match["sid"]), int(match["version"]), match["payload"])  # type: ignore[arg-type]

    async def callback(self, interaction: Interaction) -> None:
        await handlers.act_click(interaction, self.session_id, self.version, self.payload, [])


class ActSelect(discord.ui.DynamicItem[Select], template=SELECT_TEMPLATE):
    def __init__(self, item: Select, session_id: int, version: int, payload: str) -> None:
        super().__init__(item)
        self.session_id = session_id
        self.version = version
        self.payload = payload

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActSelect:
        return cls(item, int(match["sid"]), int(match["version"]), match["payload"])  # type: ignore[arg-type]

    async def callback(self, interaction: Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(value) for value in data.get("values", [])]
        await handlers.act_click(
            interaction, self.session_id, self.version, self.payload, values
        )


class HandButton(discord.ui.DynamicItem[Button], template=HAND_TEMPLATE):
    def __init__(self, item: Button, session_id: int) -> None:
        super().__init__(item)
        self.session_id = session_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(item, int(match["sid"]))  # type: ignore[arg-type]

    async def callback(self, interaction: Interaction) -> None:
        await handlers.hand_click(interaction, self.session_id)


class RulesPageButton(discord.ui.DynamicItem[Button], template=RULES_TEMPLATE):
    def __init__(self, item: Button, game: str, page: int) -> None:
        super().__init__(item)
        self.game = game
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RulesPageButton:
        return cls(item, match["game"], int(match["page"]))  # type: ignore[arg-type]

    async def callback(self, interaction: Interaction) -> None:
        await handlers.rules_click(interaction, self.game, self.page)


class InfoButton(discord.ui.DynamicItem[Button], template=INFO_TEMPLATE):
    def __init__(self, item: Button, session_id: int, what: str) -> None:
        super().__init__(item)
        self.session_id = session_id
        self.what = what

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> InfoButton:
        return cls(item, int(match["sid"]), match["what"])  # type: ignore[arg-type]

    async def callback(self, interaction: Interaction) -> None:
        await handlers.info_click(interaction, self.session_id, self.what)


class BackButton(discord.ui.DynamicItem[Button], template=BACK_TEMPLATE):
    def __init__(self, item: Button, session_id: int) -> None:
        super().__init__(item)
        self.session_id = session_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BackButton:
        return cls(item, int(match["sid"]))  # type: ignore[arg-type]

    async def callback(self, interaction: Interaction) -> None:
        await handlers.back_click(interaction, self.session_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    ActButton,
    ActSelect,
    HandButton,
    RulesPageButton,
    BackButton,
    InfoButton,
)
