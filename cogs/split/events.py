"""SPLIT's events as lines of words in the reader's language: the table log, the turn clock's
notices and a replay's steps (``cogs.game_ui.WordsEvents``).

The same facts as the engine's English ``describe`` (``game.split.view.describe_event``), drawn
from the event's data as ``viewer`` may see it: for ``None`` only the public part, so the card a
player drew is never named. The data may come back from the store (JSON: lists for tuples).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cogs.i18n.words import Words
from cogs.split.labels import level_word
from game.base import Event, PlayerId
from game.split.vocabulary import EventKind, Level, RoundEnd

Names = Mapping[PlayerId, str]


def _name(names: Names, player: Any) -> str:
    return "?" if player is None else names.get(str(player), str(player))


def _round_start(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    row = list(d.get("row") or [])
    return words.gettext(
        "Round {round}: {dealer} deals; {first} goes first. The discard row starts with {card}.",
        round=d["round"], dealer=_name(names, d["dealer"]), first=_name(names, d["first"]),
        card=row[0] if row else "—")


def _draw(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    if "card" in d:
        return words.ngettext("{name} drew {card}; {count} card left in the draw pile.",
                              "{name} drew {card}; {count} cards left in the draw pile.",
                              d["pile"], name=who, card=d["card"])
    return words.ngettext("{name} drew a card; {count} card left in the draw pile.",
                          "{name} drew a card; {count} cards left in the draw pile.",
                          d["pile"], name=who)


def _bonus_draw(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    if "card" in d:
        return words.ngettext(
            "{name} drew {card} (strong bonus); {count} card left in the draw pile.",
            "{name} drew {card} (strong bonus); {count} cards left in the draw pile.",
            d["pile"], name=who, card=d["card"])
    return words.ngettext(
        "{name} drew a card (strong bonus); {count} card left in the draw pile.",
        "{name} drew a card (strong bonus); {count} cards left in the draw pile.",
        d["pile"], name=who)


def _pick(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    along = list(d.get("taken") or [])[1:]
    if along:
        return words.ngettext(
            "{name} picked {card} from the discard row, taking {cards} along.",
            "{name} picked {card} from the discard row, taking {cards} along.",
            len(along), name=who, card=d["card"], cards=" ".join(along))
    return words.gettext("{name} picked {card} from the discard row.", name=who, card=d["card"])


def _match(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} laid the {level} match {halves}.", name=who,
                         level=level_word(words, d["level"]), halves=d["halves"])


def _upgrade(event: Event, d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    fields = {"name": who, "card": d["card"], "covered": d["covered"],
              "level": level_word(words, d["level"]), "halves": d["halves"]}
    if d["from_owner"] == event.actor:
        return words.gettext(
            "{name} upgraded their own match with {card}, covering {covered}: now the {level} "
            "match {halves}.", **fields)
    return words.gettext(
        "{name} upgraded {owner}'s match with {card}, covering {covered}: now the {level} match "
        "{halves}, owned by {name}.", owner=_name(names, d["from_owner"]), **fields)


def _mark(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name}'s perfect match: {target} marks a negative box.", name=who,
                         target=_name(names, d["target"]))


def _skip(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    if str(d.get("bonus")) == Level.STRONG:  # the only bonuses a player may skip
        return words.gettext("{name} skipped the strong bonus.", name=who)
    return words.gettext("{name} skipped the weak bonus.", name=who)


def _no_swap(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} has no matches to swap: the weak bonus is skipped.", name=who)


def _swap(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} swapped {gave} for {other}'s {got}.", name=who, gave=d["gave"],
                         other=_name(names, d["with"]), got=d["got"])


def _discard(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    if d["left"] == 0:
        return words.gettext("{name} discarded {card} and went out!", name=who, card=d["card"])
    return words.gettext("{name} discarded {card}.", name=who, card=d["card"])


def _laydown_start(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    waiting = [_name(names, p) for p in d.get("players") or []]
    return words.ngettext(
        "{name} went out on their first turn: {names} may lay down matches.",
        "{name} went out on their first turn: {names} may lay down matches.",
        len(waiting), name=who, names=", ".join(waiting))


def _done(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} is done laying down.", name=who)


def _score(p: Mapping[str, Any], names: Names, words: Words) -> str:
    gain = f"{int(p['gained']):+d}"
    return words.gettext("{name} {gain} (total {total})", name=_name(names, p["player"]),
                         gain=gain, total=p["score_after"])


def _round_end(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    scores = ", ".join(_score(p, names, words) for p in d.get("players") or [])
    if d.get("ended_by") == RoundEnd.OUT:
        return words.gettext("Round {round} is over: {name} went out. {scores}.",
                             round=d["round"], name=_name(names, d.get("out")), scores=scores)
    return words.gettext("Round {round} is over: the draw pile ran out. {scores}.",
                         round=d["round"], scores=scores)


def _game_over(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    scores = ", ".join(f"{_name(names, p)} {score}" for p, score in (d.get("scores") or {}).items())
    return words.gettext("Game over: {scores}.", scores=scores)


_Wording = Callable[[Mapping[str, Any], str, Names, Words], str]
_WORDINGS: dict[str, _Wording] = {
    EventKind.ROUND_START: _round_start,
    EventKind.DRAW: _draw,
    EventKind.BONUS_DRAW: _bonus_draw,
    EventKind.PICK: _pick,
    EventKind.MATCH: _match,
    EventKind.LAY: _match,
    EventKind.MARK: _mark,
    EventKind.SKIP: _skip,
    EventKind.NO_SWAP: _no_swap,
    EventKind.SWAP: _swap,
    EventKind.DISCARD: _discard,
    EventKind.LAYDOWN_START: _laydown_start,
    EventKind.DONE: _done,
    EventKind.ROUND_END: _round_end,
    EventKind.GAME_OVER: _game_over,
}


def event_line(event: Event, viewer: PlayerId | None, names: Names, words: Words) -> str:
    """``event`` in ``words``, as ``viewer`` may see it (``None``: its public part only)."""
    data = event.visible_to(viewer)
    who = _name(names, event.actor)
    if event.kind == EventKind.UPGRADE:
        return _upgrade(event, data, who, names, words)
    wording = _WORDINGS.get(event.kind)
    if wording is None:  # a kind this UI does not know (a newer engine): its name
        return event.kind
    return wording(data, who, names, words)
