"""``bench/action_cpu.py`` runs tiny: one 2-player SPLIT game with pictures off and on at the
real bot. No figure is asserted (CPU depends on the machine); only that both settings are
measured, that the bot's CPU per action is a number, that pictures went out only with them on,
and that the profile's split is printed from samples of the bot's classified stacks."""

from __future__ import annotations

from collections import Counter

import pytest

from bench import action_cpu


def test_action_cpu_measures_the_bot_per_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert action_cpu.main(["--games", "split", "--settings", "text", "pictures",
                            "--tables", "1", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "cores" in out and "Python 3." in out
    rows = {line.split()[1]: line.split() for line in out.splitlines()
            if line.startswith("split ")}
    assert set(rows) == {"text", "pictures"}
    assert float(rows["text"][6]) > 0  # the bot's ms per action
    assert rows["text"][-1] == "-" and "table.png" in " ".join(rows["pictures"])


def test_profile_parts_come_from_the_innermost_known_frame() -> None:
    stacks = Counter({
        "main (bot/__main__.py:10);_respond (cogs/rendering/message_delivery.py:5);"
        "dumps (json/__init__.py:231)": 3,
        "main (bot/__main__.py:10);record_action (bot/store/sqlite.py:170)": 2,
        "run (threading.py:1);_connection_worker_thread (aiosqlite/core.py:60)": 5,
    })
    assert action_cpu.part_of(next(iter(stacks))) == "JSON and models"
    lines = "\n".join(action_cpu.profile_lines(stacks, 3))
    assert "5 of them waiting" in lines and "the store" in lines
