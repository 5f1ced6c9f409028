"""Final standings (spec section 5): score, then most currency tokens, then fewest cards."""

from __future__ import annotations

from typing import Any

from game.base import PlayerResult, placements
from game.ten import cards
from game.ten.scoring import Score, score_notes
from game.ten.state import TenState


def score_breakdown(score: Score) -> dict[str, Any]:
    return {
        "runs": {
            run.colour: {
                "start": run.start,
                "end": run.end,
                "points": run.points,
                "cards": list(run.cards),
            }
            for run in score.runs
        },
        "assignment": [list(pair) for pair in score.assignment],
        "unused_wilds": list(score.unused_wilds),
    }


def _tie_break(keys: dict[str, tuple[int, int, int]], player: str) -> str:
    mine = keys[player]
    rivals = [key for other, key in keys.items() if other != player]
    if all(key[0] != mine[0] for key in rivals):
        return "score"
    same_score = [key for key in rivals if key[0] == mine[0]]
    if all(key[1] != mine[1] for key in same_score):
        return "currency tokens"
    same_currency = [key for key in same_score if key[1] == mine[1]]
    if all(key[2] != mine[2] for key in same_currency):
        return "fewest cards"
    return "shared"


def final_results(state: TenState) -> list[PlayerResult]:
    scores: dict[str, Score] = {}
    keys: dict[str, tuple[int, int, int]] = {}
    for seat, player in enumerate(state.players):
        notes = [cards.NOTATION[card] for card in state.collections[seat]]
        scores[player] = score_notes(notes)
        keys[player] = (scores[player].total, state.currency[seat], -len(notes))
    places = placements(keys)
    results = []
    for seat, player in enumerate(state.players):
        breakdown = score_breakdown(scores[player])
        breakdown.update(
            currency=state.currency[seat],
            bust_tokens=state.bust[seat],
            collection_size=len(state.collections[seat]),
            decided_by=_tie_break(keys, player),
        )
        results.append(
            PlayerResult(
                player=player,
                placement=places[player],
                score=scores[player].total,
                breakdown=breakdown,
            )
        )
    results.sort(key=lambda r: (r.placement, state.players.index(r.player)))
    return results
