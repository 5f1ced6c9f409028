"""game.replay: every step rebuilt through the engine, from checkpoints, in any order."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.base import Engine
from game.registry import engines, step_markers
from game.replay import LoggedAction, Replay, ReplayRefused, StepMarker
from game.split import EventKind as SplitEvent
from game.split import Step
from game.ten import EventKind as TenEvent

ENGINES = engines()
MARKERS = step_markers()


def seats(count: int) -> list[str]:
    return [f"p{n}" for n in range(count)]


def played(
    game: str, count: int, seed: int, limit: int | None = None
) -> tuple[list[LoggedAction], list[dict[str, Any]]]:
    """A seeded random game's log, and the JSON of the state after each step (0: the deal)."""
    engine: Engine[Any, Any] = ENGINES[game]
    state, _ = engine.new_game(seats(count), seed)
    rng = random.Random(seed)
    log: list[LoggedAction] = []
    states = [state.model_dump(mode="json")]
    while not engine.is_over(state) and (limit is None or len(log) < limit):
        player = engine.awaiting(state)[0]
        action = engine.bot_action(state, player, "easy", rng)
        log.append(LoggedAction(player, action.model_dump(mode="json"), version=10 + len(log)))
        engine.apply(state, player, action)
        states.append(state.model_dump(mode="json"))
    return log, states


def replay_of(game: str, count: int, log: list[LoggedAction], seed: int, **kw: Any) -> Replay:
    names = {p: p.upper() for p in seats(count)}
    return Replay(ENGINES[game], seats(count), seed, None, log, names=names,
                  marker=MARKERS[game], **kw)


@pytest.mark.parametrize(("game", "count"), [("split", 3), ("ten", 4)])
def test_every_step_in_any_order_is_the_state_the_game_had(game: str, count: int) -> None:
    log, states = played(game, count, seed=5)
    replay = replay_of(game, count, log, seed=5, checkpoint_every=7)
    assert len(replay) == len(log) + 1 and replay.last_index == len(log)
    order = list(range(len(replay)))
    random.Random(1).shuffle(order)
    for index in [*order, *range(len(replay)), *reversed(range(len(replay)))]:
        step = replay.step(index)
        assert step.index == index
        assert step.state.model_dump(mode="json") == states[index]
    assert replay.is_over and replay.results() == ENGINES[game].results(replay.final_state())


def test_a_step_hands_out_its_own_copy() -> None:
    log, states = played("split", 2, seed=8)
    replay = replay_of("split", 2, log, seed=8, checkpoint_every=4)
    for index in (5, replay.last_index):
        step = replay.step(index)
        step.state.hands[0].clear()
        step.state.round = 99
        assert replay.step(index).state.model_dump(mode="json") == states[index]
    assert replay.step(6).state.model_dump(mode="json") == states[6]  # from the cursor at 5


def test_steps_name_actor_action_version_and_events() -> None:
    log, _ = played("split", 2, seed=3)
    replay = replay_of("split", 2, log, seed=3)
    start = replay.step(0)
    assert (start.actor, start.action, start.version) == (None, None, None)
    assert [e.kind for e in start.events] == [SplitEvent.ROUND_START]
    assert start.lines[0].startswith("Round 1: ")
    for index in (1, 2, len(log)):
        step = replay.step(index)
        assert step.actor == log[index - 1].player
        assert step.version == log[index - 1].version
        assert step.action is not None
        assert step.action.model_dump(mode="json") == log[index - 1].action
        assert len(step.lines) == len(step.events) >= 1


def test_words_show_private_details_unless_asked_for_a_viewers_words() -> None:
    log, _ = played("split", 2, seed=3)
    replay = replay_of("split", 2, log, seed=3)
    index = next(
        i for i in range(1, len(replay))
        if any(e.kind == SplitEvent.DRAW for e in replay.step(i).events)
    )
    step = replay.step(index)
    draw = next(e for e in step.events if e.kind == SplitEvent.DRAW)
    assert draw.private is not None
    card = draw.private["card"]
    assert any(f"drew {card}" in line for line in step.lines)
    public = replay.words(index, None, reveal=False)
    assert any("drew a card" in line for line in public)
    assert not any(f"drew {card}" in line for line in public)
    assert replay.words(index, draw.private_to, reveal=False) == step.lines


def test_split_markers_jump_to_each_round_and_turn() -> None:
    log, _ = played("split", 3, seed=21)
    replay = replay_of("split", 3, log, seed=21)
    assert replay.rounds() == [1, 2, 3]
    assert replay.markers[0] == StepMarker(1, 1)
    for round_ in (2, 3):
        index = replay.first_step_of(round=round_)
        assert index is not None
        step = replay.step(index)
        kinds = [e.kind for e in step.events]
        assert SplitEvent.ROUND_END in kinds and SplitEvent.ROUND_START in kinds
        assert step.marker == StepMarker(round_, 1)
        assert replay.step(index - 1).marker.round == round_ - 1
    turns = replay.turns(2)
    assert turns == list(range(1, len(turns) + 1))
    for turn in turns[1:]:
        index = replay.first_step_of(round=2, turn=turn)
        assert index is not None
        state = replay.step(index).state
        assert state.step == Step.TAKE and sum(state.turns_started) == turn - 1
    assert replay.first_step_of(round=4) is None
    assert replay.first_step_of(round=1, turn=len(log) + 1) is None


def test_ten_markers_jump_to_each_turn() -> None:
    log, _ = played("ten", 3, seed=4)
    replay = replay_of("ten", 3, log, seed=4)
    assert replay.rounds() == []
    turns = replay.turns()
    assert turns[0] == 1 and turns == list(range(1, len(turns) + 1))
    for turn in turns[1:]:
        index = replay.first_step_of(turn=turn)
        assert index is not None
        events = replay.step(index).events
        assert any(e.kind == TenEvent.TURN and e.data["turn"] == turn for e in events)
        assert replay.markers[index] == StepMarker(None, turn)


def test_paging_stops_at_both_ends() -> None:
    log, _ = played("ten", 2, seed=2, limit=12)
    replay = replay_of("ten", 2, log, seed=2)
    assert [replay.clamp(i) for i in (-5, -1, 0, 3, 12, 13, 99)] == [0, 0, 0, 3, 12, 12, 12]
    for outside in (-1, 13):
        with pytest.raises(IndexError):
            replay.step(outside)
    assert not replay.is_over and replay.results() == []


def test_a_game_without_markers_replays_with_empty_ones() -> None:
    log, _ = played("ten", 2, seed=2, limit=5)
    replay = Replay(ENGINES["ten"], seats(2), 2, None, log)
    assert set(replay.markers) == {StepMarker(None, None)}
    assert replay.rounds() == [] and replay.turns() == [] and replay.first_step_of(turn=1) is None
    assert replay.first_step_of() == 0


def test_an_action_out_of_turn_is_refused_with_its_step() -> None:
    log, _ = played("split", 2, seed=6, limit=10)
    wrong = log[4]
    other = "p1" if wrong.player == "p0" else "p0"
    log[4] = wrong._replace(player=other)
    with pytest.raises(ReplayRefused) as err:
        replay_of("split", 2, log, seed=6)
    assert err.value.step == 5 and err.value.version == wrong.version
    assert str(err.value) == (
        f"step 5 (version {wrong.version}) by {other} refused: "
        f"the game was not waiting for {other}"
    )


def test_an_illegal_or_malformed_action_is_refused_with_the_engines_reason() -> None:
    log, _ = played("split", 2, seed=6, limit=10)
    bad = [*log[:2], log[2]._replace(action={"type": "no such move"})]
    with pytest.raises(ReplayRefused) as err:
        replay_of("split", 2, bad, seed=6)
    assert err.value.step == 3 and err.value.reason
    # The same moves against another seed's deal: some card is no longer in that hand.
    with pytest.raises(ReplayRefused) as err:
        replay_of("split", 2, log, seed=7)
    assert 1 <= err.value.step <= len(log)


def test_an_action_after_the_end_is_refused() -> None:
    log, _ = played("ten", 2, seed=9)
    extra = LoggedAction(log[-1].player, log[-1].action, log[-1].version + 1)
    with pytest.raises(ReplayRefused) as err:
        replay_of("ten", 2, [*log, extra], seed=9)
    assert err.value.step == len(log) + 1
    assert err.value.reason == "the game is already over"


def test_players_the_engine_refuses_are_refused_at_step_zero() -> None:
    with pytest.raises(ReplayRefused) as err:
        Replay(ENGINES["split"], ["p0"], 1, None, [])
    assert err.value.step == 0
    with pytest.raises(ValueError, match="checkpoint_every"):
        Replay(ENGINES["split"], seats(2), 1, None, [], checkpoint_every=0)
