"""``TenEngine``: the ``game.base.Engine`` protocol for TEN."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from game.action_codes import CodeReader
from game.base import Event, IllegalAction, PlayerId, PlayerResult
from game.search import Budget, Decision
from game.ten import bots, rules
from game.ten.describe import describe_event
from game.ten.results import final_results
from game.ten.state import (
    Back,
    Bid,
    Buy,
    Draw,
    Pass,
    Pay,
    Skip,
    Stop,
    TenAction,
    TenOptions,
    TenState,
    copy_state,
)
from game.ten.view import TenView, build_view, view_for

_ACTION_ADAPTER: TypeAdapter[TenAction] = TypeAdapter(TenAction)
_READ_CODE: CodeReader[TenAction] = CodeReader((Draw, Stop, Bid, Pass, Buy, Skip, Back, Pay))


class TenEngine:
    """TEN for 2-5 seats.

    ``min_players`` is 1 because the lobby accepts a single human: the process then adds a bot
    seat (spec section 6) and starts a two-seat game. ``new_game`` itself refuses one seat.
    """

    key: ClassVar[str] = "ten"
    title: ClassVar[str] = "TEN"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 5
    state_model: ClassVar[type[TenState]] = TenState
    options_model: ClassVar[type[BaseModel]] = TenOptions

    def new_game(
        self, players: Sequence[PlayerId], seed: int, options: Mapping[str, object] | None = None
    ) -> tuple[TenState, list[Event]]:
        try:
            TenOptions.model_validate(dict(options or {}))
        except ValidationError as err:
            raise IllegalAction("TEN has no table options.") from err
        return rules.new_game(players, seed)

    def parse_action(self, data: Mapping[str, Any] | str) -> TenAction:
        try:
            if isinstance(data, str):
                return _ACTION_ADAPTER.validate_json(data)
            return _ACTION_ADAPTER.validate_python(dict(data))
        except (ValidationError, TypeError, ValueError) as err:
            raise IllegalAction("That is not a TEN action.") from err

    def parse_code(self, code: str) -> TenAction:
        return _READ_CODE(code)

    def _seat(self, state: TenState, player: PlayerId) -> int | None:
        try:
            return state.players.index(player)
        except ValueError:
            return None

    # The calls made on every action are the rules' own functions (one call less each).
    legal_actions = staticmethod(rules.legal_for)
    is_legal = staticmethod(rules.is_legal_for)
    awaiting = staticmethod(rules.awaiting)
    apply = staticmethod(rules.apply_for)
    is_over = staticmethod(rules.is_over)

    def copy_state(self, state: TenState) -> TenState:
        return copy_state(state)

    def view(self, state: TenState, player: PlayerId | None) -> TenView:
        return build_view(state, player, rules.waiting_seat(state))

    def view_for(self, state: TenState, view: TenView, player: PlayerId | None) -> TenView:
        return view_for(view, player)

    def describe(self, event: Event, viewer: PlayerId | None, names: Mapping[PlayerId, str]) -> str:
        return describe_event(event, viewer, names)

    def results(self, state: TenState) -> list[PlayerResult]:
        return final_results(state)

    def default_action(self, state: TenState, player: PlayerId) -> TenAction:
        seat = self._seat(state, player)
        if seat is None or rules.waiting_seat(state) != seat:
            raise IllegalAction("The game does not wait for you.")
        return bots.default_action(state, seat)

    def bot_action(
        self, state: TenState, player: PlayerId, level: str, rng: random.Random,
        limit: Budget | None = None,
    ) -> TenAction:
        seat = self._seat(state, player)
        if seat is None or rules.waiting_seat(state) != seat:
            raise IllegalAction("The game does not wait for you.")
        return bots.bot_action(state, seat, level, rng, limit)

    def expert_decision(
        self, state: TenState, player: PlayerId, rng: random.Random, limit: Budget | None = None
    ) -> Decision[TenAction]:
        seat = self._seat(state, player)
        if seat is None or rules.waiting_seat(state) != seat:
            raise IllegalAction("The game does not wait for you.")
        return bots.expert_decision(state, seat, rng, limit)
