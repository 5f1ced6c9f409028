"""Spec section 7 (public odds) and the engine contract: parsing, views, describe, bots."""

import json
import random
import re
from pathlib import Path

import pytest

from game.base import Event, IllegalAction, play
from game.split.actions import Draw as SplitDraw
from game.ten import bust_chance, rules
from game.ten.state import Bid, Draw, Pass, Stop
from game.ten.vocabulary import EventKind
from tests.engine.ten_helpers import ENGINE, act, build


def test_s7_bust_chance_counts_unseen_cards() -> None:
    # removed rest: the unseen cards are exactly R9, B1, $5 and W#
    state = build(2, flips=["R9", "B1", "$5", "W#"], tableau=["R6", "$4"], rest_in_pile=False)
    # total 2, currency 4: only R9 busts (11)
    assert bust_chance(state) == pytest.approx(0.25)
    state = build(
        2, flips=["R9", "B1", "$5", "W#"], tableau=["R6", "$4", "B5", "$2"], rest_in_pile=False
    )
    # total 5, currency 6: R9 busts (14), $5 busts (currency 11); B1 and W# do not
    assert bust_chance(state) == pytest.approx(0.5)
    assert ENGINE.view(state, None).bust_chance == pytest.approx(0.5)


def test_s7_bust_chance_ignores_pile_order() -> None:
    state, _ = ENGINE.new_game(["a", "b", "c"], seed=5)
    act(state, ENGINE.awaiting(state)[0], Draw())
    before = bust_chance(state)
    random.Random(0).shuffle(state.pile)
    assert bust_chance(state) == before
    assert bust_chance(build(2, tableau=["R9"], rest_in_pile=False)) == 0.0  # empty pile


def test_s7_bust_chance_empty_table_at_start() -> None:
    state, _ = ENGINE.new_game(["a", "b"], seed=3)
    assert bust_chance(state) == 0.0  # no single card reaches 11 or $11


def test_parse_action_accepts_dict_and_json_and_rejects_junk() -> None:
    assert ENGINE.parse_action({"type": "bid", "amount": 3}) == Bid(amount=3)
    assert ENGINE.parse_action('{"type":"stop","take":"numbers"}') == Stop(take="numbers")
    for junk in ['{"type":"fly"}', "not json", {"type": "bid"}, {"type": "stop", "take": "all"}]:
        with pytest.raises(IllegalAction):
            ENGINE.parse_action(junk)


def test_apply_refuses_wrong_player_and_wrong_phase() -> None:
    state = build(flips=["R1"])
    with pytest.raises(IllegalAction, match="not your move"):
        act(state, "B", Draw())
    with pytest.raises(IllegalAction, match="cannot pass now"):
        act(state, "A", Pass())
    with pytest.raises(IllegalAction, match="not playing"):
        ENGINE.apply(state, "Z", Draw())
    assert ENGINE.legal_actions(state, "Z") == [] and ENGINE.legal_actions(state, "B") == []


def test_apply_refuses_an_action_of_another_game_and_seats_out_of_range() -> None:
    state = build(flips=["R1"])
    before = state.model_dump_json()
    with pytest.raises(IllegalAction, match="not a TEN action"):
        ENGINE.apply(state, "A", SplitDraw())  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="not playing"):
        rules.apply_action(state, -1, Draw())
    with pytest.raises(IllegalAction, match="not playing"):
        rules.apply_action(state, 9, Draw())
    assert rules.legal(state, -1) == [] and rules.legal(state, 9) == []
    assert state.model_dump_json() == before


def test_play_leaves_original_untouched_and_copy_is_independent() -> None:
    state = build(flips=["R1", "B2"])
    new_state, _ = play(ENGINE, state, "A", Draw())
    assert not state.tableau and len(new_state.tableau) == 1
    copy = ENGINE.copy_state(state)
    copy.collections[0].append(1)
    copy.currency[0] = 0
    assert state.collections[0] == [] and state.currency[0] == 5


def test_view_shows_table_without_pile_order() -> None:
    state = build(flips=["R4", "$2"], market=["G3", "G3", "B1"], collections=[["R#"], [], [], []])
    act(state, "A", Draw())
    act(state, "A", Draw())
    view = ENGINE.view(state, "B")
    assert view.tableau == ["R4", "$2"] and view.running_total == 2 and view.tableau_currency == 2
    assert view.pile_size == len(state.pile) and view.phase == "draw" and view.active == "A"
    assert [(m.card, m.price, m.copies) for m in view.market["G"]] == [("G3", 3, 2)]
    assert view.players[0].runs[0].points == 1 and view.players[0].score == 1
    dumped = view.model_dump_json()
    assert "seed" not in dumped and '"pile"' not in dumped


# Every event kind the TEN engine emits (game/ten/rules.py).
EVENT_KINDS = {
    "flip",
    "bust",
    "stop",
    "turn",
    "auction",
    "bid",
    "pass",
    "unsold",
    "won",
    "paid",
    "choose",
    "back",
    "bought",
    "skip",
    "final_buy",
    "over",
}


def test_event_kind_list_matches_the_rules_source() -> None:
    # The rules (the only module that makes events) name every kind.
    source = (Path(__file__).parents[2] / "game" / "ten" / "rules.py").read_text()
    made = {EventKind[name] for name in re.findall(r"\bEventKind\.(\w+)", source)}
    assert made == set(EventKind)
    assert {kind.value for kind in EventKind} == EVENT_KINDS


def test_describe_every_event_kind() -> None:
    seen: set[str] = set()
    for seed in range(12):
        for level in ("easy", "normal"):
            rng = random.Random(seed)
            state, _ = ENGINE.new_game(["a", "b", "c", "d", "e"][: 2 + seed % 4], seed=seed)
            while not ENGINE.is_over(state):
                player = ENGINE.awaiting(state)[0]
                action = ENGINE.bot_action(state, player, level, rng)
                for event in ENGINE.apply(state, player, action):
                    seen.add(event.kind)
                    line = ENGINE.describe(event, None, {"a": "Ana"})
                    assert line and "{" not in line and not line.startswith(event.kind + " ")
    assert seen == EVENT_KINDS
    assert "Ana" in ENGINE.describe(Event(kind="pass", actor="a"), None, {"a": "Ana"})


def test_action_json_fits_in_a_custom_id() -> None:
    state = build(
        flips=["R1"],
        market=["G9"],
        collections=[[f"B{n}" for n in range(1, 10)], [], [], []],
        currency=[0, 5, 5, 5],
    )
    act(state, "A", Draw())
    act(state, "A", Stop(take="numbers"))
    act(state, "A", {"type": "buy", "card": "G9"})
    for action in ENGINE.legal_actions(state, "A"):
        assert len(action.model_dump_json()) < 90
    assert json.loads(ENGINE.legal_actions(state, "A")[0].model_dump_json())["type"] == "pay"


def test_default_action_is_safe_in_every_phase() -> None:
    state = build(flips=["R1", "W#", "R2"])
    assert ENGINE.default_action(state, "A") == Draw()  # cannot stop on an empty row
    act(state, "A", Draw())
    act(state, "A", Draw())
    assert ENGINE.default_action(state, "B") == Pass()
    with pytest.raises(IllegalAction):
        ENGINE.default_action(state, "C")
