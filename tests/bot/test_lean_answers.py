"""An interaction callback's answer keeps every field the bot reads, without the message
object it never reads (``bot.process.lean_answers``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
from discord.interactions import InteractionCallbackResponse

import bot.process.client  # noqa: F401  (installs the lean answers)
from bot.process.lean_answers import without_message

ANSWER: dict[str, Any] = {
    "interaction": {"id": "1579538219475664900", "type": 3,
                    "response_message_id": "1579538219475664901",
                    "response_message_loading": False, "response_message_ephemeral": True},
    "resource": {"type": 4, "message": {"id": "1579538219475664901", "content": "hi"}},
}


def test_the_callback_keeps_its_fields_and_drops_the_message() -> None:
    parent: Any = SimpleNamespace(channel=None)
    response = InteractionCallbackResponse(
        data=ANSWER, parent=parent, state=None,  # type: ignore[arg-type]
        type=discord.InteractionResponseType.deferred_message_update)
    assert response.id == 1579538219475664900
    assert response.message_id == 1579538219475664901
    assert response.type is discord.InteractionResponseType.channel_message
    assert response.is_ephemeral() and not response.is_thinking()
    assert response.resource is None
    assert ANSWER["resource"]["message"]["content"] == "hi"  # the answer itself is not changed


def test_an_answer_without_a_message_is_the_same() -> None:
    bare = {"interaction": ANSWER["interaction"], "resource": {"type": 7}}
    assert without_message(bare) is bare
    assert without_message({"interaction": {}}) == {"interaction": {}}
