"""``bench/action_cpu.py`` runs tiny: one 2-player SPLIT game with pictures off and on at the
real bot. No figure is asserted (CPU depends on the machine); only that both settings are
measured, that the bot's CPU per action is a number, that pictures went out only with them on,
and that the profile's split is printed from samples of the bot's classified stacks."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

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


def test_calls_are_counted_in_the_bot_per_stored_action(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--calls``: the bot's own profile (bench/calls_site), read back per stored action."""
    assert action_cpu.main(["--games", "split", "--settings", "text", "--tables", "1",
                            "--players", "2", "--calls"]) == 0
    out = capsys.readouterr().out
    figures = {line.rsplit(None, 1)[0].strip(): line.rsplit(None, 1)[1]
               for line in out.splitlines() if line.startswith(("Python function", "cards"))}
    assert float(figures["Python function calls"].replace(",", "")) > 100
    assert float(figures["cards written (card_view)"]) > 0  # the tables and views it drew


def test_each_construction_is_counted_once(tmp_path: Path) -> None:
    """A subclass's constructor calls its base's: a button, a select and a view are each
    counted once, whatever class they are."""
    import cProfile

    import discord

    async def build() -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="a", custom_id="a"))
        view.add_item(discord.ui.Select(custom_id="s", options=[discord.SelectOption(label="x")]))
        discord.ui.LayoutView(timeout=None)
        from cogs.kit.control_payloads import Rows
        from cogs.kit.custom_ids import ActButton, ActSelect
        Rows([ActButton.payload(1, 2, "a:x", label="x"), ActSelect.payload(1, 2, "s:y:0")])

    profile = cProfile.Profile()
    profile.enable()
    asyncio.run(build())
    profile.disable()
    profile.dump_stats(tmp_path / "p.prof")
    figures = dict(action_cpu.call_figures(tmp_path / "p.prof", 1))
    assert figures["discord.ui.Button built"] == 1
    assert figures["discord.ui selects built"] == 1
    assert figures["views built (View, LayoutView)"] == 2
    assert figures["control payloads written (buttons, selects)"] == 2
    assert figures["payload rows (Rows)"] == 1
