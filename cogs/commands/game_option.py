"""The ``game`` option of the slash commands: its declaration and its autocomplete."""

from __future__ import annotations

from collections.abc import Mapping

from discord import app_commands

# A game key is a short word ("split", "ten"); Discord refuses anything longer before it
# reaches the bot. Declared on every command that takes a game.
GAME_OPTION_MAX = 32
GameOption = app_commands.Range[str, 1, GAME_OPTION_MAX]


def game_choices(titles: Mapping[str, str], typed: str) -> list[app_commands.Choice[str]]:
    """The games (key -> title) whose key or title contains what the user typed so far."""
    typed = typed.lower()
    return [
        app_commands.Choice(name=title, value=key)
        for key, title in titles.items()
        if typed in key or typed in title.lower()
    ]
