"""Every table keyed by TEN's vocabulary names each member exactly once."""

from __future__ import annotations

from enum import StrEnum

import pytest

from game.ten import rules, view
from game.ten.state import TenAction
from game.ten.vocabulary import ActionType, Phase


@pytest.mark.parametrize(
    ("table", "enum"),
    [
        (rules._HANDLERS, Phase),
        (rules._PHASE_CHOICES, Phase),
        (view.TABLE_PHASES, Phase),
    ],
    ids=["handlers", "phase choices", "table phases"],
)
def test_table_keys_are_the_enum_members(table: dict[StrEnum, object], enum: type[StrEnum]) -> None:
    assert set(table) == set(enum)


def test_every_action_type_has_one_model_and_one_phase() -> None:
    models = TenAction.__origin__.__args__  # type: ignore[attr-defined]
    assert {model.model_fields["type"].default for model in models} == set(ActionType)
    handled = [model for handlers in rules._HANDLERS.values() for model in handlers]
    assert sorted(handled, key=str) == sorted(models, key=str)
