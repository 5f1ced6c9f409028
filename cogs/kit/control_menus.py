"""The controls toolkit: a player's legal actions (the engine's one list) turned into buttons
and select menus, and a click turned back into the action it stands for.

A :class:`Menu` names a kind of control by a payload prefix. An action shown as a button has the
payload ``{button}:{code}`` (``a:discard:7♥``); shown in a select, the select's payload is
``{select}:{group}:{chunk}`` and its option values are the codes. The code
(``game.action_codes.action_code``) is the action itself in one short line: its type, then its
fields' values in the model's order, joined by ``:``. A click is resolved on the live version
(the manager's gate checked that the clicked control was drawn from it): the engine reads the
code back into an action and says whether it is legal now (``game.action_codes.legal_coded``:
one parse, one legality check, no list of every legal action), else a refusal, so a forged
code can only name a legal action or nothing. A code names the action, not its place in the
list, so an id stays readable (logs, tests) and well within Discord's 100 characters (the
longest codes, a SPLIT target naming a Discord id and a TEN payment spending cards, are under
30; ``cogs.kit.custom_ids.checked_id`` refuses an id past the limit). Selects hold at most 25
options, so a group is split into numbered chunks. Numbers are parsed as ASCII digits only.

:func:`layout` places the rows (buttons five to a row, then one row per select); more than
five rows are split into pages of four plus a row of Previous / More buttons (payload
``pg:{page}``, see :func:`page_of`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord
from pydantic import BaseModel

from bot.records.errors import Refusal
from bot.records.session import Session
from cogs.i18n.catalogs import words_for
from cogs.i18n.common_words import MORE, PREVIOUS
from cogs.i18n.language import Language
from cogs.i18n.messages import N_
from cogs.i18n.words import Words
from cogs.kit.control_payloads import Option, OptionPayload, Rows, Shown
from cogs.kit.custom_ids import NOT_AVAILABLE, ActButton, ActSelect
from cogs.kit.discord_limits import clip
from game.action_codes import action_codes

MAX_OPTIONS = 25
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_BUTTON_LABEL = 80
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
ROWS_PER_PAGE = MAX_ROWS - 1  # one row is kept for the page buttons
PAGE = "pg"

UNKNOWN_CONTROL = "That button is not part of this game."
# NOT_AVAILABLE, a choice that is not available now, is cogs.kit.custom_ids' (its refusal of a rules
# page out of range as well).
CHOOSE_ONE = "Choose one option from the list."
# Controls drawn before codes named the actions carried list indexes (``a:7``, option "7"):
# such a control, clicked at its version after an upgrade, is answered as outdated.
OUTDATED = N_("That control is from an older table; open your view again from the table.").text

_DIGITS = re.compile(r"[0-9]{1,6}")
_INDEX = re.compile(r"[0-9]+")
Action = TypeVar("Action", bound=BaseModel)


def number(raw: str) -> int | None:
    """``raw`` as a number when it is ASCII digits only ('١' is not a digit here)."""
    return int(raw) if _DIGITS.fullmatch(raw) else None


@dataclass(frozen=True)
class Look:
    """How one entry is shown: a button (``group`` None) or an option of a group's select."""

    label: str
    group: str | None = None
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    emoji: str | None = None
    description: str | None = None


Placeholder = Callable[[Sequence[Option], int, int], str]


@dataclass(frozen=True)
class Group:
    """A select group: ``placeholder`` is a text (numbered "(1/2)" when chunked) or a
    function of (options, chunk number, chunks); ``max_selects`` drops chunks beyond it."""

    key: str
    placeholder: str | Placeholder
    max_selects: int | None = None

    def placeholder_for(self, options: Sequence[Option], chunk: int,
                        chunks: int) -> str:
        if callable(self.placeholder):
            return clip(self.placeholder(options, chunk, chunks), MAX_PLACEHOLDER)
        text = self.placeholder if chunks == 1 else f"{self.placeholder} ({chunk + 1}/{chunks})"
        return clip(text, MAX_PLACEHOLDER)


@dataclass
class Controls:
    buttons: list[Shown] = field(default_factory=list)
    selects: list[Shown] = field(default_factory=list)

    def rows(self) -> list[list[Shown]]:
        rows = [
            list(self.buttons[i : i + MAX_BUTTONS_PER_ROW])
            for i in range(0, len(self.buttons), MAX_BUTTONS_PER_ROW)
        ]
        rows.extend([select] for select in self.selects)
        return rows

    def items(self) -> list[Shown]:
        """Every control, with its row set (buttons first, then one row per select)."""
        placed = []
        for row, items in enumerate(self.rows()):
            for item in items:
                item.row = row
                placed.append(item)
        return placed


@dataclass(frozen=True)
class Menu:
    """One list of choices and its payload prefixes (``button``, ``select``)."""

    button: str = "a"
    select: str = "s"

    def controls(
        self,
        session: Session,
        actions: Sequence[BaseModel],
        looks: Sequence[Look | None],
        groups: Sequence[Group] = (),
        order: Sequence[Any] | None = None,
        codes: Sequence[str] | None = None,
    ) -> Controls:
        """Controls for every action with a look (``looks[i]`` is how ``actions[i]`` is
        shown; None: not offered), in list order or sorted by ``order`` (one sort key per
        action; ties keep list order); groups in the order given (a look's group must be one
        of them). Each control carries its action's code (``codes[i]``: the code of
        ``actions[i]``, ``game.action_codes.action_code``, when the caller has them)."""
        controls = Controls()
        grouped: dict[str, list[Option]] = {group.key: [] for group in groups}
        indexes = list(range(len(looks)))
        if order is not None:
            indexes.sort(key=order.__getitem__)
        offered = [(index, look) for index in indexes if (look := looks[index]) is not None]
        if codes is None:
            codes = action_codes([actions[index] for index, _ in offered])
        else:
            codes = [codes[index] for index, _ in offered]
        for (_, look), code in zip(offered, codes, strict=True):
            if look.group is None:
                controls.buttons.append(ActButton.payload(
                    session.id, session.version, f"{self.button}:{code}",
                    label=clip(look.label, MAX_BUTTON_LABEL), style=look.style, emoji=look.emoji,
                ))
            else:
                grouped[look.group].append(OptionPayload(  # as discord.SelectOption writes it
                    clip(look.label, MAX_OPTION_TEXT), code,
                    clip(look.description, MAX_OPTION_TEXT) if look.description else None,
                ))
        for group in groups:
            options = grouped[group.key]
            if not options:
                continue  # no select (what the chunks below would say, without building them)
            chunks = [options[i : i + MAX_OPTIONS] for i in range(0, len(options), MAX_OPTIONS)]
            shown = chunks[: group.max_selects] if group.max_selects is not None else chunks
            for chunk_no, chunk in enumerate(shown):
                controls.selects.append(ActSelect.payload(
                    session.id, session.version, f"{self.select}:{group.key}:{chunk_no}",
                    options=chunk,
                    placeholder=group.placeholder_for(chunk, chunk_no, len(chunks)),
                ))
        return controls

    def owns(self, payload: str) -> bool:
        head = payload.split(":", 1)[0]
        return head in (self.button, self.select)

    def choice(
        self,
        payload: str,
        values: Sequence[str] | None,
        legal: Callable[[str], Action],
        group_of: Callable[[Action], str | None],
        kinds: Collection[str] = (),
    ) -> Action:
        """The legal action a click of this menu chose; Refusal when it names none offered
        now. ``legal``: the legal action a code names now (the engine's
        ``game.action_codes.legal_coded``), else Refusal(NOT_AVAILABLE); ``group_of``: an
        action's group as the controls are built (None: a button); ``kinds``: every group the
        UI ever draws (a select of another is not a list)."""
        head, _, rest = payload.partition(":")
        group: str | None = None
        if head == self.button and values is None:
            code = rest
        elif head == self.select and values is not None:
            group = rest.split(":", 1)[0]
            if len(values) != 1:
                raise Refusal(CHOOSE_ONE)
            code = values[0]
        else:
            raise Refusal(UNKNOWN_CONTROL)
        if group is not None and kinds and group not in kinds:
            raise Refusal(CHOOSE_ONE)
        if _INDEX.fullmatch(code):
            raise Refusal(OUTDATED)
        action = legal(code)
        if group_of(action) != group:
            raise Refusal(NOT_AVAILABLE)
        return action


LEGAL = Menu()  # a player's legal actions: buttons ``a:{code}``, selects ``s:{group}:{chunk}``


def page_of(payload: str) -> int | None:
    """The page a paging button asks for (``pg:{page}``), else None."""
    head, _, raw = payload.partition(":")
    if head != PAGE:
        return None
    page = number(raw)
    if page is None:
        raise Refusal(UNKNOWN_CONTROL)
    return page


def layout(session: Session, controls: Controls, page: int = 0,
           words: Words | None = None, extra: Sequence[Shown] = ()) -> tuple[Rows, str]:
    """A view with the control rows; more than five rows are split into pages of four plus a
    row with Previous / More buttons (in ``words``, English by default). ``extra`` (at most
    three buttons, such as the Hint button) is on every page: in a last row of its own, or
    beside the page buttons. Returns the view and the page note ("" when one page)."""
    words = words or words_for(Language.EN)
    rows = controls.rows()
    view = Rows()
    if len(rows) + (1 if extra else 0) <= MAX_ROWS:
        shown, note = rows, ""
        if extra:
            shown = [*rows, list(extra)]
    else:
        pages = (len(rows) + ROWS_PER_PAGE - 1) // ROWS_PER_PAGE
        page = max(0, min(page, pages - 1))
        shown = rows[page * ROWS_PER_PAGE : (page + 1) * ROWS_PER_PAGE]
        note = words.gettext("Controls page {page} of {pages}.", page=page + 1, pages=pages)
        shown = [*shown, [
            ActButton.payload(session.id, session.version, f"{PAGE}:{max(page - 1, 0)}",
                      label=f"◀ {words.text(PREVIOUS)}", disabled=page == 0),
            ActButton.payload(session.id, session.version, f"{PAGE}:{min(page + 1, pages - 1)}",
                      label=f"{words.text(MORE)} ▶", disabled=page >= pages - 1),
            *extra,
        ]]
    for row_number, items in enumerate(shown):
        for item in items:
            item.row = row_number
            view.add_item(item)
    return view, note


def with_buttons(items: Sequence[Shown], extra: Sequence[Shown]) -> list[Shown]:
    """``items`` (their rows set, as ``Controls.items`` sets them) and the buttons ``extra``
    in a row of their own after them, or in the last row of buttons with room for them.
    ValueError when no row has room (the controls' layout must leave it)."""
    if not extra:
        return list(items)
    widths: Counter[int] = Counter()
    for item in items:
        # A DynamicItem reads its row from the wrapped component's private field, which a
        # select does not keep: ask the component itself.
        row = getattr(item, "item", item).row or 0
        widths[row] += item.width
    used = max(widths, default=-1) + 1
    if used < MAX_ROWS:
        row = used
    else:
        free = [r for r in range(MAX_ROWS) if widths[r] + len(extra) <= MAX_BUTTONS_PER_ROW]
        if not free:
            raise ValueError("no row has room for the extra buttons")
        row = free[-1]
    for button in extra:
        button.row = row
    return [*items, *extra]
