"""The import graph of ``game/``, ``bot/`` and ``cogs/``, read from the source (``ast``): every
``import`` and ``from ... import`` between their modules, ``TYPE_CHECKING`` and function-level
imports included. Circles are strongly connected components of more than one node, among
modules and among folders (a folder: the modules directly in one directory).

    python -m tests.import_graph        # prints the circles; tests/test_import_graph.py checks
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("game", "bot", "cogs")

Graph = Mapping[str, set[str]]


@dataclass(frozen=True)
class ImportGraph:
    modules: dict[str, Path]  # dotted name -> file
    edges: dict[str, set[str]]  # module -> the modules it imports

    def folder(self, module: str) -> str:
        return ".".join(self.modules[module].parent.relative_to(ROOT).parts)

    def folders(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for module, targets in self.edges.items():
            here = out.setdefault(self.folder(module), set())
            for target in targets:
                there = self.folder(target)
                out.setdefault(there, set())
                if there != self.folder(module):
                    here.add(there)
        return out


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def read_graph() -> ImportGraph:
    files = (path for layer in LAYERS for path in sorted((ROOT / layer).rglob("*.py")))
    modules = {_name(path): path for path in files}

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {}
    for module, path in modules.items():
        found = edges.setdefault(module, set())
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                # ``from pkg import mod`` imports the module; ``from mod import name`` the module
                names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                         for alias in node.names]
            for name in names:
                target = known(name)
                if target is not None and target != module:
                    found.add(target)
    return ImportGraph(modules, edges)


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work: list[tuple[str, Iterable[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def main() -> None:
    graph = read_graph()
    module_circles = circles(graph.edges)
    folder_circles = circles(graph.folders())
    print(f"{len(graph.modules)} modules, {sum(map(len, graph.edges.values()))} imports")
    print(f"module circles: {len(module_circles)}")
    for circle in module_circles:
        print("  " + ", ".join(circle))
    print(f"folder circles: {len(folder_circles)}")
    for circle in folder_circles:
        print("  " + ", ".join(circle))


if __name__ == "__main__":
    main()
