"""SPLIT actions: small pydantic models, a discriminated union on ``type``.

Cards are named by notation (``7♥``); ASCII input (``7H``) is accepted and normalised.
Identical halves are interchangeable, so an action names a card, never a copy.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from game.base import IllegalAction
from game.fast import construct
from game.split.cards import canonical
from game.split.vocabulary import ActionType


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _card(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("a card is written like 7♥ or 7H")
    return canonical(value)


_A = TypeVar("_A", bound=_Action)


class Draw(_Action):
    """Take step: draw the top card of the draw pile."""

    type: Literal[ActionType.DRAW] = ActionType.DRAW


class Pick(_Action):
    """Take step: pick ``card`` from the discard row (position ``pos``, 0 = oldest), taking
    every newer card along. Without ``pos`` the newest copy of ``card`` is meant."""

    type: Literal[ActionType.PICK] = ActionType.PICK
    card: str
    pos: int | None = None

    _norm = field_validator("card", mode="before")(_card)


class MakeMatch(_Action):
    """Main step: lay ``a`` and ``b`` from your hand as a match."""

    type: Literal[ActionType.MATCH] = ActionType.MATCH
    a: str
    b: str

    _norm = field_validator("a", "b", mode="before")(_card)


class Upgrade(_Action):
    """Main step: play ``card`` onto match ``match`` (its id), covering its half ``replace``."""

    type: Literal[ActionType.UPGRADE] = ActionType.UPGRADE
    match: int
    card: str
    replace: str

    _norm = field_validator("card", "replace", mode="before")(_card)


class Target(_Action):
    """Perfect bonus: ``player`` marks one negative box."""

    type: Literal[ActionType.TARGET] = ActionType.TARGET
    player: str


class BonusDraw(_Action):
    """Strong bonus: draw the top card of the draw pile."""

    type: Literal[ActionType.BONUS_DRAW] = ActionType.BONUS_DRAW


class Swap(_Action):
    """Weak bonus: swap your match ``mine`` with another player's match ``theirs``."""

    type: Literal[ActionType.SWAP] = ActionType.SWAP
    mine: int
    theirs: int


class Skip(_Action):
    """Strong or weak bonus: decline it."""

    type: Literal[ActionType.SKIP] = ActionType.SKIP


class Discard(_Action):
    """Discard step: put ``card`` on top of the discard row; the turn ends."""

    type: Literal[ActionType.DISCARD] = ActionType.DISCARD
    card: str

    _norm = field_validator("card", mode="before")(_card)


class LayMatch(_Action):
    """First-turn lay-down: lay ``a`` and ``b`` as a match (no bonus)."""

    type: Literal[ActionType.LAY] = ActionType.LAY
    a: str
    b: str

    _norm = field_validator("a", "b", mode="before")(_card)


class Done(_Action):
    """First-turn lay-down: finished laying matches."""

    type: Literal[ActionType.DONE] = ActionType.DONE


SplitAction = Annotated[
    Draw
    | Pick
    | MakeMatch
    | Upgrade
    | Target
    | BonusDraw
    | Swap
    | Skip
    | Discard
    | LayMatch
    | Done,
    Field(discriminator="type"),
]

_ADAPTER: TypeAdapter[SplitAction] = TypeAdapter(SplitAction)

# The model of each action type.
ACTION_MODELS: dict[ActionType, type[_Action]] = {
    cls.model_fields["type"].default: cls
    for cls in (
        Draw,
        Pick,
        MakeMatch,
        Upgrade,
        Target,
        BonusDraw,
        Swap,
        Skip,
        Discard,
        LayMatch,
        Done,
    )
}
_TYPE_NAMES: dict[type[_Action], ActionType] = {cls: kind for kind, cls in ACTION_MODELS.items()}


def build(cls: type[_A], **values: Any) -> _A:
    """An action from already canonical values, skipping validation (the legal-action
    enumeration builds thousands of these; ``model_construct`` is several times slower)."""
    return construct(cls, {"type": _TYPE_NAMES[cls], **values}, values)


DRAW = Draw()
BONUS_DRAW = BonusDraw()
SKIP = Skip()
DONE = Done()


def parse_action(data: Mapping[str, Any] | str | BaseModel) -> SplitAction:
    """An action from its JSON form (dict or string); IllegalAction on malformed input."""
    if isinstance(data, _Action):
        return data  # type: ignore[return-value]
    try:
        if isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, Mapping):
            raise IllegalAction("That is not a SPLIT action.")
        return _ADAPTER.validate_python(dict(data))
    except json.JSONDecodeError as err:
        raise IllegalAction("That is not a SPLIT action.") from err
    except ValidationError as err:
        for error in err.errors():
            if error.get("type") == "value_error":
                message = str(error.get("ctx", {}).get("error", error["msg"]))
                raise IllegalAction(message[:1].upper() + message[1:] + ".") from err
        raise IllegalAction("That is not a valid SPLIT action.") from err
