"""The process's and the UI's vocabulary are StrEnums; every table keyed by one covers it."""

from __future__ import annotations

from enum import StrEnum

from bot.records.change import ChangeKind
from cogs.kit.custom_ids import InfoKind, LobbyAction, LobbyButton
from cogs.rendering.table_renders import LOBBY_BUTTONS


def test_vocabularies_are_str_enums_with_their_stored_values() -> None:
    assert issubclass(ChangeKind, StrEnum) and issubclass(LobbyAction, StrEnum)
    assert {kind.value for kind in ChangeKind} == {
        "lobby", "started", "action", "finished", "abandoned", "seat"}
    assert {kind.value for kind in InfoKind} == {"table", "rules", "scores", "log"}


def test_the_lobby_buttons_cover_every_lobby_action() -> None:
    # The hints toggle says whether hints are on: drawn apart (table_renders.hints_button).
    assert set(LOBBY_BUTTONS) | {LobbyAction.HINTS} == set(LobbyAction)


def test_every_lobby_action_parses_from_its_own_id() -> None:
    template = LobbyButton.__discord_ui_compiled_template__
    for action in LobbyAction:
        match = template.fullmatch(LobbyButton.build(action, 7))
        assert match is not None and LobbyAction(match["action"]) is action
