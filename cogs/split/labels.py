"""The labels of SPLIT's controls in the player's language: the same words as the engine's
``describe_action`` (English), drawn from the viewer's own state (their legal actions)."""

from __future__ import annotations

from collections.abc import Mapping

from cogs.i18n.common_words import DONE_LAYING_DOWN
from cogs.i18n.words import Words
from game.split import (
    FACE_OF,
    LEVEL_NAMES,
    BonusDraw,
    Discard,
    Done,
    Draw,
    LayMatch,
    MakeMatch,
    Pick,
    Skip,
    SplitAction,
    SplitState,
    Swap,
    Target,
    Upgrade,
    face_level,
    pair_name,
    parse_face,
)


def level_word(words: Words, level: str | None) -> str:
    """A match level's name (``perfect``, ``strong``, ``weak``; ``no match``)."""
    # Only the level's own word is looked up (not all four, issue 42).
    if level == "perfect":
        return words.pgettext("match level", "perfect")
    if level == "strong":
        return words.pgettext("match level", "strong")
    if level == "weak":
        return words.pgettext("match level", "weak")
    return words.pgettext("match level", "no match")


def _name(names: Mapping[str, str], player: str) -> str:
    return names.get(player, player)


def action_label(
    state: SplitState, action: SplitAction, names: Mapping[str, str], words: Words
) -> str:
    """A short button / menu label for an action the hand offers."""
    # The most offered first (a hand's discards, then its matches): one isinstance for most
    # actions, not up to ten (issue 42); the classes are disjoint, so the order says nothing.
    if isinstance(action, Discard):
        return words.gettext("Discard {card}", card=action.card)
    if isinstance(action, MakeMatch | LayMatch):
        level = LEVEL_NAMES.get(face_level(parse_face(action.a), parse_face(action.b)))
        return words.gettext("Match {first}+{second} ({level})", first=action.a,
                             second=action.b, level=level_word(words, level))
    if isinstance(action, Pick):
        count = len(state.row) - action.pos if action.pos is not None else 1
        if count > 1:
            return words.ngettext("Pick {card} (+{count} card)", "Pick {card} (+{count} cards)",
                                  count - 1, card=action.card)
        return words.gettext("Pick {card}", card=action.card)
    if isinstance(action, Upgrade):
        match = state.matches[action.match]
        halves = [FACE_OF[card] for card in match.halves]
        replaced = parse_face(action.replace)
        kept = halves[1] if halves[0] == replaced else halves[0]
        result = level_word(words, LEVEL_NAMES.get(face_level(parse_face(action.card), kept)))
        owner = state.players[match.owner]
        fields = {"card": action.card, "match": pair_name(match.halves),
                  "replaced": action.replace, "level": result}
        if owner == state.players[state.turn]:
            return words.gettext("{card} on {match} for {replaced}: {level}", **fields)
        return words.gettext("{card} on {match} for {replaced}: {level} (take from {name})",
                             name=_name(names, owner), **fields)
    if isinstance(action, Draw):
        return words.gettext("Draw a card")
    if isinstance(action, Swap):
        mine, theirs = state.matches[action.mine], state.matches[action.theirs]
        return words.gettext("Swap {mine} for {name}'s {theirs}", mine=pair_name(mine.halves),
                             name=_name(names, state.players[theirs.owner]),
                             theirs=pair_name(theirs.halves))
    if isinstance(action, Target):
        return words.gettext("Mark {name}", name=_name(names, action.player))
    if isinstance(action, BonusDraw):
        return words.gettext("Draw a bonus card")
    if isinstance(action, Skip):
        return words.gettext("Skip the bonus")
    assert isinstance(action, Done)
    return words.text(DONE_LAYING_DOWN)
