"""``python -m game.ten simulate ...`` (options: ``simulate --help``) and
``python -m game.ten replay FILE`` (see ``game.replay_cli``)."""

from __future__ import annotations

import argparse

from game.replay_cli import add_replay_command, run_replay
from game.ten import TenEngine
from game.ten import simulate as simulation
from game.ten.markers import step_marker


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.ten")
    commands = parser.add_subparsers(dest="command", required=True)
    # simulate parses its own options (game.ten.simulate.main), so they pass through as is.
    commands.add_parser("simulate", help="play machine games with invariant checks",
                        add_help=False)
    add_replay_command(commands)
    args, rest = parser.parse_known_args(argv)
    if args.command == "replay":
        if rest:
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        return run_replay(TenEngine(), args.file, marker=step_marker)
    simulation.main(["simulate", *rest])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
