"""A fake server running private tables (``Session.is_private``) with the real SPLIT and TEN
UIs, the table extension's listeners (``cogs.table.extension.listeners``), the machine seats and
the private tables' notifier; every channel the bot could talk to is a FakeChannel that
records what it is sent."""

from __future__ import annotations

from typing import Any

from bot.automation.autoplay import Autoplay
from bot.automation.turn_clock import TurnClock
from bot.records.change import Change
from bot.records.session import Seat, Session, SessionKind
from bot.sessions.manager import SessionManager
from cogs.click_context import enter
from cogs.features import Feature, Place
from cogs.listeners.private_tables import PrivateTables
from cogs.listeners.table_publisher import TablePublisher
from cogs.listeners.turn_ping import TurnPing
from cogs.rendering.private_table import send_private_table
from cogs.split import SplitUI
from cogs.table.extension import listeners
from cogs.ten import TenUI
from game.split import SplitEngine
from game.ten import TenEngine
from tests.bot.recorder import no_sleep
from tests.cogs.split_table_fixture import control_for, more_button
from tests.fakes import FakeClient, FakeInteraction, FakeMessage, FakeUser, Sent
from tests.fakes import click as fake_click

CHANNEL = 100
ENGINES = {"split": SplitEngine(), "ten": TenEngine()}


def engines() -> dict[str, Any]:
    return dict(ENGINES)


class QueuedReviews:
    """The reviewer's place among the listeners: records the changes it is given."""

    def __init__(self) -> None:
        self.changes: list[Change] = []

    async def on_change(self, change: Change) -> None:
        self.changes.append(change)


class PrivateServer:
    def __init__(self, manager: SessionManager) -> None:
        self.manager = manager
        self.client = FakeClient(manager, {"split": SplitUI(ENGINES["split"]),
                                           "ten": TenUI(ENGINES["ten"])})
        self.channel = self.client.channel(CHANNEL)
        publisher = TablePublisher(self.client, self.client.services)  # type: ignore[arg-type]
        notifier = PrivateTables(self.client, self.client.services, publisher)  # type: ignore[arg-type]
        self.autoplay = Autoplay(manager, notifier=notifier, sleep=no_sleep)
        self.turn_clock = TurnClock(manager, notifier=notifier)
        self.client.autoplay = self.autoplay  # type: ignore[attr-defined]
        self.client.turn_clock = self.turn_clock  # type: ignore[attr-defined]
        self.reviews = QueuedReviews()
        self.client.reviews = self.reviews  # type: ignore[attr-defined]
        turn_ping = TurnPing(self.client, self.client.services)  # type: ignore[arg-type]
        features = self.client.services.features
        features.register(Feature("table listeners", listeners=listeners(
            self.client, self.client.services, publisher, turn_ping)))  # type: ignore[arg-type]
        features.register(Feature("queued reviews",
                                  listeners={Place.REVIEWS: self.reviews.on_change}))
        features.subscribe(manager)

    def interaction(self, user: FakeUser, message: FakeMessage | None = None,
                    **kwargs: Any) -> FakeInteraction:
        return FakeInteraction(self.client, user=user, channel=self.channel, message=message,
                               **kwargs)

    async def open(self, user: FakeUser, game: str, bots: int, *, seed: int = 7,
                   kind: SessionKind = SessionKind.DAILY, level: str = "normal") -> Session:
        seats = [Seat(player_id=f"bot:{n}", display_name=f"Bot {n}", is_bot=True,
                      bot_level=level) for n in range(1, bots + 1)]
        return await self.manager.open_private(
            1, CHANNEL, game, Seat(player_id=str(user.id), display_name=user.display_name),
            seats, kind=kind, seed=seed)

    async def show(self, user: FakeUser, session: Session) -> FakeInteraction:
        """The command's answer: the private table's message."""
        ia = self.interaction(user)
        enter(ia, self.client.services)  # type: ignore[arg-type]  # as the command's dispatch
        await send_private_table(ia, session)  # type: ignore[arg-type]
        await self.idle()
        return ia

    async def idle(self) -> None:
        await self.autoplay.idle()
        await self.manager.settle()

    def channel_traffic(self) -> list[Sent]:
        """Everything the bot sent or edited in any channel (not an interaction's answers)."""
        traffic: list[Sent] = []
        for channel in self.client.channels.values():
            traffic += channel.sent
            for message in channel.messages.values():
                if not message.flags.ephemeral:
                    traffic += message.edits
        return traffic

    async def press(self, user: FakeUser, message: FakeMessage, shown: Sent,
                    action: Any) -> Sent:
        """Click ``action``'s control on the private message (paging with More to find it);
        the message as the click redrew it."""
        target = control_for(shown, action)
        while target is None:
            more = more_button(shown)
            assert more is not None, f"no control for {action!r}"
            ia = self.interaction(user, message)
            await fake_click(ia, more)
            shown = ia.last
            target = control_for(shown, action)
        ia = self.interaction(user, message)
        await fake_click(ia, *target)
        assert ia.last.kind == "edit_message", ia.last.text
        return ia.last

    async def play_through(self, user: FakeUser, session_id: int, message: FakeMessage,
                           first: Sent, moves: int | None = None) -> Sent:
        """Play the user's moves (the engine's default move, found among the message's
        controls) until the game ends (or ``moves`` were made); returns the message as it
        was drawn last."""
        me = str(user.id)
        engine = ENGINES[self.manager.get(session_id).game]  # type: ignore[union-attr]
        shown = first
        for _ in range(moves or 2000):
            await self.idle()
            shown = message.edits[-1] if message.edits else first
            live = self.manager.get(session_id)
            if live is None:
                return shown
            assert me in self.manager.awaiting(live), "the machine seats stopped"
            await self.press(user, message, shown, engine.default_action(live.state, me))
        if moves is not None:
            await self.idle()
            return message.edits[-1] if message.edits else first
        raise AssertionError("the game did not end")
