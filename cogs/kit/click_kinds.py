"""What a table control's click may carry: the closed vocabularies of the controls' ids (what
an info button shows, what a lobby button or a host's select does, which replay button)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import discord

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
    # A replay step too long for one card (4,000 characters) shows its hands on a page of
    # their own: HANDS opens it, TABLE goes back to the step's table.
    HANDS = "h"
    TABLE = "t"
