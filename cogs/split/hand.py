"""The SPLIT private view: a player's hand and the controls for their legal actions.

Every control comes from ``engine.legal_actions(state, viewer)`` through the controls toolkit
(``cogs.controls``): a control's payload names the action by its index in that list (``a:7``
for a button; a select ``s:{kind}:{chunk}`` whose option values are indexes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.errors import Refusal
from bot.models import Session, Status
from cogs.controls import LEGAL, UNKNOWN_CONTROL, Group, Look, layout
from cogs.game_ui import Render
from cogs.split.format import (
    COLOUR,
    STEP_WORDS,
    matches_line,
    name_of,
    row_chunks,
    sheet_of,
)
from game.split import RANKS, SUITS, ActionType, SplitAction, SplitEngine, SplitView

# Action types shown as buttons, with their style.
BUTTON_STYLES: dict[str, discord.ButtonStyle] = {
    "draw": discord.ButtonStyle.primary,
    "bonus_draw": discord.ButtonStyle.primary,
    "skip": discord.ButtonStyle.secondary,
    "done": discord.ButtonStyle.success,
    "target": discord.ButtonStyle.danger,
}
# Select kind -> (action type, placeholder). Order is the order shown.
SELECT_KINDS: dict[str, tuple[str, str]] = {
    "pick": ("pick", "Pick from the discard row (takes the newer cards too)"),
    "lay": ("lay", "Lay a match"),
    "match": ("match", "Make a match"),
    "up": ("upgrade", "Upgrade a match"),
    "swap": ("swap", "Swap matches (weak bonus)"),
    "disc": ("discard", "Discard a card (ends your turn)"),
}
GROUPS = tuple(Group(kind, placeholder) for kind, (_, placeholder) in SELECT_KINDS.items())
_KIND_OF_TYPE = {action_type: kind for kind, (action_type, _) in SELECT_KINDS.items()}

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


def _option_description(view: SplitView, action: SplitAction) -> str | None:
    # The discard select's placeholder says once that a discard ends the turn.
    if action.type == ActionType.PICK and action.pos is not None:
        return f"Row position {action.pos + 1} of {len(view.row)}"
    return None


def _face(card: str) -> int:
    """A card's place in rank, then suit order (A♠ A♥ A♦ A♣ 2♠ …), as hands are sorted."""
    return RANKS.index(card[:-1]) * len(SUITS) + SUITS.index(card[-1])


def option_order(action: SplitAction) -> tuple[int, ...]:
    """Where an action's option stands in its select: picks by row position, the others by
    their cards in rank and suit order (the hand's order)."""
    fields: dict[str, Any] = action.model_dump()
    kind = action.type
    if kind == ActionType.PICK:
        return (fields.get("pos") or 0,)
    if kind in (ActionType.MATCH, ActionType.LAY):
        return tuple(sorted((_face(fields["a"]), _face(fields["b"]))))
    if kind == ActionType.UPGRADE:
        return (_face(fields["card"]), _face(fields["replace"]), fields["match"])
    if kind == ActionType.DISCARD:
        return (_face(fields["card"]),)
    if kind == ActionType.SWAP:
        return (fields["mine"], fields["theirs"])
    return ()


def looks(
    engine: SplitEngine, session: Session, view: SplitView, actions: Sequence[SplitAction]
) -> list[Look | None]:
    """How each legal action is shown: a button, or an option of its kind's select."""
    names = session.names
    state = session.state
    shown: list[Look | None] = []
    for action in actions:
        label = engine.describe_action(state, action, names)
        group = _group_of(action)
        if group is None:
            shown.append(Look(label, style=BUTTON_STYLES[action.type]))
        else:
            shown.append(Look(label, group=group, description=_option_description(view, action)))
    return shown


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
    controls = LEGAL.controls(session, looks(engine, session, view, actions), GROUPS,
                              order=[option_order(action) for action in actions])
    discord_view, note = layout(session, controls, page)
    if note:
        embed.set_footer(text=note)
    return Render(embeds=[embed], view=discord_view)


def resolve(
    engine: SplitEngine, session: Session, viewer: str, payload: str, values: Sequence[str] | None
) -> SplitAction:
    """The legal action a game control stands for; Refusal when it stands for nothing now."""
    if not LEGAL.owns(payload):
        raise Refusal(UNKNOWN_CONTROL)
    actions = engine.legal_actions(session.state, viewer)
    groups = [_group_of(action) for action in actions]
    return actions[LEGAL.choice(payload, values, groups, SELECT_KINDS)]


def _group_of(action: SplitAction) -> str | None:
    return None if action.type in BUTTON_STYLES else _KIND_OF_TYPE[action.type]
