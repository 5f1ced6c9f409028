"""The words TEN's modules share, as ``StrEnum`` s: phases, action types, event kinds, rewards,
bust kinds, what a payment is for, and the phase names the table shows.

A member *is* its value (``Phase.DRAW == "draw"``), so JSON, snapshots and stored action logs
read and write the same strings as before the enums existed.

Python 3.11 reads an enum member (``Phase.DRAW``) through the enum class's ``__getattr__``,
about ten times the cost of reading a module global; the rules' hot paths therefore bind the
members they use to module globals once.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """What the game waits for (``TenState.phase``)."""

    DRAW = "draw"  # the active player flips a card or stops
    AUCTION = "auction"  # the seats bid on a flipped wild in turn
    PAY = "pay"  # the auction's winner or a buyer chooses a payment
    BUY = "buy"  # the buyer may choose a market card
    OVER = "over"


class ActionType(StrEnum):
    """The ``type`` discriminator of the action models (``game.ten.state``)."""

    DRAW = "draw"
    STOP = "stop"
    BID = "bid"
    PASS = "pass"
    BUY = "buy"
    SKIP = "skip"
    BACK = "back"
    PAY = "pay"


class EventKind(StrEnum):
    """``Event.kind`` of the events the rules make."""

    TURN = "turn"
    FLIP = "flip"
    BUST = "bust"
    STOP = "stop"
    AUCTION = "auction"
    BID = "bid"
    PASS = "pass"
    WON = "won"
    UNSOLD = "unsold"
    PAID = "paid"
    CHOOSE = "choose"
    BACK = "back"
    BOUGHT = "bought"
    SKIP = "skip"
    FINAL_BUY = "final_buy"
    OVER = "over"


class Reward(StrEnum):
    """What a player who stops takes (``Stop.take``)."""

    NUMBERS = "numbers"  # the row's number cards into the collection
    CURRENCY = "currency"  # the row's currency as tokens


class BustKind(StrEnum):
    """Why a flip busted (the ``bust`` event's ``bust``)."""

    NUMBER = "number"  # the running total reached the number limit
    CURRENCY = "currency"  # the row's currency reached the currency limit


class PayFor(StrEnum):
    """What the pending payment buys (``TenState.pay_for``)."""

    WILD = "wild"  # the wild won in the auction (tokens only)
    CARD = "card"  # the market card chosen in a buy phase


class TablePhase(StrEnum):
    """The phase as the table shows it (``TenView.phase``)."""

    DRAW = "draw"
    AUCTION = "auction"
    PAYMENT = "payment"
    BUY = "buy"
    FINAL_BUYS = "final buys"
    OVER = "over"
