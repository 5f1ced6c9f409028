"""The engines answer exactly as they did when the record was made (see recording.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.behaviour.recording import cases, replay_game

RECORD = Path(__file__).with_name("record.json")


def _records() -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = json.loads(RECORD.read_text())
    return records


def test_record_covers_every_case() -> None:
    recorded = {(r["game"], r["players"], r["level"], r["seed"]) for r in _records()}
    assert recorded == set(cases())


@pytest.mark.parametrize(
    "record", _records(), ids=lambda r: "{game}-{players}p-{level}-{seed}".format(**r)
)
def test_recorded_game_replays_identically(record: dict[str, Any]) -> None:
    replayed = replay_game(record)
    assert len(replayed) == len(record["hashes"])
    for step, (got, want) in enumerate(zip(replayed, record["hashes"], strict=True)):
        assert got == want, f"step {step} differs"
