"""The SPLIT hand controls on hand-made positions: many choices, bonuses and the lay-down."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.records.errors import Refusal
from bot.records.session import Seat, Session, Status
from cogs.game_ui import Move, OpenStep, Render
from cogs.kit.control_menus import (
    MAX_OPTIONS,
    NOT_AVAILABLE,
    OUTDATED,
    UNKNOWN_CONTROL,
)
from cogs.kit.control_payloads import SelectPayload
from cogs.split import SplitUI
from game.action_codes import action_code
from game.split import SplitEngine, Step
from game.split.state import SplitState, TableMatch

ENGINE = SplitEngine()
UI = SplitUI(ENGINE)
PLAYERS = ["1", "2", "3"]
NAMES = {"1": "Ana", "2": "Ben", "3": "Cy"}


def card(rank: int, suit: int, copy: int = 0) -> int:
    return (rank * 4 + suit) * 2 + copy


def session_with(state: SplitState, version: int = 5) -> Session:
    seats = tuple(Seat(player_id=p, display_name=NAMES[p]) for p in PLAYERS)
    return Session(id=7, guild_id=1, channel_id=100, game="split", status=Status.ACTIVE,
                   host_id="1", seats=seats, state=state, version=version)


def crowded_main_step() -> SplitState:
    """Ana (seat 0) in the main step with 39 cards and a weak match of every rank on the
    table: 39 matches, 39 upgrades and 39 discards to offer."""
    state, _ = ENGINE.new_game(PLAYERS, 1)
    state.turn, state.step = 0, Step.MAIN
    state.hands[0] = [c for r in range(13) for c in (card(r, 3), card(r, 2), card(r, 0, 1))]
    state.matches = [TableMatch(owner=1, halves=[card(r, 0), card(r, 1)]) for r in range(13)]
    return state


def items(render: Render) -> list[Any]:
    assert render.view is not None
    # Controls are DynamicItems (cogs.kit.custom_ids); the tests look at the components they wrap.
    return [getattr(item, "item", item) for item in render.view.children]


def codes(render: Render) -> set[str]:
    """The action codes the render's controls carry."""
    found = set()
    for item in items(render):
        custom_id = str(item.custom_id)
        if ":a:" in custom_id:
            found.add(custom_id.split(":a:", 1)[1])
        for option in getattr(item, "options", []):
            found.add(option.value)
    return found


def click(session: Session, viewer: str, payload: str, values: list[str] | None) -> Any:
    """The UI's decoding of a click (the engine reads its code, then checks that action)."""
    return UI.action_for(session, viewer, payload, values)


def check_limits(render: Render) -> None:
    rows: dict[int, int] = {}
    for item in items(render):
        assert len(str(item.custom_id)) <= 100
        width = 5 if isinstance(item, discord.ui.Select | SelectPayload) else 1
        rows[item.row] = rows.get(item.row, 0) + width
        if isinstance(item, discord.ui.Select | SelectPayload):
            assert 1 <= len(item.options) <= MAX_OPTIONS
            assert all(len(o.label) <= 100 and len(o.value) <= 100 for o in item.options)
        else:
            assert len(item.label or "") <= 80
    assert set(rows) <= set(range(5)) and all(width <= 5 for width in rows.values())


def test_more_than_25_choices_are_split_into_selects_and_pages() -> None:
    state = crowded_main_step()
    session = session_with(state)
    legal = ENGINE.legal_actions(state, "1")
    assert len(legal) > 100
    first = UI.private(session, "1")
    check_limits(first)
    assert first.embeds[0].footer.text == "Controls page 1 of 2."
    seen = codes(first)
    nav = [str(i.custom_id) for i in items(first) if ":pg:" in str(i.custom_id)]
    assert nav == ["tb:act:7:5:pg:0", "tb:act:7:5:pg:1"]
    step = click(session, "1", "pg:1", None)
    assert isinstance(step, OpenStep)
    second = step.render
    check_limits(second)
    seen |= codes(second)
    # every legal action is reachable, once laid out, by its own code
    assert seen == {action_code(action) for action in legal}
    assert len(seen) == len(legal)
    labels = [o.label for i in items(first) for o in getattr(i, "options", [])]
    assert "Match 7♦+7♣ (weak)" in labels
    assert "Discard 7♣" in [o.label for i in items(second) for o in getattr(i, "options", [])]
    upgrades = [o.label for i in (*items(first), *items(second))
                if ":s:up:" in str(i.custom_id) for o in i.options]
    assert "7♣ on 7♠|7♥ for 7♥: strong (take from Ben)" in upgrades


def test_every_offered_choice_resolves_to_that_legal_action() -> None:
    state = crowded_main_step()
    session = session_with(state)
    legal = ENGINE.legal_actions(state, "1")
    for page in (0, 1):
        if page == 0:
            render = UI.private(session, "1")
        else:
            step = click(session, "1", "pg:1", None)
            assert isinstance(step, OpenStep)
            render = step.render
        for item in items(render):
            payload = str(item.custom_id).split(":", 4)[4]
            for option in getattr(item, "options", []):
                chosen = click(session, "1", payload, [option.value])
                assert isinstance(chosen, Move) and chosen.action in legal
                assert action_code(chosen.action) == option.value


@pytest.mark.parametrize(
    ("payload", "values", "message"),
    [
        ("a:999", None, OUTDATED),  # a list index: a control drawn before codes
        ("a:0", None, OUTDATED),
        ("s:disc:0", ["0"], OUTDATED),
        ("a:-1", None, NOT_AVAILABLE),
        ("a:١", None, NOT_AVAILABLE),  # an Arabic-Indic one is not a digit here
        ("a:match:7♦:7♣", None, NOT_AVAILABLE),  # a match: not a button action
        ("s:disc:0", ["match:7♦:7♣"], NOT_AVAILABLE),  # a match offered in the discard select
        ("a:discard:7♣", None, NOT_AVAILABLE),  # a discard: not a button either
        ("s:disc:0", ["discard:5♥"], NOT_AVAILABLE),  # a card not in the hand
        ("s:disc:0", ["discard"], NOT_AVAILABLE),
        ("a:draw", None, NOT_AVAILABLE),  # legal in the take step only
        ("s:disc:0", [], "Choose one option from the list."),
        ("s:nope:0", ["0"], "Choose one option from the list."),
        ("dance", None, UNKNOWN_CONTROL),
        ("pg:x", None, UNKNOWN_CONTROL),
        ("pg:١", None, UNKNOWN_CONTROL),
    ],
)
def test_forged_payloads_are_refused(payload: str, values: list[str] | None,
                                     message: str) -> None:
    session = session_with(crowded_main_step())
    with pytest.raises(Refusal) as refused:
        click(session, "1", payload, values)
    assert refused.value.message == message


def test_bonus_prompts_are_buttons() -> None:
    state, _ = ENGINE.new_game(PLAYERS, 1)
    state.turn, state.step = 0, Step.BONUS_PERFECT
    perfect = UI.private(session_with(state), "1")
    assert [i.label for i in items(perfect)] == ["Mark Ben", "Mark Cy"]
    assert "**choose the player** who marks a negative box" in perfect.embeds[0].description
    assert click(session_with(state), "1", "a:target:3", None) == Move(
        ENGINE.parse_action({"type": "target", "player": "3"}))
    state.step = Step.BONUS_STRONG
    strong = UI.private(session_with(state), "1")
    assert [i.label for i in items(strong)] == ["Draw a bonus card", "Skip the bonus"]


def test_laydown_offers_lay_select_and_done_only_to_waiting_players() -> None:
    state, _ = ENGINE.new_game(PLAYERS, 1)
    state.step, state.went_out, state.laydown_waiting = "laydown", 0, [1, 2]
    state.hands[0] = []
    state.hands[1] = [card(4, 0), card(4, 3), card(9, 1)]
    session = session_with(state)
    ben = UI.private(session, "2")
    assert [str(i.custom_id) for i in items(ben)] == ["tb:act:7:5:a:done",
                                                      "tb:sel:7:5:s:lay:0"]
    assert [o.label for o in items(ben)[1].options] == ["Match 5♠+5♣ (strong)"]
    assert [o.value for o in items(ben)[1].options] == ["lay:5♠:5♣"]
    assert click(session, "2", "a:done", None) == Move(ENGINE.parse_action({"type": "done"}))
    ana = UI.private(session, "1")
    assert ana.view is None
    assert "Ben, Cy may still lay down matches" in ana.embeds[0].description
