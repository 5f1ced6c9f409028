"""``python -m game.split replay FILE`` / ``python -m game.ten replay FILE``: exit 0 when the
replay ends as the file says, 1 when it differs or a step is refused, 2 for a bad file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.export_format import dump_export
from tests.replay.conftest import Stored

ROOT = Path(__file__).resolve().parents[2]


def run(game: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", f"game.{game}", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )


def write(path: Path, data: dict[str, Any] | str) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def exported(stored: dict[str, Stored], name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dump_export(stored[name].export))
    return data


@pytest.mark.parametrize(("name", "game"), [("split-4-bot-leaver", "split"), ("ten-5", "ten")])
def test_a_faithful_export_replays_and_prints_the_standings(
    stored: dict[str, Stored], tmp_path: Path, name: str, game: str
) -> None:
    data = exported(stored, name)
    result = run(game, "replay", str(write(tmp_path / "game.json", data)))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert f"({'finished'}): {len(data['actions'])} actions replayed" in lines[0]
    assert lines[1] == "Final standings:"
    names = {s["player_id"]: s["display_name"] for s in data["seats"]}
    expected = sorted(data["results"], key=lambda r: r["placement"])
    assert sorted(lines[2:]) == sorted(
        f"{r['placement']}. {names[r['player']]} ({r['player']}): {r['score']}" for r in expected
    )


def test_a_tampered_score_or_placement_exits_1(
    stored: dict[str, Stored], tmp_path: Path
) -> None:
    data = exported(stored, "split-2")
    data["results"][0]["score"] += 1
    result = run("split", "replay", str(write(tmp_path / "score.json", data)))
    assert result.returncode == 1
    assert "the replay differs from the file" in result.stderr
    assert "Final standings:" in result.stdout
    data = exported(stored, "ten-5")
    winner = next(r["player"] for r in data["results"] if r["placement"] == 1)
    for seat in data["seats"]:
        seat["left"] = seat["player_id"] == winner  # a leaver is placed last
    result = run("ten", "replay", str(write(tmp_path / "left.json", data)))
    assert result.returncode == 1
    name = next(s["display_name"] for s in data["seats"] if s["player_id"] == winner)
    assert f"5. {name} ({winner})" in result.stderr.split("; replay ")[1]


def test_a_refused_action_exits_1_naming_the_step(
    stored: dict[str, Stored], tmp_path: Path
) -> None:
    data = exported(stored, "ten-5")
    data["actions"][5]["player"] = "nobody"
    result = run("ten", "replay", str(write(tmp_path / "step.json", data)))
    assert result.returncode == 1
    assert result.stderr.strip().endswith(
        f"step 6 (version {data['actions'][5]['version']}) by nobody refused: "
        "the game was not waiting for nobody"
    )
    data = exported(stored, "split-2")
    data["actions"].pop()  # the finishing move is missing
    result = run("split", "replay", str(write(tmp_path / "short.json", data)))
    assert result.returncode == 1
    assert "the file says finished, but the replay does not end" in result.stderr


def test_an_abandoned_game_without_results_replays_with_exit_0(
    stored: dict[str, Stored], tmp_path: Path
) -> None:
    data = exported(stored, "split-2")
    data["actions"] = data["actions"][:30]
    data.update(status="abandoned", results=[])
    result = run("split", "replay", str(write(tmp_path / "stopped.json", data)))
    assert result.returncode == 0, result.stderr
    assert "stopped before its end" in result.stdout


@pytest.mark.parametrize(
    ("game", "content", "problem"),
    [
        ("split", "{not json", "not a game export"),
        ("split", '{"format_version": 1}', "not a game export"),
        ("ten", None, "it is a 'split' game, not 'ten'"),
        ("split", "missing", "cannot read it"),
    ],
)
def test_a_malformed_file_exits_2_with_one_line(
    stored: dict[str, Stored], tmp_path: Path, game: str, content: str | None, problem: str
) -> None:
    path = tmp_path / "bad.json"
    if content is None:
        write(path, exported(stored, "split-2"))
    elif content != "missing":
        write(path, content)
    result = run(game, "replay", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and problem in result.stderr


@pytest.mark.parametrize("game", ["split", "ten"])
def test_simulate_still_runs(game: str) -> None:
    result = run(game, "simulate", "--players", "2", "--games", "1")
    assert result.returncode == 0, result.stderr
    assert "games/s" in result.stdout
