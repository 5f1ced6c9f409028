"""Hidden-information checks over everything the stand-in showed, run after every interaction.

SPLIT (hands are private). Two identical halves share one face (``7♥``), so a text cannot say
which copy it names. A face is *secret* at a moment when a copy is in some hand and no public
source names it: the public view (discard row, match halves, covered halves, the picked card)
and the public data (``Event.visible_to(None)``) of the events still in the table log window.
A face in both a hand and a public source may be shown (the other copy, or the card publicly
picked). Then: no public text may contain a secret face, and a player's ephemeral text may
contain a secret face only if that player holds it. The oracle's events are recomputed by the
engine from the stored actions, so a drawn card (private event data) is never "public".

TEN (only the draw pile's order is hidden): no text anyone sees lists the next cards of the
pile in flip order. Both games: the game seed appears in no text.

Every text version is checked against the state it was drawn for: the checks run after each
interaction, once ``TablePlay`` has waited for the posts the bot makes after answering (table
edit, round summaries). A late turn ping names no card.
"""

from __future__ import annotations

import re
from typing import Any

from bot.playground.fakediscord import FakeDiscord
from bot.records.session import LOG_KEEP
from game.split.cards import FACE_NAMES
from game.ten import data as ten_data
from game.ten.cards import notation
from tests.e2e.players import Replica, TextCursor

_FACE = re.compile(r"(?<![0-9])(10|[2-9AJQK])([♠♥♦♣])")
_EMOJI_COLOUR = {emoji: letter for letter, emoji in ten_data.COLOUR_EMOJI.items()}
_TEN_CARD = re.compile(
    "(" + "|".join(map(re.escape, _EMOJI_COLOUR)) + r"|(?<![A-Za-z])[RBOGW])(\d|#)|\$(\d+)"
)
PILE_RUN = 3  # this many next pile cards in flip order, listed together, would be a leak


def split_faces_in(value: Any) -> set[str]:
    """Card faces named in a text (or in any string inside nested data)."""
    if isinstance(value, dict):
        return set().union(*(split_faces_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(split_faces_in(v) for v in value)) if value else set()
    if not isinstance(value, str):
        return set()
    return {rank + suit for rank, suit in _FACE.findall(value)}


def ten_cards_in(text: str) -> list[str]:
    """TEN card notations in a text, in order (``🟥5`` and ``R5`` both read as ``R5``)."""
    cards = []
    for colour, number, currency in _TEN_CARD.findall(text):
        if currency:
            cards.append(f"${currency}")
        else:
            cards.append(f"{_EMOJI_COLOUR.get(colour, colour)}{number}")
    return cards


class SeedCheck:
    def __init__(self, fd: FakeDiscord, replica: Replica) -> None:
        self.cursor = TextCursor(fd)
        self.replica = replica

    def __call__(self) -> None:
        seed = str(self.replica.seed)
        for message, text in self.cursor.new_texts():
            assert seed not in text, f"message {message.id} shows the game seed"


class SplitHandsCheck:
    def __init__(self, fd: FakeDiscord, replica: Replica) -> None:
        self.fd = fd
        self.cursor = TextCursor(fd)
        self.replica = replica
        self.public_checked = 0
        self.private_checked = 0

    def _secret(self) -> tuple[set[str], dict[str, set[str]]]:
        state = self.replica.state
        public = self.replica.engine.view(state, None)
        allowed = set(public.row)
        for match in public.matches:
            allowed |= {*match.halves, *match.covered}
        if public.picked:
            allowed.add(public.picked)
        for event in self.replica.events[-LOG_KEEP:]:
            allowed |= split_faces_in(event.visible_to(None))
        hands = {
            player: {FACE_NAMES[card >> 1] for card in state.hands[seat]}
            for seat, player in enumerate(state.players)
        }
        held = set().union(*hands.values())
        return held - allowed, hands

    def __call__(self) -> None:
        new = self.cursor.new_texts()
        if not new:
            return
        secret, hands = self._secret()
        for message, text in new:
            shown = split_faces_in(text) & secret
            if message.ephemeral_for is None:
                assert not shown, f"public message {message.id} shows hand cards {shown}:\n{text}"
                self.public_checked += 1
                continue
            own = hands.get(str(message.ephemeral_for), set())
            assert shown <= own, (
                f"an ephemeral message for {message.ephemeral_for} shows another player's hand"
                f" cards {shown - own}:\n{text}"
            )
            self.private_checked += 1


class TenPileCheck:
    def __init__(self, fd: FakeDiscord, replica: Replica) -> None:
        self.cursor = TextCursor(fd)
        self.replica = replica
        self.checked = 0

    def __call__(self) -> None:
        new = self.cursor.new_texts()
        pile = self.replica.state.pile  # the top card is the list's end
        if not new or len(pile) < PILE_RUN:
            return
        upcoming = [notation(card) for card in reversed(pile[-PILE_RUN:])]
        for message, text in new:
            cards = ten_cards_in(text)
            runs = [cards[i : i + PILE_RUN] for i in range(len(cards) - PILE_RUN + 1)]
            assert upcoming not in runs, (
                f"message {message.id} lists the next pile cards {upcoming} in order:\n{text}"
            )
            self.checked += 1
