"""TEN images: the whole collection is placed in the player's view, the market shows every
card the buy control offers at its price, the auction's wild is on the table, each wild's
assigned place is captioned in the final picture, and every image stays within limits."""

from __future__ import annotations

from collections import Counter

import pytest

from cogs.ten.final_image import final_layout, render_final
from cogs.ten.hand_image import NotAPlayerView, hand_layout, render_hand
from cogs.ten.table_image import PrivateViewRefused, render_table, table_layout
from cogs.ten.wild_notation import card_text
from game.ten import TenEngine
from game.ten.state import Buy, TenState
from tests.images import samples
from tests.images.checks import check_layout, check_png

ENGINE = TenEngine()
# (players, seed, actions): auctions, buy phases, late positions, a finished game (None).
POSITIONS: list[tuple[int, int, int | None]] = [
    (2, 3, 83), (2, 1, 59), (3, 4, 150), (4, 2, 88), (5, 2, 73), (5, 1, 250), (3, 2, None),
]
STATES = [samples.ten_state(count, seed, actions) for count, seed, actions in POSITIONS]
IDS = [f"{c}p-seed{s}-{a}" for c, s, a in POSITIONS]


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_every_collection_card_is_placed_in_the_players_view(state: TenState) -> None:
    names = samples.names(len(state.players))
    for player in state.players:
        view = ENGINE.view(state, player)
        layout = hand_layout(view, names)
        me = next(p for p in view.players if p.player == player)
        assert Counter(slot.card for slot in layout.cards("hand")) == Counter(me.collection)
        check_layout(layout)


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_the_market_shows_every_card_the_buy_control_offers(state: TenState) -> None:
    view = ENGINE.view(state, None)
    layout = table_layout(view, samples.names(len(state.players)))
    market = {slot.card: slot for slot in layout.cards("market")}
    for colour, on_sale in view.market.items():
        for card in on_sale:
            slot = market[card.card]
            assert slot.number == card.price == int(card.card[1])
            assert (slot.caption is None) == (card.copies == 1)
            assert slot.card[0] == colour
    if view.awaiting is not None:
        buys = [a for a in ENGINE.legal_actions(state, view.awaiting) if isinstance(a, Buy)]
        for buy in buys:
            assert buy.card in market
        if buys:
            mine = hand_layout(ENGINE.view(state, view.awaiting),
                               samples.names(len(state.players)))
            assert {slot.card for slot in mine.cards("market")} >= {b.card for b in buys}
    check_layout(layout)


def test_some_position_offers_buys() -> None:
    assert any(
        isinstance(action, Buy)
        for state in STATES
        if (awaited := ENGINE.view(state, None).awaiting) is not None
        for action in ENGINE.legal_actions(state, awaited)
    )


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_table_shows_tableau_auction_and_every_collection(state: TenState) -> None:
    view = ENGINE.view(state, None)
    layout = table_layout(view, samples.names(len(state.players)))
    assert [slot.card for slot in layout.cards("tableau")] == view.tableau
    auction = [slot.card for slot in layout.cards("auction")]
    assert auction == ([view.auction.wild] if view.auction is not None else [])
    for player in view.players:
        placed = [s.card for s in layout.cards("collection") if s.owner == player.player]
        assert Counter(placed) == Counter(player.collection)
    if view.auction is not None:
        assert any(card_text(view.auction.wild) in text for text in layout.texts())


def test_an_auction_position_is_among_the_samples() -> None:
    assert any(ENGINE.view(state, None).auction is not None for state in STATES)


def test_views_are_checked() -> None:
    state = STATES[0]
    with pytest.raises(PrivateViewRefused):
        table_layout(ENGINE.view(state, state.players[0]), {})
    with pytest.raises(NotAPlayerView):
        hand_layout(ENGINE.view(state, None), {})


def test_the_table_depends_on_public_information_only() -> None:
    """The draw pile's order is TEN's hidden information: reordering it changes nothing."""
    state = STATES[4]
    other = ENGINE.copy_state(state)
    other.pile.reverse()
    assert other.pile != state.pile
    names = samples.names(len(state.players))
    assert render_table(ENGINE.view(state, None), names) == \
        render_table(ENGINE.view(other, None), names)


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_renders_stay_within_discords_limits(state: TenState) -> None:
    names = samples.names(len(state.players))
    view = ENGINE.view(state, None)
    check_png(render_table(view, names), table_layout(view, names))
    mine = ENGINE.view(state, state.players[-1])
    check_png(render_hand(mine, names), hand_layout(mine, names))


@pytest.mark.parametrize(("count", "seed"), [(2, 3), (3, 2), (5, 2), (5, 4)])
def test_the_final_picture_places_every_run_and_each_wilds_place(count: int, seed: int) -> None:
    state = samples.ten_state(count, seed, None)
    assert ENGINE.is_over(state)
    view = ENGINE.view(state, None)
    results = ENGINE.results(state)
    names = samples.names(count)
    layout = final_layout(view, results, names)
    check_layout(layout)
    check_png(render_final(view, results, names), layout)
    for player in view.players:
        runs = [s for s in layout.cards("run") if s.owner == player.player]
        expected = [(number, note) for run in player.runs if run.points
                    for number, note in zip(range(run.start, run.end + 1), run.cards,
                                            strict=True)]
        assert [(s.number, s.card) for s in runs] == expected
        captions = Counter((s.card, s.caption) for s in runs if s.caption is not None)
        assert captions == Counter((wild, f"={place}") for wild, place in player.wild_assignment)
        spare = [s.card for s in layout.cards("spare") if s.owner == player.player]
        assert Counter(spare) + Counter(note for _, note in expected) == \
            Counter(player.collection)


def test_a_final_sample_has_wilds_to_caption() -> None:
    state = samples.ten_state(5, 2, None)
    assert any(p.wild_assignment for p in ENGINE.view(state, None).players)
