"""The lobby message and the dispatch between lobby, closed and in-game table renders."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import discord

from bot.process.client import TableBot
from bot.records.errors import clip
from bot.records.session import Seat, Session, Status
from bot.sessions.manager import BOT_LEVELS
from cogs.game_ui import SHOWS_SCORES, WORDS_HINTS, GameUI, Render, able, as_card, table_in
from cogs.i18n.button_names import button_names
from cogs.i18n.catalogs import words_for
from cogs.i18n.common_words import (
    ADD_BOT_EASY,
    ADD_BOT_EXPERT,
    ADD_BOT_NORMAL,
    CANCEL,
    HINTS_OFF,
    HINTS_ON,
    HOST,
    IM_BACK,
    JOIN,
    LEAVE,
    PLAYERS_HEADING,
    REMOVE_BOT,
    RULES,
    SCORES,
    START,
)
from cogs.i18n.interaction import server_words_now
from cogs.i18n.language import DEFAULT_LANGUAGE
from cogs.i18n.messages import NP_, Message
from cogs.i18n.words import Words
from cogs.kit.control_payloads import Rows, Shown, as_rows
from cogs.kit.custom_ids import (
    HINT_EMOJI,
    BackButton,
    HostSelect,
    HostTool,
    InfoButton,
    InfoKind,
    LobbyAction,
    LobbyButton,
)
from cogs.rendering.notice_text import away_line
from cogs.rendering.replay_pages import replay_button
from cogs.table_services import TableServices

ENGLISH = words_for(DEFAULT_LANGUAGE)

# Every lobby button: (label, style, row); the host's bot seat buttons on the second row.
LOBBY_BUTTONS: dict[LobbyAction, tuple[Message, discord.ButtonStyle, int]] = {
    LobbyAction.JOIN: (JOIN, discord.ButtonStyle.primary, 0),
    LobbyAction.LEAVE: (LEAVE, discord.ButtonStyle.secondary, 0),
    LobbyAction.START: (START, discord.ButtonStyle.success, 0),
    LobbyAction.CANCEL: (CANCEL, discord.ButtonStyle.danger, 0),
    LobbyAction.BOT_EASY: (ADD_BOT_EASY, discord.ButtonStyle.secondary, 1),
    LobbyAction.BOT_NORMAL: (ADD_BOT_NORMAL, discord.ButtonStyle.secondary, 1),
    LobbyAction.BOT_EXPERT: (ADD_BOT_EXPERT, discord.ButtonStyle.secondary, 1),
    LobbyAction.UNBOT: (REMOVE_BOT, discord.ButtonStyle.secondary, 1),
}
BOT_LEVEL_NAMES: dict[str, Message] = {
    "easy": NP_("bot-level", "easy"),
    "normal": NP_("bot-level", "normal"),
    "expert": NP_("bot-level", "expert"),
}
REMOVE_ROW, PASS_ROW = 2, 3
MAX_OPTION = 100  # characters of a select option's label
MAX_OPTIONS = 25  # options in one select


def bot_level_name(words: Words, level: str | None) -> str:
    name = BOT_LEVEL_NAMES.get(level or "")
    return words.text(name) if name is not None else str(level)


def _seat_option(words: Words, seat: Seat) -> discord.SelectOption:
    label = seat.display_name
    if seat.is_bot:
        label = words.gettext("{name} (bot)", name=label)
    return discord.SelectOption(label=clip(label, MAX_OPTION), value=seat.player_id)


def host_tools(session: Session, words: Words) -> list[Shown]:
    """The host's selects: remove a seated player (anyone but the host), pass the host role
    (to a seated person). A select with nobody to choose is left out."""
    others = [seat for seat in session.seats if seat.player_id != session.host_id][:MAX_OPTIONS]
    people = [seat for seat in others if not seat.is_bot]
    tools: list[Shown] = []
    if others:
        tools.append(HostSelect.payload(
            HostTool.REMOVE, session.id, options=[_seat_option(words, seat) for seat in others],
            placeholder=words.gettext("Host: remove a player…"), row=REMOVE_ROW,
        ))
    if people:
        tools.append(HostSelect.payload(
            HostTool.PASS, session.id, options=[_seat_option(words, seat) for seat in people],
            placeholder=words.gettext("Host: pass the host role to…"), row=PASS_ROW,
        ))
    return tools


# The bot level each "Add bot" button seats; a level the server does not offer (BOT_LEVELS)
# has no button.
BOT_BUTTON_LEVELS: dict[LobbyAction, str] = {
    LobbyAction.BOT_EASY: "easy",
    LobbyAction.BOT_NORMAL: "normal",
    LobbyAction.BOT_EXPERT: "expert",
}


def lobby_view(
    session: Session, words: Words, bot_levels: tuple[str, ...] = BOT_LEVELS,
    hints: bool = False,
) -> Rows:
    view = Rows()
    has_bots = session.has_bots
    for action, (label, style, row) in LOBBY_BUTTONS.items():
        if BOT_BUTTON_LEVELS.get(action, bot_levels[0]) not in bot_levels:
            continue
        view.add_item(LobbyButton.payload(
            action, session.id, label=words.text(label), style=style, row=row if row else None,
            disabled=action is LobbyAction.UNBOT and not has_bots,
        ))
    if hints:
        view.add_item(hints_button(session, words))
    for tool in host_tools(session, words):
        view.add_item(tool)
    return view


def hints_button(session: Session, words: Words) -> Shown:
    """The host's toggle of hints, saying whether they are on."""
    return LobbyButton.payload(
        LobbyAction.HINTS, session.id, label=words.text(HINTS_ON if session.hints else HINTS_OFF),
        style=discord.ButtonStyle.primary if session.hints else discord.ButtonStyle.secondary,
        emoji=HINT_EMOJI, row=1,
    )


def hints_line(session: Session, words: Words) -> str:
    """What the lobby says of hints: off, or on and so not rated."""
    if session.hints:
        return words.gettext("On: each player may ask the expert for a move with"
                             " {hint_button}. The game is recorded but not rated.",
                             **button_names(words))
    return words.pgettext("switch", "off")


def seat_line(words: Words, index: int, seat: Seat, host: bool) -> str:
    if seat.is_bot:
        line = words.gettext("{index}. {name} (bot, {level})", index=index,
                             name=seat.display_name, level=bot_level_name(words, seat.bot_level))
    else:
        line = words.gettext("{index}. {name}", index=index, name=seat.display_name)
    return words.gettext("{seat} — host", seat=line) if host else line


def lobby_render(session: Session, title: str, min_players: int, max_players: int,
                 words: Words = ENGLISH, bot_levels: tuple[str, ...] = BOT_LEVELS,
                 hints: bool = False) -> Render:
    """The lobby; ``hints``: the game offers hints (its UI words them), so the lobby says
    whether they are on and the host may turn them on or off."""
    seats = "\n".join(
        seat_line(words, index, seat, seat.player_id == session.host_id)
        for index, seat in enumerate(session.seats, start=1)
    )
    embed = discord.Embed(title=words.gettext("{title} — lobby", title=title),
                          colour=discord.Colour.blurple())
    embed.add_field(
        name=words.gettext("Seats ({seated}/{most})", seated=words.number(len(session.seats)),
                           most=words.number(max_players)),
        value=seats or "—", inline=False,
    )
    embed.add_field(name=words.text(PLAYERS_HEADING), value=f"{min_players}–{max_players}")
    host = session.seat_of(session.host_id)
    embed.add_field(name=words.text(HOST),
                    value=host.display_name if host else session.host_id)
    embed.add_field(name=words.gettext("Turn limit"),
                    value=turn_limit(session.turn_minutes, words))
    if hints:
        embed.add_field(name=words.gettext("Hints"), value=hints_line(session, words),
                        inline=False)
    footer = words.gettext("Join, then the host starts the game. The host may add bot seats.")
    if min_players == 1:
        footer += " " + words.gettext("Alone, you play solo against a bot.")
    embed.set_footer(text=footer)
    return Render(embeds=[embed], view=lobby_view(session, words, bot_levels, hints))


def turn_limit(minutes: int, words: Words = ENGLISH) -> str:
    if not minutes:
        return words.pgettext("turn-limit", "off")
    return words.ngettext("{count} min per move", "{count} min per move", minutes)


def clock_lines(session: Session, words: Words = ENGLISH) -> list[str]:
    """Deadlines as Discord timestamps, and who a bot plays for (a running game only)."""
    if session.status is not Status.ACTIVE:
        return []
    names = session.names
    lines = [
        words.gettext("⏳ {name}: time runs out {when}", name=names.get(d.player_id, d.player_id),
                      when=discord.utils.format_dt(d.due_at, "R"))
        for d in session.deadlines
    ]
    for seat in session.seats:
        if seat.left:
            lines.append(words.gettext("🚪 {name} left the game — a bot plays their seat.",
                                       name=seat.display_name))
        elif seat.away:
            lines.append(away_line(seat.display_name, words))
    return lines


def with_clock(session: Session, render: Render, words: Words = ENGLISH) -> Render:
    """The game's table plus the turn clock, away notes and the I'm back button."""
    lines = clock_lines(session, words)
    if not lines:
        return render
    content = "\n".join([render.content, *lines] if render.content else lines)
    view = render.view
    if any(seat.away and not seat.left for seat in session.seats):
        view = as_rows(view)
        with contextlib.suppress(ValueError):  # a full view keeps the game's own components
            view.add_item(BackButton.payload(session.id, label=words.text(IM_BACK)))
    return Render(content=content, embeds=render.embeds, view=view)


def closed_render(session: Session, title: str, words: Words = ENGLISH) -> Render:
    embed = discord.Embed(
        title=words.gettext("{title} — closed", title=title),
        description=words.gettext("This table was closed without a result."),
    )
    return Render(embeds=[embed], view=None)


def table_render(client: TableBot, services: TableServices, session: Session,
                 words: Words | None = None) -> Render:
    """The public message for ``session`` in whatever status it is (``client``: the bot;
    ``services``: the table's; ``words``: the server's, by default the cached ``/config``
    choice, see ``cogs.i18n.interaction.server_words``). Sent as one card
    (``cogs.kit.card_layout``), the lobby too: it is the message the table is drawn on."""
    return as_card(_table_render(client, services, session, words))


def _table_render(client: TableBot, services: TableServices, session: Session,
                  words: Words | None) -> Render:
    if words is None:
        words = server_words_now(client, session.guild_id)
    engine = client.manager.engine(session.game)
    if session.status is Status.LOBBY:
        return lobby_render(session, engine.title, engine.min_players, engine.max_players,
                            words, services.bot_levels or BOT_LEVELS,
                            able(services.uis.ui(session.game), WORDS_HINTS) is not None)
    if session.status is Status.ABANDONED:
        return with_replay(session, closed_render(session, engine.title, words), words)
    ui = services.uis.ui(session.game)
    drawn = table_in(ui, session, words)
    render = with_clock(session, drawn, words)
    if session.status is not Status.FINISHED:
        return with_reach_note(session, render, words)
    return with_replay(session, with_info(session, render, ui, words), words)


def with_reach_note(session: Session, render: Render, words: Words) -> Render:
    """A running table where the bot is not in the channel says how it stays current: only a
    click can write it (``cogs.kit.message_routes``), so a table that waited out a long pause
    is brought up to date by the next one."""
    if not session.tokens_only:
        return render
    note = words.gettext(
        "⏳ Here the table keeps up through your clicks: if it looks behind, any of its buttons"
        " brings it up to date.")
    return replace(render, content="\n".join([render.content, note] if render.content else [note]))


def with_info(session: Session, render: Render, ui: GameUI, words: Words) -> Render:
    """A finished table keeps its Rules and Scores buttons (answered from the stored game)."""
    wanted = []
    if ui.rules:
        wanted.append(InfoButton.payload(session.id, InfoKind.RULES, label=words.text(RULES)))
    if able(ui, SHOWS_SCORES) is not None:
        wanted.append(InfoButton.payload(session.id, InfoKind.SCORES, label=words.text(SCORES)))
    view = as_rows(render.view)
    shown = {getattr(item, "custom_id", None) for item in view.children}
    for button in wanted:
        if button.custom_id not in shown:
            with contextlib.suppress(ValueError):  # a full view keeps the game's own components
                view.add_item(button)
    return Render(content=render.content, embeds=render.embeds, view=view)


def with_replay(session: Session, render: Render, words: Words) -> Render:
    """A finished (or stopped mid-game) table with its Replay button
    (``cogs.rendering.replay_pages``)."""
    button = replay_button(session, words)
    if button is None:
        return render
    view = as_rows(render.view)
    with contextlib.suppress(ValueError):  # a full view keeps the game's own components
        view.add_item(button)
    return Render(content=render.content, embeds=render.embeds, view=view)
