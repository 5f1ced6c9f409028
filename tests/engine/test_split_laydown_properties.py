"""Property tests of the first-turn lay-down (spec sections 6 and 8), from built positions:
a player goes out on their first turn and the players without a turn hold random hands."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import event, given, settings
from hypothesis import strategies as st

from game.base import IllegalAction
from game.split import SplitEngine
from game.split.actions import Discard, Done, Draw, LayMatch, MakeMatch, Pick, Upgrade
from game.split.cards import DECK_SIZE, FACE_NAMES
from game.split.invariants import check_invariants
from game.split.state import SplitState
from tests.engine.split_helpers import make_state

E = SplitEngine()


@st.composite
def laydown_positions(draw: st.DrawFn) -> tuple[SplitState, str]:
    """A main-step position where the turn player discards their last card on their first
    turn; the players after them up to the dealer have not started a turn."""
    count = draw(st.integers(3, 6))
    out = draw(st.integers(0, count - 1))
    waiting = draw(st.integers(1, count - 1))
    deck = list(range(DECK_SIZE))
    random.Random(draw(st.integers(0, 10**9))).shuffle(deck)
    hands: list[list[int]] = []
    for seat in range(count):
        size = 1 if seat == out else draw(st.integers(1, 12))
        hands.append([deck.pop() for _ in range(size)])
    # The goer's matches laid this turn (same rank, halves taken from the rest of the deck).
    matches = []
    for _ in range(draw(st.integers(0, 2))):
        rank = deck[-1] >> 3
        pair = [card for card in deck if card >> 3 == rank][:2]
        if len(pair) == 2:
            for card in pair:
                deck.remove(card)
            matches.append((out, " ".join(FACE_NAMES[c >> 1] for c in pair), ""))
    started = [0 if 1 <= (seat - out) % count <= waiting else 1 for seat in range(count)]
    state = make_state(
        [" ".join(FACE_NAMES[c >> 1] for c in hand) for hand in hands],
        matches=matches,
        turn=out,
        dealer=(out + waiting) % count,
        turns_started=started,
    )
    return state, FACE_NAMES[state.hands[out][0] >> 1]


def _refused(state: SplitState, player: str, action: object) -> bool:
    try:
        E.apply(E.copy_state(state), player, action)  # type: ignore[arg-type]
    except IllegalAction:
        return True
    return False


def _check_views(state: SplitState) -> None:
    for seat, viewer in enumerate(state.players):
        view = E.view(state, viewer)
        assert view.hand == [FACE_NAMES[c >> 1] for c in sorted(state.hands[seat])]
        seen = Counter(view.row + view.hand)
        for match in view.matches:
            seen.update(match.halves + match.covered)
        expected = Counter(FACE_NAMES[c >> 1] for c in state.hands[seat] + state.row)
        for match in state.matches:
            expected.update(FACE_NAMES[c >> 1] for c in match.halves + match.covered)
        assert seen == expected  # nobody else's hand shows
        assert view.hand_counts == {p: len(state.hands[s]) for s, p in enumerate(state.players)}
    assert E.view(state, None).hand is None


def _check_waiting_player(state: SplitState, player: str) -> None:
    seat = state.players.index(player)
    legal = E.legal_actions(state, player)
    assert Done() in legal
    for action in legal:
        copy = E.copy_state(state)
        E.apply(copy, player, E.parse_action(action.model_dump_json()))
        check_invariants(copy)
    faces = sorted({c >> 1 for c in state.hands[seat]})
    for a in faces:
        for b in faces:
            lay = LayMatch(a=FACE_NAMES[a], b=FACE_NAMES[b])
            if a <= b and lay not in legal:
                assert _refused(state, player, lay), f"{lay} applied but was not listed"
    card = FACE_NAMES[faces[0]] if faces else "2♣"
    others = [Draw(), Discard(card=card), MakeMatch(a=card, b=card), Pick(card=card)]
    others += [
        Upgrade(match=m, card=card, replace=FACE_NAMES[half >> 1])
        for m, match in enumerate(state.matches)
        for half in match.halves
    ]
    for action in others:
        assert _refused(state, player, action), f"{action} applied in the lay-down"


@settings(max_examples=60, deadline=None)
@given(laydown_positions(), st.randoms(use_true_random=False))
def test_prop_laydown_lists_exactly_what_applies_and_scores_after_all_done(
    position: tuple[SplitState, str], rng: random.Random
) -> None:
    state, last_card = position
    goer = state.players[state.turn]
    E.apply(state, goer, Discard(card=last_card))
    assert state.step == "laydown" and not state.history
    count, out = len(state.players), state.players.index(goer)
    waiting = [state.players[s] for s in state.laydown_waiting]
    event(f"{len(waiting)} waiting of {count}")
    behind = [state.players[(out + k) % count] for k in range(1, count)]
    assert waiting == [p for p in behind if state.turns_started[state.players.index(p)] == 0]
    marks_in_hand = {}
    while state.step == "laydown":
        check_invariants(state)
        _check_views(state)
        assert sorted(E.awaiting(state)) == sorted(waiting)
        for player in state.players:
            if player in waiting:
                _check_waiting_player(state, player)
            else:
                assert E.legal_actions(state, player) == []
                assert _refused(state, player, Done())
        player = rng.choice(waiting)
        action = rng.choice(E.legal_actions(state, player))
        if isinstance(action, LayMatch):
            event("lays a match")
        seat = state.players.index(player)
        hand_before = len(state.hands[seat])
        events = E.apply(state, player, action)
        if isinstance(action, Done):
            waiting.remove(player)
            marks_in_hand[player] = hand_before
            assert seat not in state.laydown_waiting
            scored = "round_end" in [e.kind for e in events]
            assert scored == (not waiting)  # scoring only once everyone is done
            if waiting:
                assert not state.history and player not in E.awaiting(state)
        else:
            assert len(state.hands[seat]) == hand_before - 2
    check_invariants(state)
    summary = state.history[0]
    assert summary.first_turn_out and summary.out == goer
    for row in summary.players:
        if row.player in marks_in_hand:
            assert row.hand_marks == marks_in_hand[row.player]
    assert state.round == 2
