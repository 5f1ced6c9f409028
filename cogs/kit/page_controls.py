"""Page controls (rules, leaderboard and replay pages) edit only a message of their own kind.

A page control's click edits the message it is on. Discord sends the clicked message with the
click, and a forged interaction can pair any custom_id with any message of the channel: a
rules page control "clicked" on a running table would replace the table with the rules and
drop its buttons. So a page click first checks that every control on the message is a
control of that page (:func:`on_own_page`); otherwise the clicker gets :data:`NOT_THIS_MESSAGE`
and nothing is edited.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.process.lean_interactions import ClickedMessage
from cogs.i18n.messages import N_

NOT_THIS_MESSAGE = N_("That button does not belong to this message, so nothing was changed.")

Pattern = re.Pattern[str]


def controls_on(message: Any) -> list[str]:
    """The custom_ids of the components on ``message`` (a ``discord.Message`` or None), in
    its action rows or nested in a Components V2 card (containers, sections)."""
    if message is None:
        return []
    if isinstance(message, ClickedMessage):  # from the payload (bot.process.lean_interactions)
        return message.custom_ids()
    found: list[str] = []
    _collect(getattr(message, "components", None) or [], found)
    return found


def _collect(components: Any, found: list[str]) -> None:
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            found.append(custom_id)
        _collect(getattr(component, "children", None) or [], found)
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            _collect([accessory], found)


def on_own_page(message: Any, templates: tuple[Pattern, ...], *, ephemeral: bool,
                belongs: Callable[[re.Match[str]], bool] = lambda match: True) -> bool:
    """Whether ``message`` is private (``ephemeral``: rules and replay pages) or public (a
    leaderboard) as the page is, has controls, and each of them is one of ``templates`` (the
    page's own kinds) for which ``belongs(match)`` holds (e.g. the same game's replay)."""
    flags = getattr(message, "flags", None)
    if bool(getattr(flags, "ephemeral", False)) is not ephemeral:
        return False
    ids = controls_on(message)
    if not ids:
        return False
    for custom_id in ids:
        match = next((m for t in templates if (m := t.fullmatch(custom_id)) is not None), None)
        if match is None or not belongs(match):
            return False
    return True


async def is_game_message(interaction: Any) -> bool:
    """Whether the clicked message is the table or turn ping of the channel's live game, or
    the final post or last table of a finished game (their ids are stored): public messages a
    leaderboard page must never replace, whatever controls the click claims they carry."""
    message = interaction.message
    if message is None:
        return False
    if is_live_table(interaction):
        return True
    is_final: bool = await interaction.client.manager.store.is_final_post(message.id)
    return is_final


def is_live_table(interaction: Any) -> bool:
    """Whether the clicked message is the table or the turn ping of the channel's live game
    (public messages a leaderboard page must never replace, whatever controls the click
    claims they carry)."""
    message = interaction.message
    session = interaction.client.manager.in_channel(interaction.channel_id or 0)
    return (message is not None and session is not None
            and message.id in (session.table_message_id, session.ping_message_id))
