"""The machine players of TEN by level, and the absent player's default move.

- Levels: "easy" plays a uniformly random legal action, "normal" the greedy policy
  (``game.ten.greedy``), "expert" the search (``game.ten.expert``).
- ``default_action``: stop whenever stopping is allowed (reward by ``preferred_reward``), else
  draw; pass in an auction; the least wasteful payment; skip a buy (also "back" out of a
  chosen card's payment, which is never needed because skipping is always possible).
"""

from __future__ import annotations

import random

from game.search import Budget, Decision, capped
from game.ten import expert
from game.ten.greedy import greedy_action, preferred_reward
from game.ten.payments import payment_options
from game.ten.rules import can_stop, legal, waiting_seat
from game.ten.state import Draw, Pass, Skip, TenAction, TenState
from game.ten.vocabulary import PayFor, Phase


def default_action(state: TenState, seat: int) -> TenAction:
    phase = state.phase
    if phase == Phase.DRAW:
        return preferred_reward(state, seat) if can_stop(state) else Draw()
    if phase == Phase.AUCTION:
        return Pass()
    if phase == Phase.PAY:
        options = payment_options(
            state, state.players[seat], state.pay_price, cards_allowed=state.pay_for == PayFor.CARD
        )
        return options[0].action()
    return Skip()


def random_action(state: TenState, seat: int, rng: random.Random) -> TenAction:
    return rng.choice(legal(state, seat))


def bot_action(
    state: TenState, seat: int, level: str, rng: random.Random, limit: Budget | None = None
) -> TenAction:
    assert waiting_seat(state) == seat
    if level == "easy":
        return random_action(state, seat, rng)
    if level == "expert":
        # The module's value at the time of the call: bench.bots sets another one.
        return expert_decision(state, seat, rng, limit).action
    return greedy_action(state, seat)


def expert_decision(
    state: TenState, seat: int, rng: random.Random, limit: Budget | None = None
) -> Decision[TenAction]:
    """The search an expert seat runs for its move (``bot_action`` at level "expert" plays
    this decision's action, from the same ``rng`` and ``limit``), with what it saw."""
    return expert.expert_decision(state, seat, rng, capped(expert.EXPERT_SIMULATIONS, limit))
