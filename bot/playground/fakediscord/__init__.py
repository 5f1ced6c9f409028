"""A local stand-in for the Discord API (gateway + REST) and simulated users to drive a bot."""

from bot.playground.fakediscord.driver import FakeDiscord, NotVisible, gather_clicks
from bot.playground.fakediscord.model import FakeChannel, FakeUser, InteractionRecord, StoredMessage

__all__ = [
    "FakeChannel",
    "FakeDiscord",
    "FakeUser",
    "InteractionRecord",
    "NotVisible",
    "StoredMessage",
    "gather_clicks",
]
