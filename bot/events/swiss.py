"""Swiss pairing and standings for tables of 2 to 4 players: pure, no I/O, no clock.

Sources, and where a multi-player table differs from chess:

- FIDE Handbook C.04.1, *Basic rules for Swiss systems* (https://handbook.fide.com/chapter/
  C0401202507): the number of rounds is declared beforehand (1); two players shall not meet
  more than once (2); an unpaired player gets a pairing-allocated bye worth a win (3), never
  twice (4); players are in general paired with others of the same score (5). Here a *table*
  seats 2 to 4 players: rule 2 becomes "no two players share a table twice where avoidable"
  (the pairing minimises the number of repeated pairs, then the score distance); colours
  (rules 6-8) do not exist. A bye happens only when one player would be left alone (tables of
  2 with an odd count, or a single player): the lowest-ranked player without a bye gets it,
  worth a win (as C.04.1 rule 3 and C.04.2 B.8.1 "the lowest rank in the lowest score-group").
- Game points: chess scores a win 1, a draw ½, a loss 0. A table of n players is scored as the
  n-1 games of each player against each other player at it: 1 for each player placed below,
  ½ for each tied, divided by n-1. A player scores at most 1 per round (first alone), as in
  chess, and a table of two scores exactly chess's 1/½/0.
- Tie-breaks, in this order (FIDE Handbook C.07, *Tie-break regulations*, 2024, article 4.2:
  an ordered list; article 5's Buchholz, Sonneborn-Berger and number of wins): 1. points,
  2. Buchholz (the sum of the final points of every opponent met at a table; a bye adds the
  player's own points, a simplification of C.07's virtual opponent), 3. Sonneborn-Berger (for
  each game, its game points times the average final points of that table's opponents),
  4. games won (first place alone or shared), 5. registration order (C.07 ends with lots; a
  stated order is reproducible).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from game.base import PlayerId

MIN_TABLE = 2
MAX_TABLE = 4
SEARCH_NODES = 5_000  # the pairing search's bound; past it the best round found so far is used
# A table's other seats are chosen among this many players next in the ranking (a Swiss pairs
# players of close scores; it also bounds each step of the search).
NEAREST_CANDIDATES = 9


@dataclass(frozen=True)
class TableResult:
    """One finished table: each seated player's placement (1 = first; equal placements tie).
    Bot seats are not listed: they score nothing and are nobody's opponent."""

    placements: Mapping[PlayerId, int]


@dataclass(frozen=True)
class Bye:
    player: PlayerId


Round = Sequence[TableResult | Bye]


def game_points(placements: Mapping[PlayerId, int]) -> dict[PlayerId, Fraction]:
    """Each player's points at one table: the share of the others placed below them (a tie
    counts half), so first alone is 1 and last alone 0; two players score as chess does."""
    players = list(placements)
    others = len(players) - 1
    if others <= 0:
        return {player: Fraction(1) for player in players}
    points: dict[PlayerId, Fraction] = {}
    for player in players:
        mine = placements[player]
        beaten = sum((Fraction(1) if mine < placements[other] else
                      Fraction(1, 2) if mine == placements[other] else Fraction(0)
                      for other in players if other != player), Fraction(0))
        points[player] = beaten / others
    return points


@dataclass(frozen=True)
class Line:
    """A player's line of the standings."""

    player: PlayerId
    rank: int
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    wins: int
    played: int
    byes: int


@dataclass
class _Tally:
    points: Fraction = Fraction(0)
    wins: int = 0
    played: int = 0
    byes: int = 0
    opponents: list[PlayerId] = field(default_factory=list)
    # (game points, that table's opponents) per game played
    games: list[tuple[Fraction, tuple[PlayerId, ...]]] = field(default_factory=list)


def standings(players: Sequence[PlayerId], rounds: Iterable[Round]) -> list[Line]:
    """The standings of ``players`` (in registration order) after ``rounds``, best first,
    ranked by points, Buchholz, Sonneborn-Berger, wins, then registration order (see the
    module doc). Players who only withdrew stay listed with what they scored."""
    tally = {player: _Tally() for player in players}
    for played_round in rounds:
        for entry in played_round:
            if isinstance(entry, Bye):
                if entry.player in tally:
                    one = tally[entry.player]
                    one.points += 1
                    one.byes += 1
                continue
            scored = game_points(entry.placements)
            best = min(entry.placements.values(), default=0)
            for player, points in scored.items():
                if player not in tally:
                    continue
                one = tally[player]
                others = tuple(other for other in entry.placements if other != player)
                one.points += points
                one.played += 1
                one.wins += entry.placements[player] == best
                one.opponents.extend(others)
                one.games.append((points, others))
    def of(player: PlayerId) -> Fraction:
        return tally[player].points if player in tally else Fraction(0)

    order = {player: index for index, player in enumerate(players)}
    lines = []
    for player in players:
        one = tally[player]
        buchholz = sum((of(opponent) for opponent in one.opponents), Fraction(0))
        buchholz += one.points * one.byes
        berger = sum((points * sum((of(other) for other in others), Fraction(0)) / len(others)
                      for points, others in one.games if others), Fraction(0))
        lines.append(Line(player, 0, one.points, buchholz, berger, one.wins, one.played,
                          one.byes))
    lines.sort(key=lambda line: (-line.points, -line.buchholz, -line.sonneborn_berger,
                                 -line.wins, order[line.player]))
    return [Line(line.player, index + 1, line.points, line.buchholz, line.sonneborn_berger,
                 line.wins, line.played, line.byes) for index, line in enumerate(lines)]


def table_sizes(count: int, per_table: int) -> list[int]:
    """How many players sit at each table of a round of ``count`` players, biggest first: as
    evenly as possible over as few tables as hold them. A lone player left over (tables of 2
    and an odd count, or one player) is the bye, a table of 1, unless bot seats fill the
    tables (then every table is filled up to ``per_table`` with bot seats)."""
    if not MIN_TABLE <= per_table <= MAX_TABLE:
        raise ValueError(f"tables seat {MIN_TABLE} to {MAX_TABLE} players")
    if count <= 0:
        return []
    tables = -(-count // per_table)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


@dataclass(frozen=True)
class Pairing:
    """One round's seating: the tables (players in seat order, ranked first) and the bye."""

    tables: tuple[tuple[PlayerId, ...], ...]
    bye: PlayerId | None


def met_pairs(rounds: Iterable[Round]) -> Counter[frozenset[PlayerId]]:
    """How many times each pair of players shared a table."""
    met: Counter[frozenset[PlayerId]] = Counter()
    for played_round in rounds:
        for entry in played_round:
            if isinstance(entry, TableResult):
                for a, b in itertools.combinations(entry.placements, 2):
                    met[frozenset((a, b))] += 1
    return met


def pair_round(ranked: Sequence[PlayerId], rounds: Sequence[Round], per_table: int, *,
               fill_with_bots: bool = False) -> Pairing:
    """Seat the next round of ``ranked`` (the active players, best first: the standings'
    order) in tables of ``table_sizes``. The bye, when one is needed, goes to the lowest-ranked
    player who had none; with ``fill_with_bots`` there is none (the service fills that table
    with bot seats). The tables are filled from the top of the ranking, each seat chosen to
    minimise first the pairs that already met, then how far apart in the ranking the table's
    players are (a search over the seatings of the players nearest in the ranking, bounded by
    :data:`SEARCH_NODES`; the first seating tried takes the cheapest table at each step)."""
    players = list(ranked)
    bye: PlayerId | None = None
    sizes = table_sizes(len(players), per_table)
    if sizes and sizes[-1] == 1 and not fill_with_bots:
        had_bye = {entry.player for played in rounds for entry in played
                   if isinstance(entry, Bye)}
        bye = next((p for p in reversed(players) if p not in had_bye), players[-1])
        players.remove(bye)
        sizes = sizes[:-1]
    if not sizes:
        return Pairing((), bye)
    met = met_pairs(rounds)
    rank = {player: index for index, player in enumerate(players)}
    best: list[tuple[int, int, list[tuple[PlayerId, ...]]]] = []
    nodes = 0

    def cost(table: Sequence[PlayerId]) -> tuple[int, int]:
        repeats = sum(met[frozenset(pair)] for pair in itertools.combinations(table, 2))
        spread = max(rank[p] for p in table) - min(rank[p] for p in table)
        return repeats, spread

    def search(left: list[PlayerId], table_index: int, repeats: int, spread: int,
               seated: list[tuple[PlayerId, ...]]) -> None:
        nonlocal nodes
        nodes += 1
        if best and (repeats, spread) >= (best[0][0], best[0][1]):
            return
        if table_index == len(sizes):
            best[:] = [(repeats, spread, list(seated))]
            return
        if nodes > SEARCH_NODES and best:
            return
        first, rest = left[0], left[1:]
        # the table's other seats come from the players nearest in the ranking
        nearest = rest[:NEAREST_CANDIDATES]
        # the cheapest tables first: the first seating found is the greedy one
        choices = sorted(((cost((first, *others)), others)
                          for others in itertools.combinations(nearest, sizes[table_index] - 1)),
                         key=lambda choice: choice[0])
        for (more_repeats, more_spread), others in choices:
            if nodes > SEARCH_NODES and best:
                return
            table = (first, *others)
            remaining = [p for p in rest if p not in others]
            seated.append(table)
            search(remaining, table_index + 1, repeats + more_repeats, spread + more_spread,
                   seated)
            seated.pop()

    search(players, 0, 0, 0, [])
    return Pairing(tuple(best[0][2]), bye)


def repeated_pairs(pairing: Pairing, rounds: Sequence[Round]) -> int:
    """How many pairs of ``pairing`` already shared a table (0 where avoidable)."""
    met = met_pairs(rounds)
    return sum(met[frozenset(pair)] for table in pairing.tables
               for pair in itertools.combinations(table, 2))
