"""The SPLIT private view: a player's hand and the controls for their legal actions.

Every control comes from ``engine.legal_actions(state, viewer)``. A control's payload names
the action by its index in that list (``a:7`` for a button; a select ``s:{kind}:{chunk}``
whose option values are indexes). The click's version check guarantees the list is the same
one the control was drawn from, so an index resolves to exactly the action that was shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import errors
from bot.errors import Refusal
from bot.models import Session, Status
from cogs.components import act_button, act_select
from cogs.game_ui import Render
from cogs.split_format import (
    COLOUR,
    STEP_WORDS,
    matches_line,
    name_of,
    row_chunks,
    sheet_of,
)
from game.split import ActionType
from game.split.actions import SplitAction
from game.split.engine import SplitEngine
from game.split.view import SplitView

MAX_OPTIONS = 25
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_LABEL = 100
ROWS_PER_PAGE = MAX_ROWS - 1  # one row is kept for the page buttons

BUTTON_KINDS = ("draw", "bonus_draw", "skip", "done", "target")
# Select kind -> (action type, placeholder). Order is the order shown.
SELECT_KINDS: dict[str, tuple[str, str]] = {
    "pick": ("pick", "Pick from the discard row (takes the newer cards too)"),
    "lay": ("lay", "Lay a match"),
    "match": ("match", "Make a match"),
    "up": ("upgrade", "Upgrade a match"),
    "swap": ("swap", "Swap matches (weak bonus)"),
    "disc": ("discard", "Discard a card (ends your turn)"),
}
_BUTTON_STYLES: dict[str, discord.ButtonStyle] = {
    "draw": discord.ButtonStyle.primary,
    "bonus_draw": discord.ButtonStyle.primary,
    "skip": discord.ButtonStyle.secondary,
    "done": discord.ButtonStyle.success,
    "target": discord.ButtonStyle.danger,
}

PROMPTS: dict[str, str] = {
    "take": "Your turn: **draw** a card, or **pick** from the discard row — you take the picked"
            " card and every newer card, and must use the picked card before you discard.",
    "main": "Make matches or upgrades if you like, then **discard** one card to end your turn.",
    "bonus_perfect": "Perfect bonus: choose the player who marks a negative box.",
    "bonus_strong": "Strong bonus: draw the top card of the draw pile, or skip.",
    "bonus_weak": "Weak bonus: swap one of your matches for another player's match of the"
                  " same level, or skip.",
    "laydown": "Lay down any matches from your hand (no bonuses), then press **Done**.",
}


def _truncate(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class _Controls:
    buttons: list[discord.ui.Button[discord.ui.View]] = field(default_factory=list)
    selects: list[discord.ui.Select[discord.ui.View]] = field(default_factory=list)

    def rows(self) -> list[list[discord.ui.Item[discord.ui.View]]]:
        rows: list[list[discord.ui.Item[discord.ui.View]]] = [
            list(self.buttons[i : i + MAX_BUTTONS_PER_ROW])
            for i in range(0, len(self.buttons), MAX_BUTTONS_PER_ROW)
        ]
        rows.extend([select] for select in self.selects)
        return rows


def _option_description(view: SplitView, action: SplitAction) -> str | None:
    if action.type == ActionType.PICK and action.pos is not None:
        return f"Row position {action.pos + 1} of {len(view.row)}"
    if action.type == "discard":
        return "Ends your turn"
    return None


def build_controls(
    engine: SplitEngine, session: Session, view: SplitView, actions: Sequence[SplitAction]
) -> _Controls:
    names = session.names
    state = session.state
    controls = _Controls()
    grouped: dict[str, list[tuple[int, SplitAction]]] = {kind: [] for kind in SELECT_KINDS}
    type_to_kind = {action_type: kind for kind, (action_type, _) in SELECT_KINDS.items()}
    for index, action in enumerate(actions):
        if action.type in BUTTON_KINDS:
            controls.buttons.append(act_button(
                session, f"a:{index}",
                label=_truncate(engine.describe_action(state, action, names), 80),
                style=_BUTTON_STYLES[action.type],
            ))
        else:
            grouped[type_to_kind[action.type]].append((index, action))
    for kind, entries in grouped.items():
        chunks = [entries[i : i + MAX_OPTIONS] for i in range(0, len(entries), MAX_OPTIONS)]
        for number, chunk in enumerate(chunks):
            placeholder = SELECT_KINDS[kind][1]
            if len(chunks) > 1:
                placeholder = f"{placeholder} ({number + 1}/{len(chunks)})"
            options = [
                discord.SelectOption(
                    label=_truncate(engine.describe_action(state, action, names)),
                    value=str(index),
                    description=_option_description(view, action),
                )
                for index, action in chunk
            ]
            controls.selects.append(act_select(
                session, f"s:{kind}:{number}", options, placeholder=_truncate(placeholder, 150)
            ))
    return controls


def _layout(session: Session, controls: _Controls, page: int) -> tuple[discord.ui.View, str]:
    """Place the control rows; more than five rows are split into pages of four plus a row
    with Previous / More buttons."""
    rows = controls.rows()
    view = discord.ui.View(timeout=None)
    if len(rows) <= MAX_ROWS:
        shown, note = rows, ""
    else:
        pages = (len(rows) + ROWS_PER_PAGE - 1) // ROWS_PER_PAGE
        page = max(0, min(page, pages - 1))
        shown = rows[page * ROWS_PER_PAGE : (page + 1) * ROWS_PER_PAGE]
        note = f"Controls page {page + 1} of {pages}."
        nav = [
            act_button(session, f"pg:{max(page - 1, 0)}", label="◀ Previous",
                       disabled=page == 0),
            act_button(session, f"pg:{min(page + 1, pages - 1)}", label="More ▶",
                       disabled=page >= pages - 1),
        ]
        shown = [*shown, nav]  # type: ignore[list-item]
    for row_number, items in enumerate(shown):
        for item in items:
            item.row = row_number
            view.add_item(item)
    return view, note


def _waiting_text(view: SplitView, names: Mapping[str, str], viewer: str) -> str:
    if view.step == "game_over":
        return "The game is over."
    if view.step == "laydown":
        if viewer in view.laydown_waiting:
            return PROMPTS["laydown"]
        others = ", ".join(name_of(names, p) for p in view.laydown_waiting)
        return (f"No moves for you now: {others} may still lay down matches"
                " (you already had a turn this round).")
    turn = name_of(names, view.turn)
    return (f"No moves for you now: it is {turn}'s turn ({STEP_WORDS[view.step]})."
            " Your controls appear here when it is your turn.")


def private_render(
    engine: SplitEngine, session: Session, viewer: str, *, page: int = 0
) -> Render:
    view = engine.view(session.state, viewer)
    names = session.names
    hand = view.hand or []
    sheet = sheet_of(view, viewer)
    lines = [
        f"**Your hand ({len(hand)}):** {' '.join(hand) if hand else '—'}",
        f"**Your matches:** {matches_line(view, viewer)}",
        f"**Your sheet:** {sheet.total} points ({sheet.negatives} negative boxes)",
        f"**Discard row:** {'  '.join(row_chunks(view.row, per_line=len(view.row) or 1))}"
        if view.row else "**Discard row:** empty",
        "",
    ]
    actions = (
        engine.legal_actions(session.state, viewer)
        if session.status is Status.ACTIVE
        else []
    )
    if actions:
        lines.append(PROMPTS[view.step])
        if view.picked is not None and view.step == "main":
            lines.append(f"You picked **{view.picked}**: use it in a match or an upgrade"
                         " before you discard.")
    else:
        lines.append(_waiting_text(view, names, viewer))
    embed = discord.Embed(title=f"SPLIT — your hand · round {view.round}/{view.rounds}",
                          colour=COLOUR, description="\n".join(lines)[:4096])
    if not actions:
        return Render(embeds=[embed], view=None)
    layout, note = _layout(session, build_controls(engine, session, view, actions), page)
    if note:
        embed.set_footer(text=note)
    return Render(embeds=[embed], view=layout)


def resolve(
    engine: SplitEngine, session: Session, viewer: str, payload: str, values: Sequence[str]
) -> dict[str, Any]:
    """The action JSON a game control stands for; Refusal when it stands for nothing now."""
    if viewer not in engine.awaiting(session.state):
        raise Refusal(errors.NOT_YOUR_TURN)
    kind: str | None = None
    if payload.startswith("a:"):
        raw = payload[2:]
    elif payload.startswith("s:"):
        kind = payload.split(":")[1]
        if kind not in SELECT_KINDS or len(values) != 1:
            raise Refusal("Choose one option from the list.")
        raw = values[0]
    else:
        raise Refusal(UNKNOWN_CONTROL)
    actions = engine.legal_actions(session.state, viewer)
    if not raw.isdecimal() or int(raw) >= len(actions):
        raise Refusal(NOT_AVAILABLE)
    action = actions[int(raw)]
    expected = SELECT_KINDS[kind][0] if kind is not None else None
    if (expected is not None and action.type != expected) or (
        kind is None and action.type not in BUTTON_KINDS
    ):
        raise Refusal(NOT_AVAILABLE)
    return action.model_dump(mode="json")


UNKNOWN_CONTROL = "That button is not part of this game."
NOT_AVAILABLE = "That choice is not available now."
