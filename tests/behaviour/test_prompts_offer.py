"""Prompts say what can be done now: over every recorded game, at every step, the private
view's prompt names in bold exactly the kinds of moves its reader is offered (the engine's
legal actions), and says as many of them in every language."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.records.session import Seat, Session, Status
from cogs.game_ui import Render
from cogs.i18n import Language, words_for
from cogs.i18n.button_names import button_names
from cogs.split import SplitUI
from cogs.ten import TenUI
from game.registry import engines
from tests.behaviour.recording import seat_ids

RECORD = Path(__file__).with_name("record.json")
ENGLISH = words_for(Language.EN)
BOLD = re.compile(r"\*\*([^*]+)\*\*")

# What a bold English phrase of a prompt offers, per game: a kind of move.
SPLIT_WORDS = {
    "draw": "draw", "pick": "pick", "matches or upgrades": "meld",
    "a match or an upgrade": "meld", "discard": "discard", "choose the player": "target",
    "skip": "skip", "swap": "swap", "lay down": "lay",
    button_names(ENGLISH)["done_button"].lower(): "done",
}
SPLIT_KINDS = {"bonus_draw": "draw", "match": "meld", "upgrade": "meld"}
TEN_WORDS = {
    button_names(ENGLISH)["flip_button"].lower(): "draw", "stop": "stop", "pass": "pass",
    "choose an amount": "bid", "pay": "pay", "buy": "buy", "skip": "skip",
}
NOT_PROMPTED = {"back"}  # TEN's "Choose another card", a way back, not a move


def _records() -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = json.loads(RECORD.read_text())
    return records


def _steps(record: dict[str, Any]) -> Iterator[Session]:
    """The record's game as a session after every step."""
    engine = engines()[record["game"]]
    players = seat_ids(record["game"], record["players"])
    seats = tuple(Seat(player_id=p, display_name=f"P{i}", is_bot=p.startswith("bot:"))
                  for i, p in enumerate(players))
    state, _ = engine.new_game(players, record["seed"])
    for version, step in enumerate([None, *record["actions"]]):
        if step is not None:
            engine.apply(state, step["player"], engine.parse_action(step["action"]))
        if engine.is_over(state):
            return
        yield Session(id=1, guild_id=1, channel_id=1, game=record["game"],
                      status=Status.ACTIVE, host_id=players[0], seats=seats, state=state,
                      version=version)


def _prompt(game: str, render: Render) -> str:
    embed = render.embeds[0]
    # Under the situation (TEN) or the hand, the matches, the sheet and the discard row (SPLIT);
    # a player not awaited reads who is awaited (TEN: in the footer)
    parts = (embed.description or "").split("\n\n", 1)
    return parts[1] if len(parts) > 1 else ""


def _kind(game: str, action: Any) -> str:
    if game == "ten":
        return type(action).__name__.lower()
    return SPLIT_KINDS.get(str(action.type), str(action.type))


@pytest.mark.parametrize(
    "record", _records(), ids=lambda r: "{game}-{players}p-{level}-{seed}".format(**r)
)
def test_prompts_name_the_offered_moves(record: dict[str, Any]) -> None:
    game = record["game"]
    engine = engines()[game]
    ui = SplitUI(engine) if game == "split" else TenUI(engine)
    vocabulary = SPLIT_WORDS if game == "split" else TEN_WORDS
    for session in _steps(record):
        awaited = engine.awaiting(session.state)
        for seat in session.seats:
            if seat.is_bot:
                continue
            viewer = seat.player_id
            offered = {_kind(game, action)
                       for action in engine.legal_actions(session.state, viewer)}
            prompt = _prompt(game, ui.private_in(session, viewer, ENGLISH))
            named = [vocabulary[phrase.lower()] for phrase in BOLD.findall(prompt)]
            assert set(named) == offered - NOT_PROMPTED, (session.version, viewer, prompt)
            if viewer not in awaited:
                continue
            for language in (Language.ES, Language.SQ, Language.GU):
                said = _prompt(game, ui.private_in(session, viewer, words_for(language)))
                assert len(BOLD.findall(said)) == len(named), (language, said, prompt)
