"""The answer to an interaction callback is not turned into a message object the bot never
reads (issue 42).

discord.py asks Discord for the callback's resource (``with_response=1``) and builds an
``InteractionMessage`` from the message in it (``InteractionCallbackResponse.resource``),
components, embeds and author included: about one per human action, ~2 % of the bot
process's CPU. The bot reads only the callback's ``message_id`` (``cogs.rendering.
message_delivery``) and its type, never ``resource``; with this installed a callback
that carried a message leaves ``resource`` None (as for a callback without one), and every
other field (``id``, ``type``, ``message_id``, thinking, ephemeral) is set as before.

Installed once, by ``bot.process.client`` (the process's one client).
"""

from __future__ import annotations

from typing import Any

from discord.interactions import InteractionCallbackResponse

_INSTALLED = "__tablebot_lean_answers__"


def without_message(data: Any) -> Any:
    """``data`` with its resource's message left out (the same ``data`` when it has none)."""
    resource = data.get("resource")
    if not resource or resource.get("message") is None:
        return data
    return {**data, "resource": {key: value for key, value in resource.items()
                                 if key != "message"}}


def install() -> None:
    """Leave the callback's message unparsed (idempotent)."""
    if getattr(InteractionCallbackResponse, _INSTALLED, False):
        return
    original = InteractionCallbackResponse._update

    def _update(self: InteractionCallbackResponse[Any], data: Any) -> None:
        original(self, without_message(data))

    InteractionCallbackResponse._update = _update  # type: ignore[method-assign]
    setattr(InteractionCallbackResponse, _INSTALLED, True)
