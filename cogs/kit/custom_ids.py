"""Every component the bot sends, from one table of control kinds: template, build, parse, click.

A :class:`ControlKind` declares one kind of custom_id: its prefix, its parts in order (each a
:class:`Part`: the text it matches and what it parses to), the click it makes and the refusal
for an id whose numbers are out of range. :func:`button_control` and :func:`select_control`
make the ``discord.ui.DynamicItem`` class of a kind (as discord.py's
``examples/views/dynamic_counter.py``): its ``template`` is the kind's, the only parser of its
ids; its constructor takes the parts and the component's looks; its click calls the kind's.
An id is ``tb:{prefix}:{part}:{part}...``. Numbers in ids are ASCII digits only (``[0-9]``,
never ``\\d``, which admits '١'), each bounded (:func:`number`). All ids are at most 100
characters.

``tb:act:{session}:{version}:{payload}`` (:data:`ActButton`)
    A game button; ``payload`` is the game UI's own (see ``cogs.kit.control_menus``).
``tb:sel:{session}:{version}:{payload}`` (:data:`ActSelect`)
    A game select menu; the chosen option values come with the click.
``tb:hand:{session}`` (:data:`HandButton`)
    "My hand": the clicker's private view, ephemeral.
``tb:info:{session}:{table|rules|scores|log}`` (:data:`InfoButton`)
    For anyone in the channel, answered ephemeral: a copy of the table, the rules, the scores,
    the last lines of the event log.
``tb:hint:{session}:{version}`` (:data:`HintButton`)
    "Hint": the expert's suggestion for the clicker's move at that version, ephemeral (a
    game with hints only; ``cogs.hints.hint_click``).
``tb:back:{session}`` (:data:`BackButton`)
    "I'm back": an away player takes their seat back.
``tb:lobby:{action}:{session}`` (:data:`LobbyButton`)
    Join, Leave, Start, Cancel and the host's bot seat buttons.
``tb:host:{remove|pass}:{session}`` (:data:`HostSelect`)
    The host's selects in a lobby: remove a seated player, pass the host role (the chosen
    option's value is the player's id).
``tb:rules:{game}:{page}:{p|n}`` (:data:`RulesPageButton`)
    Rules paging.
``tb:rp:{session}:{step}:{o|f|p|n|l}`` (:data:`ReplayButton`)
    A finished game's replay, at step ``step``: open (a new private message), or first,
    previous, next, last (the private message edited). The tag keeps the ids of one message
    distinct.
``tb:rpj:{session}:{r|t}`` (:data:`ReplayJump`)
    Jump to a round (``r``) or turn (``t``): the chosen option's value is a step index.
``tb:rv:{session}:{page}:{o|f|p|n|l}`` (:data:`ReviewButton`)
    The clicker's own review of a finished game (``cogs.reviews.review_pages``), at page
    ``page``: open (a new private message, from the final post or a replay page), or first,
    previous, next, last (that private message edited).
``tb:rematch:{session}`` (:data:`RematchButton`)
    On a finished game's final post: its rematch (``cogs.clicks.rematch``).

The leaderboard's page buttons (``tb:lb:…``) are a kind of ``cogs.leaderboard.commands``.

What a click calls is registered with the kind (``cogs.features.Feature.controls``: the
table's in ``cogs.clicks.table_clicks.table_controls``, a feature's in its own package); a
click is handed to the client's ``dispatch_control`` (set when the table extension loads), so
this module imports no handler. The class discord.py dispatches to is the one last sent
(``ViewStore.add_view`` registers each sent DynamicItem's class), so a click cannot be bound
to a class of its own.

A render does not build these items: each kind's ``payload`` factory (``ActButton.payload(...)``,
the constructor's arguments) writes the component as the item would
(``cogs.kit.control_payloads``), and the registered classes parse and serve its clicks.
Nothing sent is kept per message in discord.py's view store (a view of DynamicItems only is
"fully dynamic"; a payload view says it is finished), so memory does not grow with the
messages sent.
"""

from __future__ import annotations

import re
import types
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Generic, Literal, Self, TypeVarTuple, cast

import discord

from bot.ops import outcomes
from bot.process.client import TableBot
from bot.process.client_ops import handling
from bot.sessions.export import NO_SUCH_GAME
from cogs.i18n.command_mentions import command_fields
from cogs.i18n.interaction import user_words
from cogs.i18n.messages import N_, Message
from cogs.kit.click_kinds import (
    HostTool,
    InfoKind,
    Interaction,
    LobbyAction,
    ReplayTag,
)
from cogs.kit.control_payloads import ButtonPayload, Option, SelectPayload
from cogs.kit.unexpected_errors import answer_unexpected

Item = discord.ui.Item[Any]
Parts = TypeVarTuple("Parts")

MAX_CUSTOM_ID = 100
# Session ids and versions are stored as SQLite INTEGER / PostgreSQL BIGINT: at most 2^63 - 1.
MAX_STORED = 2**63 - 1
# A Discord id (a snowflake) is a positive 64-bit number.
MAX_SNOWFLAKE = 2**64 - 1
# A page or a replay step indexes a list the bot drew: 7 digits, as replay steps always had.
MAX_INDEX = 9_999_999

# The refusals of an id with a number out of range: what the handlers say of a control whose
# game is gone (marked for the catalogs here or in ``cogs.kit.refusal_texts``; its command
# is a field that ``answer_refusal`` fills).
GAME_GONE = N_("There is no game in this channel. Open one with {game_new_command}.")
REPLAY_GONE = Message(NO_SUCH_GAME)
# cogs.clicks.rematch's refusal:
REMATCH_GONE = N_("That button belongs to no finished game of this channel.")
# cogs.kit.control_menus' refusal of a stale choice:
NOT_AVAILABLE = "That choice is not available now."
CHOICE_GONE = Message(NOT_AVAILABLE)


def checked_id(custom_id: str) -> str:
    """``custom_id``, or ValueError when Discord would refuse it as too long."""
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID} characters: {custom_id!r}")
    return custom_id


class OutOfRange(ValueError):
    """A number of an id outside its part's range: the id names nothing the bot drew."""


@dataclass(frozen=True)
class Part:
    """One part of an id: ``pattern`` (a regular expression without groups) is the text it
    matches, ``parse`` turns that text into the value (OutOfRange: the id names nothing)."""

    name: str
    pattern: str
    parse: Callable[[str], object] = str


def number(name: str, most: int, least: int = 0) -> Part:
    """A number from ``least`` to ``most``: any run of ASCII digits matches, so an id with a
    larger number is still this kind's, and refused (never a traceback further on)."""

    digits = len(str(most))

    def parse(text: str) -> int:
        value = int(text) if len(text.lstrip("0")) <= digits else most + 1  # no long parse
        if not least <= value <= most:
            raise OutOfRange(f"{name} {text} is outside {least}..{most}")
        return value

    return Part(name, "[0-9]+", parse)


def snowflake(name: str) -> Part:
    """A Discord id: a positive 64-bit number."""
    return number(name, MAX_SNOWFLAKE, least=1)


def one_of(name: str, kinds: type[StrEnum]) -> Part:
    """One of the values of ``kinds``."""
    return Part(name, "|".join(re.escape(kind.value) for kind in kinds), kinds)


SESSION = number("sid", MAX_STORED)
VERSION = number("version", MAX_STORED)
PAYLOAD = Part("payload", ".*")
GAME = Part("game", "[a-z0-9_]+")
PAGE = number("page", MAX_INDEX)
STEP = number("step", MAX_INDEX)
DIRECTION = Part("dir", "[pn]")

Click = Callable[[Interaction, tuple[*Parts], list[str] | None], Awaitable[None]]


@dataclass(frozen=True)
class ControlKind(Generic[*Parts]):
    """One kind of custom_id, ``tb:{prefix}:{part}:...``.

    ``refusal`` is said, ephemeral, when a number of the id is out of its range. ``label`` and
    ``style`` are a button's default looks. Declare the parts' types with the kind
    (``ControlKind[int, str](...)``): the parts' parsers produce them. What a click does is
    registered with the kind (``cogs.features``)."""

    prefix: str
    parts: tuple[Part, ...]
    refusal: Message
    label: str | None = None
    style: discord.ButtonStyle = discord.ButtonStyle.secondary

    @property
    def template(self) -> str:
        fields = (f"(?P<{part.name}>{part.pattern})" for part in self.parts)
        return ":".join(("tb", re.escape(self.prefix), *fields))

    def build(self, *parts: *Parts) -> str:
        custom_id = ":".join(["tb", self.prefix, *map(str, parts)])
        if len(custom_id) > MAX_CUSTOM_ID:  # checked_id's check, without its call (issue 42)
            return checked_id(custom_id)
        return custom_id

    def parse(self, match: re.Match[str]) -> tuple[*Parts] | None:
        """The parts of a matched id; None when a number is out of its range."""
        try:
            values = tuple([part.parse(match[part.name]) for part in self.parts])
        except OutOfRange:
            return None
        # not typing.cast: its argument ``tuple[*Parts]`` is built at every call (issue 42)
        return values  # type: ignore[return-value]


AnyKind = ControlKind[*tuple[Any, ...]]


_LOOKS = frozenset({"label", "style", "emoji", "disabled", "options", "placeholder",
                    "min_values", "max_values", "values"})


class Control(discord.ui.DynamicItem[Item], Generic[*Parts], template=r"(?!)"):
    """A control of one kind (``kind``). ``parts`` are its id's parts, None for a clicked id
    whose numbers are out of range (the click is refused). A click that raises answers the
    user (``cogs.kit.unexpected_errors``) instead of leaving them with "The application did not
    respond".
    The wrapped component's looks (``label``, ``options``, ``disabled``...) read through.
    A click goes to the client's ``dispatch_control`` with the kind and its parsed parts."""

    kind: ClassVar[AnyKind]
    parts: tuple[*Parts] | None
    # A click needs only the clicked component, not the message's whole view rebuilt
    # (bot.process.lean_dispatch, issue 42).
    __tablebot_lean_dispatch__: ClassVar[bool] = True

    def __getattr__(self, name: str) -> Any:
        if name not in _LOOKS:
            raise AttributeError(name)
        return getattr(self.__dict__["item"], name)

    @classmethod
    def build(cls, *parts: *Parts) -> str:
        return cls.kind.build(*parts)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        control = cls.__new__(cls)
        discord.ui.DynamicItem.__init__(control, item)  # the clicked component, as it came
        control.parts = cls.kind.parse(match)
        return control

    def chosen(self, interaction: Interaction) -> list[str] | None:
        """A select's chosen values; None for a button."""
        return None

    async def callback(self, interaction: Interaction) -> None:
        with handling(interaction):  # log context; the outcome counted (bot.ops)
            try:
                if self.parts is None:
                    await answer_refusal(interaction, self.kind.refusal)
                    return
                client: TableBot = interaction.client
                dispatch = client.dispatch_control
                if dispatch is None:
                    raise RuntimeError("the table extension (cogs.table.extension) is not loaded")
                await dispatch(interaction, self.kind, self.parts, self.chosen(interaction))
            except Exception as error:  # every click is answered: logged, apologised for
                await answer_unexpected(interaction, error, f"component {self.custom_id!r}")


AnyControl = Control[*tuple[Any, ...]]


class ButtonControl(Control[*Parts], template=r"(?!)"):
    """A button of a kind: ``ActButton(session_id, version, payload, label=...)``."""

    def __init__(
        self,
        *parts: *Parts,
        label: str | None = None,
        style: discord.ButtonStyle | None = None,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        kind = self.kind
        super().__init__(discord.ui.Button(
            custom_id=kind.build(*parts), label=kind.label if label is None else label,
            style=kind.style if style is None else style, emoji=emoji, disabled=disabled,
        ), row=row)
        self.parts = parts

    @classmethod
    def payload(
        cls,
        *parts: *Parts,
        label: str | None = None,
        style: discord.ButtonStyle | None = None,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> ButtonPayload:
        """The button as sent (``cogs.kit.control_payloads``): what ``cls(*parts, ...)``
        writes, without the ``discord.ui`` objects."""
        kind = cls.kind
        # kind.build(*parts), inline: a render writes ~10 ids per action (issue 42)
        custom_id = ":".join(["tb", kind.prefix, *map(str, parts)])
        if len(custom_id) > MAX_CUSTOM_ID:
            checked_id(custom_id)  # raises
        return ButtonPayload(cls, parts, custom_id,
                             kind.label if label is None else label,
                             kind.style if style is None else style, emoji, disabled, row)


class SelectControl(Control[*Parts], template=r"(?!)"):
    """A select menu of a kind: ``ActSelect(session_id, version, payload, options=[...])``."""

    def __init__(
        self,
        *parts: *Parts,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        super().__init__(discord.ui.Select(
            custom_id=self.kind.build(*parts), options=list(options), placeholder=placeholder,
            min_values=min_values, max_values=max_values,
        ), row=row)
        self.parts = parts

    @classmethod
    def payload(
        cls,
        *parts: *Parts,
        options: Sequence[Option] = (),
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> SelectPayload:
        """The select as sent (``cogs.kit.control_payloads``): what ``cls(*parts, ...)``
        writes, without the ``discord.ui`` objects."""
        return SelectPayload(cls, parts, cls.kind.build(*parts), options, placeholder,
                             min_values, max_values, row)

    def chosen(self, interaction: Interaction) -> list[str]:
        data: Any = interaction.data or {}
        return [str(value) for value in data.get("values", [])]


def _control_class(name: str, base: type[AnyControl], kind: AnyKind) -> type:
    def body(namespace: dict[str, Any]) -> None:
        namespace.update(kind=kind, __module__=__name__, __qualname__=name,
                         __doc__=f"``{kind.template}`` ({base.__name__} of its kind).")

    return types.new_class(name, (base,), {"template": kind.template}, body)


def button_control(name: str, kind: ControlKind[*Parts]) -> type[ButtonControl[*Parts]]:
    """The DynamicItem class of ``kind``'s buttons (register it with ``add_dynamic_items``)."""
    return cast(type[ButtonControl[*Parts]], _control_class(name, ButtonControl, kind))


def select_control(name: str, kind: ControlKind[*Parts]) -> type[SelectControl[*Parts]]:
    """The DynamicItem class of ``kind``'s select menus."""
    return cast(type[SelectControl[*Parts]], _control_class(name, SelectControl, kind))


async def answer_refusal(interaction: Interaction, message: Message | str) -> None:
    """An ephemeral sentence (this module cannot import ``cogs.client_services``): a marked
    :class:`Message` in the user's words, a ``str`` as it is."""
    outcomes.mark(interaction.extras, outcomes.REFUSED)  # counted when its handler ends
    if isinstance(message, Message):
        words = await user_words(interaction)
        message = words.text(message, **command_fields(words))
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


# The table of control kinds: what each id holds.
ACT: ControlKind[int, int, str] = ControlKind("act", (SESSION, VERSION, PAYLOAD), GAME_GONE)
SELECT: ControlKind[int, int, str] = ControlKind("sel", (SESSION, VERSION, PAYLOAD), GAME_GONE)
HAND: ControlKind[int] = ControlKind(
    "hand", (SESSION,), GAME_GONE, label="My hand", style=discord.ButtonStyle.primary)
INFO: ControlKind[int, InfoKind] = ControlKind(
    "info", (SESSION, one_of("what", InfoKind)), GAME_GONE, label="")
HINT_EMOJI = "💡"  # the Hint button's, and the lobby's hints toggle's
HINT: ControlKind[int, int] = ControlKind(
    "hint", (SESSION, VERSION), GAME_GONE, label="Hint", style=discord.ButtonStyle.secondary)
BACK: ControlKind[int] = ControlKind(
    "back", (SESSION,), GAME_GONE, label="I'm back", style=discord.ButtonStyle.success)
LOBBY: ControlKind[LobbyAction, int] = ControlKind(
    "lobby", (one_of("action", LobbyAction), SESSION), GAME_GONE, label="")
HOST: ControlKind[HostTool, int] = ControlKind(
    "host", (one_of("tool", HostTool), SESSION), GAME_GONE)
RULES_PAGE: ControlKind[str, int, Literal["p", "n"]] = ControlKind(
    "rules", (GAME, PAGE, DIRECTION), CHOICE_GONE, label="")
REPLAY: ControlKind[int, int, ReplayTag] = ControlKind(
    "rp", (SESSION, STEP, one_of("tag", ReplayTag)), REPLAY_GONE, label="Replay")
REPLAY_JUMP: ControlKind[int, Literal["r", "t"]] = ControlKind(
    "rpj", (SESSION, Part("kind", "[rt]")), REPLAY_GONE)
REVIEW: ControlKind[int, int, ReplayTag] = ControlKind(
    "rv", (SESSION, PAGE, one_of("tag", ReplayTag)), REPLAY_GONE, label="My review")
REMATCH: ControlKind[int] = ControlKind(
    "rematch", (SESSION,), REMATCH_GONE, label="Rematch", style=discord.ButtonStyle.success)

ActButton = button_control("ActButton", ACT)
ActSelect = select_control("ActSelect", SELECT)
HandButton = button_control("HandButton", HAND)
InfoButton = button_control("InfoButton", INFO)
HintButton = button_control("HintButton", HINT)
BackButton = button_control("BackButton", BACK)
LobbyButton = button_control("LobbyButton", LOBBY)
HostSelect = select_control("HostSelect", HOST)
RulesPageButton = button_control("RulesPageButton", RULES_PAGE)
ReplayButton = button_control("ReplayButton", REPLAY)
ReplayJump = select_control("ReplayJump", REPLAY_JUMP)
ReviewButton = button_control("ReviewButton", REVIEW)
RematchButton = button_control("RematchButton", REMATCH)

# The controls of a running table or lobby: each carries its session, and one on a message
# with another session's controls is refused (``cogs.clicks.table_clicks.own_table``).
_OF_A_TABLE: tuple[type[AnyControl], ...] = (
    ActButton, ActSelect, HandButton, InfoButton, HintButton, BackButton, LobbyButton,
    HostSelect,
)


def session_of_id(custom_id: str) -> int | None:
    """The session id a table control's custom_id carries (None: not a table control)."""
    for kind in _OF_A_TABLE:
        match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            return int(match["sid"])
    return None

