"""The stand-in as a part of the product (issue 40): it carries Discord's spec with it, needs
no discord.py, and ``python -m bot.playground --help`` documents its options."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot.playground.fakediscord import contract
from bot.playground.fakediscord.discord_limits import LOCALES

REPO = Path(__file__).resolve().parents[2]
SHARED_SPEC = REPO.parent / "shared" / "discord-api-spec"
STANDIN = REPO / "bot" / "playground"


@pytest.mark.skipif(not SHARED_SPEC.is_dir(), reason="no ../shared beside this checkout")
def test_the_shipped_spec_is_the_shared_one() -> None:
    shipped = contract.PACKAGED_SPEC.parent
    for name in ("openapi.json", "LICENSE"):
        assert (shipped / name).read_bytes() == (SHARED_SPEC / name).read_bytes(), name


def test_the_locales_are_discord_py_s() -> None:
    assert {locale.value for locale in discord.Locale} == LOCALES


def test_the_playground_imports_no_discord_py_and_no_cogs() -> None:
    for path in STANDIN.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.split(".")[0] not in ("discord", "cogs"), f"{path}: {name}"


def test_help_documents_the_options() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "bot.playground", "--help"], cwd=REPO, capture_output=True,
        text=True, timeout=60, check=True,
    ).stdout
    for option in ("--port", "--data", "--players", "--images", "--rate-limits", "--bot-log"):
        assert option in shown, option
    assert "127.0.0.1" in shown
