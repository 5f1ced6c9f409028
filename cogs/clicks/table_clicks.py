"""What happens on a click or a command, between Discord and the session manager.

Thin by design: a handler checks that the control belongs to this channel's table (and to the
message it is on), makes the one manager call and renders the answer. A game control's click
(:func:`act_click`) is one ``manager.click``: under the session's lock the manager runs the
gate (status, seat, version, turn) once, then the game UI's decoder turns the payload into one
of the player's legal actions (or a next step). Every rule lives in the manager
(``bot.sessions.transitions``) or the engine; a TableError becomes an ephemeral refusal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

import discord
from pydantic import BaseModel

from bot.records import errors
from bot.records.change import Change
from bot.records.errors import NotYourTurn, StaleVersion, TableError
from bot.records.session import Session, Status
from bot.sessions.manager import BOT_LEVELS
from cogs.click_context import context_of
from cogs.clicks.rematch import rematch_click
from cogs.client_services import (
    Interaction,
    is_ephemeral,
    is_moderator,
    player_id,
    refuse,
    release_view,
    remember_view,
    seat_for,
    send_private,
    tell_if_blocked,
)
from cogs.features import ControlClick
from cogs.game_ui import (
    ANSWERS_INFO,
    SHOWS_SCORES,
    WORDS_HINTS,
    WORDS_TURNS,
    GameUI,
    Move,
    OpenStep,
    Render,
    able,
    action_in,
    private_in,
)
from cogs.i18n.interaction import channel_words, server_words, user_words
from cogs.i18n.messages import N_
from cogs.i18n.reader_words import reply_words
from cogs.i18n.words import Words
from cogs.kit.control_menus import CHOOSE_ONE
from cogs.kit.custom_ids import (
    ActButton,
    ActSelect,
    AnyControl,
    BackButton,
    HandButton,
    HostSelect,
    HostTool,
    InfoButton,
    InfoKind,
    LobbyAction,
    LobbyButton,
    RematchButton,
    ReplayButton,
    ReplayJump,
    ReplayTag,
    RulesPageButton,
    answer_refusal,
    session_of_id,
)
from cogs.kit.message_routes import Cause
from cogs.kit.page_controls import NOT_THIS_MESSAGE, controls_on, on_own_page
from cogs.kit.refusal_texts import WRONG_TABLE, refusal_text
from cogs.kit.unexpected_errors import DONE_NOT_SHOWN, MOVE_MADE, ChangeNotShown
from cogs.listeners.awaited_players import humans_in
from cogs.listeners.turn_ping import DISCORD_WEB, ping_view
from cogs.rendering.event_log import log_render
from cogs.rendering.message_delivery import (
    Shown,
    answer,
    private_shown,
    table_copy_shown,
    table_shown,
)
from cogs.rendering.private_table import private_table
from cogs.rendering.replay_pages import replay_click
from cogs.rendering.rules_pages import rules_page
from cogs.rendering.table_renders import BOT_BUTTON_LEVELS

EMPTY_SELECT = CHOOSE_ONE  # the words every select refusal uses
HINTS_OFF = N_("This game is played without hints.")  # and cogs.hints' refusal


def _origin(interaction: Interaction) -> Cause:
    """What the manager's change carries to the listeners: the message clicked and the
    interaction, whose token can carry the change's messages (``cogs.kit.message_routes``)."""
    return context_of(interaction).cause


class _after_change:
    """Mark an error raised after the manager stored a change: the error hook answers it with
    ``text``, not with "nothing was changed". A class, not a generator: every move enters one
    (issue 42)."""

    __slots__ = ("_text",)

    def __init__(self, text: str) -> None:
        self._text = text

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: object) -> None:
        if isinstance(error, Exception):  # any failure after the store: say the move was made
            raise ChangeNotShown(error, self._text) from error


def own_table(interaction: Interaction, session_id: int) -> Session | None:
    """The live session a table control of ``session_id`` acts on, None when it ended.

    Refused (WRONG_TABLE) unless the session is this channel's and every table control on
    the clicked message carries the same session: a control acts only on its own table. A
    private table is in no channel: only its player may click its controls, on its own
    ephemeral message (a forged one on a public message would draw the deal there).
    """
    manager = interaction.client.manager
    session = manager.get(session_id)
    if session is None:
        return None
    others = {session_of_id(custom_id) for custom_id in controls_on(interaction.message)}
    others.discard(None)
    if session.is_private:  # in no channel: its own player's (ephemeral) message only
        if (session.host_id != player_id(interaction.user) or others - {session_id}
                or not is_ephemeral(interaction.message)):
            raise errors.Refusal(WRONG_TABLE)
        return session
    here = manager.in_channel(interaction.channel_id or 0)
    if here is None or here.id != session_id or others - {session_id}:
        raise errors.Refusal(WRONG_TABLE)
    return session


async def lobby_click(interaction: Interaction, action: LobbyAction, session_id: int) -> None:
    """Join / Leave / Start / Cancel on a lobby message; edits that message in place."""
    manager = interaction.client.manager
    me = player_id(interaction.user)
    origin = _origin(interaction)
    try:
        own_table(interaction, session_id)
        if action is LobbyAction.JOIN:
            session = await manager.join(session_id, seat_for(interaction.user), origin=origin)
        elif action is LobbyAction.LEAVE:
            session = await manager.leave(session_id, me, origin=origin)
        elif action is LobbyAction.START:
            session = await manager.start(session_id, me, origin=origin)
        elif action is LobbyAction.CANCEL:
            session = await manager.cancel(
                session_id, me, moderator=is_moderator(interaction), origin=origin
            )
        elif action is LobbyAction.HINTS:
            current = own_table(interaction, session_id)
            if current is None:
                raise errors.Refusal(errors.NO_GAME)
            if able(context_of(interaction).services.uis.ui(current.game), WORDS_HINTS) is None:
                await refuse(interaction, HINTS_OFF)  # a forged toggle: the game has none
                return
            session = await manager.set_hints(session_id, me, not current.hints, origin=origin)
        elif action in BOT_BUTTON_LEVELS:
            level = BOT_BUTTON_LEVELS[action]
            offered = (context_of(interaction).services.bot_levels or BOT_LEVELS)
            if level not in offered:  # a button from before BOT_LEVELS changed
                raise errors.bad_bot_level(offered)
            session = await manager.add_bot(session_id, me, level, origin=origin)
        else:
            session = await manager.remove_bot(session_id, me, origin=origin)
    except TableError as err:
        await refuse(interaction, err)
        return
    await _redraw_lobby(interaction, session)


async def _redraw_lobby(interaction: Interaction, session: Session) -> None:
    words = await channel_words(interaction)
    async with _after_change(DONE_NOT_SHOWN):
        await answer(interaction, await table_shown(interaction, session, words), edit=True)


async def host_select(interaction: Interaction, tool: HostTool, session_id: int,
                      values: Sequence[str]) -> None:
    """The lobby host's selects: remove the chosen seated player, or pass them the host role.
    The manager refuses a non-host, a started game, a player no longer seated, the host
    themself and (passing) a bot; the lobby message is redrawn."""
    manager = interaction.client.manager
    me = player_id(interaction.user)
    try:
        if len(values) != 1:
            raise errors.Refusal(EMPTY_SELECT)
        own_table(interaction, session_id)
        if tool is HostTool.REMOVE:
            session = await manager.remove_player(session_id, me, values[0],
                                                  origin=_origin(interaction))
        else:
            session = await manager.pass_host(session_id, me, values[0],
                                              origin=_origin(interaction))
    except TableError as err:
        await refuse(interaction, err)
        return
    await _redraw_lobby(interaction, session)


async def show_hand(interaction: Interaction, session: Session | None) -> None:
    """Send the user's private view of ``session``, ephemeral (seated players of a started
    game only)."""
    me = player_id(interaction.user)
    try:
        if session is None:
            raise errors.Refusal(errors.NO_GAME)
        interaction.client.manager.check_viewer(session, me)
    except TableError as err:
        await refuse(interaction, err)
        return
    ui = context_of(interaction).services.uis.ui(session.game)
    words = await user_words(interaction)
    features = context_of(interaction).services.features
    private = private_in(ui, session, me, words, lambda: features.turn_items(session, me, words))
    await answer(interaction, await private_shown(interaction, session, me, private),
                 edit=False)
    await remember_view(interaction, session, me)
    await tell_if_blocked(interaction, session.id, me, reply_words(interaction))


async def hand_click(interaction: Interaction, session_id: int) -> None:
    try:
        session = own_table(interaction, session_id)
    except TableError as err:
        await refuse(interaction, err)
        return
    await show_hand(interaction, session)


async def act_click(
    interaction: Interaction,
    session_id: int,
    version: int,
    payload: str,
    values: Sequence[str] | None,
) -> None:
    """A game control's click (``values``: a select's choice, None for a button): one
    ``manager.click`` (the gate, then the UI's decoder under the session's lock), and the
    clicked message re-rendered."""
    manager = interaction.client.manager
    me = player_id(interaction.user)
    ui: GameUI | None = None
    session: Session | None = None
    try:
        if values is not None and not values:
            raise errors.Refusal(EMPTY_SELECT)
        session = own_table(interaction, session_id)
        if session is None:
            raise errors.Refusal(errors.NO_GAME)
        ui = context_of(interaction).services.uis.ui(session.game)
        words = await user_words(interaction)
        answers = able(ui, ANSWERS_INFO)
        info = answers.info_for(session, payload, words) if answers is not None else None
        if info is not None:
            manager.check_viewer(session, me)
            await send_private(interaction, info)
            return
        clicked = ui
        features = context_of(interaction).services.features

        def decode(live: Session) -> BaseModel | tuple[Session, OpenStep]:
            click = action_in(clicked, live, me, payload, values, words,
                              lambda: features.turn_items(live, me, words))
            if isinstance(click, Move):
                return click.action
            return live, click

        outcome = await manager.click(session_id, me, version, decode,
                                      origin=_origin(interaction))
        if not isinstance(outcome, Change):
            drawn_from, step = outcome
            shown = await own_view_shown(interaction, ui, drawn_from, me, words, step.render)
            await answer(interaction, shown, edit=is_ephemeral(interaction.message))
            await remember_view(interaction, drawn_from, me)
            return
        change = outcome
    except StaleVersion as err:
        current = manager.get(session_id) or session
        if current is None or ui is None:
            await refuse(interaction, errors.Refusal(errors.NO_GAME))
            return
        words = await user_words(interaction)
        note = refusal_text(words, err)
        shown = await own_view_shown(interaction, ui, current, me, words)
        await answer(interaction, shown, edit=False, note=note)
        await remember_view(interaction, current, me)
        return
    except NotYourTurn as err:
        live = manager.get(session_id) or session
        turns = able(ui, WORDS_TURNS) if ui is not None else None
        if turns is not None and live:
            await refuse(interaction, turns.not_your_turn(live, await user_words(interaction)))
        else:
            await refuse(interaction, err)
        return
    except TableError as err:
        await refuse(interaction, err)
        return
    new = change.session
    async with _after_change(MOVE_MADE):
        private = is_ephemeral(interaction.message)
        if private:
            shown = await own_view_shown(interaction, ui, new, me, await user_words(interaction))
        elif _is_ping(interaction.message, new):
            await _answer_on_ping(interaction, change, me)
            await tell_if_blocked(interaction, session_id, me, reply_words(interaction))
            return
        else:
            shown = await table_shown(interaction, new)
        await answer(interaction, shown, edit=True)
        if private:
            await remember_view(interaction, new, me)
        await tell_if_blocked(interaction, session_id, me, reply_words(interaction))


async def own_view_shown(interaction: Interaction, ui: GameUI, session: Session, me: str,
                         words: Words, step: Render | None = None) -> Shown:
    """The clicker's own view of ``session`` as an answer (``step``: a next step to show
    instead of their hand): a private table's whole message
    (``cogs.rendering.private_table``), else their private view; either with their hand's
    picture by their choice."""
    if session.is_private:
        table = await private_table(context_of(interaction).services, session, me, words, step)
        return await private_shown(interaction, session, me, table)
    features = context_of(interaction).services.features
    render = step if step is not None else private_in(
        ui, session, me, words, lambda: features.turn_items(session, me, words))
    return await private_shown(interaction, session, me, render)


def _is_ping(message: discord.Message | None, session: Session) -> bool:
    """Whether a public message with this session's controls is its turn ping: the stored
    one, or (while its id is being stored) a message without embeds linking to a table."""
    if message is None or message.id == session.table_message_id:
        return False
    if message.id == session.ping_message_id:
        return True
    content = getattr(message, "content", None) or ""
    return not message.embeds and f"{DISCORD_WEB}/channels/" in content


async def _answer_on_ping(interaction: Interaction, change: Change, me: str) -> None:
    """A move made from the turn ping: while the turn is still the player's, the ping shows
    the controls of the new version; once it passed, the ping is about to be deleted (the
    turn ping listener), so the click is only acknowledged."""
    session = change.session
    if me in humans_in(change):
        words = await server_words(interaction.client, session.guild_id)
        view = ping_view(context_of(interaction).services.uis, session, [me], words)
        # discord.py reads of it what a view answers (cogs.kit.control_payloads)
        await interaction.response.edit_message(view=view)  # type: ignore[arg-type]
        release_view(view)
    else:
        await interaction.response.defer()



async def info_click(interaction: Interaction, session_id: int, what: InfoKind) -> None:
    """Table / Rules / Scores on a table message: for anyone in the channel, always answered
    ephemeral (never replacing the table message)."""
    try:
        session = own_table(interaction, session_id)
        if session is None:
            session = await finished_here(interaction, session_id)
        words = await user_words(interaction)
        render = _info_render(interaction, session, what, words)
        if render is None:
            assert session is not None
            shown = await table_copy_shown(interaction, session, words)
        else:
            shown = Shown(render)
    except TableError as err:
        await refuse(interaction, err)
        return
    await answer(interaction, shown, edit=False)


async def finished_here(interaction: Interaction, session_id: int) -> Session | None:
    """The stored finished game ``session_id`` of this channel (its final table's Rules and
    Scores, its Rematch), or None. A private table has no final table in any channel."""
    manager = interaction.client.manager
    stored = await manager.store.load_session(session_id)
    if (
        stored is None
        or stored.is_private
        or stored.status is not Status.FINISHED
        or stored.channel_id != (interaction.channel_id or 0)
        or stored.game not in manager.engines
    ):
        return None
    state = stored.state
    if isinstance(state, dict):
        state = manager.engine(stored.game).state_model.model_validate(state)
    return replace(stored, state=state)


def _info_render(
    interaction: Interaction, session: Session | None, what: InfoKind, words: Words
) -> Render | None:
    """The rules, scores or log answer; None for the table
    (``cogs.rendering.message_delivery.table_copy_shown``)."""
    if session is None:
        raise errors.Refusal(errors.NO_GAME)
    ui = context_of(interaction).services.uis.ui(session.game)
    if what is InfoKind.RULES and ui.rules:
        return rules_page(ui, 0, words)
    if what is InfoKind.LOG:
        return log_render(ui, session, words)
    if what is InfoKind.SCORES:
        scores = able(ui, SHOWS_SCORES)
        if scores is None:
            raise errors.Refusal(errors.NO_SCORE_SHEET)
        if session.status is Status.LOBBY:
            raise errors.Refusal(errors.NOT_STARTED)
        return scores.scores(session, words)
    return None


async def back_click(interaction: Interaction, session_id: int) -> None:
    """The "I'm back" button: the player's seat is theirs again; the table is redrawn."""
    try:
        own_table(interaction, session_id)
        session = await interaction.client.manager.set_away(
            session_id, player_id(interaction.user), False, origin=_origin(interaction)
        )
    except TableError as err:
        await refuse(interaction, err)
        return
    async with _after_change(DONE_NOT_SHOWN):
        if is_ephemeral(interaction.message):
            words = await user_words(interaction)
            await interaction.response.send_message(
                words.gettext("Welcome back: your seat is yours again."), ephemeral=True)
            return
        await answer(interaction, await table_shown(interaction, session), edit=True)


async def rules_click(interaction: Interaction, game: str, page: int) -> None:
    """Previous/Next on a rules page: edits that page (refused on any other message)."""
    if not on_own_page(interaction.message, (RulesPageButton.__discord_ui_compiled_template__,),
                       ephemeral=True):
        await refuse(interaction, NOT_THIS_MESSAGE)
        return
    ui = context_of(interaction).services.uis.with_rules().get(game)
    if ui is None:
        await refuse(interaction, errors.unknown_game_refusal(game))
        return
    words = await user_words(interaction)
    await interaction.response.edit_message(**rules_page(ui, page, words).edit_kwargs())


STEP_VALUE = re.compile(r"[0-9]{1,7}")


async def jump_select(interaction: Interaction, session_id: int,
                      values: Sequence[str] | None) -> None:
    """A replay's jump: each option's value is a step index. A value that is not ASCII
    digits is refused; the replay refuses one out of range."""
    if values is None or len(values) != 1 or STEP_VALUE.fullmatch(values[0]) is None:
        await answer_refusal(interaction, "Choose one step from the list.")
        return
    await replay_click(interaction, session_id, int(values[0]), False)


def table_controls() -> dict[type[AnyControl], ControlClick]:
    """The table's control kinds, each with its click here (a feature registers its own:
    ``cogs.features``)."""
    return {
        LobbyButton: lambda ia, parts, _: lobby_click(ia, *parts),
        ActButton: lambda ia, parts, values: act_click(ia, parts[0], parts[1], parts[2],
                                                       values),
        ActSelect: lambda ia, parts, values: act_click(ia, parts[0], parts[1], parts[2],
                                                       values),
        HandButton: lambda ia, parts, _: hand_click(ia, *parts),
        RulesPageButton: lambda ia, parts, _: rules_click(ia, parts[0], parts[1]),
        BackButton: lambda ia, parts, _: back_click(ia, *parts),
        InfoButton: lambda ia, parts, _: info_click(ia, *parts),
        ReplayButton: lambda ia, parts, _: replay_click(
            ia, parts[0], parts[1], parts[2] is ReplayTag.OPEN,
            hands=parts[2] is ReplayTag.HANDS),
        ReplayJump: lambda ia, parts, values: jump_select(ia, parts[0], values),
        RematchButton: lambda ia, parts, _: rematch_click(ia, *parts),
        HostSelect: lambda ia, parts, values: host_select(ia, parts[0], parts[1],
                                                          values or []),
    }
