"""What Discord refused in a command registration, said in one line.

Discord answers a refused bulk registration with 400, code 50035 and an ``errors`` object
keyed by the registration's indexes: ``{"3": {"options": {"0": {"max_value": {"_errors":
[{"code": ..., "message": ...}]}}}}}``. :func:`refusal_text` maps those indexes back to the
command and option names of the payload that was sent.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

SUB_COMMAND_TYPES = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP


def refusal_text(errors: Mapping[str, Any], payload: Sequence[Mapping[str, Any]]) -> str:
    """``/game export, option session, field max_value: NUMBER_TYPE_MAX int53 out of range``
    for each refused field, joined by ``"; "``."""
    parts = [_describe(path, found, payload) for path, found in _leaves(errors, ())]
    return "; ".join(parts) or "no field named"


def _leaves(
    node: Mapping[str, Any], path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], list[Mapping[str, Any]]]]:
    for key, value in node.items():
        if key == "_errors" and isinstance(value, list):
            yield path, [e for e in value if isinstance(e, Mapping)]
        elif isinstance(value, Mapping):
            yield from _leaves(value, (*path, key))


def _describe(
    path: tuple[str, ...], found: list[Mapping[str, Any]], payload: Sequence[Mapping[str, Any]]
) -> str:
    said = ", ".join(f"{e.get('code', '?')} {e.get('message', '')}".strip() for e in found)
    if not path or not path[0].isdigit() or int(path[0]) >= len(payload):
        return f"field {'.'.join(path) or '(the registration)'}: {said}"
    item: Mapping[str, Any] = payload[int(path[0])]
    words = [f"/{item.get('name', '?')}"]
    option: str | None = None
    rest = list(path[1:])
    while len(rest) >= 2 and rest[0] == "options" and rest[1].isdigit():
        options = item.get("options") or []
        index = int(rest[1])
        if index >= len(options):
            break
        item, rest = options[index], rest[2:]
        if item.get("type") in SUB_COMMAND_TYPES:
            words.append(str(item.get("name", "?")))
        else:
            option = str(item.get("name", "?"))
    named = " ".join(words)
    if option is not None:
        named += f", option {option}"
    field = ".".join(rest) or "(the whole item)"
    return f"{named}, field {field}: {said}"
