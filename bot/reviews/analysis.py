"""Computing one player's review: the game replayed from its export (seed and action log),
and at each of the player's decisions the expert seat's own search (``engine.expert_decision``,
the same search and simulation cap as the expert seat's move) on the state before it, from
that player's view only: the search samples every card the player could not see.

The CPU budget of a game (``cpu_seconds``) is spread over the player's decisions: each
decision may use what is left divided by the decisions left, so a quick decision (the search
stops at its simulation cap) leaves more to the next ones. Once the budget is spent the
remaining decisions are counted but not searched (``Review.stopped``).

What a worker process runs (:func:`review_json`); nothing here reads the store or Discord.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Any

from pydantic import BaseModel

from bot.reviews.cpu_budget import CpuDeadline
from bot.reviews.model import Review, ReviewedDecision
from game.base import IllegalAction
from game.export_format import ExportFormatError, GameExport, parse_export
from game.registry import engines, replay_export
from game.replay import ReplayRefused

log = logging.getLogger(__name__)


def _json(action: Any) -> Any:
    return action.model_dump(mode="json") if isinstance(action, BaseModel) else action


def _unsearched(step: int, played: Any) -> ReviewedDecision:
    return ReviewedDecision(step=step, played=_json(played), expert=None, matched=False,
                            searched=False, compared=False, candidates=0, cost=None, worlds=0,
                            sweeps=0, simulations=0)


def review_player(export: GameExport, player: str, cpu_seconds: float) -> Review:
    """``player``'s review of the game in ``export`` within ``cpu_seconds`` of this process's
    CPU time."""
    engine = engines()[export.game]
    replay = replay_export(export, engine)
    started = time.process_time()
    # Step i is the i-th logged action.
    by_machine = {version for seat in export.seats if seat.player_id == player
                  for version in seat.machine_moves}
    own = [(index, row) for index, row in enumerate(export.actions, start=1)
           if row.player == player]
    # Moves the turn clock or a bot made for the player are not theirs to review.
    steps = [index for index, row in own if row.version not in by_machine]
    machine = len(own) - len(steps)
    decisions: list[ReviewedDecision] = []
    forced = 0
    stopped = False
    for position, index in enumerate(steps):
        before = replay.step(index - 1).state
        played = replay.step(index).action
        if len(engine.legal_actions(before, player)) < 2:
            forced += 1
            continue
        left = cpu_seconds - (time.process_time() - started)
        if left <= 0:
            stopped = True
            decisions.append(_unsearched(index, played))
            continue
        share = left / (len(steps) - position)
        rng = random.Random(f"review:{export.seed}:{index}:{player}")
        try:
            decision = engine.expert_decision(before, player, rng, CpuDeadline.after(share))
        except IllegalAction:  # the log says the player moved; the engine disagrees
            decisions.append(_unsearched(index, played))
            continue
        matched = decision.action == played
        compared = decision.index(played) is not None
        paired = None if matched else decision.paired(decision.action, played)
        cost: float | None = 0.0 if matched else (paired[0] if paired else None)
        # A single candidate (TEN's buy phase when no purchase adds points) is the expert's
        # move without a search: assessed, and a differing move was not compared.
        searched = decision.searched or len(decision.estimates) == 1
        if not searched:  # the budget cut the search before its first sweeps
            cost = None
            stopped = True
        decisions.append(ReviewedDecision(
            step=index, played=_json(played), expert=_json(decision.action),
            matched=matched, searched=searched, compared=compared,
            candidates=len(decision.estimates), cost=cost,
            worlds=decision.sweeps if matched else (paired[1] if paired else 0),
            sweeps=decision.sweeps, simulations=decision.simulations,
        ))
    return Review(game=export.game, player=player, decisions=decisions, forced=forced,
                  machine=machine, cpu_seconds=time.process_time() - started,
                  budget_seconds=cpu_seconds, stopped=stopped)


def review_json(export_json: str, player: str, cpu_seconds: float) -> str | None:
    """:func:`review_player` from and to JSON (what crosses to a worker process and back);
    None when the game cannot be reviewed (its log does not replay with this build, or its
    game is unknown): the exception stays in the worker."""
    try:
        export = parse_export(export_json)
        return review_player(export, player, cpu_seconds).model_dump_json()
    except (ReplayRefused, ExportFormatError, KeyError) as err:
        log.warning("no review: %s", type(err).__name__)
        return None
