"""What TEN's pictures show, in words: their alt text (issue 41). A card is named by its
colour in words (the pictures show letters and numbers, the texts coloured squares: a screen
reader and a reader who cannot tell the colours apart both get the name). The table's alt
text from the public view (the turn, the draw pile, what the table waits for, each player's
points and collection), a player's view from their own (their collection in the picture's
order, their tokens)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.records.session import Session
from cogs.i18n.words import Words
from cogs.rendering.phone_text import plain
from cogs.ten import text
from cogs.ten.colour_words import COLOUR_WORDS
from game.ten import PlayerView, TenView


def card_words(note: str, words: Words) -> str:
    """``R5`` -> ``red 5``, ``B#`` -> ``blue #``, ``W7`` -> ``wild 7``; others as noted."""
    colour = COLOUR_WORDS.get(note[0])
    if colour is not None:
        return f"{words.text(colour)} {note[1:]}"
    if note[0] == "W":
        return words.gettext("wild {value}", value=note[1:])
    return note


def cards_words(notes: Sequence[str], words: Words) -> str:
    return ", ".join(card_words(note, words) for note in notes)


def collection_sentence(player: PlayerView, words: Words) -> str:
    if not player.collection:
        return words.gettext("no cards yet")
    return cards_words(player.collection, words)


def table_alt(session: Session, view: TenView, words: Words) -> str:
    """The public table's picture: ``view`` is ``engine.view(state, None)``."""
    parts = [words.gettext("Picture of the TEN table, turn {turn}, draw pile {count}.",
                           turn=view.turn, count=view.pile_size),
             plain(text.situation(view, session.names, words))]
    for player in view.players:
        parts.append(words.gettext(
            "{name}: {points}; collection: {cards}.",
            name=text.name(session.names, player.player, words),
            points=text.points(player.score, words), cards=collection_sentence(player, words)))
    return " ".join(part for part in parts if part)


def hand_alt(view: TenView, words: Words) -> str:
    """A player's own view as a picture: ``view`` is ``engine.view(state, player)``."""
    me = next((p for p in view.players if p.player == view.viewer), None)
    if me is None:
        return ""
    return " ".join([
        words.ngettext("Picture of your view: {count} card in your collection, in order:"
                       " {cards}.",
                       "Picture of your view: {count} cards in your collection, in order:"
                       " {cards}.", len(me.collection), cards=collection_sentence(me, words)),
        words.gettext("{points}; currency: {currency}; {bust}.",
                      points=text.points(me.score, words), currency=me.currency,
                      bust=words.ngettext("{count} bust token", "{count} bust tokens",
                                          me.bust_tokens)),
    ])
