"""Property tests over random playouts, 2-5 players."""

import random
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from game.ten import cards
from game.ten.invariants import check_invariants
from game.ten.state import TenState
from game.ten.view import TenView
from tests.engine.ten_helpers import ENGINE

# Every field of the public view. A new field must be reviewed for hidden information (the
# draw pile's order and the seed) before it is added here.
TEN_VIEW_FIELDS = {
    "viewer",
    "phase",
    "turn",
    "active",
    "awaiting",
    "pile_size",
    "last_card_flipped",
    "tableau",
    "running_total",
    "tableau_currency",
    "bust_chance",
    "market",
    "players",
    "auction",
    "payment",
    "buyer",
    "final_buys_left",
    "discard_count",
    "removed_count",
}

# How many upcoming pile cards must not appear as a run in a view. Three gives chance hits
# (sorted collections and runs list such sequences: about 1 step in 14,000 over 86,000 steps
# of playouts). Four still gives one when the upcoming cards happen to lie in display order
# (4 players, seed 264: B2 B3 B4 B6 end the pile while a sorted list shows them), so windows
# in display order are left to the reordered-pile check below, which no order leak passes.
# Four also met a chance hit across two lists (4 players, seed 48509, normal bots: O2 ends one
# sorted list and B1 B3 B4 start the next while B4 B3 B1 O2 end the pile), so the window is
# five; the reordered-pile check stays the exact test.
LEAK_WINDOW = 5


def _in_display_order(notes: list[str]) -> bool:
    keys = [cards.sort_key(note) for note in notes]
    return keys == sorted(keys)


def _card_notations(value: Any, found: list[str]) -> list[str]:
    """Every string in a dumped view that is a card notation, in document order."""
    if isinstance(value, str):
        if value in cards.KNOWN_NOTATIONS:
            found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _card_notations(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            _card_notations(item, found)
    return found


def _contains_run(seq: list[str], run: list[str]) -> bool:
    return any(seq[i : i + len(run)] == run for i in range(len(seq) - len(run) + 1))


def _check_pile_hidden(state: TenState, viewer: str | None) -> None:
    view = ENGINE.view(state, viewer)
    dumped = view.model_dump()
    assert set(dumped) == TEN_VIEW_FIELDS
    upcoming = [cards.NOTATION[c] for c in reversed(state.pile)][:LEAK_WINDOW]  # pops the end
    in_order = _in_display_order(upcoming) or _in_display_order(upcoming[::-1])
    if len(upcoming) == LEAK_WINDOW and not in_order:
        shown = _card_notations(dumped, [])
        assert not _contains_run(shown, upcoming), f"next pile cards {upcoming} in the view"
        assert not _contains_run(shown, upcoming[::-1]), f"pile cards {upcoming} in the view"
    # The view of the same table with the pile in another order must be identical.
    reordered = ENGINE.copy_state(state)
    reordered.pile.reverse()
    assert ENGINE.view(reordered, viewer).model_dump() == dumped


def _playout(players: int, seed: int, level: str) -> tuple[TenState, list[tuple[str, str]]]:
    state, _ = ENGINE.new_game([f"p{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    log: list[tuple[str, str]] = []
    _check_pile_hidden(state, None)
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
        _check_pile_hidden(state, player)
    return state, log


def test_view_fields_are_the_reviewed_allow_list() -> None:
    assert set(TenView.model_fields) == TEN_VIEW_FIELDS


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6), st.sampled_from(["easy", "normal"]))
@example(4, 264, "easy")  # the upcoming cards lie in display order (see LEAK_WINDOW)
@example(4, 48509, "normal")  # a chance hit of a window of four across two lists
def test_playout_invariants_and_replay(players: int, seed: int, level: str) -> None:
    state, log = _playout(players, seed, level)
    assert not state.pile and not state.tableau
    assert all(0 <= c <= 10 for c in state.currency) and all(b >= 0 for b in state.bust)
    assert TenState.model_validate_json(state.model_dump_json()) == state
    replay, _ = ENGINE.new_game(state.players, seed=seed)
    for player, action_json in log:
        ENGINE.apply(replay, player, ENGINE.parse_action(action_json))
    assert replay == state
    results = ENGINE.results(state)
    assert sorted(r.player for r in results) == sorted(state.players)


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10**6))
def test_every_listed_action_applies(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state, _ = ENGINE.new_game([f"p{i}" for i in range(players)], seed=seed)
    steps = 0
    while not ENGINE.is_over(state) and steps < 150:
        (player,) = ENGINE.awaiting(state)
        for action in ENGINE.legal_actions(state, player):
            ENGINE.apply(ENGINE.copy_state(state), player, action)
        ENGINE.apply(state, player, ENGINE.bot_action(state, player, "easy", rng))
        steps += 1
