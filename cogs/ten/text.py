"""TEN's words and card layouts for Discord, drawn from the engine's view models only.

Every function here formats; none decides a rule. Cards are shown with the engine's display
helper (``🟥5``, ``🟦#``, ``🌈7``, ``$3``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from game.base import PlayerId, PlayerResult
from game.ten import MarketCard, PlayerView, RunView, TenView, data, display

Names = Mapping[PlayerId, str]


def name(names: Names, player: PlayerId | None) -> str:
    if player is None:
        return "nobody"
    return names.get(player, player)


def cards_line(notes: Sequence[str]) -> str:
    return " ".join(display(note) for note in notes) if notes else "—"


def _run_token(colour: str, number: int, note: str) -> str:
    """One place of a run: the bare number for a number card, the wild and its place else."""
    if note == f"{colour}{number}":
        return str(number)
    if note == f"W{number}":
        return display(note)  # a number wild stands for its own number
    return f"{display(note) if note[0] == 'W' else '#'}→{number}"


def run_line(run: RunView) -> str | None:
    """``🟥 3 4 #→5 6 🌈7 (5)``, or None for a colour that scores nothing."""
    if not run.points:
        return None
    places = [
        _run_token(run.colour, number, note)
        for number, note in zip(range(run.start, run.end + 1), run.cards, strict=True)
    ]
    return f"{data.COLOUR_EMOJI[run.colour]} {' '.join(places)} ({run.points})"


def spare_cards(player: PlayerView) -> list[str]:
    """The collection cards outside every scoring run (display order)."""
    in_runs = Counter(note for run in player.runs for note in run.cards)
    spare: list[str] = []
    for note in player.collection:
        if in_runs[note]:
            in_runs[note] -= 1
        else:
            spare.append(note)
    return spare


def collection_lines(player: PlayerView) -> list[str]:
    lines = [line for run in player.runs if (line := run_line(run))]
    spare = spare_cards(player)
    if spare:
        lines.append(f"spare: {cards_line(spare)}")
    return lines or ["no cards yet"]


def tokens_line(player: PlayerView) -> str:
    return f"💰 {player.currency} currency · 💥 {player.bust_tokens} bust"


def player_field(view: TenView, player: PlayerView, names: Names) -> tuple[str, str]:
    # Whoever must act now: the bidder during an auction, not the player whose turn it is.
    marker = "▶ " if player.player == view.awaiting and view.phase != "over" else ""
    title = f"{marker}{name(names, player.player)} — {points(player.score)}"
    return title, "\n".join([tokens_line(player), *collection_lines(player)])


def _market_card(card: MarketCard) -> str:
    copies = f" ×{card.copies}" if card.copies > 1 else ""
    return f"{card.price}{copies}"


def market_lines(market: Mapping[str, Sequence[MarketCard]]) -> list[str]:
    return [
        f"{data.COLOUR_EMOJI[colour]} " + " · ".join(_market_card(card) for card in on_sale)
        for colour, on_sale in market.items()
        if on_sale
    ] or ["empty"]


def pile_line(view: TenView) -> str:
    if view.pile_size == 0:
        return "empty — the last card has been flipped"
    return f"{view.pile_size} cards · next flip busts: **{view.bust_chance:.0%}**"


def tableau_title(view: TenView) -> str:
    return f"Tableau — total {view.running_total} · currency {view.tableau_currency}"


def _then(names: Names, players: Sequence[PlayerId]) -> str:
    return ", ".join(name(names, p) for p in players)


def situation(view: TenView, names: Names) -> str:
    """One or two sentences: what the table waits for, in the rule order."""
    active = name(names, view.active)
    if view.phase == "draw":
        return f"**{active}** flips or stops (turn {view.turn})."
    if view.phase == "auction" and view.auction is not None:
        auction = view.auction
        high = (
            f"high bid **{auction.high_bid}** by {name(names, auction.high_bidder)}"
            if auction.high_bidder is not None
            else "no bid yet"
        )
        later = auction.still_to_bid[1:]
        order = f"; then {_then(names, later)}" if later else " (last to bid)"
        return (
            f"Auction for the wild **{display(auction.wild)}** — {high}.\n"
            f"**{name(names, auction.to_bid)}** to bid{order}."
        )
    if view.phase == "payment" and view.payment is not None:
        pay = view.payment
        payer = name(names, pay.payer)
        if pay.paying_for == "wild":
            return f"**{payer}** won {display(pay.card)} for {pay.price} and chooses how to pay."
        return f"**{payer}** buys {display(pay.card)} and chooses how to pay {pay.price}."
    if view.phase == "buy":
        return f"**{name(names, view.buyer)}** may buy one market card (or skip)."
    if view.phase == "final buys":
        later = view.final_buys_left
        rest = f"; then {_then(names, later)}" if later else " (the last one)"
        return f"Final buy phases: **{name(names, view.buyer)}** now{rest}."
    return "The game is over."


def points(score: int) -> str:
    return f"{score} pt" if score == 1 else f"{score} pts"


def result_title(result: PlayerResult, names: Names) -> str:
    return f"#{result.placement} {name(names, result.player)} — {points(result.score)}"


def _breakdown_run(colour: str, run: Mapping[str, Any]) -> str | None:
    if not run["points"]:
        return None
    return run_line(RunView(colour=colour, **run))


def result_lines(result: PlayerResult) -> list[str]:
    """Per colour: the run with each wild's place; the unused wilds; tokens and the tie-break."""
    breakdown = result.breakdown
    lines = [
        line
        for colour, run in breakdown["runs"].items()
        if (line := _breakdown_run(colour, run))
    ] or ["no scoring run"]
    for wild, place in breakdown["assignment"]:
        lines.append(f"{display(wild)} took the place of {display(place)}")
    if breakdown["unused_wilds"]:
        lines.append(f"unused wilds: {cards_line(breakdown['unused_wilds'])}")
    lines.append(
        f"💰 {breakdown['currency']} currency · {breakdown['collection_size']} cards · "
        f"💥 {breakdown['bust_tokens']} bust"
    )
    return lines


DECIDED_BY = {
    "score": "by points",
    "currency tokens": "tie on points broken by currency tokens",
    "fewest cards": "tie on points and currency broken by fewest cards",
    "shared": "shared place: equal points, currency and cards",
}


def winners_line(results: Sequence[PlayerResult], names: Names) -> str:
    top = [r for r in results if r.placement == 1]
    who = " and ".join(f"**{name(names, r.player)}**" for r in top)
    verb = "win" if len(top) > 1 else "wins"
    reason = DECIDED_BY.get(str(top[0].breakdown.get("decided_by")), "") if top else ""
    return f"🏆 {who} {verb} with {top[0].score} points ({reason})." if top else "No result."


def decided_line(result: PlayerResult) -> str:
    reason = DECIDED_BY.get(str(result.breakdown.get("decided_by")))
    return f"Place: {reason}" if reason else ""
