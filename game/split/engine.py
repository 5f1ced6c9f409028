"""SplitEngine: the game.base.Engine for SPLIT, translating player ids to seats."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from game.action_codes import CodeReader
from game.base import Event, IllegalAction, PlayerId, PlayerResult, placements
from game.search import Budget, Decision
from game.split import bots, rules
from game.split.actions import (
    BonusDraw,
    Discard,
    Done,
    Draw,
    LayMatch,
    MakeMatch,
    Pick,
    Skip,
    SplitAction,
    Swap,
    Target,
    Upgrade,
)
from game.split.actions import parse_action as _parse_action
from game.split.cards import RANKS
from game.split.scoring import negative_value, rank_row_value, sheet_score
from game.split.state import SplitOptions, SplitState, copy_state
from game.split.view import SplitView, build_view, describe_action, describe_event, view_for
from game.split.vocabulary import Step

_READ_CODE: CodeReader[SplitAction] = CodeReader(
    (Draw, Pick, MakeMatch, Upgrade, Target, BonusDraw, Swap, Skip, Discard, LayMatch, Done)
)


class SplitEngine:
    key: ClassVar[str] = "split"
    title: ClassVar[str] = "SPLIT"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    state_model: ClassVar[type[SplitState]] = SplitState
    options_model: ClassVar[type[BaseModel]] = SplitOptions

    def new_game(
        self, players: Sequence[PlayerId], seed: int, options: Mapping[str, object] | None = None
    ) -> tuple[SplitState, list[Event]]:
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction(f"SPLIT needs {self.min_players} to {self.max_players} players.")
        if len(set(players)) != len(players):
            raise IllegalAction("Each player may take only one seat.")
        try:
            SplitOptions.model_validate(dict(options or {}))
        except ValidationError as err:
            raise IllegalAction("SPLIT has no table options.") from err
        return rules.new_game(players, seed)

    def parse_action(self, data: Mapping[str, Any] | str) -> SplitAction:
        return _parse_action(data)

    def _seat(self, state: SplitState, player: PlayerId) -> int | None:
        try:
            return state.players.index(player)
        except ValueError:
            return None

    def legal_actions(self, state: SplitState, player: PlayerId) -> list[SplitAction]:
        seat = self._seat(state, player)
        return [] if seat is None else rules.legal_actions(state, seat)

    def parse_code(self, code: str) -> SplitAction:
        return _READ_CODE(code)

    def is_legal(self, state: SplitState, player: PlayerId, action: SplitAction) -> bool:
        seat = self._seat(state, player)
        return seat is not None and rules.is_legal(state, seat, action)

    def awaiting(self, state: SplitState) -> list[PlayerId]:
        return [state.players[seat] for seat in rules.awaiting(state)]

    def apply(self, state: SplitState, player: PlayerId, action: SplitAction) -> list[Event]:
        seat = self._seat(state, player)
        if seat is None:
            raise IllegalAction("You are not playing in this game.")
        return rules.apply(state, seat, _parse_action(action))

    def copy_state(self, state: SplitState) -> SplitState:
        return copy_state(state)

    def view(self, state: SplitState, player: PlayerId | None) -> SplitView:
        return build_view(state, player)

    def view_for(
        self, state: SplitState, view: SplitView, player: PlayerId | None
    ) -> SplitView:
        return view_for(state, view, player)

    def describe(self, event: Event, viewer: PlayerId | None, names: Mapping[PlayerId, str]) -> str:
        return describe_event(event, viewer, names)

    def describe_action(
        self, state: SplitState, action: SplitAction, names: Mapping[PlayerId, str]
    ) -> str:
        return describe_action(state, action, names)

    def is_over(self, state: SplitState) -> bool:
        return state.step == Step.GAME_OVER

    def results(self, state: SplitState) -> list[PlayerResult]:
        scores = {
            player: sheet_score(state.boxes[seat], state.negatives[seat])
            for seat, player in enumerate(state.players)
        }
        places = placements({player: [score] for player, score in scores.items()})
        results = []
        for seat, player in enumerate(state.players):
            boxes = state.boxes[seat]
            results.append(
                PlayerResult(
                    player=player,
                    placement=places[player],
                    score=scores[player],
                    breakdown={
                        "rows": {RANKS[r]: rank_row_value(n) for r, n in enumerate(boxes)},
                        "boxes": {RANKS[r]: n for r, n in enumerate(boxes)},
                        "rank_total": sum(rank_row_value(n) for n in boxes),
                        "negatives": state.negatives[seat],
                        "negative_value": negative_value(state.negatives[seat]),
                        "rounds": [summary.players[seat].gained for summary in state.history],
                    },
                )
            )
        return sorted(results, key=lambda r: (r.placement, state.players.index(r.player)))

    def default_action(self, state: SplitState, player: PlayerId) -> SplitAction:
        seat = self._seat(state, player)
        if seat is None:
            raise IllegalAction("You are not playing in this game.")
        return bots.default_action(state, seat)

    def bot_action(
        self, state: SplitState, player: PlayerId, level: str, rng: random.Random,
        limit: Budget | None = None,
    ) -> SplitAction:
        seat = self._seat(state, player)
        if seat is None:
            raise IllegalAction("You are not playing in this game.")
        return bots.bot_action(state, seat, level, rng, limit)

    def expert_decision(
        self, state: SplitState, player: PlayerId, rng: random.Random, limit: Budget | None = None
    ) -> Decision[SplitAction]:
        seat = self._seat(state, player)
        if seat is None:
            raise IllegalAction("You are not playing in this game.")
        return bots.expert_decision(state, seat, rng, limit)
