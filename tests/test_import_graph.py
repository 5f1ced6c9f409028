"""Imports point down: no module circle and no folder circle anywhere."""

from __future__ import annotations

from tests.import_graph import circles, read_graph


def test_the_circle_finder_finds_a_circle_and_only_it() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]


def test_no_module_imports_itself_back() -> None:
    assert circles(read_graph().edges) == []


def test_bot_folders_import_only_downwards() -> None:
    graph = read_graph()
    assert "bot.records" in graph.folders()
    assert [circle for circle in circles(graph.folders()) if circle[0].startswith("bot")] == []


def test_records_import_nothing_of_bot_outside_them() -> None:
    graph = read_graph()
    outside = {(module, target) for module, targets in graph.edges.items()
               if module.startswith("bot.records") for target in targets
               if target.startswith("bot.") and not target.startswith("bot.records")}
    assert outside == set()


def test_cogs_folders_import_only_downwards() -> None:
    """kit below the core's shared modules (cogs/*.py), then rendering, listeners, clicks,
    commands, and the table extension (cogs/table) on top: no circle among cogs' folders."""
    graph = read_graph()
    assert {"cogs", "cogs.kit", "cogs.rendering", "cogs.table"} <= set(graph.folders())
    assert [circle for circle in circles(graph.folders()) if circle[0].startswith("cogs")] == []


def test_no_folder_imports_itself_back() -> None:
    """The games' registry is a package above the games (``game.registry``): ``game/`` has no
    folder circle either, so no folder anywhere does."""
    graph = read_graph()
    assert "game.registry" in graph.folders()
    assert circles(graph.folders()) == []
