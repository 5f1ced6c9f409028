"""Final standings as the process records them: the engine's results with leavers placed last.

A player who left a running game for good (a bot played their seat) is placed after everyone
who stayed, whatever the seat scored. The session manager writes these placements into the
results table, and a replay compares against them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from game.base import PlayerId, PlayerResult


def leavers_last(
    results: Sequence[PlayerResult], leavers: Collection[PlayerId]
) -> dict[PlayerId, int]:
    """Placements with every leaver after everyone who stayed (leavers share last place);
    the others keep their order, ties included (1, 1, 3)."""
    stayed = [r.placement for r in results if r.player not in leavers]
    last = len(stayed) + 1
    return {
        r.player: last if r.player in leavers else 1 + sum(p < r.placement for p in stayed)
        for r in results
    }


def standings(results: Sequence[PlayerResult], leavers: Collection[PlayerId]) -> list[PlayerResult]:
    """``results`` with the placements of :func:`leavers_last`, best placement first (the
    engine's order among equal placements)."""
    places = leavers_last(results, leavers)
    placed = [r.model_copy(update={"placement": places[r.player]}) for r in results]
    return sorted(placed, key=lambda r: r.placement)
