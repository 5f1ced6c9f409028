"""Pictures drawn as a picture worker draws them, by strips or whole (issue 42, sixth pass).

Two seeded 3-player games (seeds 1 and 2) of a game, played by the bots; a hand picture every
second action (the view of the player who just acted) and the table picture every fifth, in
one process, in English. Prints the pictures drawn, the strip cache's hits and misses, its
size, and the CPU per picture (process time: noisy on a shared machine). The figure to
compare is the instruction count under callgrind, which the machine's load does not change:

    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p \\
        .venv/bin/python -m bench.strips --game ten --draw strips
    callgrind_annotate /tmp/cg.<pid> | head    # "PROGRAM TOTALS"

run also with ``--draw whole`` (each picture painted and encoded whole, as before) and
``--draw none`` (the games' play and the imports alone): (total - none) / pictures is a
picture's cost. ``--workers K`` gives the pictures in turn to K caches, as the pool's
"next free worker" would with K workers (one per process: its hit rate); ``--strip-height``
and ``--cache-mib`` try other strips and bounds.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
from collections.abc import Sequence
from typing import Any

from bench._common import machine_line
from cogs.imaging import paint, strips
from cogs.imaging.strips import StripCache
from cogs.split.hand_image import render_hand as split_hand
from cogs.split.table_image import render_table as split_table
from cogs.ten.hand_image import render_hand as ten_hand
from cogs.ten.table_image import render_table as ten_table
from game.split import SplitEngine
from game.ten import TenEngine
from tests.images import samples

PLAYERS = 3
SEEDS = (1, 2)
HAND_EVERY = 2
TABLE_EVERY = 5


def pictures(game: str, tables: int = 1) -> list[tuple[str, Any]]:
    """The (kind, view) of every picture the run draws, in order: the games of seeds 1 and 2
    one after the other, or ``tables`` games (seeds 1 to ``tables``) at once, an action of
    each in turn."""
    engine: Any = SplitEngine() if game == "split" else TenEngine()
    seeds = SEEDS if tables == 1 else tuple(range(1, tables + 1))
    games = []
    for seed in seeds:
        state, _ = engine.new_game(samples.players(PLAYERS), seed)
        games.append((state, random.Random(seed), [0]))
    drawn: list[tuple[str, Any]] = []
    playing = games[:1] if tables == 1 else games
    while playing:
        for state, rng, done in playing:
            waiting = engine.awaiting(state)
            if not waiting:
                continue
            player = waiting[0]
            engine.apply(state, player, engine.bot_action(state, player, samples.LEVEL, rng))
            done[0] += 1
            if done[0] % HAND_EVERY == 0:
                drawn.append(("hand", engine.view(state, player)))
            if done[0] % TABLE_EVERY == 0:
                drawn.append(("table", engine.view(state, None)))
        playing = [g for g in playing if engine.awaiting(g[0])]
        if not playing and tables == 1 and len(games) > 1:
            games = games[1:]
            playing = games[:1]
    return drawn


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strips", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("split", "ten"), default="ten")
    parser.add_argument("--draw", choices=("strips", "whole", "none"), default="strips")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--tables", type=int, default=1,
                        help="games played at once, their pictures interleaved")
    parser.add_argument("--strip-height", type=int, default=strips.STRIP_HEIGHT)
    parser.add_argument("--cache-mib", type=float, default=strips.CACHE_BYTES / 2**20)
    args = parser.parse_args(argv)

    names = samples.names(PLAYERS)
    table_of, hand_of = ((split_table, split_hand) if args.game == "split"
                         else (ten_table, ten_hand))
    paint.STRIP_HEIGHT = args.strip_height
    caches = [StripCache(int(args.cache_mib * 2**20)) for _ in range(args.workers)]
    drawn = pictures(args.game, args.tables)
    if args.draw == "none":
        print(f"{len(drawn)} pictures not drawn")
        return 0
    start = time.process_time()
    for index, (kind, view) in enumerate(drawn):
        paint.STRIPS = caches[index % args.workers]
        render = table_of if kind == "table" else hand_of
        if args.draw == "whole":
            with paint.whole_pictures():
                render(view, names)
        else:
            render(view, names)
    cpu = time.process_time() - start
    print(machine_line())
    print(f"{args.game}: {len(drawn)} pictures ({sum(k == 'hand' for k, _ in drawn)} hands), "
          f"drawn {args.draw}, {cpu / len(drawn) * 1000:.2f} CPU ms per picture")
    if args.draw == "strips":
        hits = sum(c.hits for c in caches)
        misses = sum(c.misses for c in caches)
        print(f"strips of {args.strip_height} rows, {args.workers} cache(s) of "
              f"{args.cache_mib:g} MiB: {hits} hits, {misses} misses "
              f"({hits / max(1, hits + misses):.1%} hit), "
              f"{sum(len(c) for c in caches)} strips kept, "
              f"{sum(c.bytes for c in caches) / 2**20:.1f} MiB counted")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
