"""A fake channel running SPLIT with its real UI, publisher, announcer, turn pings and final
post."""

from __future__ import annotations

import re
from typing import Any

from bot.records.change import Change
from bot.records.session import Session
from bot.sessions.manager import SessionManager
from cogs.commands.game_commands import GameCog
from cogs.listeners.announcer import Announcer
from cogs.listeners.final_post import FinalPost
from cogs.listeners.table_publisher import TablePublisher
from cogs.listeners.turn_ping import TurnPing
from cogs.split import SplitUI
from game.action_codes import action_code
from game.base import Event
from game.split import SplitEngine
from tests.fakes import (
    FakeChannel,
    FakeClient,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    Sent,
    invoke,
)
from tests.fakes import click as fake_click

SEED = 20240501
CHANNEL = 100
FACE = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


class SplitTable:
    def __init__(self, manager: SessionManager) -> None:
        self.engine = SplitEngine()
        self.manager = manager
        self.client = FakeClient(manager, {"split": SplitUI(self.engine)})
        self.channel: FakeChannel = self.client.channel(CHANNEL)
        self.cog: GameCog = self.client.cog
        self.events: list[Event] = []
        self.session_id = 0
        manager.subscribe(TablePublisher(self.client, self.client.services).on_change)  # type: ignore[arg-type]
        manager.subscribe(Announcer(self.client, self.client.services).on_change)  # type: ignore[arg-type]
        manager.subscribe(TurnPing(self.client, self.client.services).on_change)  # type: ignore[arg-type]
        manager.subscribe(FinalPost(self.client, self.client.services).on_change)
        manager.subscribe(self._record)

    async def _record(self, change: Change) -> None:
        self.events.extend(change.events)

    def interaction(self, user: FakeUser, message: FakeMessage | None = None,
                    **kwargs: Any) -> FakeInteraction:
        return FakeInteraction(self.client, user=user, channel=self.channel, message=message,
                               **kwargs)

    def session(self) -> Session:
        session = self.manager.in_channel(CHANNEL)
        assert session is not None
        return session

    async def command(self, command: Any, user: FakeUser, **params: Any) -> Sent:
        ia = self.interaction(user)
        await invoke(command, self.cog, ia, **params)
        assert len(ia.sent) == 1
        return ia.last

    async def press(self, user: FakeUser, message: FakeMessage | None, custom_id: str,
                    values: list[str] | None = None, **kwargs: Any) -> Sent:
        ia = self.interaction(user, message, **kwargs)
        await fake_click(ia, custom_id, values)
        assert len(ia.sent) == 1
        return ia.last

    async def hand(self, user: FakeUser) -> Sent:
        return await self.command(GameCog.hand, user)


def children(sent: Sent) -> list[Any]:
    return list(sent.view.children) if sent.view is not None else []


def control_for(sent: Sent, action: Any) -> tuple[str, list[str] | None] | None:
    """The custom_id (and select values) that plays legal ``action`` in a hand view (the
    control carrying its code)."""
    code = action_code(action)
    for item in children(sent):
        custom_id = str(item.custom_id)
        if custom_id.endswith(f":a:{code}"):
            return custom_id, None
        for option in getattr(item, "options", []):
            if option.value == code:
                return custom_id, [option.value]
    return None


def more_button(sent: Sent) -> str | None:
    for item in children(sent):
        if ":pg:" in str(item.custom_id) and "More" in str(item.label) and not item.disabled:
            return str(item.custom_id)
    return None


def faces_in(data: Any) -> set[str]:
    return set(FACE.findall(str(data)))
