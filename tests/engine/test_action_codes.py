"""Action codes read back by the engine (``game.action_codes``, ``Engine.parse_code``) and
legality asked of one action (``Engine.is_legal``), for both games: every legal action's code
names it again, ``is_legal`` agrees with the legal list on legal and illegal actions alike,
and malformed codes are refused."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from game.action_codes import action_code, legal_coded
from game.base import Engine, GameState, IllegalAction
from game.split import SplitEngine
from game.split.actions import Discard, Pick, Target
from game.ten import TenEngine
from game.ten.state import Bid, Buy, Pay

ENGINES: list[tuple[Engine[GameState, BaseModel], int]] = [
    (SplitEngine(), 2), (SplitEngine(), 4), (TenEngine(), 2), (TenEngine(), 5),  # type: ignore[list-item]
]


def positions(engine: Engine[GameState, BaseModel], players: int,
              seed: int) -> Iterator[GameState]:
    """Every state of one random game (a state is yielded before its action is applied)."""
    rng = random.Random(seed)
    state, _ = engine.new_game([str(n) for n in range(1, players + 1)], seed)
    for _ in range(2000):
        if engine.is_over(state):
            return
        yield engine.copy_state(state)
        player = engine.awaiting(state)[0]
        engine.apply(state, player, rng.choice(engine.legal_actions(state, player)))


@pytest.mark.parametrize(("engine", "players"), ENGINES)
def test_each_legal_actions_code_names_it_and_is_legal(
    engine: Engine[GameState, BaseModel], players: int
) -> None:
    for seed in range(3):
        for state in positions(engine, players, seed):
            for player in state.players:
                for action in engine.legal_actions(state, player):
                    code = action_code(action)
                    assert engine.parse_code(code) == action
                    assert engine.is_legal(state, player, action)
                    assert legal_coded(engine, state, player, code) == action


@pytest.mark.parametrize(("engine", "players"), ENGINES)
def test_is_legal_agrees_with_the_legal_list_on_actions_legal_elsewhere(
    engine: Engine[GameState, BaseModel], players: int
) -> None:
    """Actions legal at some point of a game (other players, other steps, other cards) asked
    at every point: legal exactly when the list holds them."""
    for seed in range(3):
        states = list(positions(engine, players, seed))
        seen = {action_code(action): action for state in states for player in state.players
                for action in engine.legal_actions(state, player)}
        for state in states[::3]:
            for player in state.players:
                legal = engine.legal_actions(state, player)
                for code, action in seen.items():
                    assert engine.is_legal(state, player, action) == (action in legal), code
                    assert (legal_coded(engine, state, player, code) is not None) == (
                        action in legal), code
        assert not engine.is_legal(states[0], "nobody", engine.legal_actions(
            states[0], engine.awaiting(states[0])[0])[0])


SPLIT_MALFORMED = [
    "", ":", "discard", "discard:", "discard:7H", "discard:7♥:", "discard:7♥:1", "Discard:7♥",
    "discard: 7♥", "discard:ZZ", "pick:7♥", "pick:7♥:x", "pick:7♥:１", "pick:7♥: 3", "pick:7♥:+3",
    "draw:", "draw:1", "nothing:1", "0", "a:discard:7♥", "upgrade:1:7♥", "swap:1:2:3",
    "match:7♥",
]
TEN_MALFORMED = [
    "", "draw:", "bid", "bid:", "bid:x", "bid:٣", "bid: 3", "bid:03", "bid:3:", "stop:",
    "stop:gold", "pay", "pay:1:2", "pay:x:2:", "pass:0", "Pass", "back:x",
]


@pytest.mark.parametrize("code", SPLIT_MALFORMED)
def test_split_refuses_a_malformed_code(code: str) -> None:
    with pytest.raises(IllegalAction):
        SplitEngine().parse_code(code)


@pytest.mark.parametrize("code", TEN_MALFORMED)
def test_ten_refuses_a_malformed_code(code: str) -> None:
    with pytest.raises(IllegalAction):
        TenEngine().parse_code(code)


def test_codes_name_their_fields_in_order_and_none_as_nothing() -> None:
    split, ten = SplitEngine(), TenEngine()
    assert split.parse_code("discard:7♥") == Discard(card="7♥")
    assert split.parse_code("pick:7♥:3") == Pick(card="7♥", pos=3)
    assert split.parse_code("pick:7♥:") == Pick(card="7♥")
    assert split.parse_code("target:bot:2") == Target(player="bot:2")  # the last field's ':'
    assert ten.parse_code("bid:3") == Bid(amount=3)
    assert ten.parse_code("buy:R5") == Buy(card="R5")
    assert ten.parse_code("pay:3:1:R1W7") == Pay(c=3, b=1, cards="R1W7")
    assert ten.parse_code("pay:3:0:") == Pay(c=3)


def test_a_well_formed_code_not_legal_now_names_no_legal_action() -> None:
    engine = SplitEngine()
    state, _ = engine.new_game(["1", "2"], 5)
    player = engine.awaiting(state)[0]
    assert legal_coded(engine, state, player, "discard:7♥") is None  # a take step: no discard
    assert legal_coded(engine, state, "2" if player == "1" else "1", "draw") is None
    assert legal_coded(engine, state, player, "draw") == engine.parse_code("draw")
    assert legal_coded(engine, state, player, "target:") is None  # no one named
