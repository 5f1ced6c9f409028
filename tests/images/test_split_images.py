"""SPLIT images: every hand card is placed, the discard row carries the positions the pick
control names, matches and covered halves are shown, the public table cannot show a hand,
and every image stays within Discord's limits."""

from __future__ import annotations

from collections import Counter

import pytest

from cogs.imaging.layout import Label, Layout
from cogs.split.hand_image import NotAPlayerView, hand_layout, render_hand
from cogs.split.score_image import progression, render_scores, score_layout
from cogs.split.table_image import PrivateViewRefused, render_table, table_layout
from game.split import SplitEngine
from game.split.actions import Discard, Pick
from game.split.state import SplitState
from tests.images import samples
from tests.images.checks import check_layout, check_png

ENGINE = SplitEngine()
# (players, seed, actions): early, middle and late positions of 2-, 4- and 6-player games
# (None: the finished game).
POSITIONS: list[tuple[int, int, int | None]] = [
    (2, 1, 5), (2, 1, 57), (2, 7, 31), (4, 7, 61), (4, 3, 47), (4, 3, 140), (6, 7, 90),
    (6, 2, 78), (6, 2, 200), (4, 3, None),
]


def _states() -> list[SplitState]:
    return [samples.split_state(count, seed, actions) for count, seed, actions in POSITIONS]


STATES = _states()
IDS = [f"{c}p-seed{s}-{a}" for c, s, a in POSITIONS]


def _row_positions(layout: Layout) -> dict[int, str]:
    return {slot.number: slot.card for slot in layout.cards("row") if slot.number is not None}


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_every_hand_card_is_placed_for_every_player(state: SplitState) -> None:
    for player in state.players:
        view = ENGINE.view(state, player)
        layout = hand_layout(view, samples.names(len(state.players)))
        placed = [slot.card for slot in layout.cards("hand")]
        assert placed == view.hand  # every card, in the view's order
        check_layout(layout)


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_row_positions_are_the_ones_the_pick_control_names(state: SplitState) -> None:
    view = ENGINE.view(state, None)
    layout = table_layout(view, samples.names(len(state.players)))
    positions = _row_positions(layout)
    assert positions == {index + 1: card for index, card in enumerate(view.row)}
    labels = {(label.text, label.box.x) for label in layout.labels()}
    for slot in layout.cards("row"):
        assert (str(slot.number), slot.box.x) in labels  # the number is drawn over the card
    for player in ENGINE.awaiting(state):
        for action in ENGINE.legal_actions(state, player):
            if isinstance(action, Pick) and action.pos is not None:
                # The control says "Row position {pos + 1} of {len(row)}".
                assert positions[action.pos + 1] == action.card
        hand = hand_layout(ENGINE.view(state, player), samples.names(len(state.players)))
        assert _row_positions(hand) == positions


def test_a_take_step_offers_picks_that_the_image_locates() -> None:
    """At least one position above is a take step with picks, so the check above bites."""
    picks = [
        action
        for state in STATES
        for player in ENGINE.awaiting(state)
        for action in ENGINE.legal_actions(state, player)
        if isinstance(action, Pick) and action.pos is not None
    ]
    assert picks


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_discards_name_cards_the_hand_image_shows(state: SplitState) -> None:
    for player in ENGINE.awaiting(state):
        shown = Counter(slot.card for slot in hand_layout(
            ENGINE.view(state, player), samples.names(len(state.players))).cards("hand"))
        for action in ENGINE.legal_actions(state, player):
            if isinstance(action, Discard):
                assert shown[action.card] > 0


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_matches_and_covered_halves_are_in_front_of_their_owner(state: SplitState) -> None:
    view = ENGINE.view(state, None)
    layout = table_layout(view, samples.names(len(state.players)))
    for match in view.matches:
        halves = [s.card for s in layout.cards("match") if s.number == match.id]
        covered = [s.card for s in layout.cards("covered") if s.number == match.id]
        owners = {s.owner for s in layout.cards() if s.number == match.id
                  and s.group in ("match", "covered")}
        assert halves == match.halves
        assert covered == match.covered
        assert owners == {match.owner}
    check_layout(layout)


def test_the_public_table_refuses_a_players_view() -> None:
    state = STATES[2]
    with pytest.raises(PrivateViewRefused):
        table_layout(ENGINE.view(state, state.players[0]), {})
    with pytest.raises(NotAPlayerView):
        hand_layout(ENGINE.view(state, None), {})


def _with_other_hands(state: SplitState) -> SplitState:
    """The same public position with every hand's cards exchanged for pile cards."""
    other = ENGINE.copy_state(state)
    pool = [card for hand in other.hands for card in hand] + other.pile
    pool.reverse()
    start = 0
    for seat, hand in enumerate(other.hands):
        other.hands[seat] = pool[start : start + len(hand)]
        start += len(hand)
    other.pile = pool[start:]
    assert other.hands != state.hands
    return other


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_no_hand_card_reaches_the_public_table(state: SplitState) -> None:
    names = samples.names(len(state.players))
    other = _with_other_hands(state)
    assert render_table(ENGINE.view(state, None), names) == \
        render_table(ENGINE.view(other, None), names)
    public = {slot.card for slot in table_layout(ENGINE.view(state, None), names).cards()}
    on_table = set(ENGINE.view(state, None).row) | {
        card for m in ENGINE.view(state, None).matches for card in (*m.halves, *m.covered)
    }
    assert public <= on_table


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_renders_stay_within_discords_limits(state: SplitState) -> None:
    names = samples.names(len(state.players))
    view = ENGINE.view(state, None)
    check_png(render_table(view, names), table_layout(view, names))
    player = state.players[0]
    mine = ENGINE.view(state, player)
    check_png(render_hand(mine, names), hand_layout(mine, names))


@pytest.mark.parametrize("count", [2, 4, 6])
def test_the_final_picture_shows_every_players_progression(count: int) -> None:
    state = samples.split_state(count, 11, None)
    assert ENGINE.is_over(state)
    view = ENGINE.view(state, None)
    results = ENGINE.results(state)
    names = samples.names(count)
    layout = score_layout(view, results, names)
    check_layout(layout)
    check_png(render_scores(view, results, names), layout)
    lines = [item for item in layout.items if type(item).__name__ == "Polyline"
             and getattr(item, "marker", None) is not None]
    assert len(lines) == count
    for result in results:
        points = progression(view, result.player)
        assert len(points) == view.rounds + 1 and points[-1] == result.score
    texts = [label.text for label in layout.items if isinstance(label, Label)]
    for result in results:
        assert any(text.endswith(str(abs(result.score))) for text in texts)


def test_the_lay_down_after_a_first_turn_go_out_is_announced() -> None:
    state = ENGINE.copy_state(samples.split_state(3, 7, 0))
    state.step = "laydown"
    state.went_out = 0
    state.hands[0] = []
    state.laydown_waiting = [1, 2]
    names = {"p1": "Ana", "p2": "Ben", "p3": "Cy"}
    table = table_layout(ENGINE.view(state, None), names)
    assert "Ana went out at once; laying down: Ben, Cy" in table.texts()
    # The header's marker and one on each player still laying down.
    assert len(table.icons("turn")) == 3
    waiting = hand_layout(ENGINE.view(state, "p2"), names)
    assert "You may lay down matches, then press Done laying down." in waiting.texts()
    check_layout(table)
    check_layout(waiting)
