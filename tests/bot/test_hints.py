"""Hints (issue 29), the bot's side: the table option (the host's, in the lobby; never given
to the engine), games with hints recorded but never rated, and the hint itself: the expert
seat's own search for that seat, from what the seat sees, through the decision pool."""

from __future__ import annotations

import random

import pytest

from bot.automation.decision_pool import DecisionPool, move_rng
from bot.automation.hints import Hint, advise, summary
from bot.records import errors
from bot.records.errors import NotYourTurn, Refusal, StaleVersion
from bot.records.session import HINTS
from bot.sessions.export import export_session, replay_export
from bot.sessions.manager import SessionManager
from bot.store import Store
from game.registry import engines
from game.search import Decision, Estimate, Iterations
from game.split import rules as split_rules
from game.split.rollout import to_move
from game.ten import rules as ten_rules
from tests.bot.conftest import seat
from tests.engine.test_expert_split import _mid_game_states as split_states
from tests.engine.test_expert_split import _redeal
from tests.engine.test_expert_ten import _mid_game_states as ten_states
from tests.testgame import Add


async def _finish(manager: SessionManager, hints: bool) -> int:
    lobby = await manager.open_lobby(1, 10, "count", seat(1), {HINTS: True} if hints else None)
    await manager.join(lobby.id, seat(2))
    session = await manager.start(lobby.id, "1")
    player = "1"
    while (current := manager.get(session.id)) is not None:
        await manager.act(session.id, player, current.version, Add(add=2))
        player = "2" if player == "1" else "1"
    return session.id


async def test_a_game_with_hints_is_recorded_but_not_rated(
    manager: SessionManager, store: Store
) -> None:
    plain = await _finish(manager, hints=False)
    hinted = await _finish(manager, hints=True)
    rows = await store.results(1, "count")
    assert {r.session_id for r in rows} == {plain, hinted}  # both recorded
    assert all(r.rated for r in rows if r.session_id == plain)
    assert not any(r.rated for r in rows if r.session_id == hinted)
    # Its export (history, replays) carries the engine's options only: it replays as dealt.
    export = await export_session(store, hinted)
    assert HINTS not in export.options
    assert replay_export(export, manager.engine("count")).is_over


async def test_the_host_turns_hints_on_and_off_in_the_lobby(manager: SessionManager) -> None:
    lobby = await manager.open_lobby(1, 10, "count", seat(1), {"target": 12})
    assert not lobby.hints
    await manager.join(lobby.id, seat(2))
    with pytest.raises(Refusal) as refused:
        await manager.set_hints(lobby.id, "2", True)
    assert refused.value.template == errors.NOT_HOST
    on = await manager.set_hints(lobby.id, "1", True)
    assert on.hints and on.options == {"target": 12, HINTS: True}
    off = await manager.set_hints(lobby.id, "1", False)
    assert not off.hints and off.options == {"target": 12}
    await manager.set_hints(lobby.id, "1", True)
    started = await manager.start(lobby.id, "1")
    assert started.hints and started.state.target == 12  # the engine got its own option only
    with pytest.raises(Refusal) as refused:
        await manager.set_hints(lobby.id, "1", False)
    # The refusal names what was refused: the hints, not leaving or joining.
    assert refused.value.template == errors.HINTS_AFTER_START
    assert "hints" in refused.value.template


async def test_only_a_real_true_turns_hints_on(manager: SessionManager) -> None:
    lobby = await manager.open_lobby(1, 10, "count", seat(1), {HINTS: "yes"})
    assert not lobby.hints and HINTS not in lobby.options


async def test_check_turn_is_the_gate_of_a_move_and_changes_nothing(
    manager: SessionManager,
) -> None:
    lobby = await manager.open_lobby(1, 10, "count", seat(1), {HINTS: True})
    await manager.join(lobby.id, seat(2))
    session = await manager.start(lobby.id, "1")
    manager.check_turn(session, "1", session.version)
    with pytest.raises(NotYourTurn):
        manager.check_turn(session, "2", session.version)
    with pytest.raises(StaleVersion):
        manager.check_turn(session, "1", session.version - 1)
    with pytest.raises(Refusal):
        manager.check_turn(session, "3", session.version)
    assert manager.get(session.id) is session


def test_the_summary_names_the_runner_up_and_the_paired_gap() -> None:
    decision: Decision[str] = Decision(
        "b",
        (Estimate("a", 1.0, 2), Estimate("b", 3.0, 4), Estimate("c", 2.5, 4)),
        10, 4, True,
        ((1.0, 1.0), (3.0, 2.0, 4.0, 3.0), (2.0, 2.0, 3.0, 3.0)),
    )
    assert summary(decision) == Hint("b", "c", 0.5, 4, 10, True)
    only: Decision[str] = Decision("a", (Estimate("a", 0.0, 0),), 0, 0, False, ((),))
    hint = summary(only)
    assert hint.only_move and hint.runner_up is None and hint.gap is None


def test_the_hint_is_the_expert_seat_move() -> None:
    checked = 0
    for game, states in (("split", split_states(2, 2, every=7)), ("ten", ten_states(1, 3))):
        engine = engines()[game]
        for index, state in enumerate(states[:8]):
            player = engine.awaiting(state)[0]
            hint = advise(game, state, player, random.Random(index), None)
            assert hint.action == engine.bot_action(state, player, "expert",
                                                    random.Random(index))
            checked += 1
    assert checked == 16


@pytest.mark.parametrize("players", [2, 3])
def test_a_split_hint_does_not_peek(players: int) -> None:
    """The expert seat's no-peek test: the hidden part dealt afresh (the other hands, the
    pile, the seed) changes nothing of the hint, its reason included."""
    decisions = searched = 0
    for index, state in enumerate(split_states(3, players, every=5)):
        seat_ = to_move(state)
        if len(split_rules.legal_actions(state, seat_)) < 2:
            continue
        player = state.players[seat_]
        hint = advise("split", state, player, random.Random(index), Iterations(16))
        searched += hint.searched and hint.gap is not None
        for k in range(2):
            redealt = _redeal(state, seat_, random.Random(1000 * index + k))
            assert redealt.hands != state.hands or redealt.pile != state.pile
            assert advise("split", redealt, player, random.Random(index),
                          Iterations(16)) == hint
        decisions += 1
    assert decisions > 10 and searched > 5


def test_a_ten_hint_does_not_peek() -> None:
    decisions = 0
    engine = engines()["ten"]
    for index, state in enumerate(ten_states(2, 3, every=11)):
        seat_ = ten_rules.waiting_seat(state)
        assert seat_ is not None
        player = state.players[seat_]
        hint = advise("ten", state, player, random.Random(index), Iterations(24))
        if hint.only_move:
            continue
        for k in range(2):
            redealt = engine.copy_state(state)
            random.Random(1000 * index + k).shuffle(redealt.pile)
            redealt.seed = 1000 * index + k
            assert advise("ten", redealt, player, random.Random(index),
                          Iterations(24)) == hint
        decisions += 1
    assert decisions > 8


async def test_the_pool_hint_is_the_move_the_expert_seat_plays_there() -> None:
    pool = DecisionPool(workers=1, deadline=60.0)  # no cut: the level's count decides
    try:
        for game, state in (("split", split_states(1, 3, every=6)[2]),
                            ("ten", ten_states(1, 2)[3])):
            engine = engines()[game]
            player = engine.awaiting(state)[0]
            rng = move_rng(state.seed, 7, player)
            hint = await pool.hint(game, state, player, rng)
            played = await pool.bot_action(game, state, player, "expert",
                                           move_rng(state.seed, 7, player))
            assert hint.action == played
            assert hint.simulations > 0 and not hasattr(hint, "outcomes")
    finally:
        await pool.close()
