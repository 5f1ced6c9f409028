"""Pings a player in a new channel message when the game starts waiting for them.

Game-agnostic manager listener (edits never ping, so the table message cannot do this). A
player is pinged when they join the set of humans the engine awaits: at the start, when the
turn passes, when a new round opens with them. Someone who stays awaited (the several steps of
one turn) is not pinged again. Bot seats and autopiloted seats are never pinged.

The previous awaited set is remembered per session in memory; after a restart the first change
falls back to "only the actor was awaited", which is true of every single action. After an
unexpected stop (no clean shutdown was recorded) the restart pings the awaited humans of every
running table once more (``ping_again``), since a ping queued behind a stored move is lost
with the process; a clean shutdown delivers its posts first, so it pings nobody again.
"""

from __future__ import annotations

import logging

import discord

from bot.client import TableBot
from bot.manager import Change, ChangeKind
from bot.models import Session
from cogs import channel_health
from cogs.notices import mention
from game.base import PlayerId

log = logging.getLogger(__name__)


def humans_awaited(client: TableBot, session: Session) -> list[PlayerId]:
    """The awaited players who are people at the keyboard, in the engine's order."""
    if session.state is None or not session.is_live:
        return []
    engine = client.manager.engine(session.game)
    result = []
    for player in engine.awaiting(session.state):
        seat = session.seat_of(player)
        if seat is None or seat.is_bot or getattr(seat, "autopiloted", False):
            continue
        if player.isdecimal():
            result.append(player)
    return result


def ping_text(title: str, players: list[PlayerId]) -> str:
    mentions = " ".join(mention(player) for player in players)
    return (
        f"{mentions} — your turn in {title}. "
        "Open your own view from the table's buttons (only you see it)."
    )


class TurnPing:
    def __init__(self, client: TableBot) -> None:
        self._client = client
        # session id -> (version, humans awaited at that version)
        self._awaited: dict[int, tuple[int, frozenset[PlayerId]]] = {}

    def to_ping(self, change: Change) -> list[PlayerId]:
        """Who this change should ping; also remembers the new awaited set."""
        session = change.session
        if change.kind not in (ChangeKind.STARTED, ChangeKind.ACTION):
            if not session.is_live:
                self._awaited.pop(session.id, None)
            return []
        known = self._awaited.get(session.id)
        if known is not None and known[0] >= session.version:
            return []  # an older change arriving late
        now = humans_awaited(self._client, session)
        if known is not None:
            before = known[1]
        elif change.kind == ChangeKind.ACTION and change.actor is not None:
            before = frozenset({change.actor})
        else:
            before = frozenset()
        self._awaited[session.id] = (session.version, frozenset(now))
        return [player for player in now if player not in before]

    async def on_change(self, change: Change) -> None:
        players = self.to_ping(change)
        if players:
            session = change.session
            await self._post(session, ping_text(self._title(session), players), players)

    async def ping_again(self, session: Session) -> bool:
        """After an unexpected stop, ping the humans the table waits for: the ping of the
        last stored move may have died with the process. Returns whether anyone was pinged."""
        current = self._client.manager.get(session.id) or session
        players = humans_awaited(self._client, current)
        self._awaited[current.id] = (current.version, frozenset(players))
        if not players:
            return False
        text = ping_text(self._title(current), players)
        await self._post(current, f"The table is back after an unexpected stop. {text}", players)
        return True

    def _title(self, session: Session) -> str:
        return self._client.manager.engine(session.game).title

    async def _post(self, session: Session, text: str, players: list[PlayerId]) -> None:
        channel = self._client.get_partial_messageable(session.channel_id)
        try:
            await channel.send(
                content=text,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False,
                    users=[discord.Object(id=int(player)) for player in players],
                ),
            )
        except discord.HTTPException as error:
            if not channel_health.report(self._client, session, error, "post a turn ping"):
                log.warning("could not ping the next player of session %s", session.id)
