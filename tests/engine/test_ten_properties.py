"""Property tests over random playouts, 2-5 players."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.ten import cards
from game.ten.invariants import check_invariants
from game.ten.state import TenState
from tests.engine.ten_helpers import ENGINE


def _playout(players: int, seed: int, level: str) -> tuple[TenState, list[tuple[str, str]]]:
    state = ENGINE.new_game([f"p{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    log: list[tuple[str, str]] = []
    pile_order = ",".join(cards.NOTATION[c] for c in state.pile[-12:])
    while not ENGINE.is_over(state):
        (player,) = ENGINE.awaiting(state)
        legal = ENGINE.legal_actions(state, player)
        assert legal and len(legal) < 200
        assert ENGINE.default_action(state, player) in legal
        for other in state.players:
            if other != player:
                assert ENGINE.legal_actions(state, other) == []
        action = ENGINE.bot_action(state, player, level, rng)
        assert action in legal
        log.append((player, action.model_dump_json()))
        ENGINE.apply(state, player, action)
        check_invariants(state)
        view_json = ENGINE.view(state, player).model_dump_json()
        assert pile_order not in view_json
    return state, log


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6), st.sampled_from(["easy", "normal"]))
def test_playout_invariants_and_replay(players: int, seed: int, level: str) -> None:
    state, log = _playout(players, seed, level)
    assert not state.pile and not state.tableau
    assert all(0 <= c <= 10 for c in state.currency) and all(b >= 0 for b in state.bust)
    assert TenState.model_validate_json(state.model_dump_json()) == state
    replay = ENGINE.new_game(state.players, seed=seed)
    for player, action_json in log:
        ENGINE.apply(replay, player, ENGINE.parse_action(action_json))
    assert replay == state
    results = ENGINE.results(state)
    assert sorted(r.player for r in results) == sorted(state.players)


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6))
def test_every_listed_action_applies(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = ENGINE.new_game([f"p{i}" for i in range(players)], seed=seed)
    steps = 0
    while not ENGINE.is_over(state) and steps < 150:
        (player,) = ENGINE.awaiting(state)
        for action in ENGINE.legal_actions(state, player):
            ENGINE.apply(ENGINE.copy_state(state), player, action)
        ENGINE.apply(state, player, ENGINE.bot_action(state, player, "easy", rng))
        steps += 1
