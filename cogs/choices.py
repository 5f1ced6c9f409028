"""Autocomplete for the ``game`` option of the slash commands."""

from __future__ import annotations

from collections.abc import Mapping

from discord import app_commands


def game_choices(titles: Mapping[str, str], typed: str) -> list[app_commands.Choice[str]]:
    """The games (key -> title) whose key or title contains what the user typed so far."""
    typed = typed.lower()
    return [
        app_commands.Choice(name=title, value=key)
        for key, title in titles.items()
        if typed in key or typed in title.lower()
    ]
