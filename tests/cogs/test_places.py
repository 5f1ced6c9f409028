"""Where an interaction came from (``cogs.kit.places``, issue 39): the place its results count
in, and whether the bot can write in its channel."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cogs.kit.places import CONTEXTS, INSTALLS, place_id, tokens_only


def interaction(guild_id: int | None, channel_id: int, *, guild_install: bool) -> SimpleNamespace:
    return SimpleNamespace(guild_id=guild_id, channel_id=channel_id,
                           is_guild_integration=lambda: guild_install)


@pytest.mark.parametrize(("guild_id", "guild_install", "place", "tokens"), [
    (10, True, 10, False),  # a server that invited the bot
    (10, False, 10, True),  # a server where only a member installed the app: still one place
    (None, False, 99, True),  # a DM or a group DM: a place of its own, its channel
])
def test_the_place_and_the_reach(guild_id: int | None, guild_install: bool, place: int,
                                 tokens: bool) -> None:
    ia = interaction(guild_id, 99, guild_install=guild_install)
    assert place_id(ia) == place  # type: ignore[arg-type]
    assert tokens_only(ia) is tokens  # type: ignore[arg-type]


def test_commands_declare_both_installs_and_every_context() -> None:
    assert INSTALLS.to_array() == [0, 1]
    assert CONTEXTS.to_array() == [0, 1, 2]
