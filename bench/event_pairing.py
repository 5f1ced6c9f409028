"""How long one Swiss round's pairing takes (``bot.events.swiss.pair_round``, run in the bot's
event loop when a round ends) and how many pairs it seats again, for events of several sizes
over five rounds with seeded random placements.

    python -m bench.event_pairing

Prints figures only: nothing is asserted (``tests/`` checks behaviour).
"""

from __future__ import annotations

import random
import time

from bench._common import machine_line, table
from bot.events.swiss import Round, TableResult, pair_round, repeated_pairs, standings

SIZES = ((6, 3), (9, 3), (12, 4), (30, 3), (64, 4), (100, 2), (200, 4), (300, 3))
ROUNDS = 5


def run(players: int, per_table: int) -> tuple[float, list[int]]:
    """The slowest round's pairing in ms, and the repeated pairs of each round."""
    ids = [str(n) for n in range(players)]
    rounds: list[Round] = []
    rng = random.Random(players * 10 + per_table)
    slowest = 0.0
    repeats = []
    for _ in range(ROUNDS):
        ranked = [line.player for line in standings(ids, rounds)]
        started = time.perf_counter()
        pairing = pair_round(ranked, rounds, per_table)
        slowest = max(slowest, time.perf_counter() - started)
        repeats.append(repeated_pairs(pairing, rounds))
        rounds.append([TableResult({p: rng.randint(1, len(seated)) for p in seated})
                       for seated in pairing.tables])
    return slowest * 1000, repeats


def main() -> None:
    print(machine_line())
    rows = []
    for players, per_table in SIZES:
        slowest, repeats = run(players, per_table)
        rows.append((players, per_table, f"{slowest:.0f}", " ".join(map(str, repeats))))
    print(table(("players", "per table", "slowest round (ms)", "repeated pairs by round"),
                rows))


if __name__ == "__main__":
    main()
