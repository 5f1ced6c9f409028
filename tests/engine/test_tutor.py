"""The tutor (game.tutor): what the learner met depends on the game alone, not on how often
the comment was drawn, so a tutor rebuilt from the log agrees with one that followed the game
live and drew its comment again and again."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.registry import engines, teachers
from game.registry.learn_deals import BOT_LEVEL, LEARNER, players_for
from game.tutor import LEARN_DEALS, Tutor, replay


@pytest.mark.parametrize("game", ["split", "ten"])
def test_a_tutor_rebuilt_from_the_log_met_what_the_live_one_met(game: str) -> None:
    engine, teacher, deal = engines()[game], teachers()[game], LEARN_DEALS[game]
    players = players_for(deal.seats)
    live = Tutor.start(engine, teacher, players, deal.seed, LEARNER)
    log: list[tuple[str, Any]] = []
    rng = random.Random(0)
    while not engine.is_over(live.state):
        waiting = engine.awaiting(live.state)[0]
        if waiting == LEARNER:
            for _ in range(3):
                live.now()  # the learner's message drawn again and again before the move
            comment = live.comment()
            assert comment is not None and comment.suggestion is not None
            action = comment.suggestion
        else:
            action = engine.bot_action(live.state, waiting, BOT_LEVEL, rng)
            live.now()  # a redraw while the bots play shows no comment, meets nothing
        log.append((waiting, action.model_dump(mode="json")))
        live.step(waiting, action)
    live.now()
    rebuilt = replay(engine, teacher, players, deal.seed, LEARNER, log)
    assert rebuilt.met == live.met
    assert rebuilt.missing() == []
    assert rebuilt.state.model_dump() == live.state.model_dump()
