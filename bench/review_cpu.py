"""CPU seconds per review (issue 29): a 4-player game played by normal seats, then one seat's
review computed as the bot's review worker computes it (``bot.reviews.analysis``), within
``--budget`` CPU seconds (``REVIEW_CPU_SECONDS``). Prints per game: the decisions reviewed,
the CPU seconds spent, the simulations per decision, whether the budget stopped it.

    python -m bench.review_cpu --games 3 --budget 60

The figures are the lead's to take on a quiet machine; ``--games 1 --budget 1`` smoke-runs it.
"""

from __future__ import annotations

import argparse
import random
import statistics

from bot.reviews.analysis import review_player
from bot.reviews.model import summary
from game.export_format import ExportAction, ExportSeat, GameExport
from game.registry import engines


def machine_game(game: str, players: int, seed: int, level: str = "normal") -> GameExport:
    """A finished game of ``players`` seats all played at ``level``, as an export."""
    engine = engines()[game]
    ids = [str(1000 + seat) for seat in range(players)]
    state, _ = engine.new_game(ids, seed, None)
    rng = random.Random(seed)
    actions: list[ExportAction] = []
    while not engine.is_over(state):
        player = engine.awaiting(state)[0]
        action = engine.bot_action(state, player, level, rng)
        engine.apply(state, player, action)
        actions.append(ExportAction(version=len(actions) + 1, player=player,
                                    action=action.model_dump(mode="json")))
    return GameExport(
        game=game, status="finished", session_id=seed, seed=seed,
        seats=[ExportSeat(player_id=player, display_name=f"Seat {n}")
               for n, player in enumerate(ids, start=1)],
        actions=actions,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--budget", type=float, default=60.0,
                        help="CPU seconds per review (REVIEW_CPU_SECONDS)")
    parser.add_argument("--only", choices=sorted(engines()), default=None)
    args = parser.parse_args(argv)
    for game in [args.only] if args.only else sorted(engines()):
        spent: list[float] = []
        for seed in range(1, args.games + 1):
            export = machine_game(game, args.players, seed)
            review = review_player(export, export.players[0], args.budget)
            figures = summary(review)
            spent.append(review.cpu_seconds)
            print(f"{game} {args.players}p seed {seed}: {figures.decisions} decisions"
                  f" ({review.forced} forced left out), {review.cpu_seconds:.2f} CPU s,"
                  f" {figures.mean_simulations:.0f} simulations per decision"
                  f" (least {figures.least_simulations}), not assessed {figures.not_assessed},"
                  f" stopped by the budget: {review.stopped}")
        print(f"{game} {args.players}p: CPU s per review median {statistics.median(spent):.2f},"
              f" max {max(spent):.2f} ({len(spent)} reviews, budget {args.budget:g} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
