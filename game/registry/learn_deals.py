"""Finds the fixed deals of ``/learn`` (``game.tutor.LEARN_DEALS``).

A candidate seed is played out with the learner in seat 0 following every suggestion of the
tutor and the bot seats playing the normal (greedy) level, as ``/learn`` seats them; the deal
kept is the one whose learner meets every required rule in the fewest of their decisions.
Everything is deterministic: the same arguments print the same deal.

    python -m game.registry.learn_deals split --seats 3 --count 400
    python -m game.registry.learn_deals ten --seats 2 --count 400
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from game.base import Engine
from game.registry import engines, teachers
from game.tutor import Deal, Tutor

LEARNER = "learner"
BOT_LEVEL = "normal"  # the bot seats of /learn
MAX_ACTIONS = 5000  # a guard: every game ends long before

Choose = Callable[[Tutor, list[Any]], Any]


def players_for(seats: int, learner: str = LEARNER) -> list[str]:
    return [learner, *(f"bot:{index}" for index in range(1, seats))]


def follow_suggestions(tutor: Tutor, legal: list[Any]) -> Any:
    comment = tutor.comment()
    assert comment is not None and comment.suggestion is not None
    return comment.suggestion


def play_through(game: str, deal: Deal, choose: Choose = follow_suggestions) -> tuple[Tutor, int]:
    """The whole game of ``deal``; returns the tutor and the learner's decision count when
    the last required rule came up (0: never)."""
    engine: Engine[Any, Any] = engines()[game]
    tutor = Tutor.start(engine, teachers()[game], players_for(deal.seats), deal.seed, LEARNER)
    rng = random.Random(0)  # the normal level never draws from it
    decisions, complete_at = 0, 0
    for _ in range(MAX_ACTIONS):
        if engine.is_over(tutor.state):
            break
        waiting = engine.awaiting(tutor.state)[0]
        if waiting == LEARNER:
            decisions += 1
            action = choose(tutor, engine.legal_actions(tutor.state, LEARNER))
        else:
            action = engine.bot_action(tutor.state, waiting, BOT_LEVEL, rng)
        tutor.step(waiting, action)
        if not complete_at and not tutor.missing():
            complete_at = decisions
    else:
        raise AssertionError(f"{game} seed {deal.seed} did not end")
    tutor.now()
    if not complete_at and not tutor.missing():
        complete_at = decisions + 1
    return tutor, complete_at


def search(game: str, seats: int, start: int, count: int) -> tuple[Deal, int] | None:
    best: tuple[Deal, int] | None = None
    for seed in range(start, start + count):
        deal = Deal(seed, seats)
        _, complete_at = play_through(game, deal)
        if complete_at and (best is None or complete_at < best[1]):
            best = (deal, complete_at)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(teachers()))
    parser.add_argument("--seats", type=int, required=True)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--count", type=int, default=400)
    args = parser.parse_args(argv)
    best = search(args.game, args.seats, args.start, args.count)
    if best is None:
        print(f"no seed in {args.start}..{args.start + args.count - 1} meets every rule")
        return 1
    deal, complete_at = best
    tutor, _ = play_through(args.game, deal)
    print(f"{args.game}: Deal(seed={deal.seed}, seats={deal.seats}); every rule met by "
          f"decision {complete_at}; order met: {' '.join(tutor.met)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
