"""``bench/soak.py`` runs tiny: two whole games in one bot process, with the bot's figures.

No figure is asserted (memory depends on the machine); only that the soak plays its games and
reports RSS, live objects and the growth line.
"""

from __future__ import annotations

import pytest

from bench import soak


def test_soak_plays_two_games_and_prints_the_bots_memory(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert soak.main(["--games", "2", "--every", "1"]) == 0
    out = capsys.readouterr().out
    assert "cores" in out and "Python 3." in out
    assert "after    1 games" in out and "after    2 games" in out
    assert "live objects" in out and "RSS MB" in out
    assert "RSS growth over the last 2 games (0 -> 2)" in out
