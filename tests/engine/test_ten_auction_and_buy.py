"""Spec sections 3.4 (auction), 3.5 (buy phase) and section 8 examples 3 and 4."""

from typing import Any

import pytest

from game.base import IllegalAction
from game.ten import payment_options
from game.ten.state import Back, Bid, Buy, Draw, Pass, Pay, Skip, Stop, TenState
from tests.engine.ten_helpers import ENGINE, act, build, kinds, notes


def _auction(**kwargs: Any) -> TenState:
    state = build(flips=["R2", "B#", "G1"], **kwargs)
    act(state, "A", Draw())
    act(state, "A", Draw())
    return state


def test_s8_example3_auction_order() -> None:
    state = _auction()
    order = []
    for player, action in [("B", Bid(amount=2)), ("C", Pass()), ("D", Bid(amount=3))]:
        order.append(ENGINE.awaiting(state)[0])
        act(state, player, action)
    assert order == ["B", "C", "D"] and ENGINE.awaiting(state) == ["A"]
    events = act(state, "A", Bid(amount=4))
    assert "won" in kinds(events) and "paid" in kinds(events)  # 4 currency is the only split
    assert notes(state.collections[0]) == ["B#"] and state.currency[0] == 1
    assert state.phase == "draw" and ENGINE.awaiting(state) == ["A"]


def test_s3_4_every_player_acts_once_even_if_outbid() -> None:
    state = _auction()
    act(state, "B", Bid(amount=1))
    act(state, "C", Bid(amount=2))
    act(state, "D", Pass())
    act(state, "A", Pass())
    assert notes(state.collections[2]) == ["B#"] and state.currency[2] == 3
    assert state.phase == "draw"


def test_s3_4_bid_must_be_strictly_higher_and_at_least_one() -> None:
    state = _auction()
    with pytest.raises(IllegalAction, match="at least 1"):
        act(state, "B", Bid(amount=0))
    act(state, "B", Bid(amount=3))
    with pytest.raises(IllegalAction, match="at least 4"):
        act(state, "C", Bid(amount=3))
    legal = ENGINE.legal_actions(state, "C")
    assert legal[0] == Pass() and [a.amount for a in legal[1:]] == [4, 5]  # type: ignore[union-attr]


def test_s3_4_bid_limited_by_wealth_counting_bust_tokens_as_three() -> None:
    state = _auction(currency=[5, 2, 5, 5], bust=[0, 2, 0, 0])
    assert ENGINE.legal_actions(state, "B")[-1] == Bid(amount=8)
    with pytest.raises(IllegalAction, match="at most 8"):
        act(state, "B", Bid(amount=9))


def test_s3_4_no_bids_discards_wild_out_of_game() -> None:
    state = _auction()
    for player in "BCDA":
        events = act(state, player, Pass())
    assert "unsold" in kinds(events)
    assert notes(state.removed) == ["B#"] and all(not c for c in state.collections)


def test_s3_4_payment_choice_pending_when_several_splits() -> None:
    state = _auction(currency=[5, 5, 5, 5], bust=[0, 2, 0, 0])
    act(state, "B", Bid(amount=4))
    for player in "CDA":
        act(state, player, Pass())
    assert state.phase == "pay" and ENGINE.awaiting(state) == ["B"]
    legal = ENGINE.legal_actions(state, "B")
    assert legal == [Pay(c=4), Pay(c=1, b=1), Pay(b=2)]  # least wasteful first
    with pytest.raises(IllegalAction):
        act(state, "B", Back())
    act(state, "B", Pay(b=2))
    assert state.bust[1] == 0 and state.currency[1] == 5 and notes(state.collections[1]) == ["B#"]
    assert state.phase == "draw" and ENGINE.awaiting(state) == ["A"]


def test_s3_4_only_tokens_pay_for_a_wild() -> None:
    state = _auction(collections=[[], ["R1", "R2"], [], []], bust=[0, 1, 0, 0])
    act(state, "B", Bid(amount=4))
    for player in "CDA":
        act(state, player, Pass())
    with pytest.raises(IllegalAction, match="Only tokens"):
        act(state, "B", Pay(c=2, cards="R1R2"))


def test_s8_example4_payments_price_four() -> None:
    state = build(currency=[5, 5, 5, 5], bust=[2, 0, 0, 0])
    options = payment_options(state, "A", 4)
    assert [(o.c, o.b, o.cards) for o in options] == [(4, 0, ()), (1, 1, ()), (0, 2, ())]
    assert options[0].least_wasteful and not options[1].least_wasteful
    assert options[2].overpay == 2


def test_s8_example4_payment_refuses_spare_currency_token() -> None:
    state = build(flips=["R4"], market=["G4"], currency=[5, 5, 5, 5], bust=[2, 0, 0, 0])
    act(state, "A", Draw())
    act(state, "A", Stop(take="numbers"))
    act(state, "A", Buy(card="G4"))
    with pytest.raises(IllegalAction, match="leave out"):
        act(state, "A", Pay(c=2, b=1))


def test_s8_example4_price_five_only_two_bust() -> None:
    state = build(currency=[1, 5, 5, 5], bust=[2, 0, 0, 0])
    options = payment_options(state, "A", 5)
    assert [(o.c, o.b, o.cards) for o in options] == [(0, 2, ())]


def test_s3_5_buy_with_collection_cards_which_leave_the_game() -> None:
    state = build(
        flips=["R7"],
        market=["G5"],
        collections=[["B1", "O1", "W9"], [], [], []],
        currency=[2, 5, 5, 5],
    )
    act(state, "A", Draw())
    act(state, "A", Stop(take="numbers"))
    assert ENGINE.legal_actions(state, "A") == [Buy(card="G5"), Skip()]
    act(state, "A", Buy(card="G5"))
    legal = ENGINE.legal_actions(state, "A")
    assert legal[-1] == Back()
    canonical = [a for a in legal if isinstance(a, Pay) and a.c == 2]
    assert len(canonical) == 1 and len(canonical[0].cards) == 6  # three cards
    # any 3 cards of the collection are accepted, not only the canonical ones
    act(state, "A", Pay(c=2, cards="W9O1R7"))
    assert sorted(notes(state.removed)) == ["O1", "R7", "W9"]
    assert sorted(notes(state.collections[0])) == ["B1", "G5"] and state.currency[0] == 0
    assert state.phase == "draw" and state.active == 1


def test_s3_5_no_duplicate_checked_before_payment() -> None:
    state = build(flips=["R7"], market=["R5", "B5"], collections=[["R5"], [], [], []])
    act(state, "A", Draw())
    act(state, "A", Stop(take="numbers"))
    assert Buy(card="R5") not in ENGINE.legal_actions(state, "A")
    with pytest.raises(IllegalAction, match="already own a R5"):
        act(state, "A", Buy(card="R5"))
    act(state, "A", Buy(card="B5"))
    act(state, "A", Pay(c=5))
    assert "B5" in notes(state.collections[0])


def test_s3_5_wilds_never_block_a_purchase() -> None:
    state = build(flips=["R7"], market=["R5"], collections=[["R#", "W5", "W#"], [], [], []])
    act(state, "A", Draw())
    act(state, "A", Stop(take="numbers"))
    assert Buy(card="R5") in ENGINE.legal_actions(state, "A")


def test_s3_5_unaffordable_card_not_offered() -> None:
    state = build(flips=["R1"], market=["G9"], currency=[5, 5, 5, 5])
    act(state, "A", Draw())
    act(state, "A", Stop(take="numbers"))  # wealth 5 + one card = 6 < 9
    assert ENGINE.legal_actions(state, "A") == [Skip()]
    with pytest.raises(IllegalAction, match="cannot pay 9"):
        act(state, "A", Buy(card="G9"))


def test_s3_5_back_returns_to_the_choice_and_skip_ends_turn() -> None:
    state = build(flips=["R1"], market=["G2"])
    act(state, "A", Draw())
    act(state, "A", Stop(take="numbers"))
    act(state, "A", Buy(card="G2"))
    act(state, "A", Back())
    assert state.phase == "buy"
    act(state, "A", Skip())
    assert state.phase == "draw" and state.active == 1 and notes(state.market) == ["G2"]


def test_s3_5_no_buy_phase_after_bust() -> None:
    state = build(flips=["R9", "B9"], market=["G2"])
    act(state, "A", Draw())
    act(state, "A", Draw())
    assert state.phase == "draw" and state.active == 1


def test_s3_5_overpayment_with_cards_refused() -> None:
    state = build(flips=["R1"], market=["G2"], collections=[["B1", "B2"], [], [], []])
    act(state, "A", Draw())
    act(state, "A", Stop(take="numbers"))
    act(state, "A", Buy(card="G2"))
    with pytest.raises(IllegalAction, match="leave out"):
        act(state, "A", Pay(c=1, cards="B1B2"))
    with pytest.raises(IllegalAction, match="not in your collection"):
        act(state, "A", Pay(cards="O1O2"))
