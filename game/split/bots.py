"""The machine players of SPLIT by level, and the safe default move played for an absent
player.

Levels: "easy" plays a uniformly random legal action, "normal" the greedy policy
(``game.split.greedy``), "expert" the search (``game.split.expert``).
"""

from __future__ import annotations

import random

from game.base import IllegalAction
from game.search import Budget, Decision, capped
from game.split import expert
from game.split.actions import Discard, Done, Draw, MakeMatch, Skip, SplitAction, Target, Upgrade
from game.split.cards import CARD_NAMES
from game.split.greedy import greedy_action, least_useful_card
from game.split.rules import legal_actions
from game.split.state import SplitState
from game.split.vocabulary import Step


def random_action(state: SplitState, seat: int, rng: random.Random) -> SplitAction:
    return rng.choice(legal_actions(state, seat))


def _uses(action: SplitAction, face_name: str) -> bool:
    if isinstance(action, MakeMatch):
        return face_name in (action.a, action.b)
    return isinstance(action, Upgrade) and action.card == face_name


def default_action(state: SplitState, seat: int) -> SplitAction:
    """Take: draw. Main: use a pending picked card in the first legal play, else discard the
    least useful card. Bonuses: skip; perfect target: the next player. Lay-down: done."""
    step = state.step
    if step == Step.LAYDOWN and seat in state.laydown_waiting:
        return Done()
    if step == Step.GAME_OVER or step == Step.LAYDOWN or seat != state.turn:
        raise IllegalAction("The game is not waiting for you.")
    if step == Step.TAKE:
        return Draw()
    if step == Step.MAIN:
        if state.picked is not None:
            picked = CARD_NAMES[state.picked]
            for action in legal_actions(state, seat):
                if _uses(action, picked):
                    return action
        return Discard(card=least_useful_card(state, seat))
    if step == Step.BONUS_PERFECT:
        return Target(player=state.players[(seat + 1) % len(state.players)])
    return Skip()


def bot_action(
    state: SplitState, seat: int, level: str, rng: random.Random, limit: Budget | None = None
) -> SplitAction:
    if level == "easy":
        return random_action(state, seat, rng)
    if level == "expert":
        # The module's value at the time of the call: bench.bots sets another one.
        return expert_decision(state, seat, rng, limit).action
    return greedy_action(state, seat)


def expert_decision(
    state: SplitState, seat: int, rng: random.Random, limit: Budget | None = None
) -> Decision[SplitAction]:
    """The search an expert seat runs for its move (``bot_action`` at level "expert" plays
    this decision's action, from the same ``rng`` and ``limit``), with what it saw."""
    return expert.expert_decision(state, seat, rng, capped(expert.EXPERT_SIMULATIONS, limit))
