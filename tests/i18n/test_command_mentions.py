"""Commands named in texts: Discord mentions once the registration's ids are known, the
command's name in the reader's language before."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import cast

import discord
import pytest
from discord import app_commands

from bot.records import errors
from cogs.i18n import Language, command_mentions, words_for
from cogs.i18n.catalog_check import forms, placeholders
from cogs.i18n.catalogs import TEMPLATE_PATH, read_catalog
from cogs.i18n.command_mentions import COMMAND_FIELDS, command_fields, mention, remember
from cogs.kit.refusal_texts import refusal_text


@pytest.fixture(autouse=True)
def no_ids() -> Iterator[None]:
    command_mentions.forget()
    yield
    command_mentions.forget()


def registered(name: str, command_id: int, kind: int = 1) -> app_commands.AppCommand:
    """What ``tree.sync()`` returns for one command (the fields read here)."""
    return cast(app_commands.AppCommand, SimpleNamespace(
        name=name, id=command_id, type=discord.AppCommandType(kind)))


def test_before_the_ids_are_known_a_command_is_its_name_in_the_readers_language() -> None:
    assert mention(words_for(Language.EN), "game new") == "/game new"
    assert mention(words_for(Language.ES), "game new") == "/partida nueva"
    assert mention(words_for(Language.GU), "game new") == "/game new"  # Discord shows English
    said = refusal_text(words_for(Language.ES), errors.Refusal(errors.NO_GAME))
    assert said == "No hay ninguna partida en este canal. Abre una con /partida nueva."


def test_once_registered_a_command_is_a_mention_with_its_id() -> None:
    remember([registered("game", 1234), registered("config", 99), registered("leaderboard", 55),
              registered("rules", 12), registered("learn", 13),
              registered("Report", 7, kind=3)])  # a context-menu command is no slash command
    for language in Language:
        fields = command_fields(words_for(language))
        assert fields == {"game_new_command": "</game new:1234>",
                          "game_status_command": "</game status:1234>",
                          "config_command": "</config:99>",
                          "leaderboard_command": "</leaderboard:55>",
                          "rules_command": "</rules:12>",
                          "learn_command": "</learn:13>"}
    said = refusal_text(words_for(Language.SQ), errors.Refusal(errors.NO_GAME))
    assert said == "Nuk ka lojë në këtë kanal. Hapni një me </game new:1234>."


def test_every_command_field_of_the_template_is_known() -> None:
    used = {
        field
        for message in read_catalog(TEMPLATE_PATH) if message.id
        for text in forms(message.id)
        for field in placeholders(text) if field.endswith("_command")
    }
    assert used == COMMAND_FIELDS.keys()


def test_no_text_spells_a_slash_command() -> None:
    """A command in a text is a field, so it can become a mention."""
    spelled = [
        text
        for message in read_catalog(TEMPLATE_PATH)
        if message.id and not (message.context or "").startswith(("command", "parameter"))
        for text in forms(message.id)
        if any(f"/{name}" in text for name in ("game", "config", "rules", "language", "images",
                                                 "leaderboard", "stats", "history", "learn"))
    ]
    assert spelled == []
