"""COUNT: a tiny game for testing the game-agnostic layers (manager, store, cogs).

Two or three players take turns adding 1 or 2 to a shared counter; whoever brings it to 10 or
more wins. Each player has a secret number that only they may see, so tests can prove that
public views and refusals never leak it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import discord
from pydantic import BaseModel, ValidationError

from bot.records.errors import Refusal
from bot.records.session import Session
from cogs.game_ui import WORDS_EVENTS, Click, Move, OpenStep, Page, Render, declares
from cogs.i18n.words import Words
from cogs.kit.control_menus import number
from cogs.kit.custom_ids import ActButton, HandButton
from game.action_codes import CodeReader
from game.base import Event, GameState, IllegalAction, PlayerId, PlayerResult, rng_for
from game.search import Budget

TARGET = 10


class CountOptions(BaseModel):
    target: int = TARGET


class CountState(GameState):
    total: int = 0
    turn: int = 0
    secrets: dict[PlayerId, int]
    winner: PlayerId | None = None
    target: int = TARGET


class Add(BaseModel):
    add: Literal[1, 2]


_READ_CODE: CodeReader[Add] = CodeReader([Add])


class CountView(BaseModel):
    total: int
    to_move: PlayerId | None
    my_secret: int | None = None


class CountEngine:
    key: ClassVar[str] = "count"
    title: ClassVar[str] = "COUNT"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    state_model: ClassVar[type[GameState]] = CountState
    options_model: ClassVar[type[BaseModel]] = CountOptions

    def new_game(
        self, players: Sequence[PlayerId], seed: int, options: Mapping[str, Any] | None = None
    ) -> tuple[CountState, list[Event]]:
        target = CountOptions.model_validate(dict(options or {})).target
        secrets = {p: rng_for(seed, "secret", p).randint(1000, 9999) for p in players}
        return CountState(players=list(players), seed=seed, secrets=secrets, target=target), []

    def parse_action(self, data: Mapping[str, Any] | str) -> Add:
        try:
            if isinstance(data, str):
                return Add.model_validate_json(data)
            return Add.model_validate(data)
        except ValidationError:
            raise IllegalAction("You can only add 1 or 2.") from None

    def legal_actions(self, state: CountState, player: PlayerId) -> list[Add]:
        return [Add(add=1), Add(add=2)] if player in self.awaiting(state) else []

    def parse_code(self, code: str) -> Add:
        return _READ_CODE(code)

    def is_legal(self, state: CountState, player: PlayerId, action: Add) -> bool:
        return action in self.legal_actions(state, player)

    def awaiting(self, state: CountState) -> list[PlayerId]:
        return [] if state.winner else [state.players[state.turn]]

    def apply(self, state: CountState, player: PlayerId, action: Add) -> list[Event]:
        if player not in self.awaiting(state):
            raise IllegalAction("It is not your turn.")
        state.total += action.add
        events = [Event(kind="add", actor=player, data={"add": action.add, "total": state.total})]
        if state.total >= state.target:
            state.winner = player
            events.append(Event(kind="win", actor=player))
        else:
            state.turn = (state.turn + 1) % len(state.players)
        return events

    def copy_state(self, state: CountState) -> CountState:
        return state.model_copy(deep=True)

    def view(self, state: CountState, player: PlayerId | None) -> CountView:
        to_move = None if state.winner else state.players[state.turn]
        secret = state.secrets.get(player) if player is not None else None
        return CountView(total=state.total, to_move=to_move, my_secret=secret)

    def view_for(self, state: CountState, view: CountView, player: PlayerId | None) -> CountView:
        return self.view(state, player)

    def describe(self, event: Event, viewer: PlayerId | None, names: Mapping[PlayerId, str]) -> str:
        who = names.get(event.actor or "", event.actor or "?")
        if event.kind == "win":
            return f"{who} wins."
        return f"{who} adds {event.data['add']} (total {event.data['total']})."

    def is_over(self, state: CountState) -> bool:
        return state.winner is not None

    def results(self, state: CountState) -> list[PlayerResult]:
        return [
            PlayerResult(player=p, placement=1 if p == state.winner else 2,
                         score=state.total if p == state.winner else 0)
            for p in state.players
        ]

    def default_action(self, state: CountState, player: PlayerId) -> Add:
        return Add(add=1)

    def bot_action(
        self, state: CountState, player: PlayerId, level: str, rng: random.Random,
        limit: Budget | None = None,
    ) -> Add:
        return Add(add=rng.choice([1, 2]))


class CountUI:
    """The COUNT table UI: proves the GameUI protocol end to end."""

    rules: Sequence[Page] = ()
    capabilities = declares(WORDS_EVENTS)

    def __init__(self, engine: CountEngine) -> None:
        self.engine = engine
        self.key = engine.key
        self.title = engine.title

    def table(self, session: Session) -> Render:
        state: CountState = session.state
        view = self.engine.view(state, None)
        embed = discord.Embed(title="COUNT", description=f"Total: {view.total}")
        if view.to_move:
            embed.add_field(name="To move", value=session.names[view.to_move])
        items = discord.ui.View(timeout=None)
        if session.is_live:
            items.add_item(HandButton(session.id))
        return Render(embeds=[embed], view=items)

    def event_line(self, event: Event, viewer: PlayerId | None,
                   names: Mapping[PlayerId, str], words: Words) -> str:
        """The engine's English words (``cogs.game_ui.WordsEvents``)."""
        return self.engine.describe(event, viewer, names)

    def private(self, session: Session, viewer: PlayerId) -> Render:
        state: CountState = session.state
        view = self.engine.view(state, viewer)
        embed = discord.Embed(title="Your view", description=f"Secret: {view.my_secret}")
        items = discord.ui.View(timeout=None)
        for action in self.engine.legal_actions(state, viewer):
            items.add_item(ActButton(session.id, session.version, f"add{action.add}",
                                     label=f"+{action.add}"))
        return Render(embeds=[embed], view=items)

    def action_for(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str] | None,
    ) -> Click:
        if payload == "peek":
            return OpenStep(Render(content=f"Total so far: {session.state.total}"))
        raw = payload[3:] if payload.startswith("add") else (values or [""])[0]
        amount = number(raw) if payload.startswith("add") or payload == "pick" else None
        if amount is None:
            raise Refusal("That button is not part of this game.")
        try:
            return Move(self.engine.parse_action({"add": amount}))
        except IllegalAction as err:
            raise Refusal(str(err)) from None
