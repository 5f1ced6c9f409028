"""The benchmark scripts run end to end in their quick mode and print their tables.

No figure is asserted (a busy machine would make that flaky); only that each script works
and reports what the issue asks for.
"""

from __future__ import annotations

import time

import pytest

from bench import engine as engine_bench
from bench import manager as manager_bench
from bench import replay as replay_bench
from bench._common import percentile, table
from game.split import SplitEngine
from game.ten import TenEngine


def test_engine_bench_quick_prints_every_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    assert engine_bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "cores" in out and "Python 3." in out
    for label in ("SPLIT 2p", "SPLIT 4p", "SPLIT 6p", "TEN 2p", "TEN 4p", "TEN 5p"):
        assert label in out
    assert "games/s" in out and "actions/s" in out


@pytest.mark.parametrize("engine", [SplitEngine(), TenEngine()], ids=["split", "ten"])
def test_a_random_game_runs_to_the_end(engine: SplitEngine | TenEngine) -> None:
    actions = engine_bench.play_random_game(engine, ["a", "b", "c"], seed=3)
    assert actions > 10
    again = engine_bench.play_random_game(engine, ["a", "b", "c"], seed=3)
    assert again == actions  # the same seed replays the same game


def test_manager_bench_quick_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert manager_bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "cores" in out and "Python 3." in out
    for figure in (
        "saturated, 4 sessions",
        "saturated, 8 sessions",
        "latency p50",
        "latency p99",
        "database per finished SPLIT game",
        "database per finished TEN game",
        "memory per live session",
        "restore 50 stored sessions",
    ):
        assert figure in out


def test_percentile_is_nearest_rank() -> None:
    values = list(range(1, 101))
    assert percentile(values, 0.5) == 50
    assert percentile(values, 0.99) == 99
    assert percentile([5.0], 0.99) == 5.0


def test_table_aligns_columns() -> None:
    text = table(["name", "n"], [["a", 1], ["long name", 1234]])
    lines = text.splitlines()
    assert lines[0].startswith("name") and lines[-1].endswith("1,234")
    assert len({len(line) for line in lines[1:]}) == 1


class _EndsEveryGame:
    """A load target whose every action ends its game: the next table is a new session."""

    def __init__(self) -> None:
        self.acted_at = 0.0
        self.stepped: list[int] = []

    async def step(self, session_id: int) -> int:
        self.stepped.append(session_id)
        self.acted_at = time.perf_counter()
        return session_id + 100


async def test_offered_load_goes_on_with_the_tables_that_replaced_finished_games() -> None:
    owner = _EndsEveryGame()
    latencies, after = await manager_bench.offered_load(
        owner,  # type: ignore[arg-type]
        [1, 2],
        400.0,
        0.05,
        seed=1,
    )
    assert len(latencies) == len(owner.stepped) >= 4
    # No finished game is acted on again: each table's sessions come one after the other.
    assert len(set(owner.stepped)) == len(owner.stepped)
    for first, last in zip([1, 2], after, strict=True):
        chain = [sid for sid in owner.stepped if sid % 100 == first]
        assert chain == list(range(first, last, 100))


def test_replay_bench_quick_prints_every_game_and_checkpoint_spacing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert replay_bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "cores" in out and "Python 3." in out
    rows = [line.split() for line in out.splitlines() if line.startswith(("SPLIT", "TEN"))]
    assert sorted({(row[0], row[1]) for row in rows}) == [("SPLIT", "6p"), ("TEN", "5p")]
    assert [int(row[3]) for row in rows] == [*replay_bench.CHECKPOINTS] * 2
    assert "build ms" in out and "µs/step" in out


def test_bots_bench_plays_an_expert_game_and_times_its_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bench import bots as bots_bench
    from game.split import expert

    monkeypatch.setattr(expert, "EXPERT_SIMULATIONS", 3)
    result = bots_bench.play_game("split", 2, seed=1)
    assert result.share in (0.0, 0.5, 1.0)
    assert result.decisions and all(t >= 0 for t in result.decisions)
    mean, low, high = bots_bench.interval([1.0, 0.0, 1.0, 1.0])
    assert mean == 0.75 and 0.0 <= low < mean < high <= 1.0


def test_bots_bench_shows_how_far_past_the_deadline_decisions_returned() -> None:
    from bench import bots as bots_bench

    # Ten decisions past the 400 ms deadline by 1..10 ms, and one by 60: p90 10, max 60.
    times = [0.1, 0.3, *[0.4 + k / 1000 for k in range(1, 11)], 0.46]
    assert bots_bench.past_deadline(times, 400) == "10.0 / 60 (11)"
    assert bots_bench.past_deadline([0.1, 0.2], 400) == "-"
    assert bots_bench.past_deadline(times, 0) == "-"



def test_click_path_counts_one_gate_one_ask_and_two_writes_per_click() -> None:
    import asyncio

    from bench import click_path

    results = dict(asyncio.run(click_path.run()))
    assert set(results) == {"SPLIT discard", "TEN buy: the card", "TEN buy: the payment"}
    for name, counted in results.items():
        click, listeners = counted.click.watched, counted.listeners.watched
        assert (click["gate"], click["pre-gate"], listeners["gate"]) == (1, 0, 0), name
        assert click["awaiting"] + listeners["awaiting"] == 1, name  # once per stored change
        assert click["db writes"] == 1 and listeners["db writes"] <= 1, name
        assert counted.click.calls > 0 and counted.click.crossings > 0


def test_palettes_bench_compares_both_ways_for_each_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bench import palettes

    assert palettes.main(["--games", "1", "--every", "80"]) == 0
    out = capsys.readouterr().out
    assert "cores" in out and "Python 3." in out
    rows = [line.split() for line in out.splitlines()]
    for game in ("split", "ten"):
        assert [game, "per", "picture"] in [row[:3] for row in rows]
        assert [game, "the", "game's"] in [row[:3] for row in rows]
    assert "worst pixel" in out and "99.9th pct pixel" in out
