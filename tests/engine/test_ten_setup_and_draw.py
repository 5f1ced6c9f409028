"""Spec sections 1 (components), 2 (setup), 3.1-3.3 (draw phase, rewards, busts), 3.6, 6."""

from collections import Counter

import pytest

from game.base import Event, IllegalAction
from game.ten import TenEngine, cards, data
from game.ten.cards import Kind
from game.ten.state import Draw, Stop
from tests.engine.ten_helpers import ENGINE, act, build, kinds, notes


def test_s1_full_deck_composition() -> None:
    deck = cards.deck_for(5)
    by_kind = Counter(cards.KIND[c] for c in deck)
    assert len(deck) == 129
    assert by_kind[Kind.NUMBER] == 84 and by_kind[Kind.COLOUR_WILD] == 8
    assert by_kind[Kind.NUMBER_WILD] == 9 and by_kind[Kind.FULL_WILD] == 1
    assert by_kind[Kind.CURRENCY] == 27
    values = Counter(cards.CURRENCY_VALUE[c] for c in deck if cards.KIND[c] == Kind.CURRENCY)
    assert values == {1: 7, 2: 6, 3: 6, 4: 4, 5: 4}
    red = Counter(cards.NUMBER[c] for c in deck if cards.NOTATION[c][0] == "R" and cards.NUMBER[c])
    assert red == {1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3, 7: 1, 8: 1, 9: 1}


def test_s1_player_count_deck_sizes() -> None:
    assert [len(cards.deck_for(n)) for n in (1, 2, 3, 4, 5)] == [89, 89, 109, 129, 129]
    for n in (2, 3, 4, 5):
        assert len(cards.deck_for(n)) == data.DECK_SIZE_BY_PLAYERS[n]


def test_s1_symbol_cards() -> None:
    four_plus = Counter(cards.NOTATION[c] for c in cards.deck_for(4)) - Counter(
        cards.NOTATION[c] for c in cards.deck_for(3)
    )
    assert sum(four_plus.values()) == 20
    assert four_plus["R4"] == 1 and four_plus["$4"] == 1 and four_plus["R5"] == 0
    three = Counter(cards.NOTATION[c] for c in cards.deck_for(3)) - Counter(
        cards.NOTATION[c] for c in cards.deck_for(2)
    )
    assert sum(three.values()) == 20
    assert three["G1"] == 1 and three["G6"] == 1 and three["$5"] == 1 and three["$4"] == 0


def test_s2_setup_tokens_pile_and_first_player() -> None:
    state, _ = ENGINE.new_game(["a", "b", "c"], seed=42)
    assert state.currency == [5, 5, 5] and state.bust == [0, 0, 0]
    assert len(state.pile) == 109 and not state.market and not state.tableau
    assert state.phase == "draw"
    firsts = {ENGINE.new_game(["a", "b", "c"], seed=s)[0].active for s in range(30)}
    assert firsts == {0, 1, 2}
    assert ENGINE.new_game(["a", "b", "c"], seed=42)[0] == state


def test_new_game_returns_the_start_of_turn_one() -> None:
    state, events = ENGINE.new_game(["a", "b", "c"], seed=42)
    first = state.players[state.active]
    assert events == [Event("turn", first, {"turn": 1})]
    words = ENGINE.describe(events[0], None, {first: "Ana"})
    assert words == "Turn 1: Ana to play."


def test_s6_solo_needs_a_bot_seat() -> None:
    assert TenEngine.min_players == 1 and TenEngine.max_players == 5
    with pytest.raises(IllegalAction, match="bot seat"):
        ENGINE.new_game(["solo"], seed=1)
    state, _ = ENGINE.new_game(["solo", "bot:1"], seed=1)
    assert len(state.pile) == 89
    with pytest.raises(IllegalAction, match="at most 5"):
        ENGINE.new_game([str(i) for i in range(6)], seed=1)
    with pytest.raises(IllegalAction, match="only once"):
        ENGINE.new_game(["a", "a"], seed=1)
    with pytest.raises(IllegalAction, match="no table options"):
        ENGINE.new_game(["a", "b"], seed=1, options={"speed": "fast"})


def test_s3_1_must_flip_at_least_one_card() -> None:
    state = build(flips=["R4"])
    assert ENGINE.legal_actions(state, "A") == [Draw()]
    with pytest.raises(IllegalAction, match="flip a card first"):
        act(state, "A", Stop(take="numbers"))


def test_s3_1_stop_or_draw_after_every_card() -> None:
    state = build(flips=["R4", "B2"])
    act(state, "A", Draw())
    assert ENGINE.legal_actions(state, "A") == [Draw(), Stop(take="numbers"), Stop(take="currency")]


def test_s3_1_number_bust_at_eleven() -> None:
    state = build(flips=["R4", "B6", "G1"])
    act(state, "A", Draw())
    act(state, "A", Draw())
    assert state.phase == "draw" and state.active == 0  # 10 does not bust
    events = act(state, "A", Draw())
    assert "bust" in kinds(events) and state.bust[0] == 1 and state.active == 1


def test_s3_1_currency_subtracts_and_total_may_go_negative() -> None:
    state = build(flips=["$5", "R9", "B6"])
    events = act(state, "A", Draw())
    assert events[0].data["total"] == -5
    act(state, "A", Draw())
    act(state, "A", Draw())  # -5 + 9 + 6 = 10: no bust
    assert state.bust[0] == 0 and ENGINE.view(state, None).running_total == 10


def test_s3_1_currency_bust_at_eleven() -> None:
    state = build(flips=["$5", "$5", "$1"])
    act(state, "A", Draw())
    act(state, "A", Draw())
    assert state.bust[0] == 0
    events = act(state, "A", Draw())
    assert events[1].data["bust"] == "currency" and state.bust[0] == 1


def test_s3_1_wild_never_counts_and_starts_an_auction() -> None:
    state = build(flips=["R9", "W#", "R1"])
    act(state, "A", Draw())
    events = act(state, "A", Draw())
    assert kinds(events) == ["flip", "auction"]
    assert state.phase == "auction" and ENGINE.awaiting(state) == ["B"]
    assert ENGINE.view(state, None).running_total == 9


def test_s3_1_must_draw_after_auction_on_empty_tableau() -> None:
    state = build(flips=["R#", "R1"])
    act(state, "A", Draw())
    for player in "BCDA":
        act(state, player, {"type": "pass"})
    assert state.phase == "draw" and ENGINE.awaiting(state) == ["A"]
    assert ENGINE.legal_actions(state, "A") == [Draw()]


def test_s3_1_may_stop_after_auction_when_tableau_holds_a_card() -> None:
    state = build(flips=["R1", "R#", "R2"])
    act(state, "A", Draw())
    act(state, "A", Draw())
    for player in "BCDA":
        act(state, player, {"type": "pass"})
    assert Stop(take="numbers") in ENGINE.legal_actions(state, "A")


def test_s3_1_empty_pile_forces_stop_over_must_draw() -> None:
    state = build(flips=["W3"], rest_in_pile=False)
    act(state, "A", Draw())
    for player in "BCDA":
        act(state, player, {"type": "pass"})
    assert not state.tableau and not state.pile
    assert ENGINE.legal_actions(state, "A") == [Stop(take="numbers"), Stop(take="currency")]
    with pytest.raises(IllegalAction, match="empty"):
        act(state, "A", Draw())


def test_s3_2_take_numbers_others_gain_and_buy_phase_follows() -> None:
    state = build(flips=["R4", "$2", "B3"], currency=[5, 9, 5, 0])
    for _ in range(3):
        act(state, "A", Draw())
    act(state, "A", Stop(take="numbers"))
    assert sorted(notes(state.collections[0])) == ["B3", "R4"]
    assert state.currency == [5, 10, 7, 2]  # B capped at 10
    assert notes(state.discard) == ["$2"]
    assert state.phase == "buy" and ENGINE.awaiting(state) == ["A"]


def test_s3_2_take_currency_numbers_to_market_no_buy_phase() -> None:
    state = build(flips=["R4", "$3", "B3"], market=["G2"])
    for _ in range(3):
        act(state, "A", Draw())
    act(state, "A", Stop(take="currency"))
    assert state.currency == [8, 5, 5, 5]
    assert sorted(notes(state.market)) == ["B3", "G2", "R4"]
    assert notes(state.discard) == ["$3"] and not state.collections[0]
    assert state.phase == "draw" and state.active == 1


@pytest.mark.parametrize("take", ["numbers", "currency"])
def test_s3_2_currency_cards_go_to_discard_after_stopping(take: str) -> None:
    state = build(flips=["$1", "R4", "$2", "B3"])
    for _ in range(4):
        act(state, "A", Draw())
    act(state, "A", Stop(take=take))  # type: ignore[arg-type]
    assert state.tableau == []
    assert sorted(notes(state.discard)) == ["$1", "$2"]
    assert ENGINE.view(state, "B").discard_count == 2
    kept = notes(state.collections[0]) + notes(state.market)
    assert sorted(kept) == ["B3", "R4"]  # the numbers, and no currency card, stay in play
    assert state.currency[0] == (8 if take == "currency" else 5)


def test_s3_3_example1_number_bust() -> None:
    state = build(flips=["R4", "B5", "$3", "G6"], currency=[5, 5, 9, 5])
    totals = [act(state, "A", Draw())[0].data["total"] for _ in range(4)]
    assert totals == [4, 9, 6, 12]
    assert state.bust[0] == 1
    assert sorted(notes(state.market)) == ["B5", "G6", "R4"]
    assert state.currency == [5, 8, 10, 8]
    assert notes(state.discard) == ["$3"] and state.active == 1 and state.phase == "draw"


def test_s3_3_example2_currency_bust_nobody_gains() -> None:
    state = build(flips=["R2", "$5", "$4", "$2"])
    for _ in range(4):
        act(state, "A", Draw())
    assert state.bust[0] == 1 and state.currency == [5, 5, 5, 5]
    assert notes(state.market) == ["R2"] and sorted(notes(state.discard)) == ["$2", "$4", "$5"]


def test_s3_6_currency_cap_and_bust_tokens_exempt() -> None:
    state = build(flips=["$5", "$4"], currency=[8, 5, 5, 5], bust=[4, 0, 0, 0])
    act(state, "A", Draw())
    act(state, "A", Draw())
    act(state, "A", Stop(take="currency"))
    assert state.currency[0] == 10 and state.bust[0] == 4
