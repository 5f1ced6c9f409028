"""``python -m game.<game> replay FILE``: replay an exported game and check its results.

Exit status: 0 when the replay ends as the file says (the same standings, or for an abandoned
game no end); 1 when they differ or the engine refuses a logged action (the step is named);
2 when the file cannot be read or is not an export of this game (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from game.base import Engine, PlayerId, PlayerResult
from game.export_format import ExportFormatError, GameExport, parse_export, replay_export
from game.replay import ReplayRefused, StepMarkerFn, no_marker
from game.standings import standings

OK, DIFFERS, MALFORMED = 0, 1, 2


def add_replay_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = commands.add_parser(
        "replay", help="replay an exported game and check its final standings"
    )
    replay.add_argument("file", type=Path, help="the JSON file /game export attached")


def standings_lines(results: Sequence[PlayerResult], names: Mapping[PlayerId, str]) -> list[str]:
    return [
        f"{r.placement}. {names.get(r.player, r.player)} ({r.player}): {r.score}" for r in results
    ]


def _key(results: Sequence[PlayerResult]) -> list[tuple[PlayerId, int, int]]:
    return sorted((r.player, r.placement, r.score) for r in results)


def _load(engine: Engine[Any, Any], path: Path) -> GameExport:
    try:
        text = path.read_bytes()
    except OSError as err:
        raise ExportFormatError(f"cannot read it: {err.strerror or err}") from None
    export = parse_export(text)
    if export.game != engine.key:
        raise ExportFormatError(f"it is a {export.game!r} game, not {engine.key!r}")
    return export


def run_replay(
    engine: Engine[Any, Any],
    path: Path,
    out: TextIO = sys.stdout,
    err: TextIO = sys.stderr,
    *,
    marker: StepMarkerFn = no_marker,
) -> int:
    """Replay ``path`` through ``engine`` (its steps marked by the game's ``marker``); print the
    standings; return the exit status."""
    try:
        export = _load(engine, path)
    except ExportFormatError as error:
        print(f"{path}: {error}", file=err)
        return MALFORMED
    try:
        replay = replay_export(export, engine, marker=marker)
    except ReplayRefused as refused:
        print(f"{path}: {refused}", file=err)
        return DIFFERS
    names = export.names
    print(
        f"{engine.title} session {export.session_id} ({export.status}): "
        f"{len(export.actions)} actions replayed",
        file=out,
    )
    replayed = standings(replay.results(), export.leavers)
    if replay.is_over:
        print("Final standings:", file=out)
        print("\n".join(standings_lines(replayed, names)), file=out)
    else:
        print("The game stopped before its end: no standings.", file=out)
    if replay.is_over != (export.status == "finished"):
        ending = "ends" if replay.is_over else "does not end"
        print(f"{path}: the file says {export.status}, but the replay {ending}", file=err)
        return DIFFERS
    stored = export.standings()
    if _key(replayed) != _key(stored):
        said = "; ".join(standings_lines(stored, names)) or "no standings"
        got = "; ".join(standings_lines(replayed, names)) or "no standings"
        print(f"{path}: the replay differs from the file: file {said}; replay {got}", file=err)
        return DIFFERS
    return OK
