"""The TEN game state and the actions, as compact pydantic models.

Cards are ints (ids into ``game.ten.cards``); seats are indices into ``players``. The draw pile
is hidden (its top is the list's end); everything else on the table is public.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from game.fast import PlainAssignment
from game.ten.vocabulary import ActionType, PayFor, Phase, Reward


class TenOptions(BaseModel):
    """TEN has no table options yet; the model exists so the lobby treats games alike."""

    model_config = ConfigDict(extra="forbid")


class TenState(PlainAssignment):
    pile: list[int]
    tableau: list[int] = Field(default_factory=list)  # flip order; wilds never stay here
    market: list[int] = Field(default_factory=list)
    discard: list[int] = Field(default_factory=list)  # currency cards
    removed: list[int] = Field(default_factory=list)  # unsold wilds, spent collection cards
    collections: list[list[int]]
    currency: list[int]
    bust: list[int]
    active: int  # seat whose turn it is (the final player during the final buys)
    phase: Phase = Phase.DRAW
    turn: int = 1
    # auction (phase AUCTION, and PAY for an auction win)
    auction_card: int | None = None
    bidders: list[int] = Field(default_factory=list)  # seats in bidding order
    bid_index: int = 0
    high_bid: int = 0
    high_bidder: int | None = None
    # buy phase / payment
    buyer: int | None = None
    pay_for: PayFor | None = None
    pay_card: int | None = None  # the wild won, or the market card chosen
    pay_price: int = 0
    after_buy: list[int] = Field(default_factory=list)  # extra buy phases still to come
    final: bool = False  # the last card has been flipped
    final_buys: bool = False  # the extra buy phases of section 4 are running
    took_numbers: bool = False  # the active player's reward this turn (for the final buy order)
    stats_busts: int = 0
    stats_auctions: int = 0


def copy_state(state: TenState) -> TenState:
    """A deep copy: the model copied, then each list field."""
    new = state.model_copy()
    new.players = list(state.players)
    new.pile = list(state.pile)
    new.tableau = list(state.tableau)
    new.market = list(state.market)
    new.discard = list(state.discard)
    new.removed = list(state.removed)
    new.collections = [list(c) for c in state.collections]
    new.currency = list(state.currency)
    new.bust = list(state.bust)
    new.bidders = list(state.bidders)
    new.after_buy = list(state.after_buy)
    return new


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Draw(_Action):
    type: Literal[ActionType.DRAW] = ActionType.DRAW


class Stop(_Action):
    """Stop and take a reward: the row's number cards or its currency."""

    type: Literal[ActionType.STOP] = ActionType.STOP
    take: Reward


class Bid(_Action):
    type: Literal[ActionType.BID] = ActionType.BID
    amount: int


class Pass(_Action):
    type: Literal[ActionType.PASS] = ActionType.PASS


class Buy(_Action):
    """Choose a market card to buy (by notation, e.g. ``"R5"``); payment follows."""

    type: Literal[ActionType.BUY] = ActionType.BUY
    card: str


class Skip(_Action):
    """Buy nothing in this buy phase."""

    type: Literal[ActionType.SKIP] = ActionType.SKIP


class Back(_Action):
    """Leave the payment of a chosen market card and choose again."""

    type: Literal[ActionType.BACK] = ActionType.BACK


class Pay(_Action):
    """Pay ``c`` currency tokens, ``b`` bust tokens and the collection cards in ``cards``
    (concatenated notation, e.g. ``"R1W7"``)."""

    type: Literal[ActionType.PAY] = ActionType.PAY
    c: int = 0
    b: int = 0
    cards: str = ""


TenAction = Annotated[
    Draw | Stop | Bid | Pass | Buy | Skip | Back | Pay, Field(discriminator="type")
]
