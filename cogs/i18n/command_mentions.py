"""Slash commands named in texts as Discord command mentions: ``</game new:123>``.

Discord shows a mention as the command's name in the reader's client language, and a click
on it fills the command in. A text names a command by a field (``{game_new_command}``,
:data:`COMMAND_FIELDS`) that :func:`command_fields` fills: a mention once the ids of the
registered commands are known (:func:`remember`, from the client's sync or its fetch of the
commands at start), else the command's name as the catalogs translate it for Discord
(``/partida nueva`` in Spanish, ``/game new`` in English, Albanian and Gujarati, whose
Discord clients show the English names).
"""

from __future__ import annotations

from collections.abc import Iterable

import discord
from discord import app_commands

from cogs.i18n.words import Words

# field -> the command's path (its English names, as registered)
COMMAND_FIELDS: dict[str, str] = {
    "game_new_command": "game new",
    "game_status_command": "game status",
    "config_command": "config",
    "leaderboard_command": "leaderboard",
    "rules_command": "rules",
    "learn_command": "learn",
}

# The process's registered commands: top-level name -> id (one application per process).
_IDS: dict[str, int] = {}


def remember(commands: Iterable[app_commands.AppCommand]) -> None:
    """Keep the ids of the registered chat-input commands (from ``tree.sync()`` or
    ``tree.fetch_commands()``)."""
    for command in commands:
        if command.type is discord.AppCommandType.chat_input:
            _IDS[command.name] = command.id


def forget() -> None:
    """Drop the known ids (a test starts from none)."""
    _IDS.clear()


def mention(words: Words, path: str) -> str:
    """``path`` (``"game new"``) as a mention, or as its name in ``words``' language."""
    known = _IDS.get(path.split()[0])
    if known is not None:
        return f"</{path}:{known}>"
    return "/" + " ".join(words.pgettext("command-name", part) for part in path.split())


def command_fields(words: Words) -> dict[str, str]:
    """Every field of :data:`COMMAND_FIELDS`, filled for ``words``' reader."""
    return {field: mention(words, path) for field, path in COMMAND_FIELDS.items()}
