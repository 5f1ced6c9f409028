"""The Replay button: a private, paged step-through of a finished or abandoned game.

A replay is built by replaying the stored log through the engine (``bot.sessions.export``:
``replay_export(export_session(...))``), never from stored renders; built replays are kept in a
small bounded cache (:class:`cogs.replay_cache.ReplayCache`, in the services) so
paging does not rebuild them. Each step is drawn with the game's own UI: its public table for
the step's state and, since the game is over, every seat's private view (or the UI's own
:class:`cogs.game_ui.DrawsReplay` hands), with the step's events in words. Everything fits
Discord's limits (10 embeds, 6,000 characters over all embeds, 2,000 in the content, 25 options
a select).

Who may open one: anyone in the game's server, or only its own players when the server's
``replays`` setting (``/config``) is ``players`` (Manage Server may always).
"""

from __future__ import annotations

import io
import logging
from dataclasses import replace

import discord

from bot.records.errors import Refusal
from bot.records.session import LOG_KEEP, Session, Status, public_event
from bot.sessions.export import (
    NO_SUCH_GAME,
    ExportRefused,
    export_file,
    export_session,
    replay_export,
)
from cogs.click_context import context_of
from cogs.client_services import Interaction, player_id, refuse
from cogs.game_ui import (
    DRAWS_REPLAY,
    GameUI,
    Render,
    able,
    as_card,
    event_line,
    private_in,
    table_in,
)
from cogs.i18n.common_words import MY_REVIEW, REPLAY, TABLE
from cogs.i18n.interaction import user_words
from cogs.i18n.messages import N_
from cogs.i18n.words import Words
from cogs.kit.card_layout import MAX_TEXT, text_length
from cogs.kit.custom_ids import Item, ReplayButton, ReplayJump, ReplayTag, ReviewButton
from cogs.kit.page_controls import NOT_THIS_MESSAGE, on_own_page
from cogs.kit.places import place_id
from cogs.pictures import text_only
from cogs.replay_cache import BuiltReplay
from game.base import Event
from game.replay import Replay, ReplayRefused, ReplayStep

log = logging.getLogger(__name__)

MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_CONTENT = 2000
MAX_OPTIONS = 25
# The text of one replay page: a Components V2 card holds 4,000 characters (``card_layout``).
PAGE_TEXT = MAX_TEXT
REPLAYS_KEY = "replays"  # the server setting: "everyone" (default) or "players"
REPLAYS_EVERYONE = "everyone"
REPLAYS_PLAYERS = "players"

# Refusals, raised as ``Refusal(TEXT)`` and said in the clicker's words
# (``cogs.kit.refusal_texts``).
OTHER_SERVER = N_("That game was played in another server.").text
PLAYERS_ONLY = N_("On this server only the game's own players may replay or export it.").text
NOT_REPLAYABLE = N_("That game's log does not replay with this version of the bot.").text
OUT_OF_RANGE = N_("That step is not part of this game's replay.").text


async def may_show(interaction: Interaction, session: Session) -> None:
    """Refuse (Refusal) while the feature of ``session``'s kind keeps it unseen
    (``cogs.features.Feature.sealed``: today's daily deal)."""
    refusal = await context_of(interaction).services.features.seal_of(session)
    if refusal is not None:
        raise Refusal(refusal)


async def may_see(interaction: Interaction, session: Session) -> None:
    """Refuse (Refusal) a clicker who may not replay or export ``session``."""
    if session.guild_id != place_id(interaction):
        raise Refusal(OTHER_SERVER)
    await may_show(interaction, session)
    if session.seat_of(player_id(interaction.user)) is not None:
        return
    if interaction.permissions.manage_guild:
        return
    settings = await interaction.client.manager.store.guild_settings(session.guild_id)
    if settings.get(REPLAYS_KEY, REPLAYS_EVERYONE) == REPLAYS_PLAYERS:
        raise Refusal(PLAYERS_ONLY)


async def load_replay(interaction: Interaction, session_id: int) -> BuiltReplay:
    """The (cached) replay of stored session ``session_id``, after the access checks."""
    cache = context_of(interaction).services.replays
    built = cache.get(session_id)
    if built is None:
        manager = interaction.client.manager
        export = await export_session(manager.store, session_id)
        session = await manager.store.load_session(session_id)
        if session is None:  # deleted meanwhile
            raise ExportRefused(NO_SUCH_GAME)
        try:
            replay = replay_export(export, manager.engine(export.game))
        except ReplayRefused as err:
            log.warning("session %s does not replay: step %s", session_id, err.step)
            raise Refusal(NOT_REPLAYABLE) from None
        built = BuiltReplay(session, export, replay)
        cache.put(session_id, built)
    await may_see(interaction, built.session)
    return built


def public_log(replay: Replay, index: int) -> tuple[Event, ...]:
    """The table's public log as it stood after step ``index``: the last :data:`LOG_KEEP`
    events without their private parts (as ``bot.sessions.transitions.extend_log`` keeps them)."""
    events: list[Event] = []
    for at in range(index, -1, -1):
        events[:0] = (public_event(event) for event in replay.events(at))
        if len(events) >= LOG_KEEP:
            break
    return tuple(events[-LOG_KEEP:])


def step_session(built: BuiltReplay, step: ReplayStep) -> Session:
    """The stored session as it stood at ``step``: finished at the last step of a game that
    reached its end, running before (no clock)."""
    over = step.index == built.replay.last_index and built.replay.is_over
    return replace(built.session, state=step.state,
                   status=Status.FINISHED if over else Status.ACTIVE, deadlines=(),
                   log=public_log(built.replay, step.index),
                   version=step.version or built.session.version)


def _marker_words(step: ReplayStep, words: Words) -> str:
    parts = []
    if step.marker.round is not None:
        parts.append(words.gettext("round {round}", round=step.marker.round))
    if step.marker.turn is not None:
        parts.append(words.gettext("turn {turn}", turn=step.marker.turn))
    return ", ".join(parts)


def step_lines(ui: GameUI, built: BuiltReplay, step: ReplayStep, words: Words) -> list[str]:
    """The step's events in ``words``, each with its private details as the player it was
    private to saw them (the game is over: a replay shows every hand)."""
    names = built.session.names
    return [event_line(ui, event, event.private_to, names, words) for event in step.events]


def step_content(ui: GameUI, built: BuiltReplay, step: ReplayStep, words: Words) -> str:
    replay, title = built.replay, ui.title
    where = _marker_words(step, words)
    head = words.gettext("**Replay · {game}** · step {step} of {last}", game=title,
                         step=step.index, last=replay.last_index)
    if where:
        head += f" · {where}"
    if step.actor is None:
        what = words.gettext("The deal.")
    else:
        what = words.gettext("{name} moved.",
                             name=built.session.names.get(step.actor, step.actor))
    lines = [head, what, *(f"• {line}" for line in step_lines(ui, built, step, words))]
    if step.index == replay.last_index and not replay.is_over:
        lines.append(words.gettext("The game stopped here."))
    text = "\n".join(lines)
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


def card_size(embeds: list[discord.Embed]) -> int:
    """The characters ``embeds`` take in a card, with the line breaks that join its blocks
    (``cogs.kit.card_layout``: each embed is a heading and its details)."""
    return text_length(None, embeds) + 2 * len(embeds)


def fit_embeds(table: list[discord.Embed], hands: list[discord.Embed], words: Words,
               budget: int = PAGE_TEXT) -> tuple[list[discord.Embed], int]:
    """The table's embeds, then as many whole hands as fit in ``budget`` characters of the
    card (Discord's 4,000 of a Components V2 message's text, less the page's content) and
    10 embeds; a last small embed names the hands left out. Returns the embeds and how many
    hands were left out (a page of their own shows them: :data:`ReplayTag.HANDS`)."""
    kept: list[discord.Embed] = []
    total = 0
    for embed in table:
        if len(kept) < MAX_EMBEDS and total + card_size([embed]) <= budget:
            kept.append(embed)
            total += card_size([embed])
    note_room = 120
    for index, embed in enumerate(hands):
        last = index == len(hands) - 1
        slots = MAX_EMBEDS - (0 if last else 1)
        if len(kept) < slots and total + card_size([embed]) + (0 if last else note_room) \
                <= budget:
            kept.append(embed)
            total += card_size([embed])
        else:
            left_out = len(hands) - index
            kept.append(discord.Embed(description=words.ngettext(
                "{count} more hand does not fit here.", "{count} more hands do not fit here.",
                left_out)))
            return kept, left_out
    return kept, 0


def _hands(ui: GameUI, session: Session, words: Words) -> list[discord.Embed]:
    drawing = able(ui, DRAWS_REPLAY)
    if drawing is not None:
        return drawing.replay_hands(session, words)
    hands: list[discord.Embed] = []
    for seat in session.seats:
        for embed in private_in(ui, session, seat.player_id, words).embeds:
            copy = embed.copy()
            copy.title = f"{seat.display_name} — {embed.title}" if embed.title else \
                seat.display_name
            copy.set_image(url=None)
            copy.set_thumbnail(url=None)
            hands.append(copy)
    return hands


def _nav(session_id: int, index: int, last: int) -> list[Item]:
    return [
        ReplayButton(session_id, 0, ReplayTag.FIRST, label="⏮", disabled=index == 0, row=0),
        ReplayButton(session_id, max(0, index - 1), ReplayTag.PREVIOUS, label="◀",
                     disabled=index == 0, row=0),
        ReplayButton(session_id, min(last, index + 1), ReplayTag.NEXT, label="▶",
                     disabled=index == last, row=0),
        ReplayButton(session_id, last, ReplayTag.LAST, label="⏭", disabled=index == last,
                     row=0),
    ]


def window(values: list[int], current: int | None) -> list[int]:
    """At most :data:`MAX_OPTIONS` of ``values`` (sorted), around ``current``."""
    if len(values) <= MAX_OPTIONS:
        return values
    at = values.index(current) if current in values else 0
    start = max(0, min(len(values) - MAX_OPTIONS, at - MAX_OPTIONS // 2))
    return values[start: start + MAX_OPTIONS]


def _jumps(built: BuiltReplay, step: ReplayStep, words: Words) -> list[Item]:
    replay, session_id = built.replay, built.session.id
    jumps: list[Item] = []
    rounds = replay.rounds()
    if len(rounds) > 1:
        options = []
        for number in window(rounds, step.marker.round):
            first = replay.first_step_of(round=number)
            if first is not None:
                options.append(discord.SelectOption(
                    label=words.gettext("Round {round}", round=number), value=str(first),
                    default=number == step.marker.round))
        jumps.append(ReplayJump(session_id, "r", options=options,
                                placeholder=words.gettext("Jump to a round"), row=1))
    turn_round = step.marker.round if rounds else None
    turns = replay.turns(turn_round)
    if len(turns) > 1:
        options = []
        for number in window(turns, step.marker.turn):
            first = replay.first_step_of(round=turn_round, turn=number)
            if first is not None:
                label = (words.gettext("Turn {turn}", turn=number) if turn_round is None
                         else words.gettext("Round {round}, turn {turn}", round=turn_round,
                                            turn=number))
                options.append(discord.SelectOption(
                    label=label, value=str(first), default=number == step.marker.turn))
        jumps.append(ReplayJump(session_id, "t", options=options,
                                placeholder=words.gettext("Jump to a turn"), row=2))
    return jumps


def replay_render(ui: GameUI, built: BuiltReplay, index: int, words: Words, *,
                  hands: bool = False) -> Render:
    """Step ``index`` of ``built`` (0 .. last_index): the table, every hand, the event, in
    ``words`` (the clicker's: a replay is private), as one card within its 4,000 characters.
    A step whose hands do not all fit beside the table shows those that do and an
    "More hands" button; ``hands``: that page, the hands left out (and a button back)."""
    step = built.replay.step(index)
    session = step_session(built, step)
    table = table_in(ui, session, words)
    content = step_content(ui, built, step, words)
    if table.content and not hands:
        extra = "\n" + table.content
        if len(content) + len(extra) <= MAX_CONTENT:
            content += extra
    budget = PAGE_TEXT - len(content) - 2
    every = _hands(ui, session, words)
    embeds, left_out = fit_embeds(list(table.embeds), every, words, budget)
    if hands:  # the hands the step's page left out
        embeds, _ = fit_embeds([], every[len(every) - left_out:], words, budget)
    view = discord.ui.View(timeout=None)
    session_id = built.session.id
    more = words.pgettext("replay", "More hands")
    turn = ([ReplayButton(session_id, index, ReplayTag.TABLE, label=words.text(TABLE), row=0)]
            if hands else
            [ReplayButton(session_id, index, ReplayTag.HANDS, label=more, row=0)] if left_out
            else [])
    for item in [*_nav(session_id, index, built.replay.last_index), *turn,
                 *([] if turn else _review(built, words)), *_jumps(built, step, words)]:
        view.add_item(item)
    return as_card(Render(content=content, embeds=embeds, view=view))


def _review(built: BuiltReplay, words: Words) -> list[Item]:
    button = review_button(built.session, words, row=0)
    return [] if button is None else [button]


def review_button(session: Session, words: Words, row: int | None = None) -> Item | None:
    """The "My review" button of a finished game with at least one human seat (on its final
    post and its replay pages; ``cogs.reviews``: a player opens their own review, anyone else
    is refused)."""
    if session.status is Status.FINISHED and any(not seat.is_bot for seat in session.seats):
        return ReviewButton(session.id, 0, ReplayTag.OPEN, label=words.text(MY_REVIEW),
                            row=row)
    return None


def replay_button(session: Session, words: Words) -> Item | None:
    """The Replay button of a stored game that can be replayed (over, or stopped mid-game)."""
    if session.status in (Status.FINISHED, Status.ABANDONED) and session.state is not None:
        return ReplayButton(session.id, 0, ReplayTag.OPEN,
                            label=words.text(REPLAY))
    return None


_REVIEW_ID = ReviewButton.__discord_ui_compiled_template__


async def replay_click(interaction: Interaction, session_id: int, step: int,
                       fresh: bool, *, hands: bool = False) -> None:
    """Open (``fresh``: a new private message) or page the replay of ``session_id`` (only on
    that replay's own message); ``hands``: the step's page of hands."""
    if not fresh and not on_own_page(
        interaction.message,
        (ReplayButton.__discord_ui_compiled_template__,
         ReplayJump.__discord_ui_compiled_template__, _REVIEW_ID),
        ephemeral=True,
        # A replay page: this game's steps and jumps (an Open button is on a final post),
        # and its My review button.
        belongs=lambda match: (match["sid"] == str(session_id)
                               and (match.re is _REVIEW_ID
                                    or match.groupdict().get("tag") != "o")),
    ):
        await refuse(interaction, NOT_THIS_MESSAGE)
        return
    try:
        built = await load_replay(interaction, session_id)
    except Refusal as err:
        await refuse(interaction, err)
        return
    if not 0 <= step <= built.replay.last_index:
        await refuse(interaction, Refusal(OUT_OF_RANGE))
        return
    render = replay_render(context_of(interaction).services.uis.ui(built.session.game), built, step,
                           await user_words(interaction), hands=hands)
    pictures = context_of(interaction).services.pictures
    if not await pictures.private_on(interaction.client.manager.store, built.session.guild_id,
                                     interaction.user.id):
        render = text_only(render)  # the reader's text-only mode: no card emojis either
    if fresh:
        await interaction.response.send_message(ephemeral=True, **render.send_kwargs())
    else:
        await interaction.response.edit_message(**render.edit_kwargs())


# --- /game export ---------------------------------------------------------------------------

# /game export's session range: Discord's integers lie within ±(2^53 − 1) (2^53 is refused).
MAX_SESSION_ID = 2**53 - 1
NO_FINISHED_GAME = N_("There is no finished game in this channel.").text
EXPORT_PLAYERS_ONLY = N_("Only the game's players (or Manage Server) may export it.").text


async def last_finished(interaction: Interaction) -> int | None:
    """The id of the channel's last finished game, or None."""
    rows = await interaction.client.manager.store.query(
        "SELECT id FROM sessions WHERE channel_id = ? AND status = ? AND kind = 'table'"
        " ORDER BY id DESC LIMIT 1",
        [interaction.channel_id or 0, Status.FINISHED.value],
    )
    return int(rows[0][0]) if rows else None


async def export_command(interaction: Interaction, session_id: int | None) -> None:
    """Attach the game as JSON, privately: a player of that game or Manage Server."""
    store = interaction.client.manager.store
    try:
        if session_id is None:
            session_id = await last_finished(interaction)
            if session_id is None:
                raise Refusal(NO_FINISHED_GAME)
        export = await export_session(store, session_id)
        stored = await store.load_session(export.session_id)
        if stored is None or stored.guild_id != place_id(interaction):
            raise Refusal(OTHER_SERVER)
        await may_show(interaction, stored)
        if (player_id(interaction.user) not in export.players
                and not interaction.permissions.manage_guild):
            raise Refusal(EXPORT_PLAYERS_ONLY)
    except Refusal as err:
        await refuse(interaction, err)
        return
    name, data = export_file(export)
    log.info("session %s exported by %s", export.session_id, interaction.user.id)
    words = await user_words(interaction)
    await interaction.response.send_message(
        words.ngettext("Game {game_id} ({game}, {status}, {count} move).",
                       "Game {game_id} ({game}, {status}, {count} moves).",
                       len(export.actions), game_id=export.session_id, game=export.game,
                       status=export.status),
        file=discord.File(io.BytesIO(data), filename=name), ephemeral=True,
    )
