"""How big the public table is on a phone: lines and the longest line, at every step.

Plays seeded games of SPLIT and TEN with the engines' bots for every player count and draws
the running table (``GameUI.table``) after every action, in every language. Prints, per game
and player count, the most lines and the longest line (shown characters, see
``cogs.rendering.phone_text``).

    python -m bench.table_size [--seeds N] [--language en]

Names are 16-character worst cases (the table cuts longer ones).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from bench._common import machine_line, table
from bot.records.session import LOG_KEEP, Seat, Session, Status
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.words import Words
from cogs.rendering.phone_text import render_lines, shown_length
from cogs.split import SplitUI
from cogs.ten import TenUI
from game.registry import engines

PLAYER_COUNTS = {"split": (2, 3, 4, 5, 6), "ten": (1, 2, 3, 4, 5)}
NAMES = ("Wwwwwwwwwwwwwwww", "Mmmmmmmmmmmmmmmm", "Ana", "Benjamin Franklin Jr", "Cy", "Dee")


@dataclass
class Size:
    lines: int = 0
    width: int = 0
    worst: list[str] | None = None

    def add(self, lines: list[str]) -> None:
        width = max((shown_length(line) for line in lines), default=0)
        if len(lines) > self.lines:
            self.lines, self.worst = len(lines), lines
        self.width = max(self.width, width)


def seats_for(key: str, count: int) -> tuple[Seat, ...]:
    seats = [Seat(player_id=str(1000 + i), display_name=NAMES[i]) for i in range(count)]
    if key == "ten" and count == 1:
        seats.append(Seat(player_id="bot:1", display_name="Bot", is_bot=True,
                          bot_level="normal"))
    return tuple(seats)


def sessions(key: str, count: int, seed: int) -> Iterator[Session]:
    """The session after every action of one seeded bot game (the running game only)."""
    engine = engines()[key]
    seats = seats_for(key, count)
    state, _ = engine.new_game([seat.player_id for seat in seats], seed)
    names = {seat.player_id: seat.display_name for seat in seats}
    rng = random.Random(f"{key}:{count}:{seed}")
    log: list[str] = []
    session = Session(id=1, guild_id=1, channel_id=1, game=key, status=Status.ACTIVE,
                      host_id=seats[0].player_id, seats=seats, state=state)
    while not engine.is_over(state):
        yield replace(session, state=state, log=tuple(log[-LOG_KEEP:]))
        player = engine.awaiting(state)[0]
        events = engine.apply(state, player, engine.bot_action(state, player, "normal", rng))
        log.extend(engine.describe(event, None, names) for event in events)


def measure(key: str, count: int, seeds: int, words: Words) -> Size:
    ui: Any = SplitUI(engines()["split"]) if key == "split" else TenUI(engines()["ten"])
    size = Size()
    for seed in range(seeds):
        for session in sessions(key, count, seed):
            # main's tables (before they took a language) have no table_in
            render = ui.table_in(session, words) if hasattr(ui, "table_in") else ui.table(
                session)
            size.add(render_lines(render))
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--language", default=None, help="en, es, sq or gu (default: all)")
    parser.add_argument("--show", action="store_true", help="print the longest table seen")
    args = parser.parse_args()
    print(machine_line())
    languages = [Language(args.language)] if args.language else list(Language)
    rows = []
    for language in languages:
        words = words_for(language)
        for key, counts in PLAYER_COUNTS.items():
            for count in counts:
                size = measure(key, count, args.seeds, words)
                rows.append((f"{key} {count}p {language.value}", size.lines, size.width))
                if args.show and size.worst:
                    print("\n".join(size.worst), "\n")
    print(f"running tables after every action of {args.seeds} seeded games each")
    print(table(("game", "max lines", "max line length"), rows))


if __name__ == "__main__":
    main()
