"""Each game's package exports every name the UIs and the process import from its modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import game.split
import game.ten

ROOT = Path(__file__).parents[2]


def _imported_from_submodules(package: str) -> set[str]:
    names: set[str] = set()
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    package + "."
                ):
                    names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("package", [game.split, game.ten], ids=["split", "ten"])
def test_package_exports_what_the_layers_import(package: object) -> None:
    exported = set(package.__all__)  # type: ignore[attr-defined]
    assert _imported_from_submodules(package.__name__) <= exported  # type: ignore[attr-defined]
    assert all(hasattr(package, name) for name in exported)


@pytest.mark.parametrize(
    ("package", "names"),
    [
        (game.split, {"ActionType", "EventKind", "Level", "RoundEnd", "Step"}),
        (
            game.ten,
            {"ActionType", "BustKind", "EventKind", "PayFor", "Phase", "Reward", "TablePhase"},
        ),
    ],
    ids=["split", "ten"],
)
def test_package_exports_its_vocabulary(package: object, names: set[str]) -> None:
    assert names <= set(package.__all__)  # type: ignore[attr-defined]
