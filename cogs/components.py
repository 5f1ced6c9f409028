"""Builders for every component the bot sends; the custom_id scheme is documented in
``cogs.game_ui``. Incoming clicks are parsed by the DynamicItems in ``cogs.dynamic``.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.models import Session

MAX_CUSTOM_ID = 100

ACT_TEMPLATE = r"tb:act:(?P<sid>[0-9]+):(?P<version>[0-9]+):(?P<payload>.*)"
SELECT_TEMPLATE = r"tb:sel:(?P<sid>[0-9]+):(?P<version>[0-9]+):(?P<payload>.*)"
HAND_TEMPLATE = r"tb:hand:(?P<sid>[0-9]+)"
LOBBY_TEMPLATE = (
    r"tb:lobby:(?P<action>join|leave|start|cancel|bot-easy|bot-normal|unbot):(?P<sid>[0-9]+)"
)
BACK_TEMPLATE = r"tb:back:(?P<sid>[0-9]+)"
RULES_TEMPLATE = r"tb:rules:(?P<game>[a-z0-9_]+):(?P<page>[0-9]+):(?P<dir>[pn])"
INFO_TEMPLATE = r"tb:info:(?P<sid>[0-9]+):(?P<what>table|rules|scores)"

LOBBY_ACTIONS: tuple[tuple[str, str, discord.ButtonStyle], ...] = (
    ("join", "Join", discord.ButtonStyle.primary),
    ("leave", "Leave", discord.ButtonStyle.secondary),
    ("start", "Start", discord.ButtonStyle.success),
    ("cancel", "Cancel", discord.ButtonStyle.danger),
)
# The host's bot seat buttons, on the lobby's second row.
LOBBY_BOT_ACTIONS: tuple[tuple[str, str], ...] = (
    ("bot-easy", "Add bot (easy)"),
    ("bot-normal", "Add bot (normal)"),
    ("unbot", "Remove bot"),
)


def checked_id(custom_id: str) -> str:
    """``custom_id``, or ValueError when Discord would refuse it as too long."""
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID} characters: {custom_id!r}")
    return custom_id


def act_id(session: Session, payload: str) -> str:
    return checked_id(f"tb:act:{session.id}:{session.version}:{payload}")


def select_id(session: Session, payload: str) -> str:
    return checked_id(f"tb:sel:{session.id}:{session.version}:{payload}")


def act_button(
    session: Session,
    payload: str,
    *,
    label: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Button[discord.ui.View]:
    """A game button bound to the session's current version."""
    return discord.ui.Button(
        custom_id=act_id(session, payload), label=label, style=style, emoji=emoji,
        disabled=disabled, row=row,
    )


def act_select(
    session: Session,
    payload: str,
    options: Sequence[discord.SelectOption],
    *,
    placeholder: str | None = None,
    min_values: int = 1,
    max_values: int = 1,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Select[discord.ui.View]:
    """A game select menu bound to the session's current version (at most 25 options)."""
    return discord.ui.Select(
        custom_id=select_id(session, payload), options=list(options), placeholder=placeholder,
        min_values=min_values, max_values=max_values, disabled=disabled, row=row,
    )


def hand_button(session: Session, *, label: str = "My hand") -> discord.ui.Button[discord.ui.View]:
    """The public table's button that shows the clicker their private view."""
    return discord.ui.Button(
        custom_id=f"tb:hand:{session.id}", label=label, style=discord.ButtonStyle.primary
    )


def info_button(
    session: Session, what: str, *, label: str
) -> discord.ui.Button[discord.ui.View]:
    """A table button for anyone in the channel, seated or not, answered ephemeral: ``what``
    is ``table`` (a copy of the table), ``rules`` (the game's rules) or ``scores`` (the
    GameUI's :class:`cogs.game_ui.ShowsScores` sheet)."""
    return discord.ui.Button(custom_id=checked_id(f"tb:info:{session.id}:{what}"), label=label)


def lobby_view(session: Session) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action, label, style in LOBBY_ACTIONS:
        view.add_item(
            discord.ui.Button(custom_id=f"tb:lobby:{action}:{session.id}", label=label, style=style)
        )
    has_bots = session.has_bots
    for action, label in LOBBY_BOT_ACTIONS:
        view.add_item(discord.ui.Button(
            custom_id=f"tb:lobby:{action}:{session.id}", label=label, row=1,
            disabled=action == "unbot" and not has_bots,
        ))
    return view


def back_button(session: Session) -> discord.ui.Button[discord.ui.View]:
    """The "I'm back" button: an away player takes their seat back from the bot."""
    return discord.ui.Button(
        custom_id=f"tb:back:{session.id}", label="I'm back", style=discord.ButtonStyle.success
    )


def rules_view(game: str, page: int, pages: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(
        custom_id=f"tb:rules:{game}:{max(page - 1, 0)}:p", label="Previous",
        disabled=page <= 0,
    ))
    view.add_item(discord.ui.Button(
        custom_id=f"tb:rules:{game}:{min(page + 1, pages - 1)}:n", label="Next",
        disabled=page >= pages - 1,
    ))
    return view
