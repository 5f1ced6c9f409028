"""Events as one line of words for the table log (TEN events hold public data only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.base import Event, PlayerId
from game.ten.cards import display
from game.ten.vocabulary import EventKind, Reward


def _cards(notes: list[str]) -> str:
    return " ".join(display(n) for n in notes) if notes else "no cards"


def _gains(gains: Mapping[str, int], names: Mapping[PlayerId, str]) -> str:
    parts = [f"{names.get(p, p)} +{g}" for p, g in gains.items() if g]
    return f" ({', '.join(parts)})" if parts else ""


def _paid(d: Mapping[str, Any]) -> str:
    parts = []
    if d.get("c"):
        parts.append(f"{d['c']} currency")
    if d.get("b"):
        parts.append(f"{d['b']} bust")
    if d.get("cards"):
        parts.append(_cards(list(d["cards"])))
    return " + ".join(parts) or "nothing"


def describe_event(event: Event, viewer: PlayerId | None, names: Mapping[PlayerId, str]) -> str:
    who = names.get(event.actor, event.actor) if event.actor else ""
    d = event.visible_to(viewer)
    kind = event.kind
    if kind == EventKind.TURN:
        return f"Turn {d['turn']}: {who} to play."
    if kind == EventKind.FLIP:
        if "total" in d:
            return (
                f"{who} flips {display(d['card'])}: total {d['total']}, "
                f"currency {d['currency']} ({d['left']} left)."
            )
        return f"{who} flips the wild {display(d['card'])} ({d['left']} left)."
    if kind == EventKind.BUST:
        base = (
            f"{who} busts ({d['bust']}) and takes a bust token; {_cards(d['to_market'])} to market"
        )
        return base + _gains(d["gains"], names) + "."
    if kind == EventKind.STOP:
        if d["take"] == Reward.NUMBERS:
            return f"{who} stops and takes {_cards(d['cards'])}" + _gains(d["gains"], names) + "."
        return (
            f"{who} stops and takes {d['currency']} currency; {_cards(d['cards'])} to market"
            + _gains(d["gains"], names)
            + "."
        )
    if kind == EventKind.AUCTION:
        return f"Auction for {display(d['card'])}."
    if kind == EventKind.BID:
        return f"{who} bids {d['amount']}."
    if kind == EventKind.PASS:
        return f"{who} passes."
    if kind == EventKind.WON:
        return f"{who} wins {display(d['card'])} for {d['price']}."
    if kind == EventKind.UNSOLD:
        return f"Nobody bids: {display(d['card'])} leaves the game."
    if kind == EventKind.PAID:
        return f"{who} pays {_paid(d)} for {display(d['card'])}."
    if kind == EventKind.CHOOSE:
        return f"{who} chooses {display(d['card'])} to buy."
    if kind == EventKind.BACK:
        return f"{who} chooses again."
    if kind == EventKind.BOUGHT:
        return f"{who} buys {display(d['card'])} with {_paid(d)}."
    if kind == EventKind.SKIP:
        return f"{who} buys nothing."
    if kind == EventKind.FINAL_BUY:
        return f"Final buy phase: {who}."
    if kind == EventKind.OVER:
        return "The game is over."
    return f"{kind} {d}".strip()
