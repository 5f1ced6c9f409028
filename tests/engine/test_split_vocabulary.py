"""Every table keyed by SPLIT's vocabulary names each member exactly once."""

from __future__ import annotations

from enum import StrEnum

import pytest

from game.split import rules, view
from game.split.actions import ACTION_MODELS
from game.split.vocabulary import ActionType, Step


@pytest.mark.parametrize(
    ("table", "enum"),
    [
        (ACTION_MODELS, ActionType),
        (rules._STEP_OF_ACTION, ActionType),
        (rules._WRONG_STEP, Step),
        (view.BONUS_OF_STEP, Step),
    ],
    ids=["action models", "step of action", "wrong step", "bonus of step"],
)
def test_table_keys_are_the_enum_members(table: dict[StrEnum, object], enum: type[StrEnum]) -> None:
    assert set(table) == set(enum)


def test_each_action_model_carries_its_type() -> None:
    for kind, model in ACTION_MODELS.items():
        assert model.model_fields["type"].default is kind
