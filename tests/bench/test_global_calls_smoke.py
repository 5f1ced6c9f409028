"""``bench/global_calls.py`` runs tiny: one whole SPLIT game and a load run of one table for a
few seconds. Only that the script plays them and prints its tables is checked (the figures
are the lead's to measure)."""

from __future__ import annotations

import pytest

from bench import global_calls


def test_global_calls_plays_a_game_and_a_short_load_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert global_calls.main(["--games", "split-2", "--load", "1", "--seconds", "4"]) == 0
    out = capsys.readouterr().out
    assert "cores" in out and "Python 3." in out
    [row] = [line for line in out.splitlines() if line.startswith("split-2 ")]
    assert row.endswith(" ok"), row  # the final post last, no ping left
    assert "globally-limited calls by route:" in out
    assert "tables  actions" in out and "most tables held:" in out


def test_a_load_run_reads_the_bots_collector_and_memory_after_a_warm_up(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--gc`` reads the bot's garbage collector and resident memory (bench/calls_site);
    ``--warm-up`` plays before the span measured."""
    assert global_calls.main(["--games", "none", "--load", "1", "--seconds", "3",
                              "--warm-up", "3", "--gc"]) == 0
    out = capsys.readouterr().out
    assert "1 tables: 1 games opened" in out
    assert "objects tracked at the end" in out and "resident memory every 10 s" in out
    assert "measured after 3 s of play" in out
