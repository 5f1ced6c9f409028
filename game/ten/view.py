"""What the table shows (TEN hides only the draw pile's order and the seed)."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel

from game.base import PlayerId
from game.fast import construct
from game.ten import cards, data
from game.ten.odds import bust_chance_at, running_total, tableau_currency
from game.ten.scoring import score_notes
from game.ten.state import TenState
from game.ten.vocabulary import PayFor, Phase, TablePhase


class MarketCard(BaseModel):
    card: str  # notation
    price: int
    copies: int


class RunView(BaseModel):
    colour: str
    start: int  # 0: no run in this colour
    end: int
    points: int
    cards: list[str]  # the card at each number start..end (wilds by their own notation)


class PlayerView(BaseModel):
    player: PlayerId
    currency: int
    bust_tokens: int
    collection: list[str]  # display order
    runs: list[RunView]  # one per colour, from the scoring assignment
    wild_assignment: list[tuple[str, str]]  # (wild, what it counts as)
    score: int


class AuctionView(BaseModel):
    wild: str
    high_bid: int
    high_bidder: PlayerId | None
    to_bid: PlayerId | None  # None once bidding is over and the winner is paying
    still_to_bid: list[PlayerId]


class PaymentView(BaseModel):
    payer: PlayerId
    paying_for: PayFor
    card: str
    price: int


class TenView(BaseModel):
    viewer: PlayerId | None
    phase: TablePhase
    turn: int
    active: PlayerId
    awaiting: PlayerId | None
    pile_size: int
    last_card_flipped: bool
    tableau: list[str]  # flip order
    running_total: int
    tableau_currency: int
    bust_chance: float
    market: dict[str, list[MarketCard]]  # colour letter -> cards by price
    players: list[PlayerView]
    auction: AuctionView | None
    payment: PaymentView | None
    buyer: PlayerId | None
    final_buys_left: list[PlayerId]
    discard_count: int
    removed_count: int


# The views are made with ``game.fast.construct`` from values the validated constructors would
# accept unchanged (ints, strings, enum members, ``None``, plain lists and dicts, these
# models): pydantic's validation was most of a view's cost (issue 42), and
# ``tests/engine/test_view_build.py`` compares every view of seeded games, field by field and as
# JSON, with the validated build.
_MARKET_FIELDS = frozenset(MarketCard.model_fields)
_RUN_FIELDS = frozenset(RunView.model_fields)
_PLAYER_FIELDS = frozenset(PlayerView.model_fields)
_AUCTION_FIELDS = frozenset(AuctionView.model_fields)
_PAYMENT_FIELDS = frozenset(PaymentView.model_fields)
_VIEW_FIELDS = frozenset(TenView.model_fields)
_NOTE = cards.NOTATION.__getitem__
_SORT_KEY = cards.SORT_KEYS.__getitem__


# (notation, copies) -> its MarketCard: a few hundred at most (each market card's copies in the
# deck), made once and shared by every view that shows it (views are read only).
_MARKET_CARDS: dict[tuple[str, int], MarketCard] = {}


def _market_card(note: str, copies: int) -> MarketCard:
    made = construct(MarketCard, {"card": note, "price": int(note[1]), "copies": copies},
                     _MARKET_FIELDS)
    _MARKET_CARDS[note, copies] = made
    return made


def _market(state: TenState) -> dict[str, list[MarketCard]]:
    grouped: dict[str, list[MarketCard]] = {colour: [] for colour in data.COLOURS}
    copies = Counter(map(_NOTE, state.market))
    made = _MARKET_CARDS
    for note in sorted(copies, key=_SORT_KEY):
        key = (note, copies[note])
        grouped[note[0]].append(made.get(key) or _market_card(*key))
    return grouped


def _player(state: TenState, seat: int) -> PlayerView:
    notes = list(map(_NOTE, state.collections[seat]))
    score = score_notes(notes)
    return construct(PlayerView, {
        "player": state.players[seat],
        "currency": state.currency[seat],
        "bust_tokens": state.bust[seat],
        "collection": sorted(notes, key=_SORT_KEY),
        "runs": [
            construct(RunView, {"colour": r.colour, "start": r.start, "end": r.end,
                                "points": r.points, "cards": list(r.cards)}, _RUN_FIELDS)
            for r in score.runs
        ],
        "wild_assignment": list(score.assignment),
        "score": score.total,
    }, _PLAYER_FIELDS)


# The table's name of each phase (a buy phase after the last flip is shown as FINAL_BUYS).
TABLE_PHASES: dict[Phase, TablePhase] = {
    Phase.DRAW: TablePhase.DRAW,
    Phase.AUCTION: TablePhase.AUCTION,
    Phase.PAY: TablePhase.PAYMENT,
    Phase.BUY: TablePhase.BUY,
    Phase.OVER: TablePhase.OVER,
}


def phase_name(state: TenState) -> TablePhase:
    if state.phase == Phase.BUY and state.final_buys:
        return TablePhase.FINAL_BUYS
    return TABLE_PHASES[state.phase]


def build_view(state: TenState, viewer: PlayerId | None, waiting: int | None) -> TenView:
    players = state.players
    phase = state.phase
    auction = None
    if state.auction_card is not None:
        bidding = phase == Phase.AUCTION
        to_bid = state.bidders[state.bid_index] if bidding else None
        auction = construct(AuctionView, {
            "wild": cards.NOTATION[state.auction_card],
            "high_bid": state.high_bid,
            "high_bidder": None if state.high_bidder is None else players[state.high_bidder],
            "to_bid": None if to_bid is None else players[to_bid],
            "still_to_bid": [players[s] for s in state.bidders[state.bid_index :]]
            if bidding
            else [],
        }, _AUCTION_FIELDS)
    payment = None
    if phase == Phase.PAY:
        payer = state.high_bidder if state.pay_for == PayFor.WILD else state.buyer
        card = state.auction_card if state.pay_for == PayFor.WILD else state.pay_card
        assert payer is not None and card is not None and state.pay_for is not None
        payment = construct(PaymentView, {
            "payer": players[payer],
            "paying_for": state.pay_for,
            "card": cards.NOTATION[card],
            "price": state.pay_price,
        }, _PAYMENT_FIELDS)
    tableau = state.tableau
    total = running_total(tableau)
    currency = tableau_currency(tableau)
    return construct(TenView, {
        "viewer": viewer,
        "phase": phase_name(state),
        "turn": state.turn,
        "active": players[state.active],
        "awaiting": None if waiting is None else players[waiting],
        "pile_size": len(state.pile),
        "last_card_flipped": state.final,
        "tableau": list(map(_NOTE, tableau)),
        "running_total": total,
        "tableau_currency": currency,
        "bust_chance": bust_chance_at(state, total, currency),
        "market": _market(state),
        "players": [_player(state, seat) for seat in range(len(players))],
        "auction": auction,
        "payment": payment,
        "buyer": None if state.buyer is None else players[state.buyer],
        "final_buys_left": [players[s] for s in state.after_buy],
        "discard_count": len(state.discard),
        "removed_count": len(state.removed),
    }, _VIEW_FIELDS)


def view_for(view: TenView, viewer: PlayerId | None) -> TenView:
    """``viewer``'s view of the state ``view`` was built from: TEN's views differ only by
    their viewer (no view shows the pile's order), so the rest is shared, not built again."""
    return construct(TenView, {**view.__dict__, "viewer": viewer}, view.model_fields_set)
