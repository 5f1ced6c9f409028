"""The expert TEN player: determinized Monte Carlo over the legal moves.

Each simulation shuffles the unseen cards into a pile (``hidden.sample_hidden``), plays the
candidate move and lets every seat play the normal bot's moves to the end of the game (the
rollout policy makes the normal bot's moves, scoring exactly, so the opponents are modelled as
they play). The outcome is the deciding seat's share of the win plus a small part of its score
margin (which separates moves that win equally often). The normal bot's own move is always
compared, and another move is played only when it beats that one by ``GUARD`` standard errors
on common worlds: a whole game's outcome is so noisy that the best mean of a few dozen worlds
is often luck, and the expert lost to normal while it played it (4 players: 10.7 % of 75
games, chance 25 %). The search itself is game-agnostic (``game.search``).

An auction offers every amount up to the bidder's wealth; the search compares passing, a few
amounts (the minimum raise and steps above it) and the amount that outbids what every later
bidder would pay for the wild by the rollout players' measure, from their public collections
and wealth. A buy phase compares skipping and the purchases that add the most points. A payment
compares the least wasteful ones and the first token-only one (the rollout players pay
token-only when they can, so the search valued the purchase with it). "Back" out of a
payment is never a candidate: its rollout is the buy phase played again by the rollout
policy, which may value that same purchase paid token-only above every payment compared
here, and the search would then buy and go back for ever (with an empty pile every sampled
world is the same, so nothing breaks the cycle).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from game.search import Budget, Decision, Iterations, Stop, search
from game.ten import cards
from game.ten.greedy import GREEDY_TOKENS_PER_POINT
from game.ten.hidden import sample_hidden
from game.ten.payments import wealth
from game.ten.rollout import (
    collection_score,
    greedy_move,
    outcome,
    play_out,
    play_out_turns,
    standing,
    step,
)
from game.ten.rules import legal
from game.ten.state import Bid, Buy, Pay, TenAction, TenState, copy_state
from game.ten.vocabulary import Phase

# Simulations per decision at level "expert" when the caller gives no budget (bench/bots.py
# measures the decision times this gives).
EXPERT_SIMULATIONS = 60
# A search the deadline stops before this many sweeps plays the rollout policy's move: on a
# busy machine one or two worlds per candidate made the expert lose to normal (4 players:
# 5 wins in 50 games).
MIN_SWEEPS = 4
# Sweeps before the first halving: a whole playout's outcome is so noisy that after two
# worlds drawing again lost to stopping in about a third of the draw decisions where it is
# clearly better (150 worlds: 0.33 against 0.21), and the expert drew half as often as normal.
FIRST_CUT = 8
# Bid amounts compared, as steps above the minimum raise.
BID_STEPS = (0, 1, 3)
# Payments compared (the legal list starts with the least wasteful ones).
PAYMENTS_COMPARED = 4
# Purchases compared: the ones that add the most points (by the rollout's scoring), if any.
BUYS_COMPARED = 4
# Playouts may stop when this many rounds of turns have begun and score the position: points
# plus WEALTH_WEIGHT per token of wealth, at the end WIN_BONUS points for the win. None (the
# default): play to the end. One round measured no better (9 wins in 25 games against normal,
# 2 players, 100 simulations) than whole playouts (50.5 % of 100 games, 60 simulations).
HORIZON_ROUNDS: int | None = None
WEALTH_WEIGHT = 0.3
WIN_BONUS = 5.0
# Weight of one point of score margin against a whole win.
MARGIN_WEIGHT = 0.02
# Standard errors by which a move must beat the normal bot's move on common worlds before
# the expert plays it instead (None: play the best mean).
GUARD: float | None = 2.0


def buy_candidates(state: TenState, seat: int, actions: Sequence[TenAction]) -> list[TenAction]:
    """Skip, and the ``BUYS_COMPARED`` purchases that add the most points (none that adds
    nothing: a card outside every run only costs). Reads the public market and collection."""
    collection = state.collections[seat]
    base = collection_score(collection)
    by_note = {cards.NOTATION[card]: card for card in state.market}
    gains: list[tuple[int, int, TenAction]] = []
    for index, action in enumerate(actions):
        if isinstance(action, Buy):
            gain = collection_score([*collection, by_note[action.card]]) - base
            if gain > 0:
                gains.append((-gain, index, action))
    best = sorted(gains)[:BUYS_COMPARED]
    kept = [action for _, _, action in sorted(best, key=lambda item: item[1])]
    return [*kept, *(a for a in actions if not isinstance(a, Buy))]


def outbid_amount(state: TenState) -> int | None:
    """One more than the most any later bidder would bid for the wild, as the rollout players
    (the normal bot's policy) value it from the public collections and wealth; None when
    nobody bids after this seat."""
    later = state.bidders[state.bid_index + 1 :]
    if not later:
        return None
    card = state.auction_card
    assert card is not None, "outbid_amount is asked in an auction only"
    most = 0
    for seat in later:
        collection = state.collections[seat]
        value = collection_score([*collection, card]) - collection_score(collection)
        most = max(most, min(wealth(state, seat), value * GREEDY_TOKENS_PER_POINT))
    return most + 1


def candidates(actions: Sequence[TenAction], outbid: int | None = None) -> list[TenAction]:
    """The actions the search compares: in an auction passing, a few amounts from the
    minimum raise, and ``outbid`` (when legal); the least wasteful payments (see above);
    otherwise every legal action."""
    bids = [a for a in actions if isinstance(a, Bid)]
    if bids:
        low = min(b.amount for b in bids)
        wanted = {low + s for s in BID_STEPS}
        if outbid is not None:
            wanted.add(outbid)
        return [a for a in actions if not isinstance(a, Bid) or a.amount in wanted]
    pays = [a for a in actions if isinstance(a, Pay)]
    if pays:
        kept: list[TenAction] = list(pays[:PAYMENTS_COMPARED])
        token_only = next((a for a in pays if not a.cards), None)
        if token_only is not None and token_only not in kept:
            kept.append(token_only)
        return kept
    return list(actions)


class TenSearch:
    """``game.search.Determinized`` for one TEN seat."""

    def __init__(self, state: TenState, seat: int) -> None:
        self._state = state
        self._seat = seat

    def sample(self, rng: random.Random) -> TenState:
        return sample_hidden(self._state, self._seat, rng)

    def candidates(self, world: TenState) -> Sequence[TenAction]:
        actions = legal(world, self._seat)
        if world.phase == Phase.BUY:
            return buy_candidates(world, self._seat, actions)
        if world.phase == Phase.AUCTION:
            return candidates(actions, outbid_amount(world))
        return candidates(actions)

    def outcome(
        self, world: TenState, action: TenAction, rng: random.Random, stop: Stop
    ) -> float:
        step(world, self._seat, action)
        if HORIZON_ROUNDS is None:
            play_out(world, stop)
            share, margin = outcome(world, self._seat)
            return share + MARGIN_WEIGHT * margin
        play_out_turns(world, HORIZON_ROUNDS * len(world.players), stop)
        return standing(world, self._seat, WEALTH_WEIGHT, WIN_BONUS)

    def default(self, world: TenState) -> TenAction:
        return greedy_move(world, self._seat)

    def copy(self, world: TenState) -> TenState:
        return copy_state(world)


def expert_action(
    state: TenState, seat: int, rng: random.Random, budget: Budget | None = None
) -> TenAction:
    return expert_decision(state, seat, rng, budget).action


def expert_decision(
    state: TenState, seat: int, rng: random.Random, budget: Budget | None = None
) -> Decision[TenAction]:
    """The expert's search with what it saw (the move is ``expert_action``'s)."""
    return search(
        TenSearch(state, seat), rng, budget or Iterations(EXPERT_SIMULATIONS), MIN_SWEEPS,
        FIRST_CUT, GUARD,
    )
