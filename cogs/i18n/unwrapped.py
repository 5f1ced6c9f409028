"""Find player-facing texts that do not go through the catalogs: string literals and f-strings
with words in them, written straight into a message, an embed or a component.

``python -m cogs.i18n.unwrapped [paths...]`` lists them (``path:line: call(arg): text``) for
``cogs/`` or the given files; ``tests/i18n/test_unwrapped.py`` keeps the whole of ``cogs/``
at zero. It reads the code (``ast``), so it finds what is written at the call: a
sentence kept in a module constant and passed by name is not found (mark those with ``N_``).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

COGS = Path(__file__).resolve().parent.parent

# Calls whose first positional argument is shown to a player.
POSITIONAL = frozenset({
    "send", "send_message", "refuse", "Refusal", "answer_refusal", "NotYourTurn",
    "StaleVersion", "Render",
})
# Keyword arguments that are shown to a player, whatever the call.
KEYWORDS = frozenset({
    "content", "title", "description", "name", "value", "text", "label", "placeholder",
    "note",
})
# Calls where those keywords are shown (``name`` elsewhere is often an identifier).
SHOWN_BY = frozenset({
    "send", "send_message", "edit_message", "edit", "edit_original_response", "Embed",
    "add_field", "set_field_at", "insert_field_at", "set_footer", "set_author", "Button",
    "Select", "SelectOption", "TextInput", "Modal", "Render", "send_private", "ActButton",
    "ActSelect", "HandButton", "InfoButton", "LobbyButton", "RulesPageButton", "ReplayButton",
    "ReplayJump", "BackButton", "HostSelect", "LeaderboardPageButton", "Choice",
})
# Keywords of a call that are identifiers, not texts.
IDENTIFIERS: dict[str, frozenset[str]] = {"Choice": frozenset({"value"})}
_WORD = re.compile(r"[A-Za-z]{2,}")


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    call: str
    argument: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.call}({self.argument}): {self.text!r}"


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _words(node: ast.expr) -> str | None:
    """The literal text of ``node`` when it has words in it (a str or an f-string)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if _WORD.search(node.value) else None
    if isinstance(node, ast.JoinedStr):
        literal = "".join(
            part.value for part in node.values
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
        )
        return ast.unparse(node) if _WORD.search(literal) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _words(node.left) or _words(node.right)
    return None


def findings_in(path: Path) -> Iterator[Finding]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _call_name(node)
        if name in POSITIONAL and node.args:
            text = _words(node.args[0])
            if text is not None:
                yield Finding(path, node.lineno, name, "0", text)
        if name not in SHOWN_BY:
            continue
        skip = IDENTIFIERS.get(name, frozenset())
        for keyword in node.keywords:
            if keyword.arg in KEYWORDS and keyword.arg not in skip:
                text = _words(keyword.value)
                if text is not None:
                    yield Finding(path, keyword.value.lineno, name, keyword.arg, text)


def findings(paths: list[Path]) -> list[Finding]:
    files = [p for path in paths for p in ([path] if path.is_file() else
                                           sorted(path.rglob("*.py")))]
    found = [finding for file in files for finding in findings_in(file)]
    return sorted(found, key=lambda f: (str(f.path), f.line))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    found = findings([Path(a) for a in args] or [COGS])
    for finding in found:
        print(finding)
    print(f"{len(found)} unwrapped text(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
