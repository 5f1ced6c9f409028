"""Property tests over random SPLIT playouts (2-6 players)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import event as note_event
from hypothesis import example, given, settings
from hypothesis import strategies as st

from game.base import IllegalAction
from game.split import SplitEngine
from game.split.actions import Discard, MakeMatch, Pick
from game.split.cards import FACE_NAMES
from game.split.invariants import check_invariants
from game.split.scoring import sheet_score
from game.split.state import SplitState

E = SplitEngine()

games = st.tuples(st.integers(2, 6), st.integers(0, 10**9))


def _players(count: int) -> list[str]:
    return [f"p{i}" for i in range(count)]


def _playout(count: int, seed: int, level: str = "easy") -> tuple[SplitState, list]:
    state, _ = E.new_game(_players(count), seed)
    rng = random.Random(seed)
    log = []
    while not E.is_over(state):
        player = rng.choice(E.awaiting(state))
        action = E.bot_action(state, player, level, rng)
        log.append((player, action.model_dump_json()))
        E.apply(state, player, action)
    return state, log


def _visible_cards(view) -> Counter[str]:
    cards = Counter(view.row)
    cards.update(view.hand or [])
    for match in view.matches:
        cards.update(match.halves + match.covered)
    return cards


@settings(max_examples=30, deadline=None)
@given(games)
def test_prop_cards_accounted_and_views_hide_other_hands(game: tuple[int, int]) -> None:
    count, seed = game
    state, _ = E.new_game(_players(count), seed)
    rng = random.Random(seed)
    while not E.is_over(state):
        check_invariants(state)
        player = rng.choice(E.awaiting(state))
        for viewer_seat, viewer in enumerate(state.players):
            view = E.view(state, viewer)
            expected = Counter(FACE_NAMES[c >> 1] for c in state.hands[viewer_seat])
            expected.update(FACE_NAMES[c >> 1] for c in state.row)
            for match in state.matches:
                expected.update(FACE_NAMES[c >> 1] for c in match.halves + match.covered)
            assert _visible_cards(view) == expected
        events = E.apply(state, player, E.bot_action(state, player, "easy", rng))
        for event in events:
            for viewer in state.players:
                if viewer != player and event.kind in ("draw", "bonus_draw"):
                    assert "card" not in event.visible_to(viewer)
    check_invariants(state)


@settings(max_examples=25, deadline=None)
@given(games)
def test_prop_replay_from_seed_and_log_gives_same_state(game: tuple[int, int]) -> None:
    count, seed = game
    state, log = _playout(count, seed)
    replay, _ = E.new_game(_players(count), seed)
    for player, action_json in log:
        E.apply(replay, player, E.parse_action(action_json))
    assert replay == state
    assert SplitState.model_validate_json(state.model_dump_json()) == state


@settings(max_examples=25, deadline=None)
@given(games, st.sampled_from(["easy", "normal"]))
def test_prop_scores_from_sheets_equal_reported(game: tuple[int, int], level: str) -> None:
    count, seed = game
    state, _ = _playout(count, seed, level)
    results = {r.player: r for r in E.results(state)}
    for seat, player in enumerate(state.players):
        score = sheet_score(state.boxes[seat], state.negatives[seat])
        assert results[player].score == score
        assert sum(summary.players[seat].gained for summary in state.history) == score
    assert len(state.history) == 3


def _check_unlisted_refused(state: SplitState, player: str, legal: list) -> None:
    """Candidate picks, matches and discards not listed must be refused."""
    seat = state.players.index(player)
    hand = sorted({c >> 1 for c in state.hands[seat]})
    candidates = [Discard(card=FACE_NAMES[f]) for f in hand]
    candidates += [
        MakeMatch(a=FACE_NAMES[a], b=FACE_NAMES[b]) for a in hand for b in hand if a <= b
    ]
    candidates += [Pick(card=FACE_NAMES[c >> 1], pos=i) for i, c in enumerate(state.row)]
    for action in candidates:
        if action in legal:
            continue
        try:
            E.apply(E.copy_state(state), player, action)
        except IllegalAction:
            continue
        raise AssertionError(f"{action} applied but was not listed")


# Seeds whose normal-bot playout reaches a first-turn lay-down within the step limit.
@settings(max_examples=20, deadline=None)
@given(games, st.sampled_from(["easy", "normal"]))
@example((5, 78), "normal")
@example((4, 57), "normal")
@example((6, 179), "normal")
def test_prop_every_listed_action_applies(game: tuple[int, int], level: str) -> None:
    count, seed = game
    state, _ = E.new_game(_players(count), seed)
    rng = random.Random(seed)
    steps = 0
    note_event(f"level {level}")
    while not E.is_over(state) and steps < 150:
        if state.step == "laydown":
            note_event("reached the first-turn lay-down")
        for player in E.awaiting(state):
            legal = E.legal_actions(state, player)
            assert legal and len(legal) < 200
            for action in legal:
                assert len(action.model_dump_json()) < 90
                E.apply(E.copy_state(state), player, E.parse_action(action.model_dump_json()))
            _check_unlisted_refused(state, player, legal)
        others = [p for p in state.players if p not in E.awaiting(state)]
        for player in others:
            assert E.legal_actions(state, player) == []
        player = rng.choice(E.awaiting(state))
        action = E.bot_action(state, player, level, rng)
        assert action in E.legal_actions(state, player)
        E.apply(state, player, action)
        steps += 1
