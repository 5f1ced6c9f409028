"""``bench.review_cpu`` reviews a machine-played game of each kind and prints its figures
(none asserted: they depend on the machine)."""

from __future__ import annotations

import pytest

from bench import review_cpu


def test_review_cpu_prints_both_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert review_cpu.main(["--games", "1", "--players", "2", "--budget", "0.3"]) == 0
    out = capsys.readouterr().out
    for game in ("split 2p", "ten 2p"):
        assert f"{game}: CPU s per review" in out
    assert "simulations per decision" in out and "stopped by the budget" in out
