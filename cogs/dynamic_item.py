"""The base of every component the bot answers after a restart (``DynamicItem``).

A subclass names its ``template`` (a regular expression with named groups) and implements
``run``; the groups of the matched custom_id are in ``self.fields``. discord.py only logs an
exception raised by a DynamicItem's callback, so ``callback`` answers the user here
(``cogs.unexpected``) instead of leaving them with "The application did not respond".
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from cogs.unexpected import answer_unexpected

Interaction = discord.Interaction[Any]

# The base class is never registered; its own template matches no custom_id.
_MATCHES_NOTHING = r"(?!)"


class ParsedItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=_MATCHES_NOTHING):
    def __init__(self, item: discord.ui.Item[Any], fields: dict[str, str]) -> None:
        super().__init__(item)
        self.fields = fields

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(item, match.groupdict())

    @property
    def session_id(self) -> int:
        return int(self.fields["sid"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            await self.run(interaction)
        except Exception as error:
            await answer_unexpected(interaction, error, f"component {self.custom_id!r}")

    async def run(self, interaction: Interaction) -> None:
        raise NotImplementedError
