"""Checks that hold after every action; the simulate command and the tests share them."""

from __future__ import annotations

from collections import Counter

from game.invariants import require
from game.ten import cards, data
from game.ten.cards import Kind
from game.ten.odds import running_total, seen_cards, tableau_currency, unseen_counts
from game.ten.state import TenState
from game.ten.vocabulary import PayFor, Phase


def card_locations(state: TenState) -> list[int]:
    """Every card id in the game, wherever it is (pile, table, collections, discard, removed)."""
    return [*state.pile, *seen_cards(state)]


def check_invariants(state: TenState) -> None:
    count = len(state.players)
    require(data.MIN_SEATS <= count <= data.MAX_SEATS, "seat count out of range")
    located = card_locations(state)
    require(sorted(located) == cards.deck_for(count), "cards lost or duplicated")
    require(len(located) == data.DECK_SIZE_BY_PLAYERS[count], "deck size differs from the table")
    for seat in range(count):
        require(0 <= state.currency[seat] <= data.CURRENCY_CAP, f"currency of seat {seat}")
        require(state.bust[seat] >= 0, f"bust tokens of seat {seat}")
    require(all(cards.KIND[c] in (Kind.NUMBER, Kind.CURRENCY) for c in state.tableau), "tableau")
    require(running_total(state.tableau) < data.NUMBER_BUST_AT, "unresolved number bust")
    require(tableau_currency(state.tableau) < data.CURRENCY_BUST_AT, "unresolved currency bust")
    require(all(cards.KIND[c] == Kind.NUMBER for c in state.market), "market holds a non-number")
    require(
        all(cards.KIND[c] == Kind.CURRENCY for c in state.discard), "discard holds a non-currency"
    )
    require(unseen_counts(state) == Counter(cards.NOTATION[c] for c in state.pile), "odds base")
    paying_for_wild = state.phase == Phase.PAY and state.pay_for == PayFor.WILD
    in_auction = state.phase == Phase.AUCTION or paying_for_wild
    require((state.auction_card is not None) == in_auction, "auction card outside an auction")
    if state.auction_card is not None:
        require(cards.IS_WILD[state.auction_card], "a non-wild is auctioned")
    if state.phase == Phase.PAY and state.pay_for == PayFor.CARD:
        require(state.pay_card in state.market, "the chosen card left the market")
    if state.phase in (Phase.BUY, Phase.PAY) and state.pay_for != PayFor.WILD:
        require(state.buyer is not None, "buy phase without a buyer")
    if state.phase == Phase.OVER:
        require(not state.pile and not state.tableau, "game over with cards to play")
    if not state.pile and state.phase == Phase.DRAW:
        require(state.final, "empty pile not marked final")
