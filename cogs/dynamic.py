"""DynamicItems: parse incoming custom_ids (scheme in ``cogs.game_ui``) and call the handlers.

They survive restarts because the bot registers them with ``add_dynamic_items`` in
``setup_hook``; the message's buttons are plain components with matching ids.
"""

from __future__ import annotations

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
from cogs.dynamic_item import Interaction, ParsedItem


class LobbyButton(ParsedItem, template=LOBBY_TEMPLATE):
    async def run(self, interaction: Interaction) -> None:
        await handlers.lobby_click(interaction, self.fields["action"], self.session_id)


class ActButton(ParsedItem, template=ACT_TEMPLATE):
    async def run(self, interaction: Interaction) -> None:
        await handlers.act_click(
            interaction, self.session_id, int(self.fields["version"]), self.fields["payload"], []
        )


class ActSelect(ParsedItem, template=SELECT_TEMPLATE):
    async def run(self, interaction: Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(value) for value in data.get("values", [])]
        await handlers.act_click(
            interaction, self.session_id, int(self.fields["version"]), self.fields["payload"],
            values,
        )


class HandButton(ParsedItem, template=HAND_TEMPLATE):
    async def run(self, interaction: Interaction) -> None:
        await handlers.hand_click(interaction, self.session_id)


class RulesPageButton(ParsedItem, template=RULES_TEMPLATE):
    async def run(self, interaction: Interaction) -> None:
        await handlers.rules_click(interaction, self.fields["game"], int(self.fields["page"]))


class InfoButton(ParsedItem, template=INFO_TEMPLATE):
    async def run(self, interaction: Interaction) -> None:
        await handlers.info_click(interaction, self.session_id, self.fields["what"])


class BackButton(ParsedItem, template=BACK_TEMPLATE):
    async def run(self, interaction: Interaction) -> None:
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
