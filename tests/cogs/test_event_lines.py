"""The games' events in words (``cogs.split.events``, ``cogs.ten.events``), in every language:
every event of whole games is worded from the catalogs, a public line (no viewer) never names
a hidden card, the line of a stored log entry is the line of its event, and what the store and
the turn clock keep of an event has no private part."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.automation.notices import TimedOut
from bot.records.session import Session, Status, public_event
from bot.sessions.transitions import extend_log
from bot.store.sql import log_entry, log_event
from cogs.game_ui import GameUI, event_line
from cogs.i18n import Language, words_for
from cogs.rendering.event_log import log_render
from cogs.rendering.notice_text import timed_out_text
from cogs.split.ui import SplitUI
from cogs.ten.ui import TenUI
from game.base import Engine, Event
from game.split import SplitEngine
from game.ten import TenEngine
from tests.bot.conftest import seat

NAMES = {"1": "Ana", "2": "Ben", "3": "Cy", "4": "Dee"}
UIS: dict[str, GameUI] = {"split": SplitUI(SplitEngine()), "ten": TenUI(TenEngine())}
CASES = [("split", 2, 1), ("split", 3, 2), ("split", 4, 3), ("ten", 2, 4), ("ten", 3, 5),
         ("ten", 4, 6)]


def game_events(engine: Engine[Any, Any], players: int, seed: int) -> Iterator[Event]:
    """Every event of a whole game of random legal moves."""
    state, events = engine.new_game([str(p) for p in range(1, players + 1)], seed)
    yield from events
    rng = random.Random(seed)
    while not engine.is_over(state):
        player = engine.awaiting(state)[0]
        yield from engine.apply(state, player, engine.bot_action(state, player, "easy", rng))


def _values(data: Any) -> Iterator[str]:
    if isinstance(data, dict):
        for value in data.values():
            yield from _values(value)
    elif isinstance(data, list | tuple):
        for value in data:
            yield from _values(value)
    else:
        yield str(data)


@pytest.fixture(scope="module")
def played() -> dict[tuple[str, int, int], list[Event]]:
    return {(game, players, seed): list(game_events(UIS[game].engine, players, seed))  # type: ignore[attr-defined]
            for game, players, seed in CASES}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}p")
def test_every_event_is_worded_in_every_language(
    case: tuple[str, int, int], played: dict[tuple[str, int, int], list[Event]]
) -> None:
    ui, events = UIS[case[0]], played[case]
    english = words_for(Language.EN)
    kinds = set()
    for event in events:
        kinds.add(event.kind)
        line = event_line(ui, event, None, NAMES, english)
        assert line and line != event.kind, event
        for language in (Language.ES, Language.SQ, Language.GU):
            said = event_line(ui, event, None, NAMES, words_for(language))
            assert said and said != line, (language, event, said)
    assert len(kinds) >= 6, kinds


@pytest.mark.parametrize("language", list(Language), ids=lambda lang: lang.value)
def test_a_hidden_card_never_reaches_a_public_line(
    language: Language, played: dict[tuple[str, int, int], list[Event]]
) -> None:
    words = words_for(language)
    hidden = 0
    for (game, _, _), events in played.items():
        ui = UIS[game]
        for event in events:
            if event.private is None:
                continue
            hidden += 1
            secret = set(_values(dict(event.private))) - set(_values(dict(event.data)))
            public = event_line(ui, event, None, NAMES, words)
            assert not any(card in public for card in secret), (event, public)
            # another player sees the public line; the owner sees the card
            others = [p for p in NAMES if p != event.private_to]
            assert event_line(ui, event, others[0], NAMES, words) == public
            owner = event_line(ui, event, event.private_to, NAMES, words)
            assert all(card in owner for card in secret), (event, owner)
    assert hidden > 20  # SPLIT's draws


def test_what_the_log_and_the_clock_keep_has_no_private_part(
    played: dict[tuple[str, int, int], list[Event]]
) -> None:
    events = played[("split", 3, 2)]
    draws = [e for e in events if e.private is not None][:5]
    session = Session(id=1, guild_id=1, channel_id=1, game="split", status=Status.ACTIVE,
                      host_id="1", seats=(seat(1), seat(2), seat(3)))
    kept = extend_log(session, draws)
    assert kept and all(e.private is None and e.private_to is None for e in kept)
    stored = json.dumps([log_entry(e) for e in kept], ensure_ascii=False)
    for event in draws:
        assert str(event.private["card"]) not in stored  # type: ignore[index]
    session = Session(id=1, guild_id=1, channel_id=1, game="split", status=Status.ACTIVE,
                      host_id="1", seats=(seat(1), seat(2), seat(3)), log=kept)
    ui = UIS["split"]
    for language in Language:
        words = words_for(language)
        text = "\n".join(str(embed.description) for embed in log_render(ui, session, words).embeds)
        notice = TimedOut(session=session, player_id="1",
                          moves=tuple(public_event(e) for e in draws), timeouts=1, away=False)
        said = timed_out_text(notice, ui, words)
        for event in draws:
            card = str(event.private["card"])  # type: ignore[index]
            assert card not in text and card not in said, (language, card)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}p")
def test_a_stored_log_entry_reads_as_its_event(
    case: tuple[str, int, int], played: dict[tuple[str, int, int], list[Event]]
) -> None:
    ui = UIS[case[0]]
    for language in (Language.EN, Language.GU):
        words = words_for(language)
        for event in played[case]:
            entry = json.loads(json.dumps(log_entry(public_event(event))))
            assert (event_line(ui, log_event(entry), None, NAMES, words)
                    == event_line(ui, event, None, NAMES, words))
