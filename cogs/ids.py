"""Every component the bot sends, one class per custom_id kind: template, build, parse, click.

As discord.py's ``examples/views/dynamic_counter.py``: each kind is a ``discord.ui.DynamicItem``
whose ``template`` (a regular expression with named groups) is the only parser of its ids,
whose constructor builds the component with its id, and whose ``run`` is the click (it calls
the handlers that the table cog holds, :class:`TableClicks`). Numbers
in ids are ASCII digits only (``[0-9]``, never ``\\d``, which admits '١'). All ids are at most
100 characters.

``tb:act:{session}:{version}:{payload}`` (:class:`ActButton`)
    A game button; ``payload`` is the game UI's own (see ``cogs.controls``).
``tb:sel:{session}:{version}:{payload}`` (:class:`ActSelect`)
    A game select menu; the chosen option values come with the click.
``tb:hand:{session}`` (:class:`HandButton`)
    "My hand": the clicker's private view, ephemeral.
``tb:info:{session}:{table|rules|scores|log}`` (:class:`InfoButton`)
    For anyone in the channel, answered ephemeral: a copy of the table, the rules, the scores,
    the last lines of the event log.
``tb:back:{session}`` (:class:`BackButton`)
    "I'm back": an away player takes their seat back.
``tb:lobby:{action}:{session}`` (:class:`LobbyButton`)
    Join, Leave, Start, Cancel and the host's bot seat buttons.
``tb:host:{remove|pass}:{session}`` (:class:`HostSelect`)
    The host's selects in a lobby: remove a seated player, pass the host role (the chosen
    option's value is the player's id).
``tb:rules:{game}:{page}:{p|n}`` (:class:`RulesPageButton`)
    Rules paging.
``tb:rp:{session}:{step}:{o|f|p|n|l}`` (:class:`ReplayButton`)
    A finished game's replay, at step ``step``: open (a new private message), or first,
    previous, next, last (the private message edited). The tag keeps the ids of one message
    distinct.
``tb:rpj:{session}:{r|t}`` (:class:`ReplayJump`)
    Jump to a round (``r``) or turn (``t``): the chosen option's value is a step index.

The leaderboard's page buttons (``tb:lb:…``) are in ``cogs.leaderboard_cog``.

Views made of these items are never kept per message in discord.py's view store (a view of
DynamicItems only is "fully dynamic"): the registered classes serve every click, so memory
does not grow with the messages sent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Literal, Protocol, Self

import discord

from bot.client_ops import handling
from cogs.unexpected import answer_unexpected

Interaction = discord.Interaction[Any]
Item = discord.ui.Item[Any]

MAX_CUSTOM_ID = 100
SID = r"(?P<sid>[0-9]+)"

class InfoKind(StrEnum):
    """What an info button shows (``tb:info:{session}:{kind}``)."""

    TABLE = "table"
    RULES = "rules"
    SCORES = "scores"
    LOG = "log"


class HostTool(StrEnum):
    """What a lobby's host select does (``tb:host:{tool}:{session}``)."""

    REMOVE = "remove"  # take a seated player's seat away
    PASS = "pass"  # pass the host role


class LobbyAction(StrEnum):
    """What a lobby button does (``tb:lobby:{action}:{session}``)."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    BOT_EASY = "bot-easy"
    BOT_NORMAL = "bot-normal"
    BOT_EXPERT = "bot-expert"
    UNBOT = "unbot"


def _one_of(kinds: type[StrEnum]) -> str:
    return "|".join(re.escape(kind.value) for kind in kinds)


def checked_id(custom_id: str) -> str:
    """``custom_id``, or ValueError when Discord would refuse it as too long."""
    if len(custom_id) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID} characters: {custom_id!r}")
    return custom_id


_LOOKS = frozenset({"label", "style", "emoji", "disabled", "options", "placeholder",
                    "min_values", "max_values", "values"})


TABLE_COG = "GameCog"  # the cog that holds the game UIs and the click handlers


class TableClicks(Protocol):
    """What a table control's click calls (``cogs.handlers``, held by the table cog as
    ``clicks``): the handlers draw with these classes, so this module does not import them."""

    async def act_click(self, interaction: Interaction, session_id: int, version: int,
                        payload: str, values: Sequence[str] | None) -> None: ...

    async def hand_click(self, interaction: Interaction, session_id: int) -> None: ...

    async def info_click(self, interaction: Interaction, session_id: int,
                         what: InfoKind) -> None: ...

    async def back_click(self, interaction: Interaction, session_id: int) -> None: ...

    async def lobby_click(self, interaction: Interaction, action: LobbyAction,
                          session_id: int) -> None: ...

    async def rules_click(self, interaction: Interaction, game: str, page: int) -> None: ...

    async def host_select(self, interaction: Interaction, tool: HostTool, session_id: int,
                          values: Sequence[str]) -> None: ...

    async def replay_click(self, interaction: Interaction, session_id: int, step: int,
                           fresh: bool) -> None: ...

    async def rematch_click(self, interaction: Interaction, session_id: int) -> None: ...


def _handlers(interaction: Interaction) -> TableClicks:
    clicks = getattr(interaction.client.get_cog(TABLE_COG), "clicks", None)
    if clicks is None:
        raise RuntimeError("the table extension (cogs.table) is not loaded")
    found: TableClicks = clicks
    return found


class Control(discord.ui.DynamicItem[Item], template=r"(?!)"):
    """The base of every control: a click that raises answers the user (``cogs.unexpected``)
    instead of leaving them with "The application did not respond". The wrapped component's
    looks (``label``, ``options``, ``disabled``...) read through."""

    def __getattr__(self, name: str) -> Any:
        if name not in _LOOKS:
            raise AttributeError(name)
        return getattr(self.__dict__["item"], name)

    async def callback(self, interaction: Interaction) -> None:
        with handling(interaction):  # log context; the outcome counted (bot.ops)
            try:
                await self.run(interaction)
            except Exception as error:
                await answer_unexpected(interaction, error, f"component {self.custom_id!r}")

    async def run(self, interaction: Interaction) -> None:
        raise NotImplementedError


def session_of_id(custom_id: str) -> int | None:
    """The session id a table control's custom_id carries (None: not a table control)."""
    for kind in (ActButton, ActSelect, HandButton, InfoButton, BackButton, LobbyButton,
                 HostSelect):
        match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            return int(match["sid"])
    return None


class ActButton(Control, template=rf"tb:act:{SID}:(?P<version>[0-9]+):(?P<payload>.*)"):
    def __init__(
        self,
        session_id: int,
        version: int,
        payload: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
        item: Item | None = None,
    ) -> None:
        super().__init__(item or discord.ui.Button(
            custom_id=self.build(session_id, version, payload), label=label, style=style,
            emoji=emoji, disabled=disabled,
        ), row=row)
        self.session_id, self.version, self.payload = session_id, version, payload

    @staticmethod
    def build(session_id: int, version: int, payload: str) -> str:
        return checked_id(f"tb:act:{session_id}:{version}:{payload}")

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["sid"]), int(match["version"]), match["payload"], item=item)

    async def run(self, interaction: Interaction) -> None:
        await _handlers(interaction).act_click(
            interaction, self.session_id, self.version, self.payload, None
        )


class ActSelect(Control, template=rf"tb:sel:{SID}:(?P<version>[0-9]+):(?P<payload>.*)"):
    def __init__(
        self,
        session_id: int,
        version: int,
        payload: str,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
        item: Item | None = None,
    ) -> None:
        super().__init__(item or discord.ui.Select(
            custom_id=self.build(session_id, version, payload), options=list(options or []),
            placeholder=placeholder, min_values=min_values, max_values=max_values,
        ), row=row)
        self.session_id, self.version, self.payload = session_id, version, payload

    @staticmethod
    def build(session_id: int, version: int, payload: str) -> str:
        return checked_id(f"tb:sel:{session_id}:{version}:{payload}")

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["sid"]), int(match["version"]), match["payload"], item=item)

    async def run(self, interaction: Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(value) for value in data.get("values", [])]
        await _handlers(interaction).act_click(
            interaction, self.session_id, self.version, self.payload, values
        )


class HandButton(Control, template=rf"tb:hand:{SID}"):
    def __init__(self, session_id: int, *, label: str = "My hand",
                 item: Item | None = None) -> None:
        super().__init__(item or discord.ui.Button(
            custom_id=self.build(session_id), label=label, style=discord.ButtonStyle.primary
        ))
        self.session_id = session_id

    @staticmethod
    def build(session_id: int) -> str:
        return f"tb:hand:{session_id}"

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["sid"]), item=item)

    async def run(self, interaction: Interaction) -> None:
        await _handlers(interaction).hand_click(interaction, self.session_id)


class InfoButton(Control, template=rf"tb:info:{SID}:(?P<what>{_one_of(InfoKind)})"):
    """For anyone in the channel, seated or not, answered ephemeral: ``table`` (a copy of the
    table), ``rules`` (the game's rules) or ``scores`` (the GameUI's score sheet)."""

    def __init__(self, session_id: int, what: InfoKind, *, label: str = "",
                 item: Item | None = None) -> None:
        super().__init__(item or discord.ui.Button(custom_id=self.build(session_id, what),
                                                   label=label))
        self.session_id, self.what = session_id, what

    @staticmethod
    def build(session_id: int, what: InfoKind) -> str:
        return checked_id(f"tb:info:{session_id}:{what}")

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["sid"]), InfoKind(match["what"]), item=item)

    async def run(self, interaction: Interaction) -> None:
        await _handlers(interaction).info_click(interaction, self.session_id, self.what)


class BackButton(Control, template=rf"tb:back:{SID}"):
    """The "I'm back" button: an away player takes their seat back from the bot."""

    def __init__(self, session_id: int, *, label: str = "I'm back",
                 item: Item | None = None) -> None:
        super().__init__(item or discord.ui.Button(
            custom_id=self.build(session_id), label=label,
            style=discord.ButtonStyle.success,
        ))
        self.session_id = session_id

    @staticmethod
    def build(session_id: int) -> str:
        return f"tb:back:{session_id}"

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["sid"]), item=item)

    async def run(self, interaction: Interaction) -> None:
        await _handlers(interaction).back_click(interaction, self.session_id)


class LobbyButton(
    Control,
    template=rf"tb:lobby:(?P<action>{_one_of(LobbyAction)}):{SID}",
):
    def __init__(
        self,
        action: LobbyAction,
        session_id: int,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
        item: Item | None = None,
    ) -> None:
        super().__init__(item or discord.ui.Button(
            custom_id=self.build(action, session_id), label=label, style=style,
            disabled=disabled,
        ), row=row)
        self.action, self.session_id = action, session_id

    @staticmethod
    def build(action: LobbyAction, session_id: int) -> str:
        return f"tb:lobby:{action}:{session_id}"

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(LobbyAction(match["action"]), int(match["sid"]), item=item)

    async def run(self, interaction: Interaction) -> None:
        await _handlers(interaction).lobby_click(interaction, self.action, self.session_id)


class HostSelect(Control, template=rf"tb:host:(?P<tool>{_one_of(HostTool)}):{SID}"):
    """A lobby host's select: each option's value is a seated player's id."""

    def __init__(self, tool: HostTool, session_id: int,
                 options: list[discord.SelectOption] | None = None, *,
                 placeholder: str | None = None, row: int | None = None,
                 item: Item | None = None) -> None:
        super().__init__(item or discord.ui.Select(
            custom_id=self.build(tool, session_id), options=list(options or []),
            placeholder=placeholder,
        ), row=row)
        self.tool, self.session_id = tool, session_id

    @staticmethod
    def build(tool: HostTool, session_id: int) -> str:
        return f"tb:host:{tool}:{session_id}"

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(HostTool(match["tool"]), int(match["sid"]), item=item)

    async def run(self, interaction: Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(value) for value in data.get("values", [])]
        await _handlers(interaction).host_select(interaction, self.tool, self.session_id, values)


class RulesPageButton(
    Control, template=r"tb:rules:(?P<game>[a-z0-9_]+):(?P<page>[0-9]+):(?P<dir>[pn])"
):
    def __init__(self, game: str, page: int, direction: Literal["p", "n"], *, label: str = "",
                 disabled: bool = False, item: Item | None = None) -> None:
        super().__init__(item or discord.ui.Button(
            custom_id=self.build(game, page, direction), label=label, disabled=disabled
        ))
        self.game, self.page = game, page

    @staticmethod
    def build(game: str, page: int, direction: Literal["p", "n"]) -> str:
        return checked_id(f"tb:rules:{game}:{page}:{direction}")

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        direction: Literal["p", "n"] = "p" if match["dir"] == "p" else "n"
        return cls(match["game"], int(match["page"]), direction, item=item)

    async def run(self, interaction: Interaction) -> None:
        await _handlers(interaction).rules_click(interaction, self.game, self.page)


class ReplayTag(StrEnum):
    """Which replay button (``tb:rp:{session}:{step}:{tag}``)."""

    OPEN = "o"
    FIRST = "f"
    PREVIOUS = "p"
    NEXT = "n"
    LAST = "l"


class ReplayButton(Control, template=rf"tb:rp:{SID}:(?P<step>[0-9]{{1,7}}):(?P<tag>[ofpnl])"):
    """A replay's step: ``open`` sends a new private replay, the others edit the clicker's."""

    def __init__(self, session_id: int, step: int, tag: ReplayTag, *, label: str = "Replay",
                 disabled: bool = False, row: int | None = None,
                 item: Item | None = None) -> None:
        super().__init__(item or discord.ui.Button(
            custom_id=self.build(session_id, step, tag), label=label, disabled=disabled,
        ), row=row)
        self.session_id, self.step, self.tag = session_id, step, tag

    @staticmethod
    def build(session_id: int, step: int, tag: ReplayTag) -> str:
        return checked_id(f"tb:rp:{session_id}:{step}:{tag}")

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["sid"]), int(match["step"]), ReplayTag(match["tag"]), item=item)

    async def run(self, interaction: Interaction) -> None:
        await _handlers(interaction).replay_click(
            interaction, self.session_id, self.step, self.tag is ReplayTag.OPEN
        )


class RematchButton(Control, template=rf"tb:rematch:{SID}"):
    """On a finished game's final post: a new lobby with the same seats and options; each
    player of that game takes their seat by clicking it (``cogs.rematch``)."""

    def __init__(self, session_id: int, *, label: str = "Rematch",
                 item: Item | None = None) -> None:
        super().__init__(item or discord.ui.Button(
            custom_id=self.build(session_id), label=label, style=discord.ButtonStyle.success,
        ))
        self.session_id = session_id

    @staticmethod
    def build(session_id: int) -> str:
        return f"tb:rematch:{session_id}"

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        return cls(int(match["sid"]), item=item)

    async def run(self, interaction: Interaction) -> None:
        await _handlers(interaction).rematch_click(interaction, self.session_id)


STEP_VALUE = re.compile(r"[0-9]{1,7}")


class ReplayJump(Control, template=rf"tb:rpj:{SID}:(?P<kind>[rt])"):
    """Jump to a round (``r``) or a turn (``t``); each option's value is a step index. A
    value that is not ASCII digits is refused; the handler refuses one out of range."""

    def __init__(self, session_id: int, kind: Literal["r", "t"],
                 options: list[discord.SelectOption] | None = None, *,
                 placeholder: str | None = None, row: int | None = None,
                 item: Item | None = None) -> None:
        super().__init__(item or discord.ui.Select(
            custom_id=checked_id(f"tb:rpj:{session_id}:{kind}"), options=list(options or []),
            placeholder=placeholder,
        ), row=row)
        self.session_id, self.kind = session_id, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: Item, match: re.Match[str], /
    ) -> Self:
        kind: Literal["r", "t"] = "r" if match["kind"] == "r" else "t"
        return cls(int(match["sid"]), kind, item=item)

    async def run(self, interaction: Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(value) for value in data.get("values", [])]
        if len(values) != 1 or STEP_VALUE.fullmatch(values[0]) is None:
            await answer_refusal(interaction, "Choose one step from the list.")
            return
        await _handlers(interaction).replay_click(
            interaction, self.session_id, int(values[0]), False
        )


async def answer_refusal(interaction: Interaction, message: str) -> None:
    """An ephemeral sentence (this module cannot import ``cogs.context``)."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


TABLE_CONTROLS: tuple[type[Control], ...] = (
    LobbyButton, ActButton, ActSelect, HandButton, RulesPageButton, BackButton, InfoButton,
    ReplayButton, ReplayJump, RematchButton, HostSelect,
)
