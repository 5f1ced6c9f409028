"""The engines' one fast-path module: the shortcuts around pydantic that both games' hot paths
take (a random game plays hundreds of actions, the session manager copies a state per click).

- :class:`PlainAssignment`: a state model whose field assignments are plain attribute stores.
- :func:`construct`: a model from values that need no validation.

Both build or change a model exactly as the validated way would: the same ``__dict__`` (the
same values, in field order) and the same ``model_fields_set``. Use them only with values the
validated path would accept unchanged (ints, strings, enum members, ``None``, plain lists).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from game.base import GameState

_M = TypeVar("_M", bound=BaseModel)

_NEW = object.__new__
# The slot setters of every pydantic model (calling them skips the attribute lookup that
# ``object.__setattr__`` does first).
_SLOTS = BaseModel.__dict__
_SET_DICT = _SLOTS["__dict__"].__set__
_SET_FIELDS_SET = _SLOTS["__pydantic_fields_set__"].__set__
_SET_EXTRA = _SLOTS["__pydantic_extra__"].__set__
_SET_PRIVATE = _SLOTS["__pydantic_private__"].__set__


class PlainAssignment(GameState):
    """A game state whose ``state.field = value`` is a plain attribute store.

    pydantic's ``__setattr__`` (a Python function) costs about ten times a plain store, and the
    rules assign fields on every action. These models have no private attributes, no frozen
    fields and no validation on assignment, so all it would add is recording the name in
    ``model_fields_set``; the engines therefore mark every field as set when they make a state
    (:meth:`mark_all_set`), which assignments then keep exact.
    """

    if not TYPE_CHECKING:
        # Both: they share the type's one setattr slot, which is the plain C store only when
        # neither is a Python function.
        __setattr__ = object.__setattr__
        __delattr__ = object.__delattr__

    def mark_all_set(self) -> None:
        """Record every field in ``model_fields_set``, as a state loaded from JSON has them."""
        self.model_fields_set.update(type(self).model_fields)


def construct(cls: type[_M], values: dict[str, Any], fields_set: Iterable[str]) -> _M:
    """``cls`` with ``values`` for every field (in field order) and ``fields_set`` marked as
    set: ``cls.model_construct`` without its per-call bookkeeping."""
    made: _M = _NEW(cls)
    _SET_DICT(made, values)
    _SET_FIELDS_SET(made, set(fields_set))
    _SET_EXTRA(made, None)
    _SET_PRIVATE(made, None)
    return made
