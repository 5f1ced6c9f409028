"""How far each feature spreads through the product, and the cogs' run-time look-ups.

Per feature (daily, learn, hint, review, season, admin, leaderboard, settings): the product
files (``*.py`` under ``game/``, ``bot/``, ``cogs/``) whose path or code names it (the
feature's pattern below, case-insensitive, in the file's path or in one of its identifiers:
names, attributes, imported modules; comments, docstrings and player-facing strings, which
are catalog entries, are not code), how many folders they sit in, and of those how many in
``cogs/``. ``--text`` counts a name anywhere in the text instead (comments included).

Then, in ``cogs/``: the calls of ``services_of`` and ``clicks_of``, the
runtime-checkable Protocols, the ``isinstance(ui, …)`` capability sniffs, the broad
``except Exception`` and the uses of ``Any`` outside import lines.

    python -m bench.feature_spread [--root CHECKOUT] [--text]

Prints figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from bench._common import machine_line, table

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("game", "bot", "cogs")
# What names a feature. "settings" alone would name the process's environment settings
# (``bot.settings``) in every file; the feature is a server's and a person's settings.
FEATURES = {
    "daily": r"daily",
    "learn": r"learn",
    "hint": r"hint",
    "review": r"review",
    "season": r"season",
    "admin": r"admin",
    "leaderboard": r"leaderboard",
    "settings": r"guild_settings|user_settings|server_settings|settings_cache|cogs[./]settings"
                r"|stored_settings|reader_words|config_command|language_command",
}
CALLS = {
    "services_of( calls": r"(?<!def )\bservices_of\(",
    "clicks_of( calls": r"(?<!def )\bclicks_of\(",
    "@runtime_checkable Protocols": r"^@runtime_checkable",
    "isinstance(ui, …) sites": r"isinstance\(\s*(?:\w+\.)*ui\b",
    "except Exception": r"except Exception\b",
}


def product_files() -> list[Path]:
    return sorted(path for layer in PRODUCT for path in (ROOT / layer).rglob("*.py"))


def code_names(text: str) -> str:
    """The identifiers of a module, one a line (names, attributes, imported modules)."""
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return "\n".join(token.string for token in tokens if token.type == tokenize.NAME)


def spread(text: bool = False) -> list[tuple[str, int, int, int, int]]:
    files = [(path.relative_to(ROOT), path.read_text(encoding="utf-8")) for path in
             product_files()]
    if not text:
        files = [(path, code_names(body)) for path, body in files]
    rows = []
    for feature, pattern in FEATURES.items():
        named = re.compile(pattern, re.IGNORECASE)
        hits = [path for path, text in files if named.search(str(path)) or named.search(text)]
        folders = {path.parent for path in hits}
        in_cogs = [path for path in hits if path.parts[0] == "cogs"]
        rows.append((feature, len(hits), len(folders), len(in_cogs),
                     len({path.parent for path in in_cogs})))
    return rows


def cogs_counts() -> list[tuple[str, int]]:
    texts = [path.read_text(encoding="utf-8") for path in (ROOT / "cogs").rglob("*.py")]
    rows = [(name, sum(len(re.findall(pattern, text, re.MULTILINE)) for text in texts))
            for name, pattern in CALLS.items()]
    any_uses = sum(len(re.findall(r"\bAny\b", line)) for text in texts
                   for line in text.splitlines()
                   if not line.lstrip().startswith(("from ", "import ")))
    return [*rows, ("Any outside imports", any_uses)]


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module, modules: set[str]) -> Iterator[str]:
    """The modules of ``modules`` a module imports when it is loaded (its top level, outside
    ``if TYPE_CHECKING``): ``from X import name`` is ``X.name`` when that is a module, else
    ``X``."""
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                yield inner if inner in modules else node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def import_graph(layer: str) -> dict[str, set[str]]:
    """Module -> the modules of ``layer`` it imports at load time."""
    paths = {_module_name(path): path for path in (ROOT / layer).rglob("*.py")}
    return {name: {imported for imported in _imports(ast.parse(path.read_text("utf-8")),
                                                     set(paths))
                   if imported in paths and imported != name}
            for name, path in paths.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def folder_graph(modules: dict[str, set[str]]) -> dict[str, set[str]]:
    """Folder (package) -> the folders its modules import; a package's ``__init__`` belongs to
    the package's own folder."""
    def folder(name: str) -> str:
        # A package is a folder with an __init__ (cogs/imaging/fonts/ holds font files beside
        # the module cogs/imaging/fonts.py, which belongs to cogs/imaging).
        path = ROOT.joinpath(*name.split("."), "__init__.py")
        return name if path.is_file() else name.rpartition(".")[0]

    graph: dict[str, set[str]] = {}
    for name, imported in modules.items():
        graph.setdefault(folder(name), set()).update(
            folder(other) for other in imported if folder(other) != folder(name))
    return graph


def main() -> None:
    global ROOT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument("--text", action="store_true", help="names anywhere in the text")
    args = parser.parse_args()
    ROOT = args.root.resolve()
    print(machine_line())
    print(f"checkout: {ROOT}")
    print(table(("feature", "files", "folders", "cogs files", "cogs folders"),
                spread(args.text)))
    print()
    modules = import_graph("cogs")
    module_circles = _circles(modules)
    folder_circles = _circles(folder_graph(modules))
    print(table(("in cogs/", "count"), [*cogs_counts(), ("module circles", len(module_circles)),
                                         ("folder circles", len(folder_circles))]))
    for circle in folder_circles:
        print("folder circle:", " ".join(circle))


if __name__ == "__main__":
    main()
