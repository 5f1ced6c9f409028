"""The Hint button's click: the expert's suggestion for the clicker's move, said privately
(:meth:`HintClick.__call__` checks the table, then answers).

The click is a read: the gate of a move runs (a seated player whose turn it is, at the
version the button carries) and nothing is stored. The search is the expert seat's own
(``bot.automation.hints``), run in the bot's decision pool (given when the feature is made),
so the interaction is deferred first and the answer follows with its token. The move and the
reason are worded by the game's UI (``cogs.game_ui.WordsHints``) from the clicker's own view;
the move is never logged above DEBUG.
"""

from __future__ import annotations

import logging
import random
from typing import Any, Protocol

from bot.automation.decision_pool import move_rng
from bot.automation.hints import Hint
from bot.records.errors import NotYourTurn, StaleVersion, TableError
from bot.records.session import Session
from cogs.click_context import context_of
from cogs.clicks.table_clicks import HINTS_OFF, own_table
from cogs.client_services import Interaction, player_id, refuse
from cogs.game_ui import WORDS_HINTS, HintUnit, WordsHints, able
from cogs.hints.hint_searches import HintSearches
from cogs.i18n.button_names import button_names
from cogs.i18n.interaction import user_words
from cogs.i18n.messages import N_
from cogs.i18n.words import Words
from cogs.kit.custom_ids import HINT_EMOJI
from game.base import PlayerId

log = logging.getLogger(__name__)

HINT_GAME_OVER = N_("That game is no longer running: hints are only for a game under way.")
HINT_NOT_YOUR_TURN = N_("A hint is for your own turn, and it is not your turn now.")
HINT_OUTDATED = N_("That {hint_button} button is from an earlier moment of the game: use the"
                   " one in your latest view.")
# Below these the two moves are as good as each other, as far as the search can tell.
CLOSE_POINTS = 0.05
CLOSE_WIN = 0.005


class HintPool(Protocol):
    """Where the expert's searches run: the bot's decision pool
    (``bot.automation.decision_pool.DecisionPool``)."""

    async def hint(self, game: str, state: Any, player: PlayerId,
                   rng: random.Random) -> Hint: ...


class HintClick:
    """The Hint button's click, with the pool its searches run in and the searches under way
    (one per seat and version: ``cogs.hints.hint_searches``)."""

    def __init__(self, pool: HintPool, searches: HintSearches | None = None) -> None:
        self.pool = pool
        self.searches = searches or HintSearches()

    async def __call__(self, interaction: Interaction, session_id: int, version: int) -> None:
        try:
            session = own_table(interaction, session_id)
        except TableError as err:
            await refuse(interaction, err)
            return
        await self.answer(interaction, session, version)

    async def answer(self, interaction: Interaction, session: Session | None,
                     version: int) -> None:
        """Answer the clicker, ephemeral, with the expert's move for them at ``version`` of
        ``session`` (the live game the button belongs to; None: it is over)."""
        me = player_id(interaction.user)
        if session is None:
            await refuse(interaction, HINT_GAME_OVER)
            return
        ui = able(context_of(interaction).services.uis.ui(session.game), WORDS_HINTS)
        if not session.hints or ui is None:
            await refuse(interaction, HINTS_OFF)
            return
        if await self._refused(interaction, session, me, version):
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        hint = await self.searches.hint(session.id, me, version,
                                        lambda: self.search(session, me))
        log.info("session %s: a hint for %s at version %s (%d simulations)", session.id, me,
                 version, hint.simulations)
        words = await user_words(interaction)
        await interaction.followup.send(hint_text(ui, session, me, hint, words),
                                        ephemeral=True)

    async def search(self, session: Session, player: PlayerId) -> Hint:
        """The expert seat's search for ``player`` now, in the pool."""
        rng = move_rng(session.state.seed, session.version, player)
        return await self.pool.hint(session.game, session.state, player, rng)

    @staticmethod
    async def _refused(interaction: Interaction, session: Session, me: PlayerId,
                       version: int) -> bool:
        """Refuse a hint outside the clicker's turn at ``version`` (the gate of a move)."""
        try:
            interaction.client.manager.check_turn(session, me, version)
        except StaleVersion:
            words = await user_words(interaction)
            await refuse(interaction, words.text(HINT_OUTDATED, **button_names(words)))
            return True
        except NotYourTurn:
            await refuse(interaction, HINT_NOT_YOUR_TURN)
            return True
        except TableError as err:
            await refuse(interaction, err)
            return True
        return False


def hint_text(ui: WordsHints, session: Session, viewer: PlayerId, hint: Hint,
              words: Words) -> str:
    """The answer: the move in the game's words, then one line of reason."""
    move = ui.hint_move(session, viewer, hint.action, words)
    lines = [f"{HINT_EMOJI} " + words.gettext("**The expert suggests:** {move}", move=move),
             reason(ui, session, viewer, hint, words)]
    return "\n".join(lines)


def reason(ui: WordsHints, session: Session, viewer: PlayerId, hint: Hint, words: Words) -> str:
    """Why the move: its estimated advantage over the next-best move and what it rests on."""
    if hint.only_move:
        return words.gettext("It is your only legal move.")
    if not hint.searched or hint.runner_up is None or hint.gap is None:
        return words.gettext("The search had no time to compare the moves, so this is the"
                             " expert's quick choice.")
    other = ui.hint_move(session, viewer, hint.runner_up, words)
    count = hint.simulations
    if ui.hint_unit(session) is HintUnit.WIN:
        if hint.gap < CLOSE_WIN:
            return words.ngettext(
                "About as good as the next-best move ({other}), as far as {count} simulation"
                " can tell.",
                "About as good as the next-best move ({other}), as far as {count} simulations"
                " can tell.", count, other=other)
        return words.ngettext(
            "Worth about {gap} % of a win more than the next-best move ({other}), by"
            " {count} simulation.",
            "Worth about {gap} % of a win more than the next-best move ({other}), by"
            " {count} simulations.", count, gap=words.decimal(hint.gap * 100, 0), other=other)
    if hint.gap < CLOSE_POINTS:
        return words.ngettext(
            "About as good as the next-best move ({other}), as far as {count} simulation can"
            " tell.",
            "About as good as the next-best move ({other}), as far as {count} simulations can"
            " tell.", count, other=other)
    return words.ngettext(
        "About {gap} points more than the next-best move ({other}), by {count} simulation.",
        "About {gap} points more than the next-best move ({other}), by {count} simulations.",
        count, gap=words.decimal(hint.gap, 1), other=other)
