"""The game UI registry: game key -> its :class:`cogs.game_ui.GameUI`.

Each game's UI package registers its UI here in its extension ``setup``; an engine without
one is drawn by :class:`cogs.plain_ui.PlainUI`. The services hold the registry
(``cogs.table_services``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from bot.records.errors import Refusal
from cogs.game_ui import GameUI
from cogs.i18n.messages import N_
from cogs.plain_ui import PlainUI
from game.base import Engine

NO_TABLE_VIEW = N_("There is no table view for {game}.").text


class GameUIs:
    """Game key -> its GameUI; an engine without a registered UI gets the plain one."""

    def __init__(self, engines: Mapping[str, Engine[Any, Any]],
                 uis: Mapping[str, GameUI] | None = None) -> None:
        self._engines = engines
        self._uis: dict[str, GameUI] = dict(uis or {})

    def register(self, ui: GameUI) -> None:
        self._uis[ui.key] = ui

    def ui(self, game: str) -> GameUI:
        found = self._uis.get(game)
        if found is not None:
            return found
        engine = self._engines.get(game)
        if engine is None:
            raise Refusal(NO_TABLE_VIEW, game=repr(game))
        self._uis[game] = plain = PlainUI(engine)
        return plain

    def __iter__(self) -> Iterator[GameUI]:
        """Every registered UI, and the plain one of each engine without its own."""
        return iter([self.ui(game) for game in {**self._uis, **self._engines}])

    def with_rules(self) -> dict[str, GameUI]:
        """The UIs that have a rules summary, by game key."""
        return {ui.key: ui for ui in self if ui.rules}
