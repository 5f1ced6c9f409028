"""Render time and size of the table and hand images, per game and player count.

Positions come from seeded bot play through the engines (``tests.images.samples``): for each
configuration, several games are played and a position is kept every few actions. Each
position is rendered (layout, paint, PNG encoding: what a worker process does for one
image, without the cache) and timed; p50 and p95 over all positions are printed with the
bytes per image, as wall-clock time and as CPU time of this process (which other work on the
machine changes less), and the CPU time of the encoding step alone (palette + PNG).

    python -m bench.images            # the full table (well under a minute)
    python -m bench.images --quick    # a few positions each, for the smoke test
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from bench._common import machine_line, median, percentile, table
from cogs.imaging import paint
from cogs.imaging.png import encode
from cogs.split.hand_image import render_hand as split_hand
from cogs.split.score_image import render_scores as split_scores
from cogs.split.table_image import render_table as split_table
from cogs.ten.final_image import render_final as ten_final
from cogs.ten.hand_image import render_hand as ten_hand
from cogs.ten.table_image import render_table as ten_table
from game.base import Engine
from game.split import SplitEngine
from game.ten import TenEngine
from tests.images import samples

CONFIGS: tuple[tuple[str, int], ...] = (
    ("split", 2), ("split", 4), ("split", 6), ("ten", 2), ("ten", 5),
)
Render = Callable[[], bytes]


def positions(engine: Engine[Any, Any], players: int, games: int, every: int,
              seed: int) -> tuple[list[Any], list[Any]]:
    """(positions during play, final positions) of ``games`` seeded bot games."""
    during: list[Any] = []
    finals: list[Any] = []
    for game in range(games):
        state, _ = engine.new_game(samples.players(players), seed + game)
        rng = random.Random(seed + game)
        done = 0
        while waiting := engine.awaiting(state):
            if done % every == every - 1:
                during.append(engine.copy_state(state))
            player = waiting[0]
            engine.apply(state, player, engine.bot_action(state, player, samples.LEVEL, rng))
            done += 1
        finals.append(state)
    return during, finals


def renders(key: str, engine: Engine[Any, Any], players: int, during: Sequence[Any],
            finals: Sequence[Any]) -> dict[str, list[Render]]:
    names = samples.names(players)
    table_of, hand_of = (split_table, split_hand) if key == "split" else (ten_table, ten_hand)
    final_of = split_scores if key == "split" else ten_final
    jobs: dict[str, list[Render]] = {"table": [], "hand": [], "final": []}
    for state in during:
        public = engine.view(state, None)
        jobs["table"].append(lambda v=public: table_of(v, names))
        player = state.players[len(jobs["hand"]) % players]
        private = engine.view(state, player)
        jobs["hand"].append(lambda v=private: hand_of(v, names))
    for state in finals:
        public = engine.view(state, None)
        results = engine.results(state)
        jobs["final"].append(lambda v=public, r=results: final_of(v, r, names))
    return jobs


@dataclass
class Timed:
    seconds: list[float] = field(default_factory=list)  # wall clock
    cpu: list[float] = field(default_factory=list)  # process time
    encode_cpu: list[float] = field(default_factory=list)  # process time in png.encode
    sizes: list[int] = field(default_factory=list)


def time_renders(jobs: Sequence[Render]) -> Timed:
    timed = Timed()
    encoding = [0.0]

    def timed_encode(image: Image.Image, palette: Image.Image | None = None) -> bytes:
        start = time.process_time()
        try:
            return encode(image, palette)
        finally:
            encoding[0] += time.process_time() - start

    paint.encode = timed_encode  # type: ignore[assignment]
    # Whole pictures, their encoding timed (issue 42, sixth pass: positions a dozen actions
    # apart share few strips; ``bench.strips`` draws consecutive versions as a worker does).
    try:
        with paint.whole_pictures():
            for job in jobs:
                encoding[0] = 0.0
                start, start_cpu = time.perf_counter(), time.process_time()
                data = job()
                timed.seconds.append(time.perf_counter() - start)
                timed.cpu.append(time.process_time() - start_cpu)
                timed.encode_cpu.append(encoding[0])
                timed.sizes.append(len(data))
    finally:
        paint.encode = encode
    return timed


def measure(games: int, every: int, seed: int) -> list[list[object]]:
    engines: dict[str, Engine[Any, Any]] = {"split": SplitEngine(), "ten": TenEngine()}
    rows: list[list[object]] = []
    for key, players in CONFIGS:
        engine = engines[key]
        during, finals = positions(engine, players, games, every, seed)
        jobs = renders(key, engine, players, during, finals)
        jobs["table"][0]()  # load fonts and shape masks once, as a running bot has
        for kind in ("table", "hand", "final"):
            timed = time_renders(jobs[kind])
            rows.append([
                f"{engine.title} {players}p {kind}", len(timed.seconds),
                percentile(timed.seconds, 0.5) * 1000, percentile(timed.seconds, 0.95) * 1000,
                percentile(timed.cpu, 0.5) * 1000, percentile(timed.cpu, 0.95) * 1000,
                percentile(timed.encode_cpu, 0.5) * 1000,
                median([float(s) for s in timed.sizes]) / 1024, max(timed.sizes) / 1024,
            ])
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.images", description=__doc__)
    parser.add_argument("--games", type=int, default=3, help="bot games per configuration")
    parser.add_argument("--every", type=int, default=12, help="keep a position every N actions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="1 game, few positions: a smoke test")
    args = parser.parse_args(argv)
    games, every = (1, 60) if args.quick else (args.games, args.every)
    rows = measure(games, every, args.seed)
    print("Images: render time (layout + paint + PNG) and size per image, one thread")
    print(machine_line())
    print(f"{games} seeded bot game(s) per row, a position every {every} actions\n")
    headers = ["image", "renders", "p50 ms", "p95 ms", "CPU p50 ms", "CPU p95 ms",
               "encode CPU p50", "median KiB", "max KiB"]
    print(table(headers, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
