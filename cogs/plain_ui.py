"""A plain-text GameUI for any engine: the public view as text, a select of legal moves.

Used for a game until its own UI package (``cogs/<game key>/``) registers one. It shows the engine's
``view`` models as JSON (public: ``view(state, None)``; private: ``view(state, player)``).
Moves whose JSON does not fit a select option (100 characters) are left out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.records.errors import Refusal
from bot.records.session import Session, Status
from cogs.game_ui import (
    WORDS_EVENTS,
    WORDS_PRIVATE,
    WORDS_TABLES,
    Click,
    Move,
    Page,
    Render,
    TurnItemsOf,
    declares,
    no_items,
)
from cogs.i18n.catalogs import words_for
from cogs.i18n.common_words import MY_HAND, YOUR_MOVE
from cogs.i18n.language import Language
from cogs.i18n.messages import N_
from cogs.i18n.words import Words
from cogs.kit.control_menus import NOT_AVAILABLE
from cogs.kit.control_payloads import Rows
from cogs.kit.custom_ids import ActSelect, HandButton
from game.base import Engine, Event, IllegalAction, PlayerId

_MAX_OPTIONS = 25
_MAX_VALUE = 100
_MAX_DESCRIPTION = 4000


def _block(data: Any) -> str:
    text = json.dumps(data, indent=1, ensure_ascii=False)
    if len(text) > _MAX_DESCRIPTION:
        text = text[: _MAX_DESCRIPTION - 1] + "…"
    return f"```json\n{text}\n```"


CHOOSE_MOVE = N_("Choose one move from the list.").text


class PlainUI:
    rules: Sequence[Page] = ()
    capabilities = declares(WORDS_TABLES, WORDS_PRIVATE, WORDS_EVENTS)

    def __init__(self, engine: Engine[Any, Any]) -> None:
        self.engine = engine
        self.key = engine.key
        self.title = engine.title

    def table(self, session: Session) -> Render:
        return self.table_in(session, words_for(Language.EN))

    def table_in(self, session: Session, words: Words) -> Render:
        public = self.engine.view(session.state, None).model_dump(mode="json")
        embed = discord.Embed(title=self.engine.title, description=_block(public))
        names = session.names
        if session.status is Status.FINISHED:
            lines = [
                f"#{r.placement} {names.get(r.player, r.player)} — {r.score}"
                for r in sorted(self.engine.results(session.state), key=lambda r: r.placement)
            ]
            embed.add_field(name=words.pgettext("heading", "Result"), value="\n".join(lines),
                            inline=False)
            return Render(embeds=[embed])
        waiting = ", ".join(names.get(p, p) for p in self.engine.awaiting(session.state))
        embed.add_field(name=words.pgettext("heading", "Waiting for"), value=waiting or "—",
                        inline=False)
        view = Rows([HandButton.payload(session.id, label=words.text(MY_HAND))])
        return Render(embeds=[embed], view=view)

    def event_line(self, event: Event, viewer: PlayerId | None,
                   names: Mapping[PlayerId, str], words: Words) -> str:
        """The engine's own words (English): a game without a UI package has no catalog
        texts of its own."""
        return self.engine.describe(event, viewer, names)

    def private(self, session: Session, viewer: PlayerId) -> Render:
        return self.private_in(session, viewer, words_for(Language.EN))

    def private_in(self, session: Session, viewer: PlayerId, words: Words,
                   extra: TurnItemsOf = no_items) -> Render:
        mine = self.engine.view(session.state, viewer).model_dump(mode="json")
        embed = discord.Embed(title=words.gettext("{game} — your view", game=self.engine.title),
                              description=_block(mine))
        if session.status is not Status.ACTIVE:
            return Render(embeds=[embed])
        options: list[discord.SelectOption] = []
        for action in self.engine.legal_actions(session.state, viewer):
            value = action.model_dump_json()
            if len(value) <= _MAX_VALUE and len(options) < _MAX_OPTIONS:
                options.append(discord.SelectOption(label=value, value=value))
        view = Rows()
        if options:
            view.add_item(ActSelect.payload(session.id, session.version, "move", options=options,
                                            placeholder=words.text(YOUR_MOVE)))
            for item in extra():
                view.add_item(item)
        return Render(embeds=[embed], view=view)

    def action_for(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str] | None,
    ) -> Click:
        """The legal move whose JSON is the chosen option's value (read by the engine, then
        asked whether that one move is legal)."""
        if payload != "move" or values is None or len(values) != 1:
            raise Refusal(CHOOSE_MOVE)
        try:
            action = self.engine.parse_action(values[0])
        except IllegalAction:
            raise Refusal(NOT_AVAILABLE) from None
        if (action.model_dump_json() != values[0]
                or not self.engine.is_legal(session.state, viewer, action)):
            raise Refusal(NOT_AVAILABLE)
        return Move(action)

    def action_in(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str] | None,
        words: Words, extra: TurnItemsOf = no_items,
    ) -> Click:
        """A move, never a next step: ``extra`` has nowhere to go."""
        return self.action_for(session, viewer, payload, values)
