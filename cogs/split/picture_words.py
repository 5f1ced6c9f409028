"""What SPLIT's pictures show, in words: their alt text (issue 41). The table's from the public
view (the round, who acts for what, the discard row, each player's count of cards and points),
a hand's from its player's view (the cards in the order the picture shows them)."""

from __future__ import annotations

from bot.records.session import Session
from cogs.i18n.common_words import CARDS
from cogs.i18n.words import Words
from cogs.rendering.phone_text import plain
from cogs.split.format import name_of, sheet_of
from cogs.split.table import status_lines
from game.split import SplitView


def row_sentence(view: SplitView, words: Words) -> str:
    if not view.row:
        return words.gettext("The discard row is empty.")
    return words.gettext("Discard row, oldest first: {cards}.", cards=", ".join(view.row))


def table_alt(session: Session, view: SplitView, words: Words) -> str:
    """The public table's picture: ``view`` is ``engine.view(state, None)``."""
    status = plain(" ".join(status_lines(view, session.names, words)))
    parts = [words.gettext("Picture of the SPLIT table, round {round} of {rounds}.",
                           round=view.round, rounds=view.rounds),
             status if status.endswith((".", ":", "!", "?")) else f"{status}.",
             row_sentence(view, words)]
    for player in view.players:
        parts.append(words.gettext(
            "{name}: {cards}, {points}.", name=name_of(session.names, player),
            cards=words.plural(CARDS, view.hand_counts[player]),
            points=words.ngettext("{count} pt", "{count} pts", sheet_of(view, player).total)))
    return " ".join(part for part in parts if part)


def hand_alt(view: SplitView, words: Words) -> str:
    """A player's hand picture: ``view`` is ``engine.view(state, player)``."""
    hand = view.hand or []
    if hand:
        cards = words.ngettext("Picture of your hand, {count} card in order: {cards}.",
                               "Picture of your hand, {count} cards in order: {cards}.",
                               len(hand), cards=", ".join(hand))
    else:
        cards = words.gettext("Picture of your hand: no cards.")
    parts = [cards, row_sentence(view, words)]
    if view.picked is not None:
        parts.append(words.gettext("The picked {card} must be used before the discard.",
                                   card=view.picked))
    return " ".join(parts)
