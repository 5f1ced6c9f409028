"""An action's code: the action in one short line, and back (as python-chess's ``Move.uci()``
and ``Move.from_uci``). The controls of a game carry codes, and so do stored components.

:func:`action_code` writes an action's ``type``, then its other fields' values in the model's
order (None as nothing), joined by ``:`` (``discard:7♥``, ``pick:7♥:3``, ``pay:3:1:R1W7``,
``target:bot:2``: only the last field may hold a ``:``). :class:`CodeReader` reads a code back
into the action it names, or refuses it (:class:`game.base.IllegalAction`): an unknown type,
the wrong number of fields, a value the model refuses, or any other spelling of an action than
its own code (``discard:7H`` names ``7♥``, whose code is ``discard:7♥``). Whether the action is
legal now is the engine's question (``Engine.is_legal``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from game.base import Engine, GameState, IllegalAction, PlayerId

NOT_A_CODE = "That is not an action of this game."

_A = TypeVar("_A", bound=BaseModel)
_S = TypeVar("_S", bound=GameState)


# An action model -> its fields but ``type``, in the model's order: read once per model (the
# controls of every view write a code per legal action; pydantic's ``model_fields`` is a
# Python call on the class each time, issue 42).
_FIELDS: dict[type[BaseModel], tuple[str, ...]] = {}


def action_code(action: BaseModel) -> str:
    """The action in one line: its ``type``, then its other fields' values in the model's
    order (None as nothing), joined by ``:`` (``discard:7♥``, ``pay:3:1:R1W7``)."""
    model = type(action)
    fields = _FIELDS.get(model)
    if fields is None:
        fields = _FIELDS[model] = tuple(name for name in model.model_fields if name != "type")
    parts = [str(getattr(action, "type", model.__name__))]
    values = action.__dict__
    for name in fields:
        value = values[name]
        parts.append("" if value is None else str(value))
    return ":".join(parts)


def action_codes(actions: Iterable[BaseModel]) -> list[str]:
    """The codes of ``actions`` (the controls of a view, asked of the game once)."""
    return [action_code(action) for action in actions]


@dataclass(frozen=True)
class _Shape(Generic[_A]):
    model: type[_A]
    fields: tuple[str, ...]  # every field but ``type``, in the model's order
    none_when_empty: frozenset[str]  # the fields an empty part means None for


def _type_of(model: type[BaseModel]) -> str:
    field = model.model_fields.get("type")
    return model.__name__ if field is None else str(field.default)


class CodeReader(Generic[_A]):
    """Reads the codes of one game's action models (each told apart by its ``type``)."""

    def __init__(self, models: Iterable[type[_A]]) -> None:
        self._shapes: dict[str, _Shape[_A]] = {}
        for model in models:
            fields = tuple(name for name in model.model_fields if name != "type")
            nullable = frozenset(name for name in fields
                                 if model.model_fields[name].default is None)
            self._shapes[_type_of(model)] = _Shape(model, fields, nullable)

    def __call__(self, code: str) -> _A:
        """The action ``code`` names; IllegalAction when it names none."""
        head, colon, rest = code.partition(":")
        shape = self._shapes.get(head)
        if shape is None:
            raise IllegalAction(NOT_A_CODE)
        parts = rest.split(":", len(shape.fields) - 1) if colon and shape.fields else []
        if len(parts) != len(shape.fields):
            raise IllegalAction(NOT_A_CODE)
        values = {name: None if part == "" and name in shape.none_when_empty else part
                  for name, part in zip(shape.fields, parts, strict=True)}
        try:
            action = shape.model.model_validate(values)
        except ValidationError:
            raise IllegalAction(NOT_A_CODE) from None
        if action_code(action) != code:
            raise IllegalAction(NOT_A_CODE)
        return action


def legal_coded(engine: Engine[_S, _A], state: _S, player: PlayerId, code: str) -> _A | None:
    """The action ``code`` names when it is one of ``player``'s legal actions now, else None
    (a code that names no action, or an action not legal now): one parse, one legality check,
    no list of every legal action."""
    try:
        action = engine.parse_code(code)
    except IllegalAction:
        return None
    return action if engine.is_legal(state, player, action) else None
