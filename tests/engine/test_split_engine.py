"""SPLIT engine contract: actions, JSON, views, events, bots, results, CLI."""

from __future__ import annotations

import random

import pytest

from game.base import Engine, IllegalAction, play
from game.registry import engines
from game.split import SplitEngine
from game.split.actions import Discard, Draw, MakeMatch, Pick, Skip, Target, Upgrade
from game.split.bots import default_action
from game.split.greedy import greedy_action
from game.split.simulate import format_report, simulate
from game.split.state import SplitState
from tests.engine.split_helpers import make_state

E = SplitEngine()


def test_engine_metadata_and_protocol() -> None:
    assert isinstance(E, Engine)
    assert (E.key, E.title, E.min_players, E.max_players) == ("split", "SPLIT", 2, 6)


def test_registry_lists_split() -> None:
    pytest.importorskip("game.ten")
    assert isinstance(engines()["split"], SplitEngine)


def test_new_game_refuses_bad_player_counts_and_options() -> None:
    with pytest.raises(IllegalAction):
        E.new_game(["a"], seed=1)
    with pytest.raises(IllegalAction):
        E.new_game(["a", "a"], seed=1)
    with pytest.raises(IllegalAction, match="no table options"):
        E.new_game(["a", "b"], seed=1, options={"rounds": 9})


def test_state_json_round_trip_exact() -> None:
    state, _ = E.new_game(["a", "b", "c"], seed=3)
    for _ in range(40):
        player = E.awaiting(state)[0]
        E.apply(state, player, greedy_action(state, state.players.index(player)))
    assert SplitState.model_validate_json(state.model_dump_json()) == state
    assert E.copy_state(state) == state


def test_parse_action_accepts_ascii_and_json_and_refuses_garbage() -> None:
    assert E.parse_action({"type": "match", "a": "7H", "b": "7s"}) == MakeMatch(a="7♥", b="7♠")
    assert E.parse_action('{"type": "discard", "card": "10D"}') == Discard(card="10♦")
    for bad in ("nonsense", '{"type": "fly"}', {"type": "discard"}, "[1]"):
        with pytest.raises(IllegalAction):
            E.parse_action(bad)
    with pytest.raises(IllegalAction, match="'7X' is not a card"):
        E.parse_action({"type": "discard", "card": "7X"})


def test_action_json_fits_in_a_custom_id() -> None:
    longest = Upgrade(match=51, card="10♠", replace="10♥").model_dump_json()
    target = Target(player="123456789012345678901").model_dump_json()
    pick = Pick(card="10♦", pos=60).model_dump_json()
    assert max(len(longest), len(target), len(pick)) < 90


def test_play_leaves_original_untouched() -> None:
    state, _ = E.new_game(["a", "b"], seed=9)
    before = state.model_dump_json()
    player = E.awaiting(state)[0]
    new_state, events = play(E, state, player, Draw())
    assert state.model_dump_json() == before
    assert new_state != state and events[0].kind == "draw"


def test_view_shows_own_hand_and_counts_only() -> None:
    state = make_state(["7H 7D 2C", "4C 5S"], row="9D", matches=[(1, "KH KS", "KC")])
    view = E.view(state, "ana")
    assert view.hand == ["2♣", "7♥", "7♦"]
    assert view.hand_counts == {"ana": 3, "ben": 2}
    assert view.row == ["9♦"]
    assert view.matches[0].model_dump() == {
        "id": 0,
        "owner": "ben",
        "level": "weak",
        "halves": ["K♥", "K♠"],
        "covered": ["K♣"],
    }
    assert view.step == "main" and view.turn == "ana" and view.awaiting == ["ana"]
    public = E.view(state, None).model_dump_json()
    assert E.view(state, None).hand is None
    assert "4♣" not in public and "5♠" not in public and "seed" not in public
    assert str(state.pile[0]) not in E.view(state, None).model_dump()  # no pile order


def test_events_hide_drawn_card_from_others_and_describe() -> None:
    state = make_state(["2C 3C", "4C"], step="take", pile="9D 5H")
    (event,) = E.apply(state, "ana", Draw())
    names = {"ana": "Ana", "ben": "Ben"}
    assert E.describe(event, "ana", names) == "Ana drew 5♥; 1 left in the draw pile."
    assert E.describe(event, "ben", names) == "Ana drew a card; 1 left in the draw pile."
    assert "5♥" not in E.describe(event, None, {})


def test_describe_action_labels_levels_and_owner_change() -> None:
    state = make_state(["7D 7H 7C 2C", "4C"], matches=[(1, "7H 7S", "")])
    names = {"ben": "Ben"}
    assert E.describe_action(state, MakeMatch(a="7D", b="7H"), names) == "Match 7♦+7♥ (strong)"
    label = E.describe_action(state, Upgrade(match=0, card="7D", replace="7S"), names)
    assert label == "7♦ on 7♥|7♠ for 7♠: strong (take from Ben)"


def test_describe_covers_every_event_of_a_game() -> None:
    state, _ = E.new_game(["a", "b", "c"], seed=4)
    rng = random.Random(4)
    while not E.is_over(state):
        player = E.awaiting(state)[0]
        for event in E.apply(state, player, E.bot_action(state, player, "easy", rng)):
            for viewer in (None, "a"):
                text = E.describe(event, viewer, {})
                assert text and not text.endswith(f": {event.kind}.")


def test_default_action_is_legal_in_every_step() -> None:
    state, _ = E.new_game(["a", "b", "c", "d"], seed=12)
    rng = random.Random(12)
    seen = set()
    for _ in range(3000):
        if E.is_over(state):
            break
        for player in E.awaiting(state):
            action = E.default_action(state, player)
            assert action in E.legal_actions(state, player), (state.step, action)
            seen.add(state.step)
        player = E.awaiting(state)[0]
        E.apply(state, player, E.bot_action(state, player, "easy", rng))
    assert {"take", "main"} <= seen


def test_default_action_uses_pending_picked_card() -> None:
    state = make_state(["9C 4D 4C", "4H"], step="take", row="9S")
    E.apply(state, "ana", Pick(card="9S"))
    assert default_action(state, 0) == MakeMatch(a="9♠", b="9♣")
    state = make_state(["2C 3C", "4C"], step="bonus_strong")
    state.bonus_match = 0
    assert default_action(state, 0) == Skip()


def test_greedy_plays_matches_and_discards() -> None:
    state = make_state(["7H 7D 2C 9S", "4C"], pile="3D 8D 9D")
    assert greedy_action(state, 0) == MakeMatch(a="7♥", b="7♦")


def test_results_breakdown_and_scores_match_sheets() -> None:
    state, _ = E.new_game(["a", "b"], seed=21)
    while not E.is_over(state):
        player = E.awaiting(state)[0]
        E.apply(state, player, E.bot_action(state, player, "normal", random.Random(0)))
    results = E.results(state)
    for result in results:
        breakdown = result.breakdown
        assert result.score == breakdown["rank_total"] - breakdown["negative_value"]
        assert sum(breakdown["rounds"]) == result.score
    assert sorted(r.placement for r in results)[0] == 1


def test_simulate_cli_reports_figures() -> None:
    report = simulate(players=3, games=2, seed=0, bot="random")
    text = format_report(report, 3, "random")
    assert report.games == 2 and sum(report.round_ends.values()) == 6
    assert "games/s" in text and "actions/game" in text and "pile exhausted" in text
