"""bot.sessions.export: games stored by the session manager export, and the export replays through
the engine to the very state and results the store holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.records.session import Session, Status
from bot.sessions import export as exports
from bot.sessions.export import ExportRefused, build_export, export_file, export_session
from bot.store import open_store
from game.export_format import (
    FORMAT_VERSION,
    ExportFormatError,
    dump_export,
    parse_export,
)
from game.registry import replay_export
from game.standings import standings
from tests.replay.conftest import CONFIGS, Stored
from tests.replay.stored_games import CHANNEL, GUILD, human, manager_for, play, start_game


@pytest.mark.parametrize("name", CONFIGS)
def test_the_export_replays_to_the_stored_final_state_and_results(
    stored: dict[str, Stored], name: str
) -> None:
    game = stored[name]
    export = parse_export(dump_export(game.export))  # through its JSON text
    assert export == game.export
    replay = replay_export(export)
    assert len(replay) == len(game.actions) + 1
    last = replay.step(replay.last_index)
    assert last.state.model_dump(mode="json") == game.session.state
    assert last.version == game.session.version == game.actions[-1].seq
    assert replay.is_over
    replayed = standings(replay.results(), export.leavers)
    assert sorted((r.player, r.placement, r.score) for r in replayed) == sorted(
        (r.user_id, r.placement, r.score) for r in game.results
    )
    assert [(s.actor, s.version) for s in map(replay.step, range(1, len(replay)))] == [
        (row.user_id, row.seq) for row in game.actions
    ]


@pytest.mark.parametrize("name", CONFIGS)
def test_the_export_holds_game_options_seed_seats_actions_and_results(
    stored: dict[str, Stored], name: str
) -> None:
    game = stored[name]
    export = game.export
    data = json.loads(dump_export(export))
    assert data["format_version"] == FORMAT_VERSION == 1
    assert (data["game"], data["status"], data["session_id"]) == (
        game.session.game, "finished", game.session.id
    )
    assert data["options"] == game.session.options
    assert data["seed"] == game.session.state["seed"]
    assert [s["player_id"] for s in data["seats"]] == game.session.state["players"]
    assert [
        (s["player_id"], s["display_name"], s["is_bot"], s["bot_level"], s["left"])
        for s in data["seats"]
    ] == [
        (s.player_id, s.display_name, s.is_bot, s.bot_level, s.left) for s in game.session.seats
    ]
    assert [(a["version"], a["player"], a["action"]) for a in data["actions"]] == [
        (row.seq, row.user_id, row.action) for row in game.actions
    ]
    assert sorted((r["player"], r["placement"], r["score"]) for r in data["results"]) == sorted(
        (r.user_id, r.placement, r.score) for r in game.results
    )
    assert data["ended_at"] is not None and data["created_at"] is not None


def test_leavers_are_placed_last_in_the_export_as_in_the_store(
    stored: dict[str, Stored]
) -> None:
    for name in ("split-4-bot-leaver", "ten-3-leaver"):
        export = stored[name].export
        leaver = export.seats[1]
        assert leaver.left and export.leavers == {leaver.player_id}
        placement = {r.player: r.placement for r in export.results}
        assert placement[leaver.player_id] == len(export.seats)
    solo = stored["ten-solo"].export
    assert [(s.is_bot, s.bot_level) for s in solo.seats] == [(False, None), (True, "normal")]


def test_the_attachment_is_named_after_the_game_and_parses_back(
    stored: dict[str, Stored]
) -> None:
    export = stored["split-2"].export
    filename, content = export_file(export)
    assert filename == f"split-game-{export.session_id}.json"
    assert parse_export(content) == export
    assert len(content) < 1_000_000  # far below an attachment's limit


async def test_a_cancelled_game_exports_and_replays_up_to_where_it_stopped(
    tmp_path: Path
) -> None:
    store = await open_store(tmp_path / "db.sqlite3")
    try:
        manager = manager_for(store, seed=3)
        session = await start_game(manager, "split", 3)
        session = await play(manager, session, seed=3, actions=25)
        await manager.cancel(session.id, session.host_id)
        await manager.drain()
        stopped = await store.load_session(session.id)
        assert stopped is not None and stopped.status is Status.ABANDONED
        export = await export_session(store, session.id)
    finally:
        await store.close()
    assert export.status == "abandoned" and export.results == []
    assert len(export.actions) == 25
    replay = replay_export(parse_export(dump_export(export)))
    assert replay.last_index == 25 and not replay.is_over and replay.results() == []
    assert replay.step(25).state.model_dump(mode="json") == stopped.state


async def test_running_games_lobbies_and_unknown_sessions_are_refused(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "db.sqlite3")
    try:
        manager = manager_for(store, seed=3)
        running = await start_game(manager, "ten", 2)
        running = await play(manager, running, seed=3, actions=4)
        lobby = await manager.open_lobby(GUILD, CHANNEL + 1, "split", human(0))
        cancelled = await manager.open_lobby(GUILD, CHANNEL + 2, "split", human(0))
        await manager.cancel(cancelled.id, human(0).player_id)
        await manager.drain()
        cases = [
            (running.id, exports.STILL_RUNNING),
            (lobby.id, exports.STILL_IN_LOBBY),
            (cancelled.id, exports.NEVER_STARTED),
            (999, exports.NO_SUCH_GAME),
        ]
        for session_id, message in cases:
            with pytest.raises(ExportRefused) as err:
                await export_session(store, session_id)
            assert err.value.message == message
        # The live session (its state a model, as the manager holds it) is refused alike.
        with pytest.raises(ExportRefused) as err:
            build_export(running, await store.actions(running.id), [])
        assert err.value.message == exports.STILL_RUNNING
    finally:
        await store.close()


def test_a_live_finished_session_exports_like_the_stored_one(stored: dict[str, Stored]) -> None:
    """The manager's own Session holds the state as its model; the export is the same."""
    game = stored["ten-5"]
    engine_state: Any = replay_export(game.export).final_state()
    live = Session(**{**game.session.__dict__, "state": engine_state})
    assert build_export(live, game.actions, game.results) == game.export


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d.update(format_version=2), "format_version"),
        (lambda d: d["seats"].append(d["seats"][0]), "two seats"),
        (lambda d: d["actions"].reverse(), "versions do not increase"),
        (lambda d: d["results"].append(d["results"][0]), "two results"),
        (lambda d: d.pop("seed"), "seed"),
        (lambda d: d.update(status="active"), "status"),
    ],
)
def test_a_malformed_export_is_refused_in_one_line(
    stored: dict[str, Stored], change: Any, problem: str
) -> None:
    data = json.loads(dump_export(stored["split-2"].export))
    change(data)
    with pytest.raises(ExportFormatError) as err:
        parse_export(json.dumps(data))
    assert problem in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ExportFormatError):
        parse_export("{not json")
