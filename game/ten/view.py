"""What the table shows (TEN hides only the draw pile's order and the seed)."""

from __future__ import annotations

from pydantic import BaseModel

from game.base import PlayerId
from game.ten import cards, data
from game.ten.odds import bust_chance, running_total, tableau_currency
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


def _market(state: TenState) -> dict[str, list[MarketCard]]:
    grouped: dict[str, dict[str, int]] = {colour: {} for colour in data.COLOURS}
    for card in state.market:
        note = cards.NOTATION[card]
        grouped[note[0]][note] = grouped[note[0]].get(note, 0) + 1
    return {
        colour: [
            MarketCard(card=note, price=int(note[1]), copies=n)
            for note, n in sorted(notes.items(), key=lambda item: cards.sort_key(item[0]))
        ]
        for colour, notes in grouped.items()
    }


def _player(state: TenState, seat: int) -> PlayerView:
    notes = [cards.NOTATION[card] for card in state.collections[seat]]
    score = score_notes(notes)
    return PlayerView(
        player=state.players[seat],
        currency=state.currency[seat],
        bust_tokens=state.bust[seat],
        collection=sorted(notes, key=cards.sort_key),
        runs=[
            RunView(colour=r.colour, start=r.start, end=r.end, points=r.points, cards=list(r.cards))
            for r in score.runs
        ],
        wild_assignment=list(score.assignment),
        score=score.total,
    )


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
    auction = None
    if state.auction_card is not None:
        to_bid = state.bidders[state.bid_index] if state.phase == Phase.AUCTION else None
        auction = AuctionView(
            wild=cards.NOTATION[state.auction_card],
            high_bid=state.high_bid,
            high_bidder=None if state.high_bidder is None else state.players[state.high_bidder],
            to_bid=None if to_bid is None else state.players[to_bid],
            still_to_bid=[state.players[s] for s in state.bidders[state.bid_index :]]
            if state.phase == Phase.AUCTION
            else [],
        )
    payment = None
    if state.phase == Phase.PAY:
        payer = state.high_bidder if state.pay_for == PayFor.WILD else state.buyer
        card = state.auction_card if state.pay_for == PayFor.WILD else state.pay_card
        assert payer is not None and card is not None and state.pay_for is not None
        payment = PaymentView(
            payer=state.players[payer],
            paying_for=state.pay_for,
            card=cards.NOTATION[card],
            price=state.pay_price,
        )
    return TenView(
        viewer=viewer,
        phase=phase_name(state),
        turn=state.turn,
        active=state.players[state.active],
        awaiting=None if waiting is None else state.players[waiting],
        pile_size=len(state.pile),
        last_card_flipped=state.final,
        tableau=[cards.NOTATION[card] for card in state.tableau],
        running_total=running_total(state.tableau),
        tableau_currency=tableau_currency(state.tableau),
        bust_chance=bust_chance(state),
        market=_market(state),
        players=[_player(state, seat) for seat in range(len(state.players))],
        auction=auction,
        payment=payment,
        buyer=None if state.buyer is None else state.players[state.buyer],
        final_buys_left=[state.players[s] for s in state.after_buy],
        discard_count=len(state.discard),
        removed_count=len(state.removed),
    )
