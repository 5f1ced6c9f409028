"""``python -m game.split simulate --players N --games G --seed S [--bot random|greedy]``
and ``python -m game.split replay FILE`` (see ``game.replay_cli``)."""

from __future__ import annotations

import argparse

from game.replay_cli import add_replay_command, run_replay
from game.split import SplitEngine
from game.split.markers import step_marker
from game.split.simulate import format_report, simulate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.split")
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play full bot games and check invariants")
    sim.add_argument("--players", type=int, default=4, choices=range(2, 7))
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--bot", choices=("random", "greedy"), default="random")
    sim.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    add_replay_command(commands)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return run_replay(SplitEngine(), args.file, marker=step_marker)
    report = simulate(args.players, args.games, args.seed, args.bot, check=not args.no_check)
    print(format_report(report, args.players, args.bot))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
