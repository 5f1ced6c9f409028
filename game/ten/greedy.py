"""The normal TEN bot ("normal" level), whose moves the expert's rollout players make
(``game.ten.rollout.greedy_move`` is this policy on card ids).

It stops once the public bust chance exceeds ``GREEDY_STOP_RISK``; takes the reward
``preferred_reward`` names; values a wild at ``GREEDY_TOKENS_PER_POINT`` tokens per point it
adds to its score and bids that value (the last bidder, who sees every other bid, only the
minimum raise); buys the market card that adds the most points, when tokens alone can pay for
it; pays token-only when it can.
"""

from __future__ import annotations

from game.ten import cards, data
from game.ten.odds import bust_chance, tableau_currency
from game.ten.payments import payment_options, wealth
from game.ten.rules import can_stop, legal
from game.ten.scoring import score_total
from game.ten.state import Bid, Buy, Draw, Pass, Skip, Stop, TenAction, TenState
from game.ten.vocabulary import PayFor, Phase, Reward

GREEDY_STOP_RISK = 0.3
GREEDY_TOKENS_PER_POINT = 3


def _notes(state: TenState, seat: int) -> list[str]:
    return [cards.NOTATION[card] for card in state.collections[seat]]


def points_gained(state: TenState, seat: int, extra: list[str]) -> int:
    """How many points ``extra`` cards would add to the seat's score."""
    notes = _notes(state, seat)
    return score_total(notes + extra) - score_total(notes)


def preferred_reward(state: TenState, seat: int) -> Stop:
    """Take the numbers when they add at least as many points as the currency tokens the
    player would gain (after the cap) by taking the currency; otherwise take the currency."""
    numbers = [cards.NOTATION[c] for c in state.tableau if cards.NUMBER[c]]
    currency_gain = min(data.CURRENCY_CAP, state.currency[seat] + tableau_currency(state.tableau))
    currency_gain -= state.currency[seat]
    take_numbers = points_gained(state, seat, numbers) >= currency_gain
    return Stop(take=Reward.NUMBERS if take_numbers else Reward.CURRENCY)


def greedy_action(state: TenState, seat: int) -> TenAction:
    phase = state.phase
    if phase == Phase.DRAW:
        if can_stop(state) and (not state.pile or bust_chance(state) > GREEDY_STOP_RISK):
            return preferred_reward(state, seat)
        return Draw()
    if phase == Phase.AUCTION:
        assert state.auction_card is not None
        value = points_gained(state, seat, [cards.NOTATION[state.auction_card]])
        limit = min(wealth(state, seat), value * GREEDY_TOKENS_PER_POINT)
        low = max(state.high_bid + 1, data.MIN_FIRST_BID)
        if low > limit:
            return Pass()
        # Every seat bids once: the last bidder needs only the minimum raise; an earlier
        # one bids what the wild is worth to it, so a later seat pays that to outbid it.
        last = state.bid_index == len(state.bidders) - 1
        return Bid(amount=low if last else limit)
    if phase == Phase.PAY:
        options = payment_options(
            state, state.players[seat], state.pay_price, cards_allowed=state.pay_for == PayFor.CARD
        )
        token_only = [o for o in options if not o.cards]
        return (token_only or options)[0].action()
    if phase == Phase.BUY:
        best: tuple[int, str] | None = None
        for action in legal(state, seat):
            if isinstance(action, Buy) and int(action.card[1]) <= wealth(state, seat):
                gain = points_gained(state, seat, [action.card])
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, action.card)
        return Buy(card=best[1]) if best else Skip()
    raise AssertionError("greedy_action called when the game does not wait for this seat")
