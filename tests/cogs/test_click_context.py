"""``context_of`` hands back only the context a dispatch entered (``cogs.click_context``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from cogs.click_context import CONTEXT, ClickContext, context_of


def test_only_an_entered_context_is_read() -> None:
    interaction: Any = SimpleNamespace(extras={})
    with pytest.raises(RuntimeError):
        context_of(interaction)
    interaction.extras[CONTEXT] = "not a context"
    with pytest.raises(RuntimeError):
        context_of(interaction)
    context = ClickContext(services=SimpleNamespace(), player="1",  # type: ignore[arg-type]
                           cause=None)  # type: ignore[arg-type]
    interaction.extras[CONTEXT] = context
    assert context_of(interaction) is context
