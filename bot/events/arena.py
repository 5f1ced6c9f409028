"""Arena scoring and seating for tables of 2 to 4 players: pure, no I/O, no clock.

Source: the rules every lichess arena page states (for example
https://lichess.org/tournament/VtYQfBKs, "How are scores calculated?", "How is the winner
decided?" and its pairing paragraph): for the arena's duration a player who finishes a game
is paired again as soon as possible with a player close in the ranking; a win scores 2, a
draw 1, a loss 0; after two wins in a row a player is on a double-point streak (the flame)
and every game scores double until a game that is not won; when the countdown ends the
ranking is frozen. Here a game still running at the end does not count for the arena (it is
still an ordinary rated game). Where a table of 3 or 4 differs from a chess game: a *win* is
first place alone, a *draw* a shared first place, anything else a loss. Berserk does not
exist here. Ties: lichess breaks them by tournament performance (a rating); here by wins,
then fewer games played (the same points in fewer games), then registration order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from game.base import PlayerId

WIN = 2
DRAW = 1
STREAK_AFTER = 2  # wins in a row before points are doubled


@dataclass(frozen=True)
class ArenaLine:
    player: PlayerId
    rank: int
    points: int
    games: int
    wins: int
    on_fire: bool  # the next game scores double


def game_outcome(placements: Mapping[PlayerId, int], player: PlayerId) -> int:
    """The base points of ``player``'s game: 2 for first alone, 1 for a shared first, 0."""
    best = min(placements.values())
    if placements[player] != best:
        return 0
    return WIN if sum(1 for place in placements.values() if place == best) == 1 else DRAW


def arena_standings(players: Sequence[PlayerId],
                    games: Iterable[Mapping[PlayerId, int]]) -> list[ArenaLine]:
    """The ranking of ``players`` (registration order) after ``games`` (each a table's
    placements, in the order the games ended), best first."""
    points = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    wins = dict.fromkeys(players, 0)
    run = dict.fromkeys(players, 0)  # wins in a row so far
    for placements in games:
        for player in placements:
            if player not in points:
                continue
            base = game_outcome(placements, player)
            points[player] += base * (2 if run[player] >= STREAK_AFTER else 1)
            played[player] += 1
            if base == WIN:
                wins[player] += 1
                run[player] += 1
            else:
                run[player] = 0
    order = {player: index for index, player in enumerate(players)}
    ranked = sorted(players, key=lambda p: (-points[p], -wins[p], played[p], order[p]))
    return [ArenaLine(player, index + 1, points[player], played[player], wins[player],
                      run[player] >= STREAK_AFTER) for index, player in enumerate(ranked)]


def seat_waiting(waiting: Sequence[PlayerId], per_table: int, *,
                 last_table: Mapping[PlayerId, frozenset[PlayerId]],
                 others_playing: bool) -> list[tuple[PlayerId, ...]]:
    """Tables for the waiting players (``waiting`` best-ranked first): groups of ``per_table``
    neighbours in the ranking, each player kept from the players of their previous table
    where another waiting player can take the seat. A smaller group left over (2 or more) is
    seated when nobody else is playing (nobody else will come); otherwise it waits for the
    next player who finishes, as does a single player."""
    left = list(waiting)
    tables: list[tuple[PlayerId, ...]] = []
    while len(left) >= per_table or (len(left) >= 2 and not others_playing):
        size = min(per_table, len(left))
        table = [left.pop(0)]
        while len(table) < size:
            fresh = next((p for p in left
                          if not any(p in last_table.get(q, frozenset()) for q in table)),
                         left[0])
            left.remove(fresh)
            table.append(fresh)
        tables.append(tuple(table))
    return tables
