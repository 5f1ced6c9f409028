"""The per-game table UI plug-in: how a game draws itself in Discord.

Each game registers one :class:`GameUI` (see ``cogs/ui_registry.py``). The cogs own the flow
(checks, the manager call, which message to edit); a GameUI only turns sessions into messages
and component clicks into actions. It holds no rules of its own: it asks its engine.

Component scheme (built with ``cogs.components``; all ids are at most 100 characters):

``tb:act:{session_id}:{version}:{payload}``
    A game button. ``payload`` is the UI's own short string (no length beyond the 100-char
    limit; ``:`` allowed). On click the cogs check the seat and the version, then call
    ``GameUI.action_for(session, viewer, payload, values=[])``.
``tb:sel:{session_id}:{version}:{payload}``
    A game select menu; the chosen option values are passed as ``values``.
``tb:hand:{session_id}``
    "My hand": sends the clicker's :meth:`GameUI.private` view, ephemeral.
``tb:info:{session_id}:{table|rules|scores}``
    For anyone in the channel, seated or not, answered ephemeral: a copy of the table, the
    rules, or the score sheet of a UI that also is a :class:`ShowsScores`.
``tb:lobby:{join|leave|start|cancel}:{session_id}`` and ``tb:rules:{game}:{page}:{dir}``
    Lobby and rules paging buttons (not for GameUIs).

The click path (``cogs.handlers.act_click``): not seated / not started -> ephemeral refusal;
``version`` older than the session -> nothing changes and the clicker gets a fresh private
view (ephemeral); otherwise ``action_for`` returns action JSON for ``engine.parse_action``
(then ``manager.act`` runs and the clicked message is re-rendered: with :meth:`GameUI.table`
when it is a public message, with :meth:`GameUI.private` when it is the clicker's ephemeral
one) or a :class:`Render` for a next step that changes nothing yet (choose a card, then its
target). The public table message is kept current by ``cogs.publisher.TablePublisher``.

Hidden information rules: :meth:`GameUI.table` is public and must draw from
``engine.view(state, None)`` only; :meth:`GameUI.private` is sent ephemeral only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import discord

from bot.models import Session
from game.base import PlayerId


@dataclass
class Render:
    """A message body: content, embeds and an optional view of components."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``send_message`` / ``followup.send`` / ``channel.send``."""
        kwargs: dict[str, Any] = {"content": self.content, "embeds": self.embeds}
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``edit_message`` / ``message.edit``; ``view=None`` clears."""
        return {"content": self.content, "embeds": self.embeds, "view": self.view}


@runtime_checkable
class GameUI(Protocol):
    """What a game's Discord front end provides. ``session.state`` is the engine's state."""

    def table(self, session: Session) -> Render:
        """The public table message (everyone sees it): no hidden information.

        Called for active and finished sessions (show the results when finished; no game
        components then). Typically includes ``cogs.components.hand_button(session)``.
        """
        ...

    def private(self, session: Session, viewer: PlayerId) -> Render:
        """``viewer``'s own view (their hand and their legal moves); always sent ephemeral."""
        ...

    def action_for(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str]
    ) -> Mapping[str, Any] | str | Render:
        """Translate a game component click into action JSON, or a next-step Render.

        Raise ``bot.errors.Refusal`` for a payload that makes no sense. Never apply anything:
        the cogs pass the result to ``manager.act``.
        """
        ...


@runtime_checkable
class ShowsScores(Protocol):
    """A GameUI that also draws a public score sheet (the ``tb:info:{id}:scores`` button)."""

    def scores(self, session: Session) -> Render:
        """Everyone's scores so far, for a running game: public, so no hidden information."""
        ...
