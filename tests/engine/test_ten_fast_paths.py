"""The engine's hot-path shortcuts build exactly what the validated, general code builds."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ten import cards, payment_options, scoring
from game.ten.payments import cheapest_cards, legal_payments
from game.ten.state import Pay, TenState
from tests.engine.ten_helpers import ENGINE

_NUMBER_AND_COLOUR_WILDS = sorted({n for n in cards.NOTATION if n[0] in "RBOG"})
_SHARED_WILDS = sorted({n for n in cards.NOTATION if n[0] == "W"})


def _playout(players: int, seed: int) -> list[TenState]:
    """The state before each action of a whole random game."""
    rng = random.Random(seed)
    state, _ = ENGINE.new_game([f"p{i}" for i in range(players)], seed=seed)
    steps = []
    while not ENGINE.is_over(state):
        (player,) = ENGINE.awaiting(state)
        before = ENGINE.copy_state(state)
        action = rng.choice(ENGINE.legal_actions(state, player))
        ENGINE.apply(state, player, action)
        steps.append(before)
    return steps


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (4, 12), (5, 13)])
def test_payments_match_the_validated_models(players: int, seed: int) -> None:
    paying = 0
    for state in _playout(players, seed):
        if state.phase != "pay":
            continue
        paying += 1
        seat = state.players.index(ENGINE.awaiting(state)[0])
        by_cards = state.pay_for == "card"
        options = payment_options(
            state, state.players[seat], state.pay_price, cards_allowed=by_cards
        )
        pays = legal_payments(state, seat, state.pay_price, cards_allowed=by_cards)
        assert list(pays) == [option.action() for option in options]
        for pay in pays:
            validated_pay = Pay(c=pay.c, b=pay.b, cards=pay.cards)
            assert pay.__dict__ == validated_pay.__dict__
            assert pay.model_fields_set == validated_pay.model_fields_set
    assert paying


def test_new_game_state_matches_its_json_round_trip() -> None:
    state, _ = ENGINE.new_game(["a", "b", "c"], seed=5)
    again = TenState.model_validate_json(state.model_dump_json())
    assert again == state
    assert list(again.__dict__) == list(state.__dict__)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_NUMBER_AND_COLOUR_WILDS), max_size=24),
    st.sampled_from(_SHARED_WILDS),
)
def test_single_shared_wild_shortcut_matches_the_programme(
    notes: list[str], wild: str
) -> None:
    collection = tuple(sorted([*notes, wild]))
    tally = scoring._tally(collection)
    assert scoring.best_choices_for_tally(tally) == scoring._programme(tally)


def test_spending_order_ranks_unscoring_cards_first() -> None:
    # R1-R3 is a 3-point run; B7 with B# a 2-point run; the second R1 scores nothing.
    order = cheapest_cards(["R1", "R2", "R3", "B7", "R1", "B#"], 6)
    assert order == ("R1", "B7", "B#", "R1", "R2", "R3")
    assert cheapest_cards(["R1", "R2", "R3", "B7", "R1", "B#"], 2) == ("R1", "B7")


def _reference_spending_order(collection: tuple[str, ...]) -> tuple[str, ...]:
    """The spending order by its definition: run points from ``score_notes`` (one entry per
    card standing in a run), then wilds after number cards, then display order."""
    in_runs: dict[str, list[int]] = {}
    for run in scoring.score_notes(collection).runs:
        if run.points:
            for note in run.cards:
                in_runs.setdefault(note, []).append(run.points)
    ranked = []
    for note in collection:
        places = in_runs.get(note)
        points = places.pop(0) if places else 0
        ranked.append((points, "#" in note or note[0] == "W", cards.sort_key(note), note))
    return tuple(item[3] for item in sorted(ranked))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_NUMBER_AND_COLOUR_WILDS), max_size=20),
    st.lists(st.sampled_from(_SHARED_WILDS), max_size=3, unique=True),
)
def test_spending_order_matches_its_definition(notes: list[str], shared: list[str]) -> None:
    collection = tuple(sorted([*notes, *shared]))
    assert cheapest_cards(list(collection), len(collection)) == _reference_spending_order(
        collection
    )


def test_only_the_listed_pay_objects_skip_the_payment_check() -> None:
    from game.ten.payments import is_listed_payment

    for state in _playout(4, 21):
        if state.phase != "pay" or state.pay_for != "card":
            continue
        seat = state.players.index(ENGINE.awaiting(state)[0])
        pays = legal_payments(state, seat, state.pay_price, cards_allowed=True)
        listed = pays[0]
        assert is_listed_payment(state, seat, state.pay_price, listed, cards_allowed=True)
        twin = Pay(c=listed.c, b=listed.b, cards=listed.cards)
        assert not is_listed_payment(state, seat, state.pay_price, twin, cards_allowed=True)
        assert not is_listed_payment(state, seat, state.pay_price + 1, listed, cards_allowed=True)
        return
    raise AssertionError("no card payment in the game")
