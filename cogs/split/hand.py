"""The SPLIT private view: a player's hand and the controls for their legal actions.

Every control comes from ``engine.legal_actions(state, viewer)`` through the controls toolkit
(``cogs.kit.control_menus``): a control's payload names the action by its code (``a:draw`` for a
button; a select ``s:{kind}:{chunk}`` whose option values are codes, ``discard:7♥``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.records.errors import Refusal
from bot.records.session import Session, Status
from cogs.game_ui import Render, TurnItemsOf, no_items
from cogs.i18n.button_names import button_names
from cogs.i18n.messages import N_, Message
from cogs.i18n.words import Words
from cogs.kit.control_menus import LEGAL, UNKNOWN_CONTROL, Group, Look, layout
from cogs.kit.custom_ids import NOT_AVAILABLE
from cogs.kit.view_memo import ViewMemo
from cogs.split.format import (
    COLOUR,
    STEP_WORDS,
    matches_line,
    name_of,
    row_chunks,
    sheet_of,
)
from cogs.split.labels import action_label
from game.action_codes import action_code, legal_coded
from game.base import PlayerId
from game.split import (
    RANKS,
    SUITS,
    ActionType,
    SplitAction,
    SplitEngine,
    SplitView,
)

# Action types shown as buttons, with their style.
BUTTON_STYLES: dict[str, discord.ButtonStyle] = {
    "draw": discord.ButtonStyle.primary,
    "bonus_draw": discord.ButtonStyle.primary,
    "skip": discord.ButtonStyle.secondary,
    "done": discord.ButtonStyle.success,
    "target": discord.ButtonStyle.danger,
}
# Select kind -> (action type, placeholder). Order is the order shown.
SELECT_KINDS: dict[str, tuple[str, Message]] = {
    "pick": ("pick", N_("Pick from the discard row (takes the newer cards too)")),
    "lay": ("lay", N_("Lay a match")),
    "match": ("match", N_("Make a match")),
    "up": ("upgrade", N_("Upgrade a match")),
    "swap": ("swap", N_("Swap matches (weak bonus)")),
    "disc": ("discard", N_("Discard a card (ends your turn)")),
}
_KIND_OF_TYPE = {action_type: kind for kind, (action_type, _) in SELECT_KINDS.items()}

# The prompt above the controls, by step and by whether the step's optional choice is offered
# now (a pick, a match or upgrade, a swap, a match to lay down): a prompt names in bold what
# the player can do now, and only that (tests/behaviour checks it over the recorded games).
PROMPTS: dict[tuple[str, bool], Message] = {
    ("take", True): N_("Your turn: **draw** a card, or **pick** from the discard row — you take"
                       " the picked card and every newer card, and must use the picked card"
                       " before you discard."),
    ("take", False): N_("Your turn: **draw** a card (no card of the discard row can be used"
                        " now)."),
    ("main", True): N_("Make **matches or upgrades** if you like, then **discard** one card to"
                       " end your turn."),
    ("main", False): N_("**Discard** one card to end your turn (no match or upgrade is"
                        " possible)."),
    ("picked", True): N_("Use the picked card in **a match or an upgrade**; you can discard"
                         " after that."),
    ("bonus_perfect", True): N_("Perfect bonus: **choose the player** who marks a negative"
                                " box."),
    ("bonus_strong", True): N_("Strong bonus: **draw** the top card of the draw pile, or"
                               " **skip**."),
    ("bonus_weak", True): N_("Weak bonus: **swap** one of your matches for another player's"
                             " match of the same level, or **skip**."),
    ("bonus_weak", False): N_("Weak bonus: no swap is possible; **skip** it."),
    ("laydown", True): N_("**Lay down** any matches from your hand (no bonuses), then press"
                          " **{done_button}**."),
    ("laydown", False): N_("You have no match to lay down: press **{done_button}**."),
}
# Per step, the action types of its optional choice.
CHOICE_TYPES: dict[str, frozenset[str]] = {
    "take": frozenset({"pick"}),
    "main": frozenset({"match", "upgrade"}),
    "bonus_perfect": frozenset({"target"}),
    "bonus_strong": frozenset({"bonus_draw"}),
    "bonus_weak": frozenset({"swap"}),
    "laydown": frozenset({"lay"}),
}


def prompt(step: str, actions: Sequence[SplitAction], words: Words) -> str:
    """What the player can do now, from their legal actions."""
    if step == "main" and not any(action.type == "discard" for action in actions):
        return words.text(PROMPTS[("picked", True)])  # the picked card comes first
    offered = any(action.type in CHOICE_TYPES[step] for action in actions)
    return words.text(PROMPTS[(step, offered)], **button_names(words))


def groups(words: Words) -> tuple[Group, ...]:
    """The hand's selects, with their placeholders in ``words`` (made once per Words: a
    Group is frozen, issue 42)."""
    found = words.derived.get(groups)
    if found is None:
        found = words.derived[groups] = tuple([Group(kind, words.text(placeholder))
                                               for kind, (_, placeholder) in SELECT_KINDS.items()])
    return found  # type: ignore[return-value]


def _option_description(view: SplitView, action: SplitAction, words: Words) -> str | None:
    # The discard select's placeholder says once that a discard ends the turn.
    if action.type == ActionType.PICK and action.pos is not None:
        return words.gettext("Row position {position} of {count}", position=action.pos + 1,
                             count=len(view.row))
    return None


# A card's place in rank, then suit order (A♠ A♥ A♦ A♣ 2♠ …), as hands are sorted: looked up,
# not computed per option (issue 42).
_FACES: dict[str, int] = {rank + suit: rank_no * len(SUITS) + suit_no
                          for rank_no, rank in enumerate(RANKS)
                          for suit_no, suit in enumerate(SUITS)}


def _face(card: str) -> int:
    """A card's place in rank, then suit order (A♠ A♥ A♦ A♣ 2♠ …), as hands are sorted."""
    return _FACES[card]


def option_order(action: SplitAction) -> tuple[int, ...]:
    """Where an action's option stands in its select: picks by row position, the others by
    their cards in rank and suit order (the hand's order)."""
    # The action's fields read as they are (not ``model_dump``'s dict of them, issue 42);
    # mypy narrows no union by the ``type`` field: hence the ignores.
    kind = action.type
    if kind == ActionType.PICK:
        return (action.pos or 0,)  # type: ignore[union-attr]
    if kind in (ActionType.MATCH, ActionType.LAY):
        return tuple(sorted((_FACES[action.a], _FACES[action.b])))  # type: ignore[union-attr]
    if kind == ActionType.UPGRADE:
        return (_FACES[action.card], _FACES[action.replace],  # type: ignore[union-attr]
                action.match)  # type: ignore[union-attr]
    if kind == ActionType.DISCARD:
        return (_FACES[action.card],)  # type: ignore[union-attr]
    if kind == ActionType.SWAP:
        return (action.mine, action.theirs)  # type: ignore[union-attr]
    return ()


# The action types whose look (label, button or select, style) and option order say nothing
# of the state or the names: the engine hands out one shared instance of each such action
# (``game.split.rules``: the discards, matches, lay-downs, Draw, Skip...), so their looks are
# kept per Words by the action's identity (issue 42, sixth pass: a label is ~11 Python calls,
# and a hand offers the same discards and matches version after version).
_STATELESS = frozenset({ActionType.DISCARD, ActionType.MATCH, ActionType.LAY, ActionType.DRAW,
                        ActionType.BONUS_DRAW, ActionType.SKIP, ActionType.DONE})
_KEPT_LOOKS = object()  # the key of a Words' kept looks in ``words.derived``
KEPT_LOOKS = 1024  # per language: more than the distinct shared actions (52 discards, pairs...)


def looks(
    session: Session, view: SplitView, actions: Sequence[SplitAction], words: Words
) -> tuple[list[Look | None], list[tuple[int, ...]], list[str]]:
    """How each legal action is shown (a button, or an option of its kind's select), its
    place in its select (:func:`option_order`) and its code (``action_code``)."""
    names = session.names
    state = session.state
    kept: dict[int, tuple[SplitAction, Look, tuple[int, ...], str]] | None = \
        words.derived.get(_KEPT_LOOKS)  # type: ignore[assignment]
    if kept is None:
        kept = {}
        words.derived[_KEPT_LOOKS] = kept
    shown: list[Look | None] = []
    order: list[tuple[int, ...]] = []
    codes: list[str] = []
    for action in actions:
        found = kept.get(id(action))
        if found is not None and found[0] is action:
            shown.append(found[1])
            order.append(found[2])
            codes.append(found[3])
            continue
        label = action_label(state, action, names, words)
        group = _group_of(action)
        if group is None:
            look = Look(label, style=BUTTON_STYLES[action.type])
        else:
            look = Look(label, group=group, description=_option_description(view, action, words))
        place = option_order(action)
        code = action_code(action)
        if action.type in _STATELESS and len(kept) < KEPT_LOOKS:
            kept[id(action)] = (action, look, place, code)
        shown.append(look)
        order.append(place)
        codes.append(code)
    return shown, order, codes


def _waiting_text(view: SplitView, names: Mapping[str, str], viewer: str, words: Words) -> str:
    if view.step == "game_over":
        return words.gettext("The game is over.")
    if view.step == "laydown":
        if viewer in view.laydown_waiting:
            return words.text(PROMPTS[("laydown", True)], **button_names(words))
        others = ", ".join(name_of(names, p) for p in view.laydown_waiting)
        return words.gettext("No moves for you now: {names} may still lay down matches"
                             " (you already had a turn this round).", names=others)
    return words.gettext("No moves for you now: it is {name}'s turn ({step}). Your controls"
                         " appear here when it is your turn.", name=name_of(names, view.turn),
                         step=words.text(STEP_WORDS[view.step]))


def private_render(
    engine: SplitEngine, session: Session, viewer: str, words: Words, *, page: int = 0,
    extra: TurnItemsOf = no_items, views: ViewMemo | None = None,
) -> Render:
    """``viewer``'s hand and controls (``extra`` after them: the features' turn items);
    ``views``: the UI's views of the stored versions (``cogs.kit.view_memo``)."""
    view = views.of(session, viewer) if views is not None else engine.view(session.state, viewer)
    names = session.names
    hand = view.hand or []
    sheet = sheet_of(view, viewer)
    lines = [
        words.ngettext("**Your hand ({count}):** {cards}", "**Your hand ({count}):** {cards}",
                       len(hand), cards=" ".join(hand) if hand else "—"),
        words.gettext("**Your matches:** {matches}", matches=matches_line(view, viewer, words)),
        words.ngettext("**Your sheet:** {total} points ({count} negative box)",
                       "**Your sheet:** {total} points ({count} negative boxes)",
                       sheet.negatives, total=sheet.total),
        words.gettext("**Discard row:** {cards}",
                      cards="  ".join(row_chunks(view.row, per_line=len(view.row) or 1)))
        if view.row else words.gettext("**Discard row:** empty"),
        "",
    ]
    if session.status is not Status.ACTIVE:
        actions: Sequence[SplitAction] = []
    else:
        actions = engine.legal_actions(session.state, viewer)
    if actions:
        lines.append(prompt(view.step, actions, words))
        if view.picked is not None and view.step == "main":
            lines.append(words.gettext("The picked {card} must be used before the discard.",
                                       card=view.picked))
    else:
        lines.append(_waiting_text(view, names, viewer, words))
    embed = discord.Embed(
        title=words.gettext("SPLIT — your hand · round {round}/{rounds}", round=view.round,
                            rounds=view.rounds),
        colour=COLOUR, description="\n".join(lines)[:4096])
    if not actions:
        return Render(embeds=[embed], view=None)
    shown, order, codes = looks(session, view, actions, words)
    controls = LEGAL.controls(session, actions, shown, groups(words), order=order, codes=codes)
    discord_view, note = layout(session, controls, page, words, extra=extra())
    if note:
        embed.set_footer(text=note)
    return Render(embeds=[embed], view=discord_view)


def resolve(
    engine: SplitEngine, session: Session, viewer: PlayerId, payload: str,
    values: Sequence[str] | None,
) -> SplitAction:
    """The legal action a game control stands for (the engine reads its code and checks that
    one action, ``game.action_codes.legal_coded``); Refusal when it stands for nothing now."""
    if not LEGAL.owns(payload):
        raise Refusal(UNKNOWN_CONTROL)

    def legal(code: str) -> SplitAction:
        action = legal_coded(engine, session.state, viewer, code)
        if action is None:
            raise Refusal(NOT_AVAILABLE)
        return action

    return LEGAL.choice(payload, values, legal, _group_of, SELECT_KINDS)


def _group_of(action: SplitAction) -> str | None:
    return None if action.type in BUTTON_STYLES else _KIND_OF_TYPE[action.type]
