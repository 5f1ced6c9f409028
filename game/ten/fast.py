"""Hot-path shortcuts around pydantic, for the rules' inner loop.

Each helper builds or changes a model exactly as the validated way would (the same
``__dict__``, the same ``model_fields_set``), without the per-call validation and
``__setattr__`` bookkeeping that would dominate a TEN action's cost. Use them only with
values the validated path would accept unchanged (ints, strings, ``None``, plain lists and
dicts).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

_NEW = object.__new__
# The slot setters of every pydantic model (calling them skips the attribute lookup that
# ``object.__setattr__`` does first).
_SLOTS = BaseModel.__dict__
_SET_DICT = _SLOTS["__dict__"].__set__
_SET_FIELDS_SET = _SLOTS["__pydantic_fields_set__"].__set__
_SET_EXTRA = _SLOTS["__pydantic_extra__"].__set__
_SET_PRIVATE = _SLOTS["__pydantic_private__"].__set__


def construct(cls: type[BaseModel], values: dict[str, Any], fields: set[str]) -> Any:
    """``cls`` with ``values`` for every field (in field order) and ``fields`` marked as set."""
    made = _NEW(cls)
    _SET_DICT(made, values)
    _SET_FIELDS_SET(made, fields)
    _SET_EXTRA(made, None)
    _SET_PRIVATE(made, None)
    return made


def put(model: BaseModel, **values: Any) -> None:
    """Assign fields as ``model.name = value`` does (no validation on assignment here)."""
    model.__dict__.update(values)
    model.__pydantic_fields_set__.update(values)
