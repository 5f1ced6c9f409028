"""How many interactions a person needs per turn: a seeded 3-player game of each kind played
through the UI's own controls.

Each awaited player is a person who wants to make the move the engine's normal bot would
choose. They look at the controls in front of them: the public table (``GameUI.table``) and
their private view if it is current. When the move is not there, they open their view from
the table (My hand / My view / the table's panel button: one interaction), unless their view
follows the game (``cogs.listeners.view_follow``: the bot edits their last private view when their
turn comes, so it is current). Then they click the control that makes the move (a button or a select
option: one interaction each), going through next steps where the UI has them (paging, TEN's choice
of cards to spend). A move no control offers is replaced by the first one of the same kind the
controls do offer (TEN's payments are offered as suggested options, not every legal way to pay).

A turn is a run of moves by one player (in TEN each bid is its own turn). Prints interactions
per turn, and how many of them were view openings, per game.

    python -m bench.clicks [--seed 7]

Runs against whatever checkout it is in (copy it into a checkout of main for the figures
before a change).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import discord

from bench._common import machine_line, table
from bot.records.session import Seat, Session, Status
from cogs.game_ui import Move, OpenStep, Render
from cogs.split import SplitUI
from cogs.ten import TenUI
from game.registry import engines

MAX_DEPTH = 3  # next steps followed after the first click (paging, TEN's card step)
ACT = ("tb:act:", "tb:sel:")


@dataclass
class Tally:
    turns: int = 0
    moves: int = 0
    clicks: int = 0
    opens: int = 0

    def row(self, name: str) -> tuple[object, ...]:
        turns = self.turns or 1
        return (name, self.turns, self.moves, self.clicks / turns, self.opens / turns,
                (self.clicks + self.opens) / turns)


def follows() -> bool:
    """Whether this checkout edits a player's last private view when their turn comes."""
    return importlib.util.find_spec("cogs.listeners.view_follow") is not None


def controls(render: Render | None) -> Iterator[tuple[str, list[str] | None]]:
    """(payload, values) of every game control click a render offers: each button, and
    each option of each select (a multi-select: its preselected options)."""
    if render is None or render.view is None:
        return
    for item in render.view.children:
        custom_id = getattr(item, "custom_id", None)
        if not isinstance(custom_id, str) or not custom_id.startswith(ACT):
            continue
        payload = custom_id.split(":", 4)[4]
        if isinstance(item, discord.ui.Select) or hasattr(item, "options"):
            options = list(getattr(item, "options", []))
            if getattr(item, "max_values", 1) > 1:
                yield payload, [o.value for o in options if o.default]
            else:
                for option in options:
                    yield payload, [option.value]
        else:
            yield payload, None


OPENERS = ("panel",)  # TEN's table button that opens the awaited player's private view


def reachable(ui: Any, session: Session, viewer: str, render: Render | None,
              depth: int = 0) -> dict[str, tuple[int, int, Any]]:
    """Every move the render's controls lead to: action JSON -> (clicks, opens, action); a
    click that opens the private view counts as an open, not a click."""
    found: dict[str, tuple[int, int, Any]] = {}
    if depth > MAX_DEPTH:
        return found
    for payload, values in controls(render):
        try:
            click = ui.action_for(session, viewer, payload, values)
        except Exception:  # a control that stands for nothing now (a refusal)
            continue
        if isinstance(click, Move):
            key = click.action.model_dump_json()
            if key not in found or sum(found[key][:2]) > 1:
                found[key] = (1, 0, click.action)
        elif isinstance(click, OpenStep):
            opener = payload in OPENERS
            for key, (clicks, opens, action) in reachable(ui, session, viewer, click.render,
                                                          depth + 1).items():
                entry = (clicks + (0 if opener else 1), opens + (1 if opener else 0), action)
                if key not in found or sum(found[key][:2]) > sum(entry[:2]):
                    found[key] = entry
    return found


def choose(wanted: Any, offered: dict[str, tuple[int, int, Any]]) -> tuple[int, int, Any]:
    key = wanted.model_dump_json()
    if key in offered:
        return offered[key]
    same_kind = [entry for entry in offered.values() if type(entry[2]) is type(wanted)]
    if same_kind:
        return min(same_kind, key=lambda entry: entry[0] + entry[1])
    return min(offered.values(), key=lambda entry: entry[0] + entry[1])


def play(key: str, seed: int, follow: bool) -> Tally:
    engine = engines()[key]
    ui: Any = SplitUI(engine) if key == "split" else TenUI(engine)
    seats = tuple(Seat(player_id=str(1000 + i), display_name=name)
                  for i, name in enumerate(("Ana", "Ben", "Cy")))
    state, _ = engine.new_game([seat.player_id for seat in seats], seed)
    session = Session(id=1, guild_id=1, channel_id=1, game=key, status=Status.ACTIVE,
                      host_id="1000", seats=seats, state=state)
    rng = random.Random(f"clicks:{key}:{seed}")
    tally = Tally()
    current_view: dict[str, int] = {}  # player -> version their open private view shows
    last_player: str | None = None
    while not engine.is_over(state):
        player = engine.awaiting(state)[0]
        if player != last_player:
            tally.turns += 1
            if follow and player in current_view:
                current_view[player] = session.version  # the bot edited it: current
        last_player = player
        wanted = engine.bot_action(state, player, "normal", rng)
        options = {k: (*entry, False)
                   for k, entry in reachable(ui, session, player, ui.table(session)).items()}
        opened = 0 if current_view.get(player) == session.version else 1
        mine = reachable(ui, session, player, ui.private(session, player))
        for action_key, (clicks, opens, action) in mine.items():
            entry = (clicks, opens + opened, action, True)
            if action_key not in options or sum(options[action_key][:2]) > clicks + opens + opened:
                options[action_key] = entry
        clicks, opens, action = choose(wanted, {k: e[:3] for k, e in options.items()})
        in_view = options[action.model_dump_json()][3]
        tally.clicks += clicks
        tally.opens += opens
        tally.moves += 1
        engine.apply(state, player, action)
        session = replace(session, state=state, version=session.version + 1)
        if in_view or opens:
            # the clicked private view is re-rendered in place (the answer to the click)
            current_view[player] = session.version
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(machine_line())
    follow = follows()
    print(f"views follow the game: {'yes' if follow else 'no'}; seed {args.seed}, 3 players")
    rows = [play(key, args.seed, follow).row(key) for key in ("split", "ten")]
    print(table(("game", "turns", "moves", "clicks/turn", "opens/turn", "interactions/turn"),
                rows))


if __name__ == "__main__":
    main()
